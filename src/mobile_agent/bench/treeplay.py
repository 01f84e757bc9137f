"""Replaying a reference plan with coordinates taken from the phone's ui tree (ground truth).

This checks the tasks themselves (every reference plan must succeed and reach its milestones in
order), independently of perception.
"""

from __future__ import annotations

from mobile_agent.agent.operations import USER_OPERATIONS, AskUser, Geometry, Operation, Wait
from mobile_agent.agent.user import UserRequest
from mobile_agent.bench.metrics import Metrics, ProgressTracker
from mobile_agent.bench.task import RefStep, Task, norm
from mobile_agent.device.uitree import TreeDriver, UINode


def _pick(nodes: list[UINode], how: str) -> UINode:
    if how == "top":
        return min(nodes, key=lambda n: n.bounds.y1)
    if how == "bottom":
        return max(nodes, key=lambda n: n.bounds.y1)
    if how == "left":
        return min(nodes, key=lambda n: n.bounds.x1)
    if how == "right":
        return max(nodes, key=lambda n: n.bounds.x1)
    return nodes[0]


def tree_act(driver: TreeDriver, step: RefStep, user=None) -> None:
    """Carry out one reference step by the tree. Raises ``LookupError`` when its node is not on
    screen. A grounded operation becomes its gesture at the centre of its node; the others become
    their own gesture, as in the agent's loop; Ask User and Take Over go to ``user`` (the
    simulated user)."""
    op: Operation = step.op
    if isinstance(op, USER_OPERATIONS):
        if user is None:
            raise LookupError(f"{op}: no one to ask")
        user(UserRequest("question" if isinstance(op, AskUser) else "take_over", op.words(), 0))
        return
    if op.grounds is None:
        w, h = driver.device.size()
        op.gesture(Geometry(w, h, swipe_ms=300)).perform(driver.device)
        return
    if op.grounds == "icon" or (op.grounds == "target" and step.icon_desc):
        nodes = driver.find_all(desc=step.icon_desc)
        if not nodes:
            raise LookupError(f"{op}: no node with content-desc {step.icon_desc!r}; visible: {driver.visible_labels()}")
    else:
        label = step.node_text or op.words()
        nodes = driver.find_all(text=label) or driver.find_all(desc=label)
        if not nodes:  # a wrapped text (lines joined by a newline in the tree), or its start
            texts = [n for n in driver.find_all() if n.text]
            nodes = [n for n in texts if norm(n.text) == norm(label)] or \
                [n for n in texts if norm(n.text).startswith(norm(label))]
        if not nodes:
            raise LookupError(f"{op}: no node with the text {label!r}; visible: {driver.visible_labels()}")
    c = _pick(nodes, step.pick).bounds.center
    op.at(c.x, c.y).perform(driver.device)


def replay(task: Task) -> tuple[Metrics, list[int]]:
    """Run ``task``'s reference plan by the tree on a fresh phone; return the metrics and the
    milestone reached after each step."""
    from mobile_agent.bench.user import SimulatedUser, asks_user

    phone = task.make_phone()
    driver = TreeDriver(phone)
    user = SimulatedUser(task, phone) if asks_user(task) else None
    tracker = ProgressTracker(task, phone, user)
    for i, s in enumerate(task.plan, start=1):
        if isinstance(s.op, Wait):
            phone.screenshot()  # a Wait comes after a look at the screen (the loop's screenshot): time passes
        tree_act(driver, s, user)
        tracker.after_step(i, s.op, True)
    return tracker.metrics(), [o.reached for o in tracker.outcomes]
