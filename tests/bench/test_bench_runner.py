"""The runner: results stored as each task ends, resume after a worker dies or a task raises, a
person judging instead of the phone's state (answers fed on a stream)."""

from __future__ import annotations

import io
import sqlite3

from mobile_agent.bench.human import HumanJudge
from mobile_agent.bench.runner import EvalConfig, run_eval
from mobile_agent.bench.store import ResultStore
from mobile_agent.bench.suite import select
from tests.fakes.faults import Faults

KEYS = ["settings-1", "settings-2", "settings-3"]


def stored(out, cid) -> set[str]:
    with sqlite3.connect(out / "results.sqlite") as db:
        return {r[0] for r in db.execute("SELECT task_key FROM results WHERE config_id = ?", (cid,))}


def test_worker_dies_then_resume_finishes(tmp_path):
    tasks = select(ids=KEYS)
    faults = Faults("exit", ("settings-2",))
    crashed = run_eval(EvalConfig(), faults.tasks(tasks), tmp_path, workers=2, task_source=faults)
    assert crashed.crashed and "--resume" in crashed.crashed
    before = stored(tmp_path, crashed.config_id)
    assert "settings-2" not in before
    # The rerun resumes the same configuration, in this process.
    seen = []
    again = run_eval(EvalConfig(), tasks, tmp_path, workers=1, resume=True,
                     on_result=lambda key, row, err: seen.append(key))
    assert again.config_id == crashed.config_id and again.complete
    assert sorted(again.skipped) == sorted(before)
    assert sorted(seen) == sorted(set(KEYS) - before)
    assert [r.task_key for r in again.rows] == KEYS
    assert all(r.success and r.ps == 1.0 and r.cr == 1.0 for r in again.rows)
    assert all((tmp_path / again.config_id / k / "steps.jsonl").exists() for k in KEYS)


def test_task_that_raises_is_not_stored_and_reruns(tmp_path):
    tasks = select(ids=KEYS[:2])
    faults = Faults("raise", ("settings-1",))
    first = run_eval(EvalConfig(), faults.tasks(tasks), tmp_path, task_source=faults)
    assert list(first.failed) == ["settings-1"] and "fault injected" in first.failed["settings-1"]
    assert stored(tmp_path, first.config_id) == {"settings-2"}
    seen = []
    again = run_eval(EvalConfig(), tasks, tmp_path, resume=True, on_result=lambda k, r, e: seen.append(k))
    assert seen == ["settings-1"] and again.skipped == ["settings-2"]
    assert {r.task_key: r.success for r in again.rows} == {"settings-1": True, "settings-2": True}
    # Without --resume the same configuration runs again and replaces its rows.
    third = run_eval(EvalConfig(), tasks[:1], tmp_path)
    assert third.skipped == [] and len(third.rows) == 1


def test_a_person_judges(tmp_path):
    tasks = select(ids=["settings-1"])
    # success? yes; steps 1-4: y, n, y, y; human steps: default (4); no CR question after a success
    answers = io.StringIO("y\ny\nn\ny\ny\n\n")
    out = io.StringIO()
    run = run_eval(EvalConfig(judge="human"), tasks, tmp_path, judge=HumanJudge(answers, out))
    row = run.rows[0]
    assert row.judge == "human" and row.success and row.steps == 4
    assert row.correct_steps == 3 and row.ps == 0.75 and row.re == 1.0 and row.cr == 1.0
    assert "Turn on the dark mode." in out.getvalue() and "step 2: Click Text (Display)" in out.getvalue()


def test_human_judge_failure_asks_how_much_was_done(tmp_path):
    # no steps.jsonl in the folder: no step questions; 3 steps counted as not correct
    judge = HumanJudge(io.StringIO("maybe\nn\n6\n40%\n"), io.StringIO())
    v = judge.judge(select(ids=["notes-1"])[0], tmp_path, 3)
    assert not v.success and v.human_steps == 6 and v.cr == 0.4 and v.re == 2.0 and v.ps == 0.0


def test_store_round_trip(tmp_path):
    from mobile_agent.bench.store import COLUMNS, ResultRow

    saved = ResultRow("a-1", "a-1", 0, "A", 1, "do", True, 0.5, 1.0, 1.0, 4, 4, 2, 3, 3, "completed",
                      prompt_tokens=7, cost_usd=0.25, duration_s=1.5, error="late", judge="human", detail={"x": [1]})
    # the fields (and results.json's keys) stand in the table's column order, the scores after the task
    assert list(saved.as_dict()) == list(COLUMNS[1:-1])
    assert (saved.instruction, saved.success, saved.ps, saved.milestones, saved.outcome) == ("do", True, 0.5, 3,
                                                                                              "completed")
    with ResultStore(tmp_path) as st:
        cid = st.register({"planner": "oracle"})
        st.save(cid, saved)
        assert st.done(cid) == {"a-1"}
        (row,) = st.rows(cid)
        assert row == saved and row.success is True
        assert st.done(st.register({"planner": "model"})) == set()


def test_oracle_gives_up_when_grounding_finds_nothing(tmp_path):
    from mobile_agent.agent.operations import ClickText
    from mobile_agent.bench.runner import run_task
    from mobile_agent.bench.task import Task, step, stop

    task = Task(id="made-1", apps=("Settings",), tier=1, instruction="Tap the zebra.", paper_instruction="",
                plan=[step(ClickText("Zebra crossing"), lambda p: p.in_app("Settings")), step(ClickText("Display"),
                      lambda p: p.shows("Dark theme")), stop()],
                success=lambda p: p.state.settings.dark_mode)
    row = run_task(EvalConfig(), task, tmp_path, "cfg")
    assert row.steps == 2 and not row.success and row.cr == 0.0 and row.ps == 0.0
    assert "could not be grounded" in row.detail["oracle_gave_up"]
    assert row.detail["first_wrong"].startswith("step 1 Click Text (Zebra crossing): not carried out; grounding none")
