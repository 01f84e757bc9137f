"""The run cache does not trust what it did not write (issue 42 item 5): a link planted in the cache
folder is never followed, a folder others can write is refused, and a replay says which kept run
acts, with its instruction, before it acts; a replayed risky act asks under --confirm as any other.
Real parts: the localhost chat server, the simulated phone, the CLI in-process."""

from __future__ import annotations

import json
import os

import pytest

from mobile_agent.agent.replay_cache import RunCache, cache_key
from mobile_agent.cli import main
from mobile_agent.device.sim import SimPhone
from mobile_agent.errors import ConfigError
from tests.fakes.agent_harness import Script, make_agent, react
from tests.fakes.chatserver import LocalChatServer

PLAN = [react("Open App (Notes)"), react("Click Text (New note)"), react("Type (Call the bank)"),
        react("Click Icon (check, top right)"), react("Stop")]
INSTRUCTION = "Write a note: call the bank"
KIND = "sim-1080x2400"


@pytest.fixture(scope="module")
def completed_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("cachefaults") / "run"
    with LocalChatServer(Script(PLAN)) as server:
        assert make_agent(server, SimPhone(seed=0), settle_timeout_s=1.0).run(INSTRUCTION, run).completed
    return run


def test_links_planted_in_the_cache_folder_are_not_followed(completed_run, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "summary.json").write_text('{"precious": true}', encoding="utf-8")
    key = cache_key(INSTRUCTION, KIND)
    for suffix in (".new", ".old"):
        (cache / (key + suffix)).symlink_to(elsewhere, target_is_directory=True)
    assert RunCache(cache).keep(completed_run, INSTRUCTION, KIND) is None
    assert sorted(p.name for p in elsewhere.iterdir()) == ["summary.json"]  # nothing written there
    assert json.loads((elsewhere / "summary.json").read_text(encoding="utf-8")) == {"precious": True}
    entry = cache / key
    assert entry.is_dir() and not entry.is_symlink() and (entry / "steps.jsonl").is_file()
    # an entry that is itself a link (to a run kept elsewhere) is not replayed, and keeping moves
    # the link away without following it
    entry2 = tmp_path / "cache2"
    entry2.mkdir(mode=0o700)
    (entry2 / key).symlink_to(entry, target_is_directory=True)
    store = RunCache(entry2)
    assert store.lookup(INSTRUCTION, KIND) is None
    assert store.keep(completed_run, INSTRUCTION, KIND) is None
    assert (entry2 / key).is_dir() and not (entry2 / key).is_symlink()
    assert (entry / "steps.jsonl").is_file()  # the linked folder is untouched


def test_a_cache_folder_others_can_write_is_refused(tmp_path, capsys):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    with pytest.raises(ConfigError, match="can be written by other users .*mode 0777.*chmod go-w"):
        RunCache(shared)
    code = main(["run", INSTRUCTION, "--model", "scripted:/nonexistent", "--cache", str(shared),
                 "--out", str(tmp_path / "o")])
    assert code == 2
    assert "can be written by other users" in " ".join(capsys.readouterr().err.split())
    fresh = RunCache(tmp_path / "new-cache").dir
    assert (fresh.stat().st_mode & 0o777) == 0o700  # made private


def test_a_near_same_instruction_says_which_kept_run_acts_and_its_risky_step_asks(tmp_path, monkeypatch, capsys):
    """Kept under "Check my inbox" (a run that deleted a mail), asked for "Check my inbox.": the
    replay names the kept run and its instruction before acting, and --confirm asks before its
    Delete (no terminal: declined, nothing deleted)."""
    plan = [react("Open App (Mail)"), react("Click Text (Lunch on Friday?)"), react("Click Icon (delete, top)"),
            react("Stop")]
    phones = []
    monkeypatch.setattr("mobile_agent.device.open_device",
                        lambda name, **kw: phones.append(SimPhone(seed=0)) or phones[-1])
    monkeypatch.setenv("MY_TEST_KEY", "k")
    cache = tmp_path / "cache"
    with LocalChatServer(Script(plan)) as server:
        def run(instruction, out, *extra):
            return main(["run", instruction, "--device", "sim", "--model", "gpt-4o-test", "--base-url",
                         server.openai_base_url, "--api-key-env", "MY_TEST_KEY", "--cache", str(cache),
                         "--perception", "vision", "--out", str(tmp_path / out), *extra])

        assert run("Check my inbox", "first") == 0
        first = len(server.requests)
        inbox = len(phones[0].state.mail.inbox)
        code = run("Check my inbox.", "second", "--confirm")
        second = len(server.requests) - first
    out = " ".join(capsys.readouterr().out.split())
    assert f'the run kept for "Check my inbox" from {tmp_path / "first"}' in out, out
    assert out.index("the run kept for") < out.index("declined")  # said before it acts
    assert code == 1 and second == 0
    assert len(phones[1].state.mail.inbox) == inbox + 1  # the replayed Delete was declined
    summary = json.loads((tmp_path / "second" / "summary.json").read_text(encoding="utf-8"))
    assert summary["outcome"] == "interrupted" and "declined" in summary["error"]
