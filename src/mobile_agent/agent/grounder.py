"""A point-output GUI model as perception's grounder (``run --grounder MODEL --grounder-base-url URL``):
a paper-style planner (GPT-4o, Claude) names the element, in words; the grounding model (UI-TARS,
Qwen-VL, GUI-Owl... any family of agent/families/) is asked to tap it and answers with a point; OCR and
the icon detector check that point and stand in where it does not hold.

- Click Text: the point holds when the OCR line under it reads the text (its words, case and spacing
  aside); Click Icon: when a detected icon box lies under it. Otherwise, or when the model's answer
  cannot be read or its server fails, perception grounds the operation as it would alone; the
  grounding record's message says which way the point came.
- Everything else (parse, screen change, the memo the loop's overlap uses) is the perception's own.

The grounding model's calls are made on the step's thread, one per Click Text / Click Icon; each is a
:class:`~mobile_agent.agent.record.CallRecord` of kind ``ground`` (its raw reply, tokens, duration, and
why it failed or could not be read), which the loop takes after grounding (:meth:`ModelGrounder.take_calls`)
into the step's ``calls`` beside the planner's: in ``steps.jsonl``, the run's tokens and cost, and the
report. Their time is model time, not perception's.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any, Sequence

from PIL import Image

from mobile_agent.agent.families.base import Family
from mobile_agent.agent.families.planner import family_image
from mobile_agent.agent.planner import Calls, without_secrets
from mobile_agent.errors import MobileAgentError, ParseError
from mobile_agent.model.base import ChatModel, Message, TextPart
from mobile_agent.perception.results import Candidate, Grounding
from mobile_agent.types import Point

log = logging.getLogger(__name__)

#: The kind of a grounding model's calls in the step's record (beside plan, choose, complete, reflect).
CALL_KIND = "ground"

#: Half the side of the box around a point the model gave where no line or icon box frames it.
POINT_BOX = 12


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", text.casefold())).strip()


def _smallest(items: Sequence[Any], x: float, y: float) -> Any:
    hits = [it for it in items if it.box.x1 <= x <= it.box.x2 and it.box.y1 <= y <= it.box.y2]
    return min(hits, key=lambda it: it.box.area) if hits else None


class ModelGrounder:
    """``perception`` with ``model`` (of ``family``) finding Click Text and Click Icon targets first."""

    def __init__(self, perception: Any, model: ChatModel, family: Family) -> None:
        self.perception = perception
        self.model = model
        self.family = family
        self.asked = 0       # requests to the grounding model
        self.held = 0        # points that checked out
        self.fell_back = 0   # operations grounded by perception alone
        self.calls = Calls()  # the calls not yet taken into a step's record

    def __getattr__(self, name: str) -> Any:
        return getattr(self.perception, name)

    def point(self, image: Image.Image, target: str) -> tuple[int, int]:
        """Where the model would tap ``target`` on ``image``, in the phone's pixels. Raises
        :class:`~mobile_agent.errors.MobileAgentError` (its server failed) or :class:`ParseError`."""
        from mobile_agent.agent.families.planner import read_reply

        part, frame = family_image(self.family, image)
        text = self.family.user_text(f"Tap {target}.", [], [])
        messages = [Message.text("system", self.family.system_prompt(frame, False)),
                    Message("user", (TextPart(text), part))]
        self.asked += 1
        t = time.monotonic()
        try:
            reply = self.model.complete(without_secrets(messages))
        except MobileAgentError as exc:
            self.calls.failed(CALL_KIND, exc, time.monotonic() - t)
            raise
        record = self.calls.add(reply, CALL_KIND)
        try:
            op = read_reply(self.family, reply.text, frame).operation
            points = getattr(op, "points", None)
            if not callable(points):
                raise ParseError(f"the grounding model answered {op}, not a point")
        except ParseError as exc:
            record.error = f"could not be read: {exc}"
            raise
        return points()[0]

    @staticmethod
    def phrase(kind: str, words: str, position: Sequence[str] | str = ()) -> str:
        """What the grounding model is asked to tap (``Tap {phrase}.``): ``the text "Display"``, ``the
        search icon (top right)``."""
        target = f'the text "{words}"' if kind == "text" else f"the {words} icon"
        pos = position if isinstance(position, str) else " ".join(position)
        return f"{target} ({pos})" if pos else target

    def take_calls(self) -> Calls:
        """The calls made since the last take (the loop puts them in the step's record)."""
        calls, self.calls = self.calls, Calls()
        return calls

    def _ground(self, kind: str, image: Any, words: str, position: Sequence[str] | str, choose: Any,
                more: dict[str, Any]) -> Grounding:
        own = self.perception.ground_text if kind == "text" else self.perception.ground_icon
        target = self.phrase(kind, words, position)
        try:
            x, y = self.point(image, target)
        except (MobileAgentError, ParseError) as exc:
            why = f"the grounding model gave no point ({exc})"
        else:
            res = self.perception.parse(image, icons=kind == "icon")
            if kind == "text":
                line = _smallest(res.lines, x, y)
                if line is not None and _norm(words) and _norm(words) in _norm(line.text):
                    self.held += 1
                    cand = Candidate(line.box, Point(x, y), 1.0, line.text)
                    return Grounding("found", [cand], cand, f"the grounding model's point ({x}, {y}): OCR reads "
                                                             f"{line.text!r} there")
                seen = f"OCR reads {line.text!r} there" if line is not None else "no text there"
            else:
                icon = _smallest(res.icons or [], x, y)
                if icon is not None:
                    self.held += 1
                    cand = Candidate(icon.box, Point(x, y), 1.0, None)
                    return Grounding("found", [cand], cand, f"the grounding model's point ({x}, {y}): an icon box "
                                                             f"there")
                seen = "no icon box there"
            why = f"the grounding model's point ({x}, {y}) did not check out ({seen})"
        self.fell_back += 1
        g = own(image, words, position=position, choose=choose, **more)
        g.message = f"{why}; perception's own grounding: {g.message}" if g.message else \
            f"{why}; perception's own grounding"
        return g

    def ground_text(self, image: Any, text: str, position: Sequence[str] | str = (), choose: Any = None,
                    **more: Any) -> Grounding:
        return self._ground("text", image, text, position, choose, more)

    def ground_icon(self, image: Any, description: str, position: Sequence[str] | str = (), choose: Any = None,
                    **more: Any) -> Grounding:
        return self._ground("icon", image, description, position, choose, more)


__all__ = ["ModelGrounder"]
