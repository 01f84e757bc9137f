"""The oracle planner: plays a task's reference plan through the real grounding pipeline.

It sees what any planner sees (the screenshot, the history) and nothing else: it never reads the
phone's state or ui tree. It answers with the next reference operation; perception grounds it to
pixels. Where perception finds several candidates and asks, it takes the one the reference step
names (``RefStep.pick``: best-ranked, top, bottom, left or right). When a step could not be
carried out (nothing matched), it gives up with Stop: the plan cannot go on from there.

On a phone with loading screens (the disturbed tier), before a step that needs the screen, it reads
the screen as a model would (OCR through the same perception pipeline, whose cache makes this read
the one grounding then uses): on a loading screen
("Loading…") it waits instead, as often as the loading lasts (at most :data:`MAX_WAITS` times in a
row; a Wait of its plan counts as one of them).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from PIL import Image

from mobile_agent.agent.loop import NOT_CARRIED_OUT
from mobile_agent.agent.operations import Operation, Stop, Wait
from mobile_agent.agent.planner import BasePlanner, Choice, Plan, PlanContext
from mobile_agent.bench.task import RefStep, Task


#: Waits in a row on a loading screen before a planner goes on regardless.
MAX_WAITS = 5
_LOADING = re.compile(r"^\W*loading\b", re.IGNORECASE)


def screen_loading(perception: Any, image: Image.Image) -> bool:
    """The screen says it is loading (a line that starts with "Loading"), read by OCR."""
    if perception is None:
        return False
    try:
        lines = perception.parse(image).lines
    except Exception:  # noqa: BLE001 - a screen that cannot be read is not a loading screen
        return False
    return any(_LOADING.match(line.text or "") for line in lines)


def looks_before(op: Operation) -> bool:
    """A planner reads the screen before this step: a Wait, or a step grounded on the screen."""
    return isinstance(op, Wait) or op.grounds is not None


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

    def __init__(self, task: Task, perception: Any = None) -> None:
        self.task = task
        # reads the screen for loading screens, on a phone that shows them (elsewhere the read would only
        # cost time: hybrid grounding, for one, reads no pixels where the tree answers)
        self.perception = perception if "loading" in task.disturbances else None
        self.index = 0
        self.waits = 0  # Waits in a row on a loading screen
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
        if looks_before(ref.op):
            if self.waits < MAX_WAITS and screen_loading(self.perception, ctx.screenshot):
                self.waits += 1
                if isinstance(ref.op, Wait):
                    self.index += 1  # the plan's own Wait
                thought = "The app is still loading: wait."
                return Plan("A loading screen.", thought, Wait(), raw=f"Thought: {thought}\nAction: Wait",
                            input_summary="oracle: no model")
            self.waits = 0
        self.index += 1
        thought = f"Reference step {self.index} of {n}."
        return Plan("The screen as it is.", thought, ref.op, raw=f"Thought: {thought}\nAction: {ref.op}",
                    input_summary="oracle: no model")

    def choose(self, ctx: PlanContext, marked: Image.Image, candidates: Sequence[Any], question: str) -> Choice:
        ref = self.current
        return Choice(pick_candidate(candidates, ref.pick if ref else "best"), raw="oracle")
