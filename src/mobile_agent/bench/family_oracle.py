"""The oracle planner speaking a point-output family's format: each reference step becomes the reply
that family would write (a tap at the point of the reference element, in the family's syntax and in its
coordinates as its authors' code reads them: ``bench/family_conventions.py``, written apart from the
adapters), read back by the family's own parser into a typed operation, so that ``mobile-agent eval
--planner oracle --model-family F`` runs Mobile-Eval through each adapter with no model. The adapter's own
``to_model`` is never used here: an adapter whose ``to_phone`` maps by another convention than its
authors' taps elsewhere, and the task fails.

The points come from what any planner sees: the screenshot, grounded by the same perception pipeline
the oracle's words go through (``perception.ground_text`` / ``ground_icon``; the reference step's
``pick`` chooses among several). Open App stays a name (every family has an open-app action), as do
Type, Back and Home; Page Up and Page Down become the family's swipe or scroll.
"""

from __future__ import annotations

from typing import Any

from mobile_agent.agent.families import Family, Frame
from mobile_agent.agent.families.planner import frame_for, read_reply
from mobile_agent.agent.operations import (
    Back, ClickIcon, ClickText, Exit, Geometry, LongPress, OpenApp, PageDown, PageUp, Stop, Type, Wait,
)
from mobile_agent.agent.planner import Plan, PlanContext
from mobile_agent.bench.family_conventions import convention, model_point
from mobile_agent.bench.oracle import OraclePlanner, pick_candidate
from mobile_agent.bench.task import Task


class FamilyOraclePlanner(OraclePlanner):
    """The reference plan of ``task``, each step written as ``family`` writes it and read back by it."""

    def __init__(self, task: Task, family: Family, perception: Any) -> None:
        super().__init__(task, perception)
        self.family = family
        self.grounder = perception  # where the reference elements are (the oracle's own read may be off)
        self.name = f"oracle ({family.name})"
        self.convention = convention(family.name)

    def _candidate(self, op: Any, ctx: PlanContext) -> Any:
        """Perception's candidate for the reference element of ``op`` (its box and point), or None."""
        ref = self.current
        how = ref.pick if ref else "best"

        def choose(marked: Any, candidates: Any, question: str) -> int | None:
            return pick_candidate(candidates, how)
        img = ctx.screenshot
        g = None
        if isinstance(op, ClickText):
            g = self.grounder.ground_text(img, op.text, choose=choose)
        elif isinstance(op, ClickIcon):
            g = self.grounder.ground_icon(img, op.description, position=op.position, choose=choose)
        elif isinstance(op, LongPress):
            g = self.grounder.ground_text(img, op.target, position=op.position, choose=choose)
            if g.chosen is None:
                g = self.grounder.ground_icon(img, op.target, position=op.position, choose=choose)
        return g.chosen if g is not None else None

    def plan(self, ctx: PlanContext) -> Plan:
        plan = super().plan(ctx)  # the reference step (or a Wait on a loading screen, or giving up)
        op = plan.operation
        frame = frame_for(self.family, ctx.screenshot)
        w, h = ctx.screenshot.size
        box = None
        if isinstance(op, (ClickText, ClickIcon, LongPress)):
            cand = self._candidate(op, ctx)
            if cand is None:  # the element is not on the screen: the words go on, and the loop reports it
                return plan
            box = cand.box
            action = "long_press" if isinstance(op, LongPress) else "tap"
            args: dict[str, Any] = {"x": int(cand.point.x), "y": int(cand.point.y)}
        elif isinstance(op, OpenApp):
            action, args = "open", {"app": op.name}
        elif isinstance(op, Type):
            action, args = "type", {"text": op.text}
        elif isinstance(op, (PageUp, PageDown)):
            sw = op.gesture(Geometry(w, h))
            action, args = "swipe", {"x1": sw.x1, "y1": sw.y1, "x2": sw.x2, "y2": sw.y2}
        elif isinstance(op, Back):
            action, args = "back", {}
        elif isinstance(op, Exit):
            action, args = "home", {}
        elif isinstance(op, Wait):
            action, args = "wait", {}
        elif isinstance(op, Stop):
            action, args = "stop", {}
        else:  # what no family writes (Ask User, Take Over): the words go on
            return plan
        return self.answer(action, args, plan.thought, frame, box)

    def answer(self, action: str, args: dict[str, Any], thought: str, frame: Frame, box: Any = None) -> Plan:
        """``action`` written as the family writes it, its points in the authors' coordinates, and read back
        by its parser (``box``: the element's box, for a tap or a long press)."""
        conv = self.convention
        raw = self.family.write(action, args, thought, frame,
                                point=lambda x, y: model_point(x, y, frame.screen_w, frame.screen_h, conv))
        parsed = read_reply(self.family, raw, frame)
        return Plan("", parsed.thought, parsed.operation, raw=raw,
                    input_summary=f"oracle in {self.family.name}'s format: no model")
