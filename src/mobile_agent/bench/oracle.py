"""The oracle planner: plays a task's reference plan through the real grounding pipeline.

It sees what any planner sees (the screenshot, the history) and nothing else: it never reads the
phone's state or ui tree. It answers with the next reference operation; perception grounds it to
pixels. Where perception finds several candidates and asks, it takes the one the reference step
names (``RefStep.pick``: best-ranked, top, bottom, left or right). When a step could not be
carried out (nothing matched), it gives up with Stop: the plan cannot go on from there.
"""

from __future__ import annotations

from typing import Any, Sequence

from PIL import Image

from mobile_agent.agent.loop import NOT_CARRIED_OUT
from mobile_agent.agent.operations import Stop
from mobile_agent.agent.planner import BasePlanner, Choice, Plan, PlanContext
from mobile_agent.bench.task import RefStep, Task


def pick_candidate(candidates: Sequence[Any], how: str) -> int | None:
    """Index of the candidate a reference step's ``pick`` names (``best`` is perception's first)."""
    if not candidates:
        return None
    idx = list(range(len(candidates)))
    if how == "top":
        return min(idx, key=lambda i: candidates[i].box.y1)
    if how == "bottom":
        return max(idx, key=lambda i: candidates[i].box.y1)
    if how == "left":
        return min(idx, key=lambda i: candidates[i].box.x1)
    if how == "right":
        return max(idx, key=lambda i: candidates[i].box.x1)
    return 0


class OraclePlanner(BasePlanner):
    """A planner that replays ``task``'s reference plan, one operation a step."""

    name = "oracle"

    def __init__(self, task: Task) -> None:
        self.task = task
        self.index = 0
        self.gave_up: str | None = None

    @property
    def current(self) -> RefStep | None:
        i = self.index - 1
        return self.task.plan[i] if 0 <= i < len(self.task.plan) else None

    def plan(self, ctx: PlanContext) -> Plan:
        n = len(self.task.plan)
        if ctx.history and ctx.history[-1].outcome.startswith(NOT_CARRIED_OUT):
            self.gave_up = f"reference step {self.index} ({ctx.history[-1].operation}) could not be grounded"
            return Plan("The screen as it is.", f"Giving up: {self.gave_up}.", Stop(), raw="Action: Stop")
        ref = self.task.plan[min(self.index, n - 1)]
        self.index += 1
        thought = f"Reference step {self.index} of {n}."
        return Plan("The screen as it is.", thought, ref.op, raw=f"Thought: {thought}\nAction: {ref.op}",
                    input_summary="oracle: no model")

    def choose(self, ctx: PlanContext, marked: Image.Image, candidates: Sequence[Any], question: str) -> Choice:
        ref = self.current
        return Choice(pick_candidate(candidates, ref.pick if ref else "best"), raw="oracle")
