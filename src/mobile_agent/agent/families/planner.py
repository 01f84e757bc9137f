"""The planner of a point-output family: the family's system prompt, the screenshot at the family's
size, the reply read by the family's parser into one typed operation (points in the phone's pixels).
The loop drives it as any planner; it never learns the family.

An unreadable reply (another format, a malformed tool call, a point outside the image, an action the
family does not have) goes back to the model with what was wrong, at most ``parse_retries`` times,
through the one ``planner.ask`` every model call goes through. The model's own finish (``finished``,
``terminate``, ``finish``) ends the run without a second model call: a GUI model is its own judge
(``check_completion`` trusts it, and says so in the record).
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from mobile_agent.agent.families.base import Family, Frame, Parsed
from mobile_agent.agent.operations import USER_OPERATIONS, Operation
from mobile_agent.agent.planner import (
    BasePlanner, Calls, Completion, Plan, PlanContext, PlanningError, ask, request_summary,
)
from mobile_agent.errors import ParseError
from mobile_agent.model.base import ChatModel, ImagePart, Message, TextPart, encode_image

#: The completion reason recorded after a family's own finish.
OWN_FINISH = "the model's own finish (a GUI model judges its task itself)"


def frame_for(family: Family, screenshot: Image.Image) -> Frame:
    w, h = screenshot.size
    iw, ih = family.image_size(w, h)
    return Frame(w, h, iw, ih)


#: The most bytes a PNG screenshot may take in a request; a larger one (a photo-heavy screen) goes as JPEG
#: at the run's quality, so that a request of five screenshots stays within a few megabytes.
PNG_MOST = 2_000_000


def family_image(family: Family, screenshot: Image.Image, quality: int = 80) -> tuple[Any, Frame]:
    """The screenshot as the family expects it (its ``smart_resize``), encoded as the authors' runtimes
    encode it (PNG, at a fast compression level; JPEG at ``quality`` for a family that says so, or for a
    PNG over :data:`PNG_MOST`), and the frame its coordinates are read in."""
    frame = frame_for(family, screenshot)
    img = screenshot.convert("RGB")
    if img.size != (frame.image_w, frame.image_h):
        img = img.resize((frame.image_w, frame.image_h), Image.Resampling.LANCZOS)
    if family.image_format.upper() == "PNG":
        buf = io.BytesIO()
        img.save(buf, "PNG", compress_level=1)  # optimize=True takes 0.5 s a screenshot for a fifth fewer bytes
        if buf.tell() <= PNG_MOST:
            return ImagePart(buf.getvalue(), "image/png", img.width, img.height), frame
    return encode_image(img, None, quality), frame


def read_reply(family: Family, reply: str, frame: Frame, operations: Any = None) -> Parsed:
    """``family``'s reading of ``reply``, refusing what this run cannot offer (a question to the user
    where no one can answer). Raises :class:`ParseError`."""
    try:
        parsed = family.parse(reply, frame)
    except ValueError as exc:  # a value an operation refuses (a key name)
        if isinstance(exc, ParseError):
            raise
        raise ParseError(str(exc)) from None
    if isinstance(parsed.operation, USER_OPERATIONS) and operations is not None and \
            type(parsed.operation) not in tuple(operations):
        raise ParseError(f"{parsed.operation.op} is not available in this run: no person can answer; go on "
                         f"with the task or finish it")
    return parsed


def history_lines(ctx: PlanContext) -> list[str]:
    """The earlier steps in words (the operation as carried out, in the phone's pixels, and what came of it)."""
    return [f"{h.operation} ({h.outcome})" for h in ctx.history]


#: The most earlier steps a request holds for a family that sets no bound of its own.
HISTORY_MOST = 30
#: The most characters of earlier replies a request holds (about 10,000 tokens): the oldest go first.
HISTORY_CHARS = 40_000


class ModelGaveUp(PlanningError):
    """The model ended the task as failed (``terminate(status="failure")``): the run ends failed."""


class FamilyPlanner(BasePlanner):
    """A planner for a point-output model of ``family`` on ``model`` (any chat-completions server:
    vLLM, SGLang, a hosted API). Each request is the conversation as the family's authors keep it
    (:meth:`messages`)."""

    asks_model = True
    role: str | None = None

    def __init__(self, model: ChatModel, family: Family, *, parse_retries: int = 2,
                 max_tokens: int | None = None) -> None:
        self.model = model
        self.family = family
        self.name = model.name
        self.parse_retries = parse_retries
        self.max_tokens = max_tokens
        #: the earlier screenshots the loop keeps in the history for this planner (HistoryEntry.screen)
        self.screens_kept = max(0, family.images_kept - 1)
        self._encoded: dict[int, tuple[Image.Image, Any]] = {}

    def summary_extra(self) -> dict[str, Any]:
        return {"model_family": self.family.name}

    def _image(self, screen: Image.Image, quality: int) -> tuple[Any, Frame]:
        """``screen`` encoded once for all the requests that carry it (the last ``images_kept``)."""
        hit = self._encoded.get(id(screen))
        if hit is not None and hit[0] is screen:
            return hit[1]
        out = family_image(self.family, screen, quality)
        self._encoded[id(screen)] = (screen, out)
        while len(self._encoded) > self.family.images_kept + 1:
            self._encoded.pop(next(iter(self._encoded)))
        return out

    def messages(self, ctx: PlanContext) -> tuple[list[Message], Frame]:
        """The request as the family's authors build it: the prompt in the system message or opening the
        first user message (``prompt_role``); the earlier steps as the model's own replies, either as
        assistant turns (``turns``; the steps before the ``turn_window`` as history text) or as the
        family's history text in the one user message; the screenshots of the last ``images_kept - 1``
        earlier steps beside their turns, and the current one last."""
        fam = self.family
        image, frame = self._image(ctx.screenshot, ctx.jpeg_quality)
        ask_user = any(t in USER_OPERATIONS for t in ctx.operations)
        system = fam.system_prompt(frame, ask_user)
        earlier = list(ctx.history)[-(fam.history_kept or HISTORY_MOST):]
        while len(earlier) > 1 and sum(len(h.reply) for h in earlier) > HISTORY_CHARS:
            earlier.pop(0)

        def told(h: Any) -> str:
            """What the person said to a question or a hand-over of that step (no family's history has it)."""
            return h.outcome if isinstance(h.operation, USER_OPERATIONS) else ""

        def item(h: Any) -> str:
            said = fam.history_item(h.reply, h.thought, h.operation)
            return f"{said} ({told(h)})" if told(h) else said

        def opening(text: str) -> str:
            return f"{system}\n\n{text}" if fam.prompt_role == "user" and system else text

        out: list[Message] = [Message.text("system", system)] if fam.prompt_role == "system" and system else []
        if not fam.turns:
            text = opening(fam.user_text(ctx.instruction, [item(h) for h in earlier], ctx.feedback))
            return out + [Message("user", (TextPart(text), image))], frame
        window = earlier[-fam.turn_window:] if fam.turn_window else earlier
        older = earlier[:len(earlier) - len(window)]
        head = opening(fam.user_text(ctx.instruction, [item(h) for h in older], ()))
        with_image = len(window) - self.screens_kept  # the turns from this index on carry their screenshot
        answer = ""  # what the person said after the turn before
        if fam.instruction_apart and window:
            out.append(Message.text("user", head))
        for i, h in enumerate(window):
            parts: list[Any] = [TextPart(head)] if i == 0 and not fam.instruction_apart else []
            if answer:
                parts.append(TextPart(answer))
            if i >= with_image and h.screen is not None:
                parts.append(self._image(h.screen, ctx.jpeg_quality)[0])
            elif i > 0 and not answer and fam.dropped_image:
                parts.append(TextPart(fam.dropped_image.format(step=h.step)))
            if parts:
                out.append(Message("user", tuple(parts)))
            out.append(Message.text("assistant", h.reply or item(h)))
            answer = told(h)
        last: list[Any] = [] if window else [TextPart(head)]
        if answer:
            last.append(TextPart(answer))
        if ctx.feedback:
            last.append(TextPart("Feedback on your last action: " + " ".join(ctx.feedback)))
        out.append(Message("user", tuple(last) + (image,)))
        return out, frame

    def plan(self, ctx: PlanContext) -> Plan:
        messages, frame = self.messages(ctx)
        calls = Calls()
        parsed, raw, errors = ask(self.model, messages, lambda r: read_reply(self.family, r, frame, ctx.operations),
                                  calls, kind="plan", what=f"the model's reply ({self.family.title})",
                                  retry_text=self.family.retry_text, retries=self.parse_retries,
                                  max_tokens=self.max_tokens, role=self.role)
        op: Operation = parsed.operation
        if parsed.gave_up:
            raise ModelGaveUp(f"the model gave up: it ended the task as failed ({self.family.title}'s terminate with "
                              f"status failure){': ' + parsed.thought if parsed.thought else ''}", raw, calls, errors)
        return Plan("", parsed.thought, op, raw, calls,
                    request_summary(messages) + f"; {self.family.name} image {frame.image_w}x{frame.image_h}", errors)

    def check_completion(self, ctx: PlanContext) -> Completion:
        return Completion(True, OWN_FINISH)


def planner_for(model: ChatModel, family: str | None = None, **options: Any) -> Any:
    """The planner for ``model``: ``family`` names one (``--model-family``; ``react``: the paper's
    planner), else the family is recognised from the served name, else the paper's ReAct planner."""
    from mobile_agent.agent.families.registry import REACT, family_for_model, get_family
    from mobile_agent.agent.planner import LLMPlanner

    if family is not None and family.strip().lower() == REACT:
        return LLMPlanner(model, **options)
    fam = get_family(family) if family is not None else family_for_model(model.name.split(":", 1)[-1])
    if fam is None:
        return LLMPlanner(model, **options)
    return FamilyPlanner(model, fam, **{k: v for k, v in options.items() if k in ("parse_retries", "max_tokens")})
