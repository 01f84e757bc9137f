"""The benchmark's verdict and why, on the trajectory page and the benchmark page: a task the agent
called completed and the benchmark judged failed shows no green "completed", no RE, and the stored
explanation of its first wrong step."""

from __future__ import annotations

import json
import re

from mobile_agent.cli import main
from tests.fakes.chatserver import LocalChatServer


def react(action: str) -> str:
    return f"Observation: a phone screen.\nThought: next.\nAction: {action}"


def test_a_failed_task_that_claims_completion_shows_the_verdict(tmp_path, monkeypatch):
    monkeypatch.setenv("VERDICT_TEST_KEY", "k")
    plans = [react("Open App (Settings)"), react("Click Text (Battery)"), react("Stop")]

    def reply(req):
        if "Verdict: complete | incomplete" in req.last_user_text:
            return "Verdict: complete\nReason: looks done."
        return plans.pop(0)

    out = tmp_path / "out"
    with LocalChatServer(reply) as server:
        code = main(["eval", "--planner", "model", "--model", "openai:m", "--base-url", server.openai_base_url,
                     "--api-key-env", "VERDICT_TEST_KEY", "--tasks", "settings-1", "--out", str(out),
                     "--json", str(tmp_path / "r.json")])
    assert code == 0
    (task,) = json.loads((tmp_path / "r.json").read_text())["tasks"]
    assert task["outcome"] == "completed" and not task["success"]
    first_wrong = task["detail"]["first_wrong"]
    assert first_wrong.startswith("step 2")

    verdict = json.loads(next(out.glob("*/settings-1/benchmark.json")).read_text())
    assert verdict["success"] is False and verdict["re"] is None and verdict["why"] == first_wrong

    page = next(out.glob("*/settings-1/report.html")).read_text(encoding="utf-8")
    outcome = re.search(r'<span class="badge big (\w+)" id="outcome"[^>]*>([^<]*)<', page)
    assert outcome and outcome.group(2) == "completed" and outcome.group(1) != "ok"
    assert re.search(r'id="verdict">benchmark: failed<', page)
    assert "completed</span> <span class=\"badge ok\">completed" not in page
    assert first_wrong.split(":")[0] in page and "Why the benchmark judged it failed" in page

    bench = (out / "report.html").read_text(encoding="utf-8")
    row = re.search(r'<tr class="fail" data-task="settings-1">(.*?)</tr>', bench, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    head = re.search(r'<table class="metrics" id="tasks"><thead><tr>(.*?)</tr>', bench, re.S).group(1)
    columns = re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)
    assert cells[columns.index("RE")] == "–"  # RE: successful runs only
    assert "first wrong: step 2" in cells[-1]
    assert "Task time (sum of tasks)" in bench and "Wall time (last eval)" in bench
