"""Corrupt records are refused with a message, never a traceback (issue 51, item 7): a JSON value
nested a hundred thousand deep (Python's decoder raises ``RecursionError`` on it) in a run's
``summary.json`` / ``steps.jsonl`` or a kept run's ``cache.json``; values of the wrong type in
``cache.json`` and ``replays.json``; ``cache remove`` on a cache that cannot be written.
Real parts: a run of the simulated phone driven through the localhost chat server, kept in a real
cache, and the CLI in-process."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess

import pytest

from mobile_agent.agent.replay_cache import RunCache
from mobile_agent.cli import main
from mobile_agent.device.sim import SimPhone
from tests.fakes.agent_harness import Script, make_agent, react
from tests.fakes.chatserver import LocalChatServer

INSTRUCTION = "Open notes"
KIND = "sim-1080x2400"
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    root = tmp_path_factory.mktemp("records")
    run = root / "run"
    with LocalChatServer(Script([react("Open App (Notes)"), react("Stop")])) as server:
        assert make_agent(server, SimPhone(seed=0), settle_timeout_s=1.0).run(INSTRUCTION, run).completed
    cache = root / "cache"
    cache.mkdir(mode=0o700)
    entry = RunCache(cache).keep(run, INSTRUCTION, KIND)
    assert entry is None or entry  # keep returns nothing to check; the folder below is what counts
    (key,) = [p.name for p in cache.iterdir() if p.is_dir()]
    return run, cache, key


def _copy(kept, tmp_path):
    run, cache, key = kept
    shutil.copytree(run, tmp_path / "run")
    shutil.copytree(cache, tmp_path / "cache")
    (tmp_path / "cache").chmod(0o700)
    return tmp_path / "run", tmp_path / "cache", key


def _cli(capsys, *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    text = " ".join((out.out + out.err).split())
    assert "Traceback" not in text and "RecursionError" not in text, text
    return rc, text


@pytest.mark.parametrize("name", ["summary.json", "steps.jsonl"])
def test_a_run_nested_too_deeply_is_refused_by_replay_and_reported_with_a_gap(kept, tmp_path, capsys, name):
    run, _, _ = _copy(kept, tmp_path)
    (run / name).write_text(DEEP if name == "summary.json" else '{"step": 1, "x": ' + DEEP + "}\n", encoding="utf-8")
    rc, text = _cli(capsys, "replay", str(run), "--device", "sim", "--out", str(tmp_path / "again"))
    assert rc == 2 and "nested too deeply to be a record" in text and name in text, text
    rc, text = _cli(capsys, "report", str(run), "--out", str(tmp_path / "r.html"))
    assert rc == 0 and (tmp_path / "r.html").is_file(), text
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert ("not valid JSON" in html) if name == "summary.json" else ("not JSON" in html), name


def test_a_kept_run_nested_too_deeply_is_left_out_and_its_run_is_not_replayed(kept, tmp_path, capsys):
    _, cache, key = _copy(kept, tmp_path)
    (cache / key / "cache.json").write_text(DEEP, encoding="utf-8")
    rc, text = _cli(capsys, "cache", "list", "--cache", str(cache))
    assert rc == 0 and key not in text, text
    rc, text = _cli(capsys, "cache", "show", key, "--cache", str(cache))
    assert rc == 2 and f"no kept run '{key}'" in text, text
    assert RunCache(cache, "read-only").lookup(INSTRUCTION, KIND) is None
    (cache / key / "cache.json").write_text('{"instruction": "Open notes", "device_kind": "sim-1080x2400"}',
                                            encoding="utf-8")
    (cache / key / "summary.json").write_text(DEEP, encoding="utf-8")
    assert RunCache(cache, "read-only").lookup(INSTRUCTION, KIND) is None  # a warning, then the model plans


@pytest.mark.parametrize("meta,replays", [
    ('{"instruction": "Open notes", "device_kind": "sim-1080x2400", "params": 5, "secrets": "pw"}', None),
    ('{"instruction": "Open notes", "device_kind": "sim-1080x2400", "params": {"a": 1}}', '{"replays": "many"}'),
    (None, '{"last_replayed": "x", "diverged": 3, "replays": 1e400}'),
    (None, '{"replays": [1], "last_replayed": NaN}'),
])
def test_wrong_types_in_a_kept_runs_files_are_read_as_absent(kept, tmp_path, capsys, meta, replays):
    _, cache, key = _copy(kept, tmp_path)
    if meta is not None:
        (cache / key / "cache.json").write_text(meta, encoding="utf-8")
    if replays is not None:
        (cache / key / "replays.json").write_text(replays, encoding="utf-8")
    rc, text = _cli(capsys, "cache", "list", "--cache", str(cache))
    assert rc == 0 and key in text and "replayed never" in text, text
    rc, text = _cli(capsys, "cache", "show", key[:6], "--cache", str(cache))
    assert rc == 0 and "Open App (Notes)" in text and "values" not in text, text
    store = RunCache(cache)
    rec = store.lookup(INSTRUCTION, KIND)
    assert rec is not None
    store.note_replay(rec.folder, {"completed": True})  # counts again from a count it can read: none
    (entry,) = store.entries()
    assert entry.replays == 1


def test_cache_remove_on_a_cache_that_cannot_be_written_says_so_and_keeps_the_run(kept, tmp_path, capsys):
    _, cache, key = kept
    with _read_only_copy(cache, tmp_path / "ro") as ro:
        rc, text = _cli(capsys, "cache", "remove", key, "--cache", str(ro))
        assert rc == 1 and "cannot create .writer.lock" in text and "make the folder writable" in text, text
        assert (ro / key / "steps.jsonl").is_file()


@contextlib.contextmanager
def _read_only_copy(cache, where):
    """``cache`` copied into a folder that cannot be written: a tmpfs remounted read-only as root, a
    folder without write permission otherwise."""
    where.mkdir()
    if os.geteuid() != 0:
        shutil.copytree(cache, where / "cache")
        (where / "cache").chmod(0o500)
        try:
            yield where / "cache"
        finally:
            (where / "cache").chmod(0o700)
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(where)], capture_output=True).returncode:
        pytest.skip("root writes through permissions and no tmpfs could be mounted to make a read-only cache")
    try:
        shutil.copytree(cache, where / "cache")
        (where / "cache").chmod(0o700)
        subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True, capture_output=True)
        yield where / "cache"
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_run_on_a_cache_that_cannot_be_written_says_nothing_was_kept_and_stands(kept, tmp_path, capsys):
    # issue 51, low: "kept in" was said of a cache nothing could be written to (or the run ended on
    # the writer lock's error): the run's own end stands, and the cache says it kept nothing
    replies = tmp_path / "replies.txt"
    replies.write_text("Observation: home\nThought: open\nAction: Open App (Notes)\n---\nObservation: notes\n"
                       "Thought: done\nAction: Stop\n---\nVerdict: complete\nReason: ok\n", encoding="utf-8")
    _, cache, _ = kept
    with _read_only_copy(cache, tmp_path / "ro") as ro:
        rc, text = _cli(capsys, "run", INSTRUCTION, "--model", f"scripted:{replies}", "--cache", str(ro),
                        "--out", str(tmp_path / "run"))
    assert rc == 0 and "cache: not kept:" in text and "kept in" not in text, text
    assert "make the folder writable" in text
