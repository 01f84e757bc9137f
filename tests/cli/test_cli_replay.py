"""``mobile-agent replay`` on the simulated phone: exit 0 with the replayed steps in report.html, exit 1
naming the divergence, exit 2 for a folder that is not a run."""

from __future__ import annotations

import pytest

from mobile_agent.agent.trajectory import read_summary
from mobile_agent.cli import main
from mobile_agent.device.sim import SimPhone
from tests.fakes.agent_harness import Script, make_agent, react
from tests.fakes.chatserver import LocalChatServer

PLAN = [react("Open App (Notes)"), react("Click Text (New note)"), react("Type (Buy milk)"),
        react("Click Icon (check, top right)"), react("Stop")]


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    run = tmp_path_factory.mktemp("rec") / "run"
    with LocalChatServer(Script(PLAN)) as server:
        assert make_agent(server, SimPhone(seed=0), settle_timeout_s=1.0).run("Note: buy milk", run).completed
    return run


def test_replay_exits_0_and_the_report_shows_the_replayed_steps(recording, tmp_path, capsys):
    code = main(["replay", str(recording), "--out", str(tmp_path / "out"), "--perception", "vision"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "replayed 5 step(s), planned 0; model calls saved: 6" in " ".join(out.split())
    assert read_summary(tmp_path / "out")["replay"]["replayed_steps"] == 5
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "replayed" in html


def test_a_divergence_without_a_model_exits_1_naming_the_step(recording, tmp_path, capsys):
    code = main(["replay", str(recording), "--out", str(tmp_path / "out"), "--perception", "vision",
                 "--param", "New note=Old paper"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 1
    assert ("replay diverged at step 3: recorded step 2's Click Text (Old paper) found nothing to act on on "
            "this screen") in out


def test_a_folder_that_is_not_a_run_exits_2(tmp_path, capsys):
    (tmp_path / "x.txt").write_text("x")
    assert main(["replay", str(tmp_path)]) == 2
    assert "is not a run folder: it has no steps.jsonl" in " ".join(capsys.readouterr().err.split())
    assert main(["replay", str(tmp_path), "--param", "nothing"]) == 2


def test_eval_cache_replays_the_second_pass(tmp_path, capsys):
    import json

    cache = tmp_path / "cache"
    outs = []
    for n in (1, 2):
        assert main(["eval", "--tasks", "settings-1", "--cache", str(cache), "--out", str(tmp_path / f"pass{n}")]) == 0
        outs.append(" ".join(capsys.readouterr().out.split()))
    assert "cache: 0 of 1 task(s) replayed from it; 1 kept" in outs[0]
    assert "cache: 1 of 1 task(s) replayed from it; 1 kept" in outs[1]
    rows = {}
    for n in (1, 2):
        (cid,) = [p for p in (tmp_path / f"pass{n}").iterdir() if p.is_dir()]
        rows[n] = json.loads((cid / "results.json").read_text(encoding="utf-8"))
        run = cid / "settings-1"
        rows[n] = (read_summary(run).get("replay"), run)
    assert rows[1][0] is None  # the first pass: nothing kept yet, the oracle plans
    assert rows[2][0]["replayed_steps"] == 4 and rows[2][0]["planned_steps"] == 0  # the second: replayed
    assert len([p for p in cache.iterdir() if p.is_dir()]) == 1
