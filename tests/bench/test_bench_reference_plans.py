"""Every task's reference plan, carried out with coordinates from the phone's ui tree, succeeds and
reaches its milestones one by one (and no milestone holds before its step)."""

from __future__ import annotations

import pytest

from mobile_agent.agent.operations import ClickIcon
from mobile_agent.bench.metrics import ProgressTracker, reached
from mobile_agent.bench.suite import select, suite_defs
from mobile_agent.bench.task import Probe
from mobile_agent.bench.treeplay import replay

DEFS = suite_defs()


def test_suite_has_three_tiers_per_app():
    by_app: dict[str, list[int]] = {}
    for d in DEFS:
        by_app.setdefault(d.app, []).append(d.tier)
    for app, tiers in by_app.items():
        assert len(set(tiers)) == len(tiers) and set(tiers) <= {1, 2, 3}, app
    assert len({d.id for d in DEFS}) == len(DEFS)
    if len(by_app) == 11:  # every app of the paper is on the phone: the whole suite
        assert len(DEFS) == 33 and all(sorted(t) == [1, 2, 3] for t in by_app.values())


@pytest.mark.parametrize("task_id", [d.id for d in DEFS])
def test_reference_plan_succeeds_by_the_tree(task_id):
    task = select(ids=[task_id])[0]
    phone = task.make_phone()
    assert reached(task, Probe(phone)) == 0, "a milestone holds before any step"
    assert not task.success(Probe(phone)), "the task is done before any step"
    metrics, progress = replay(task)
    n = len(task.milestones)
    assert progress[:n] == list(range(1, n + 1)), f"milestones reached out of order: {progress}"
    assert metrics.su == 1.0 and metrics.cr == 1.0 and metrics.ps == 1.0 and metrics.re == 1.0


@pytest.mark.parametrize("task_id", [d.id for d in DEFS])
def test_variant_plans_succeed_by_the_tree(task_id):
    task = select(ids=[f"{task_id}#2"])[0]
    metrics, _ = replay(task)
    assert metrics.su == 1.0, (task.key, task.params)


@pytest.mark.parametrize("task_id", [d.id for d in DEFS])
def test_no_variant_starts_done_or_past_a_milestone(task_id):
    """A variant's parameters never describe what the phone already holds (the seeded phone has a
    "Book ideas" note, so the title "Ideas" once met the Save milestone at the first step)."""
    for task in select(ids=[task_id], variants=31):
        phone = task.make_phone()
        assert reached(task, Probe(phone)) == 0, (task.key, task.params)
        assert not task.success(Probe(phone)), (task.key, task.params)


def test_click_icon_steps_name_their_node():
    for d in DEFS:
        for s in d.instance().plan:
            if isinstance(s.op, ClickIcon):
                assert s.icon_desc, (d.id, str(s.op))


def _probe(task):
    phone = task.make_phone()
    return phone, Probe(phone)


def test_success_checks_refuse_near_misses():
    import datetime as dt

    from mobile_agent.device.sim.apps import clips
    from mobile_agent.device.sim.state import Email, Note

    t = select(ids=["mail-1"])[0]
    phone, p = _probe(t)
    addr = t.params["address"]
    phone.state.mail.sent.append(Email("me@example.com", ["someone@example.com"], "", "", "2024-01-01T10:00"))
    phone.state.mail.sent.append(Email("me@example.com", [addr], "Hello", "", "2024-01-01T10:00"))
    assert not t.success(p)
    phone.state.mail.sent.append(Email("me@example.com", [addr.upper()], "", "", "2024-01-01T10:01"))
    assert t.success(p)

    t = select(ids=["multi-2"])[0]
    phone, p = _probe(t)
    phone.state.notes.notes.append(Note("Weather", "The next 5 days look mild.", "2024-01-01T10:00"))
    p.visits.append(("Weather", "TodayScreen"))
    assert not t.success(p)
    days = phone.state.weather.forecast
    phone.state.notes.notes.append(Note("", f"Highs {days[0].high} and {days[1].low} C", "2024-01-01T10:01"))
    assert t.success(p)
    p.visits.clear()
    assert not t.success(p)  # Weather was never opened

    t = select(ids=["clips-1"])[0]
    phone, p = _probe(t)
    phone.state.clips.liked.append(next(c.id for c in clips.CLIPS if not c.cat))
    assert not t.success(p)
    phone.state.clips.liked.append(clips.CAT_CLIP_IDS[0])
    assert t.success(p)

    t = select(ids=["store-1"])[0]
    phone, p = _probe(t)
    phone.state.store.installing["Instagram"] = 12
    assert not t.success(p)

    t = select(ids=["multi-1"])[0]
    phone, p = _probe(t)
    p.visits.append(("Calendar", "MonthScreen"))
    wrong = phone.state.today + dt.timedelta(days=1)
    phone.state.notes.notes.append(Note("", f"Today is {wrong.strftime('%B')} {wrong.day}", "2024-01-01T10:00"))
    assert not t.success(p)
    phone.state.notes.notes.append(Note("", f"today is {phone.state.today.isoformat()}", "2024-01-01T10:01"))
    assert t.success(p)
