"""Planners: the ``Planner`` protocol the loop drives, and ``LLMPlanner``, the multimodal-LLM one.

A planner answers four questions. ``plan``: what next (Observation, Thought, one operation)?
``choose``: which of these numbered marks? ``check_completion``: after Stop, is the instruction done?
``reflect``: did the last operation do what was expected? Planners without a model (the oracle and
scripted planners of the benchmark) subclass :class:`BasePlanner` and override only ``plan``.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

from PIL import Image

from mobile_agent.agent import parser, prompts
from mobile_agent.agent.operations import OPERATION_TYPES, Operation
from mobile_agent.agent.record import CallRecord
from mobile_agent.errors import MobileAgentError, ParseError, held_secrets, redact
from mobile_agent.model.base import ChatModel, ChatResponse, Message, TextPart, Usage, encode_image


@dataclass(frozen=True)
class HistoryEntry:
    """One finished step as the planner sees it: its operation and what came of it, in words (in
    multi mode, what the manager and the executor are told of the executor's steps).

    ``reply``: the model's own reply that chose the operation (its words and coordinates, for a planner
    that hands the model its earlier turns: the point-output families); ``screen``: the screenshot the
    step planned on, kept by the loop for the last ``Planner.screens_kept`` steps only (None before)."""

    step: int
    operation: Operation
    outcome: str
    thought: str = ""
    reply: str = field(default="", compare=False, repr=False)
    screen: Image.Image | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class PlanContext:
    """What a planner gets at each step.

    ``screenshot`` is the current screen at device resolution; ``earlier_screens`` the screenshots
    of the previous steps that the history keeps (at most ``history_screens - 1``, oldest first).
    ``image_max_side`` and ``jpeg_quality`` say how to encode images for a model; ``operations``
    are the operation classes the device supports (the prompt offers only those).
    """

    instruction: str
    step: int
    screenshot: Image.Image
    history: Sequence[HistoryEntry] = ()
    earlier_screens: Sequence[Image.Image] = ()
    feedback: Sequence[str] = ()
    image_max_side: int | None = 1024
    jpeg_quality: int = 80
    operations: Sequence[type] = OPERATION_TYPES

    def history_tuples(self) -> list[tuple[int, Operation, str]]:
        return [(h.step, h.operation, h.outcome) for h in self.history]


@dataclass
class Calls:
    """Accounting of the model calls behind one answer, and the record of each call
    (:class:`~mobile_agent.agent.record.CallRecord`: its kind, raw reply, tokens, error, duration)."""

    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = None
    model_s: float = 0.0
    count: int = 0
    records: list[CallRecord] = field(default_factory=list)

    def add(self, r: ChatResponse, kind: str = "plan", role: str | None = None) -> CallRecord:
        self.usage = self.usage + r.usage
        if r.cost_usd is not None:
            self.cost_usd = (self.cost_usd or 0.0) + r.cost_usd
        self.model_s += r.latency_s
        self.count += 1
        rec = CallRecord(kind, r.text, r.usage.prompt_tokens, r.usage.completion_tokens, r.latency_s, role=role,
                         cost_usd=r.cost_usd if role is not None else None)
        self.records.append(rec)
        return rec

    def failed(self, kind: str, error: BaseException, duration_s: float, role: str | None = None) -> None:
        """A call that got no reply (the model's service failed after its retries)."""
        self.model_s += duration_s
        self.count += 1
        self.records.append(CallRecord(kind, None, 0, 0, duration_s, f"{type(error).__name__}: {error}", role=role))

    def merge(self, other: Calls) -> None:
        self.usage = self.usage + other.usage
        if other.cost_usd is not None:
            self.cost_usd = (self.cost_usd or 0.0) + other.cost_usd
        self.model_s += other.model_s
        self.count += other.count
        self.records.extend(other.records)


def calls_of(exc: BaseException) -> Calls:
    """The calls a planner's failure made (kept on the exception by :meth:`LLMPlanner._ask`)."""
    calls = exc.__dict__.get("calls")
    return calls if isinstance(calls, Calls) else Calls()


@dataclass
class Plan:
    """A planner's answer: Observation, Thought, the operation, the raw reply, and its cost."""

    observation: str
    thought: str
    operation: Operation
    raw: str = ""
    calls: Calls = field(default_factory=Calls)
    input_summary: str = ""
    parse_errors: list[str] = field(default_factory=list)
    #: where the operation came from when it was not a model's plan ("replayed": agent/replay.py)
    source: str | None = None


@dataclass
class Choice:
    """The mark chosen (0-based index, or None for none of them)."""

    index: int | None
    raw: str = ""
    calls: Calls = field(default_factory=Calls)


@dataclass
class Completion:
    """After Stop: is the instruction complete, and why."""

    complete: bool
    reason: str = ""
    raw: str = ""
    calls: Calls = field(default_factory=Calls)


@dataclass
class Reflection:
    """The verdict on one operation: ``as_expected``, ``wrong_page``, ``no_change`` or None (not judged)."""

    verdict: str | None
    reason: str = ""
    raw: str = ""
    calls: Calls = field(default_factory=Calls)


class PlanningError(ParseError):
    """The model's replies could not be parsed after the allowed retries."""

    def __init__(self, message: str, raw: str, calls: Calls, errors: list[str]) -> None:
        super().__init__(message)
        self.raw = raw
        self.calls = calls
        self.errors = errors


@runtime_checkable
class Planner(Protocol):
    """What the loop needs from a planner. ``name`` goes into the run summary as the model."""

    name: str

    def plan(self, ctx: PlanContext) -> Plan: ...

    def choose(self, ctx: PlanContext, marked: Image.Image, candidates: Sequence[Any], question: str) -> Choice: ...

    def check_completion(self, ctx: PlanContext) -> Completion: ...

    def reflect(self, ctx: PlanContext, before: Image.Image, after: Image.Image, operation: Operation,
                thought: str) -> Reflection: ...


#: the completion reason of a planner without a model, which trusts Stop (the report says so)
NOT_CHECKED = "not checked"


class BasePlanner:
    """Defaults for planners without a model: choose the best-ranked candidate, trust Stop, judge nothing."""

    name = "planner"
    #: whether a step waits for a model (the loop parses the screenshot meanwhile: agent/overlap.py)
    asks_model = False

    def plan(self, ctx: PlanContext) -> Plan:  # pragma: no cover - abstract
        raise NotImplementedError

    def choose(self, ctx: PlanContext, marked: Image.Image, candidates: Sequence[Any], question: str) -> Choice:
        return Choice(0 if candidates else None)

    def check_completion(self, ctx: PlanContext) -> Completion:
        return Completion(True, NOT_CHECKED)

    def reflect(self, ctx: PlanContext, before: Image.Image, after: Image.Image, operation: Operation,
                thought: str) -> Reflection:
        return Reflection(None)


def request_summary(messages: Sequence[Message]) -> str:
    """A short description of a request: roles, text lengths, images (for the step record)."""
    parts = []
    for m in messages:
        imgs = m.images
        s = f"{m.role} {len(m.plain_text)} chars"
        if imgs:
            s += " + " + ", ".join(f"{i.mime.split('/')[1]} {i.width}x{i.height} {len(i.data) // 1024} KB" for i in imgs)
        parts.append(s)
    return "; ".join(parts)


def ask(model: ChatModel, messages: list[Message], parse: Callable[[str], Any], calls: Calls, *, kind: str,
        what: str, retry_text: Callable[[str], str], retries: int = 2, max_tokens: int | None = None,
        role: str | None = None) -> tuple[Any, str, list[str]]:
    """Call ``model`` and parse its reply; on a :class:`ParseError` send the reply back with
    ``retry_text(error)``, at most ``retries`` times. Returns (parsed, raw reply, parse errors).
    Every call is recorded in ``calls`` (as ``kind``, by ``role``); a failure of the model's service
    is re-raised carrying ``calls``; replies never read raise :class:`PlanningError` (``what``
    names what could not be read: "the model's reply", "the manager's plan")."""
    errors: list[str] = []
    raw = ""
    for _ in range(retries + 1):
        t = time.monotonic()
        try:
            resp = model.complete(without_secrets(messages), max_tokens=max_tokens)
        except MobileAgentError as exc:
            calls.failed(kind, exc, time.monotonic() - t, role)
            exc.calls = calls  # type: ignore[attr-defined]
            raise
        record = calls.add(resp, kind, role)
        raw = resp.text
        try:
            return parse(raw), raw, errors
        except ParseError as exc:
            record.error = f"could not be read: {exc}"
            errors.append(str(exc))
            messages = messages + [Message.text("assistant", echoed(raw)), Message.text("user", retry_text(str(exc)))]
    raise PlanningError(f"{what} could not be read after {retries + 1} replies; last problem: {errors[-1]}",
                        raw, calls, errors)


#: The most of an unreadable reply that is sent back to the model with the request to answer again
#: (a reply of a megabyte went back whole): its beginning, where the form it missed would be.
MAX_ECHO_CHARS = 4000


def echoed(raw: str) -> str:
    """``raw`` as it is sent back to the model after it could not be read: at most
    :data:`MAX_ECHO_CHARS` characters, and how many more there were."""
    if len(raw) <= MAX_ECHO_CHARS:
        return raw
    return raw[:MAX_ECHO_CHARS] + f"\n[... {len(raw) - MAX_ECHO_CHARS} more characters of this reply not repeated]"


def without_secrets(messages: list[Message]) -> list[Message]:
    """``messages`` with the user's ``--secret`` values written ``{NAME}`` in every text part (the
    screen's texts read by OCR, the history, the model's own earlier words): the model sees the
    name, the phone alone the value. Unchanged where the process holds no such secret."""
    if not held_secrets():
        return messages
    return [Message(m.role, tuple(TextPart(redact(p.text)) if isinstance(p, TextPart) else p for p in m.parts))
            for m in messages]


class _Encoded:
    """The last few screenshots encoded for the model, by the image object: a screenshot goes into
    its step's request, the completion check's and, with ``history_screens``, later steps' requests,
    and is encoded once. Holds the images it keys on, so that an id is not reused while kept. A
    request that needs a screenshot another thread is encoding (the loop's encoding ahead) waits
    for that encoding rather than making a second one."""

    def __init__(self, size: int = 6) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[int, int | None, int], tuple[Image.Image, Any]] = OrderedDict()
        self._busy: dict[tuple[int, int | None, int], tuple[Image.Image, threading.Event]] = {}

    def __call__(self, image: Image.Image, max_side: int | None, quality: int) -> Any:
        key = (id(image), max_side, quality)
        while True:
            with self._lock:
                hit = self._items.get(key)
                if hit is not None and hit[0] is image:
                    self._items.move_to_end(key)
                    return hit[1]
                busy = self._busy.get(key)
                if busy is None or busy[0] is not image:
                    done = threading.Event()
                    self._busy[key] = (image, done)
                    break
            busy[1].wait()  # then the encoding is kept (or it failed, and this thread encodes it)
        try:
            part = encode_image(image, max_side, quality)
            with self._lock:
                self._items[key] = (image, part)
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
        finally:
            with self._lock:
                self._busy.pop(key, None)
            done.set()
        return part


