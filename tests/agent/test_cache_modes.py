"""``run --cache-mode read-write | read-only | write-only``, a cache folder written by several
processes at once (one writer at a time, entries whole), and ``mobile-agent cache list | show |
remove`` (the localhost chat server, the simulated phone, real processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mobile_agent.agent.replay_cache import RunCache
from mobile_agent.agent.trajectory import read_summary
from mobile_agent.cli import main
from tests.fakes.agent_harness import Script, react
from tests.fakes.chatserver import LocalChatServer

ROOT = Path(__file__).resolve().parents[2]
PLAN = [react("Open App (Settings)"), react("Stop")]
LONGER = [react("Open App (Notes)"), react("Back"), react("Open App (Settings)"), react("Stop")]
INSTRUCTION = "Open the settings"
KIND = "sim-1080x2400"


def run(server, out, cache, *extra):
    return main(["run", INSTRUCTION, "--model", "openai:test-model", "--base-url", server.openai_base_url,
                 "--perception", "vision", "--max-steps", "6", "--out", str(out), "--cache", str(cache), *extra])


def tree(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.rglob("*"))}


@pytest.fixture()
def filled(tmp_path, monkeypatch):
    """A cache holding one kept run of INSTRUCTION (two steps), replayed once already (its lines kept)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    cache = tmp_path / "cache"
    with LocalChatServer(Script(PLAN)) as server:
        assert run(server, tmp_path / "first", cache) == 0
    with LocalChatServer(Script([])) as server:
        assert run(server, tmp_path / "second", cache) == 0
    return cache


def test_read_only_replays_and_writes_nothing(filled, tmp_path, capsys):
    before = tree(filled)
    with LocalChatServer(Script([])) as server:  # no plan on offer: the kept run must act
        assert run(server, tmp_path / "ro", filled, "--cache-mode", "read-only") == 0
    assert read_summary(tmp_path / "ro")["replay"]["replayed_steps"] == 2
    out = " ".join(capsys.readouterr().out.split())
    assert "read-only: the cache is not written" in out and "cache: not kept: --cache-mode read-only" in out
    assert tree(filled) == before


def test_write_only_plans_with_the_model_and_keeps_the_new_run(filled, tmp_path):
    with LocalChatServer(Script(LONGER)) as server:
        assert run(server, tmp_path / "wo", filled, "--cache-mode", "write-only") == 0
        assert len([r for r in server.requests if "Operations so far" in r.text]) == 4  # the model planned each step
    assert "replay" not in read_summary(tmp_path / "wo")
    (entry,) = RunCache(filled).entries()
    assert entry.kept_from == str(tmp_path / "wo") and len(entry.steps) == 4 and entry.last_replayed is None


