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


def test_the_benchmark_report_compares_a_cached_pass_with_the_run_that_filled_the_cache(tmp_path, capsys):
    # a scripted model plans the first pass (four plans and the completion check: five calls); the
    # second pass replays the kept run: no call. The report's cache table says so, task by task
    # and in total, against the run that filled the cache.
    import json
    from html.parser import HTMLParser

    replies = tmp_path / "replies.txt"
    replies.write_text("\n---\n".join(
        [f"Observation: the screen.\nThought: go on.\nAction: {op}" for op in
         ("Open App (Settings)", "Click Text (Display)", "Click Text (Dark theme)", "Stop")]
        + ["Verdict: complete\nReason: the dark theme is on."]), encoding="utf-8")
    cache = tmp_path / "cache"
    printed = []
    for n in (1, 2):
        assert main(["eval", "--tasks", "settings-1", "--planner", "scripted", "--replies", str(replies),
                     "--cache", str(cache), "--out", str(tmp_path / f"pass{n}")]) == 0
        printed.append(" ".join(capsys.readouterr().out.split()))
    assert "against the runs that filled the cache" not in printed[0]
    assert ("cache: Over the 1 replayed, against the runs that filled the cache: model calls 0 / 5 (0.00), tokens 0 / "
            in printed[1]) and "4 of 4 steps replayed" in printed[1]

    class Cells(HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self.table, self.cell, self.ids = [], None, None, {}

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "table":
                self.table = a.get("id")
            elif tag == "tr" and self.table == "cache":
                self.rows.append([])
            elif tag in ("td", "th") and self.table == "cache":
                self.cell = ""
            if a.get("id"):
                self.ids[a["id"]] = ""
                self.last_id = a["id"]

        def handle_endtag(self, tag):
            if tag in ("td", "th") and self.cell is not None:
                self.rows[-1].append(" ".join(self.cell.split()))
                self.cell = None
            elif tag == "table":
                self.table = None

        def handle_data(self, data):
            if self.cell is not None:
                self.cell += data
            if getattr(self, "last_id", None):
                self.ids[self.last_id] += data

    pages = {}
    for n in (1, 2):
        p = Cells()
        p.feed((tmp_path / f"pass{n}" / "report.html").read_text(encoding="utf-8"))
        pages[n] = p
    head, first = pages[1].rows[0], pages[1].rows[1]
    assert head[:6] == ["task", "cache", "model calls", "tokens", "time", "replayed"]
    assert first[:2] == ["settings-1", "miss"] and first[2] == "5" and first[5] == "0 of 4"  # nothing to compare
    second = pages[2].rows[1]
    assert second[:3] == ["settings-1", "hit", "0 / 5"] and second[5] == "4 of 4" and second[6] == "kept"
    tokens_now, tokens_then = second[3].split(" / ")
    assert tokens_now == "0" and int(tokens_then.replace(",", "")) > 0
    total = pages[2].rows[-1]
    assert total[0] == "Replayed (1)" and total[2] == "0 / 5"
    assert "1 of 1 task(s) replayed from it" in pages[2].ids["cache-summary"]
    assert "model calls 0 / 5 (0.00)" in pages[2].ids["cache-summary"]
    # the figures are in the results too
    (cid,) = [p for p in (tmp_path / "pass2").iterdir() if p.is_dir()]
    row = json.loads((cid / "results.json").read_text(encoding="utf-8"))["tasks"][0]
    detail = row["detail"] if isinstance(row["detail"], dict) else json.loads(row["detail"])
    assert detail["cache"]["kept_run"]["calls"] == 5 and detail["cache"]["run"]["calls"] == 0
