"""SU, PS, RE and CR on hand-made trajectories, and on trajectories played on the phone by its tree
with deliberate detours."""

from __future__ import annotations

import pytest

from mobile_agent.agent.operations import Back, ClickText, OpenApp, PageDown, Stop, Type
from mobile_agent.bench.metrics import ProgressTracker, StepOutcome, compute, judge_steps
from mobile_agent.bench.suite import select
from mobile_agent.bench.task import RefStep
from mobile_agent.bench.treeplay import tree_act
from mobile_agent.device.uitree import TreeDriver


def dark():
    return select(ids=["settings-1"])[0]  # Open App, Display, Dark theme, Stop: 3 milestones, 4 human steps


def S(step, op, reached, success=False, carried=True):
    return StepOutcome(step, op, carried, reached, success)


def test_optimal_run():
    t = dark()
    m = compute(t, [S(1, OpenApp("Settings"), 1), S(2, ClickText("Display"), 2), S(3, ClickText("Dark theme"), 3, True),
                    S(4, Stop(), 3, True)], True)
    assert (m.su, m.ps, m.re, m.cr) == (1.0, 1.0, 1.0, 1.0)


def test_detour_and_recovery_are_not_correct_steps():
    t = dark()
    outcomes = [S(1, OpenApp("Settings"), 1), S(2, ClickText("Battery"), 1), S(3, Back(), 1),
                S(4, ClickText("Display"), 2), S(5, ClickText("Dark theme"), 3, True), S(6, Stop(), 3, True)]
    m = compute(t, outcomes, True)
    assert m.steps == 6 and m.correct_steps == 4
    assert m.ps == pytest.approx(4 / 6) and m.re == pytest.approx(4 / 6) and m.cr == 1.0 and m.su == 1.0
    assert [j.correct for j in m.judged] == [True, False, False, True, True, True]


def test_failure_counts_the_furthest_milestone_for_those_before():
    t = dark()
    # The agent skipped into Display through search (milestone 2 reached without 1 after its own step),
    # then wandered off: CR counts milestone 2 as the furthest, and 1 with it.
    m = compute(t, [S(1, OpenApp("Settings"), 1), S(2, ClickText("Display"), 2), S(3, Back(), 1),
                    S(4, Stop(), 1)], False)
    assert m.su == 0.0 and m.cr == pytest.approx(2 / 3) and m.furthest == 2
    assert m.correct_steps == 2 and m.ps == 0.5 and m.re == 1.0


def test_not_carried_out_and_premature_stop_are_wrong():
    t = dark()
    m = compute(t, [S(1, ClickText("Settings"), 0, carried=False), S(2, Stop(), 0)], False)
    assert m.correct_steps == 0 and m.ps == 0.0 and m.cr == 0.0 and m.re == 2.0


def test_listed_alternative_is_correct_without_progress():
    t = dark()
    alt = PageDown()
    t.plan[1] = RefStep(t.plan[1].op, t.plan[1].milestone, alternatives=(alt,))
    judged = judge_steps(t, [S(1, OpenApp("Settings"), 1), S(2, PageDown(), 1), S(3, PageDown(), 1)])
    assert [j.correct for j in judged] == [True, True, True]
    judged = judge_steps(t, [S(1, OpenApp("Settings"), 1), S(2, Type("x"), 1)])
    assert [j.correct for j in judged] == [True, False]


def test_no_steps():
    m = compute(dark(), [], False)
    assert (m.su, m.ps, m.re, m.cr, m.steps) == (0.0, 0.0, 0.0, 0.0, 0)


def test_tracked_on_the_phone_with_a_detour():
    """Played on the real simulated phone: a wrong page, Back, then the plan; the tracker's view."""
    t = dark()
    phone = t.make_phone()
    drv = TreeDriver(phone)
    tr = ProgressTracker(t, phone)
    steps = [t.plan[0], RefStep(ClickText("Battery")), RefStep(Back()), t.plan[1], t.plan[2], t.plan[3]]
    for i, s in enumerate(steps, start=1):
        tree_act(drv, s)
        tr.after_step(i, s.op, True)
    assert [o.reached for o in tr.outcomes] == [1, 1, 1, 2, 3, 3]
    m = tr.metrics()
    assert m.su == 1.0 and m.correct_steps == 4 and m.steps == 6


def test_success_undone_at_the_end_fails():
    """Dark theme turned on, then off again: SU 0, CR by the furthest milestone (all 3 of 3 reached
    once, yet not done at the end)."""
    t = dark()
    phone = t.make_phone()
    drv = TreeDriver(phone)
    tr = ProgressTracker(t, phone)
    for i, s in enumerate([t.plan[0], t.plan[1], t.plan[2], t.plan[2]], start=1):
        tree_act(drv, s)
        tr.after_step(i, s.op, True)
    m = tr.metrics()
    assert m.su == 0.0 and not phone.state.settings.dark_mode
    assert m.furthest == 3 and m.cr == 1.0 and m.correct_steps == 3


def test_tables_average_as_documented():
    from mobile_agent.bench.store import ResultRow
    from mobile_agent.bench.tables import app_table, summary_json, tier_table

    def row(key, app, tier, ok, ps, re, cr, steps):
        return ResultRow(key, key, 0, app, tier, "x", ok, ps, re, cr, steps, 4, 0, 0, 3, "completed",
                         prompt_tokens=10, completion_tokens=5)

    rows = [row("a-1", "A", 1, True, 1.0, 1.0, 1.0, 4), row("b-1", "B", 1, False, 0.5, 2.0, 0.5, 2),
            row("a-2", "A", 2, True, 0.8, 0.5, 1.0, 8)]
    t = {r.label: r for r in tier_table(rows)}
    assert t["Instruction 1"].su == 0.5 and t["Instruction 1"].ps == 0.75 and t["Instruction 1"].cr == 0.75
    assert t["Instruction 1"].re == 1.0  # over the successful run only
    assert t["Instruction 3"].runs == 0 and t["Instruction 3"].su is None
    assert t["All"].successes == 2 and t["All"].re == 0.75 and t["All"].tokens == 45
    apps = {r.label: r for r in app_table(rows)}
    assert apps["B"].re is None and apps["A"].su == 1.0 and list(apps) == ["A", "B"]
    data = summary_json(rows, {"planner": "oracle"})
    assert [r["label"] for r in data["paper_table"]] == ["Instruction 1", "Instruction 2", "Instruction 3", "All"]
    assert len(data["tasks"]) == 3 and data["config"] == {"planner": "oracle"}


def test_search_route_is_accepted_through_listed_alternatives():
    """Dark mode through the Settings search, on the phone: the search field and the typing are
    alternatives the task lists for "Click Text (Display)"; a Back that only hides the keyboard is not."""
    t = dark()
    phone = t.make_phone()
    drv = TreeDriver(phone)
    tr = ProgressTracker(t, phone)
    route = [t.plan[0], RefStep(ClickText("Search settings")), RefStep(Type("dark")), RefStep(Back()),
             RefStep(ClickText("Dark theme")), t.plan[2], t.plan[3]]
    for i, s in enumerate(route, start=1):
        tree_act(drv, s)
        tr.after_step(i, s.op, True)
    m = tr.metrics()
    assert m.su == 1.0
    assert [j.correct for j in m.judged] == [True, True, True, False, True, True, True]
    assert "alternative" in m.judged[1].why and "alternative" in m.judged[2].why
