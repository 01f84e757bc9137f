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

from typing import Any

from PIL import Image

from mobile_agent.agent.families.base import Family, Frame, Parsed
from mobile_agent.agent.operations import USER_OPERATIONS, Operation
from mobile_agent.agent.planner import BasePlanner, Calls, Completion, Plan, PlanContext, ask, request_summary
from mobile_agent.errors import ParseError
from mobile_agent.model.base import ChatModel, Message, TextPart, encode_image

#: The completion reason recorded after a family's own finish.
OWN_FINISH = "the model's own finish (a GUI model judges its task itself)"


def frame_for(family: Family, screenshot: Image.Image) -> Frame:
    w, h = screenshot.size
    iw, ih = family.image_size(w, h)
    return Frame(w, h, iw, ih)


def family_image(family: Family, screenshot: Image.Image, quality: int = 80) -> tuple[Any, Frame]:
    """The screenshot as the family expects it (its ``smart_resize``), encoded, and the frame its
    coordinates are read in."""
    frame = frame_for(family, screenshot)
    img = screenshot.convert("RGB")
    if img.size != (frame.image_w, frame.image_h):
        img = img.resize((frame.image_w, frame.image_h), Image.Resampling.LANCZOS)
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


class FamilyPlanner(BasePlanner):
    """A planner for a point-output model of ``family`` on ``model`` (any chat-completions server:
    vLLM, SGLang, a hosted API)."""

    asks_model = True
    role: str | None = None

    def __init__(self, model: ChatModel, family: Family, *, parse_retries: int = 2,
                 max_tokens: int | None = None) -> None:
        self.model = model
        self.family = family
        self.name = model.name
        self.parse_retries = parse_retries
        self.max_tokens = max_tokens

    def summary_extra(self) -> dict[str, Any]:
        return {"model_family": self.family.name}

    def messages(self, ctx: PlanContext) -> tuple[list[Message], Frame]:
        """The request: the family's system prompt, then the instruction, the history and the screenshot."""
        image, frame = family_image(self.family, ctx.screenshot, ctx.jpeg_quality)
        ask_user = any(t in USER_OPERATIONS for t in ctx.operations)
        text = self.family.user_text(ctx.instruction, history_lines(ctx), ctx.feedback)
        return [Message.text("system", self.family.system_prompt(frame, ask_user)),
                Message("user", (TextPart(text), image))], frame

    def plan(self, ctx: PlanContext) -> Plan:
        messages, frame = self.messages(ctx)
        calls = Calls()
        parsed, raw, errors = ask(self.model, messages, lambda r: read_reply(self.family, r, frame, ctx.operations),
                                  calls, kind="plan", what=f"the model's reply ({self.family.title})",
                                  retry_text=self.family.retry_text, retries=self.parse_retries,
                                  max_tokens=self.max_tokens, role=self.role)
        op: Operation = parsed.operation
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