def test_cache_mode_needs_a_cache_and_a_read_only_cache_must_exist_and_be_its_owners_alone(tmp_path, capsys,
                                                                                          monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with LocalChatServer(Script(PLAN)) as server:
        base = ["run", INSTRUCTION, "--model", "openai:test-model", "--base-url", server.openai_base_url]
        assert main([*base, "--cache-mode", "read-only"]) == 2
        assert main([*base, "--cache", str(tmp_path / "none"), "--cache-mode", "read-only"]) == 2
        shared = tmp_path / "shared"
        shared.mkdir()
        shared.chmod(0o777)
        assert main([*base, "--cache", str(shared), "--cache-mode", "read-only"]) == 2
        assert main([*base, "--cache", str(shared), "--cache-mode", "sometimes"]) == 2
        assert server.requests == []
    err = " ".join(capsys.readouterr().err.split())
    assert "--cache-mode says how --cache DIR is used: give --cache DIR too" in err
    assert f"--cache {tmp_path / 'none'} does not exist" in err and not (tmp_path / "none").exists()
    assert "can be written by users other than its owner (mode 0777)" in err
    assert "--cache-mode must be one of read-write, read-only, write-only, got 'sometimes'" in err


def test_cache_list_show_and_remove(filled, tmp_path, capsys):
    (entry,) = RunCache(filled).entries()
    capsys.readouterr()
    assert main(["cache", "list", "--cache", str(filled)]) == 0
    line = " ".join(capsys.readouterr().out.split())
    assert line.startswith(f"{entry.key} {KIND} 2 step(s) kept ")
    assert "(whole; 1 replay(s))" in line and line.endswith(INSTRUCTION)
    assert main(["cache", "list", "--cache", str(filled), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["instruction"] == INSTRUCTION and row["steps"] == ["Open App (Settings)", "Stop"]
    assert row["replays"] == 1 and row["diverged"] is False
    assert main(["cache", "show", entry.key[:6], "--cache", str(filled)]) == 0
    shown = capsys.readouterr().out
    assert "1. Open App (Settings)" in shown and f"from {tmp_path / 'first'}" in shown
    assert main(["cache", "show", "ffffffff", "--cache", str(filled)]) == 2
    assert "no kept run 'ffffffff'" in capsys.readouterr().err
    assert main(["cache", "remove", entry.key, "--cache", str(filled)]) == 0
    assert f"removed {entry.key}: {INSTRUCTION} on {KIND} (2 step(s))" in capsys.readouterr().out
    assert RunCache(filled).entries() == [] and not (filled / entry.key).exists()
    assert main(["cache", "list", "--cache", str(filled)]) == 0
    assert "no kept runs in" in capsys.readouterr().out


def test_a_replay_that_planned_a_step_is_noted_diverged_and_read_only_notes_nothing(filled, tmp_path):
    (entry,) = RunCache(filled).entries()
    summary = read_summary(tmp_path / "second")
    summary["replay"].update(planned_steps=1)
    RunCache(filled, "read-only").note_replay(entry.folder, summary)
    assert RunCache(filled).entries()[0].replays == 1
    RunCache(filled).note_replay(entry.folder, summary)
    (after,) = RunCache(filled).entries()
    assert (after.replays, after.diverged) == (2, True) and after.last_replayed >= entry.last_replayed


WRITER = """
import sys
from mobile_agent.agent.replay_cache import RunCache
cache, runs = sys.argv[1], sys.argv[2:]
store = RunCache(cache)
for i in range(6):
    for r in runs:
        why = store.keep(r, "Open the settings", "sim-1080x2400")
        assert why is None, why
"""


def test_two_processes_keeping_into_one_folder_leave_every_entry_whole(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    runs = []
    for name, plan in (("short", PLAN), ("long", LONGER)):
        with LocalChatServer(Script(plan)) as server:
            assert run(server, tmp_path / name, tmp_path / f"c-{name}") == 0
        runs.append(str(tmp_path / name))
    cache = tmp_path / "shared"
    RunCache(cache)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(cache), *order], env=env,
                                stderr=subprocess.PIPE, text=True) for order in (runs, runs[::-1])]
    seen = 0
    store = RunCache(cache)
    while any(w.poll() is None for w in writers):
        for e in store.entries():  # whenever an entry is there, it is one run whole
            want = 2 if e.kept_from.endswith("short") else 4
            assert len(e.steps) == want, (e.kept_from, e.steps)
            seen += 1
    for w in writers:
        assert w.wait(120) == 0, w.stderr.read()
    assert seen > 0
    assert sorted(p.name for p in cache.iterdir()) == sorted([store.entries()[0].key, ".writer.lock"])


def test_the_default_cache_is_the_users_cache_folder(tmp_path, monkeypatch, capsys):
    # by the XDG Base Directory convention (Linux): $XDG_CACHE_HOME/<program>/...; `cache` commands
    # without --cache and `run --cache default` use it
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    expected = tmp_path / "xdg" / "mobile-agent" / "runs"
    assert main(["cache", "list"]) == 0  # nothing kept yet: said, not an error
    assert f"no kept runs in {expected}" in " ".join(capsys.readouterr().out.split())
    with LocalChatServer(Script(PLAN)) as server:
        assert run(server, tmp_path / "first", "default") == 0
    (entry,) = RunCache(expected).entries()
    capsys.readouterr()
    assert main(["cache", "list"]) == 0
    assert " ".join(capsys.readouterr().out.split()).startswith(f"{entry.key} {KIND} 2 step(s) kept ")
    assert main(["cache", "show", entry.key[:6]]) == 0 and "1. Open App (Settings)" in capsys.readouterr().out
    assert main(["cache", "remove", entry.key]) == 0 and not (expected / entry.key).exists()
    assert not (tmp_path / "default").exists()


def test_a_kept_instructions_escape_sequences_are_printed_as_text(filled, capsys):
    # another user's kept run whose instruction holds a title-setting and a screen-clearing sequence
    (entry,) = RunCache(filled).entries()
    meta_file = entry.folder / "cache.json"
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    meta["instruction"] = "Open\x1b]0;owned\x07 the settings\x1b[2J\r"
    meta_file.write_text(json.dumps(meta), encoding="utf-8")
    capsys.readouterr()
    for argv in (["cache", "list", "--cache", str(filled)], ["cache", "show", entry.key, "--cache", str(filled)]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "\r" not in out, argv
        assert "Open\\x1b]0;owned\\x07 the settings\\x1b[2J\\r" in " ".join(out.split()), argv
    assert main(["cache", "remove", entry.key, "--cache", str(filled)]) == 0
    assert "\x1b" not in capsys.readouterr().out