encoded = _Encoded()


class LLMPlanner(BasePlanner):
    """The Mobile-Agent planner on a multimodal chat model (ReAct replies, one operation a step).

    Each step is one self-contained request: the system prompt, then one user message with the
    instruction, every earlier step's operation and outcome in text, the feedback, and only the
    last K screenshots (``PlanContext.earlier_screens`` plus the current one), so the tokens per
    step stay bounded. An unparseable reply goes back to the model with what was wrong, at most
    ``parse_retries`` times. ``mark_base`` is the number drawn on the first mark of a marked
    screenshot (perception numbers from 0).
    """

    #: the role its calls are recorded with (None in single mode; the multi mode's executor says so)
    role: str | None = None
    asks_model = True

    def __init__(self, model: ChatModel, *, parse_retries: int = 2, mark_base: int = 0,
                 max_tokens: int | None = None) -> None:
        self.model = model
        self.name = model.name
        self.parse_retries = parse_retries
        self.mark_base = mark_base
        self.max_tokens = max_tokens

    def _image(self, ctx: PlanContext, image: Image.Image):
        return encoded(image, ctx.image_max_side, ctx.jpeg_quality)

    def prepare(self, image: Image.Image, max_side: int | None, quality: int) -> None:
        """Encode ``image`` for the next request ahead of time (the loop does it beside its own work)."""
        encoded(image, max_side, quality)

    def _ask(self, messages: list[Message], calls: Calls, parse, what: str, kind: str,
             retry_text: Callable[[str], str] = prompts.parse_error_feedback):
        return ask(self.model, messages, parse, calls, kind=kind, what=f"the model's {what}", retry_text=retry_text,
                   retries=self.parse_retries, max_tokens=self.max_tokens, role=self.role)

    def plan(self, ctx: PlanContext) -> Plan:
        text = prompts.step_prompt(ctx.instruction, ctx.step, ctx.history_tuples(), ctx.feedback,
                                   len(ctx.earlier_screens))
        parts: list = [TextPart(text)]
        parts += [self._image(ctx, im) for im in ctx.earlier_screens]
        parts.append(self._image(ctx, ctx.screenshot))
        messages = [Message.text("system", prompts.system_prompt(ctx.operations)), Message("user", tuple(parts))]
        calls = Calls()
        try:
            parsed, raw, errors = self._ask(messages, calls, lambda r: parser.parse_reply(r, ctx.operations), "reply",
                                            "plan", lambda e: prompts.parse_error_feedback(e, ctx.operations))
        except PlanningError as exc:  # a point-output model's replies: say which family reads them
            from mobile_agent.agent.families.registry import point_format_hint

            hint = point_format_hint(exc.raw)
            if hint is None:
                raise
            raise PlanningError(f"{exc}; {hint}", exc.raw, exc.calls, exc.errors) from None
        return Plan(parsed.observation, parsed.thought, parsed.operation, raw, calls, request_summary(messages), errors)

    def choose(self, ctx: PlanContext, marked: Image.Image, candidates: Sequence[Any], question: str) -> Choice:
        n = len(candidates)
        text = prompts.choose_prompt(ctx.instruction, question, n, self.mark_base)
        messages = [Message.text("system", prompts.JUDGE_SYSTEM_PROMPT),
                    Message("user", (TextPart(text), self._image(ctx, marked)))]
        calls = Calls()
        index, raw, _ = self._ask(messages, calls, lambda r: parser.parse_choice(r, n, self.mark_base), "choice",
                                  "choose", prompts.choice_retry_text)
        return Choice(index, raw, calls)

    def check_completion(self, ctx: PlanContext) -> Completion:
        text = prompts.completion_prompt(ctx.instruction, ctx.history_tuples())
        messages = [Message.text("system", prompts.JUDGE_SYSTEM_PROMPT),
                    Message("user", (TextPart(text), self._image(ctx, ctx.screenshot)))]
        calls = Calls()
        verdict, raw, _ = self._ask(messages, calls, parser.parse_completion, "completion verdict", "complete",
                                    prompts.completion_retry_text)
        return Completion(verdict.value == "complete", verdict.reason, raw, calls)

    def reflect(self, ctx: PlanContext, before: Image.Image, after: Image.Image, operation: Operation,
                thought: str) -> Reflection:
        text = prompts.reflection_prompt(ctx.instruction, operation, thought)
        messages = [Message.text("system", prompts.JUDGE_SYSTEM_PROMPT),
                    Message("user", (TextPart(text), self._image(ctx, before), self._image(ctx, after)))]
        calls = Calls()
        verdict, raw, _ = self._ask(messages, calls, parser.parse_reflection, "reflection verdict", "reflect",
                                    prompts.reflection_retry_text)
        return Reflection(verdict.value, verdict.reason, raw, calls)
