"""Every Click Icon step of the Mobile-Eval reference plans grounds, by vision on the simulated
phone's screenshot, inside the node the step names, with the oracle's choice where perception asks
for one. The oracle's 33/33 goes through these steps; a change to the icon matcher that loses one of
them shows here, not only in a full ``mobile-agent eval``."""

from __future__ import annotations

import pytest

from mobile_agent.agent.operations import ClickIcon, Wait
from mobile_agent.bench.oracle import pick_candidate
from mobile_agent.bench.suite import select, suite_defs
from mobile_agent.bench.treeplay import _pick, tree_act
from mobile_agent.device.uitree import TreeDriver
from mobile_agent.perception import Perception

ICON_TASKS = [d.id for d in suite_defs() if any(isinstance(s.op, ClickIcon) for s in d.instance().plan)]


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception(incremental=False)


def test_the_suite_has_icon_steps():
    assert len(ICON_TASKS) >= 10


@pytest.mark.parametrize("task_id", ICON_TASKS)
def test_reference_icon_steps_ground_inside_their_node(perception, task_id):
    task = select(ids=[task_id])[0]
    phone = task.make_phone()
    driver = TreeDriver(phone)
    checked = 0
    for i, s in enumerate(task.plan, start=1):
        if isinstance(s.op, Wait):
            phone.screenshot()
        if isinstance(s.op, ClickIcon):
            asked: list[str] = []

            def choose(marked, cands, question, how=s.pick):
                asked.append(question)
                return pick_candidate(cands, how)

            g = perception.ground_icon(phone.screenshot(), s.op.description, s.op.position, choose=choose)
            target = _pick(driver.find_all(desc=s.icon_desc), s.pick)
            assert g.found and target.bounds.contains_point(g.point), (
                f"step {i} {s.op}: tapped {g.point} (asked: {bool(asked)}), the node {s.icon_desc!r} is at "
                f"{target.bounds}; candidates {[(c.point, c.score) for c in g.candidates]}")
            checked += 1
        tree_act(driver, s)
    assert checked
