"""The typed record of one step, and of each model call in it: what ``steps.jsonl`` holds.

:meth:`StepRecord.to_dict` is the one writer of a step's JSON line (the trajectory writer calls
it) and :meth:`StepRecord.from_dict` the one reader (:func:`mobile_agent.agent.trajectory.read_steps`);
the field names and their order are the ones docs/interfaces.md fixes, so reports read the file as
before. Single and multi mode write the same record: a multi-mode step carries its manager's turn,
plan and notes in :class:`MultiRecord`, and each call its ``role``. ``from_dict`` also reads the
lines written before these types (no ``calls`` list, a launch fallback written as
``{"kind": "none", "launch": ...}``, multi mode's own call kinds and ``latency_s``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mobile_agent.agent.operations import Operation, operation_from_dict, operation_to_dict
from mobile_agent.device.gestures import Gesture, NoGesture, gesture_from_dict

#: The kinds of model call a step makes: choosing the operation (in multi mode also the manager's
#: plan), choosing among numbered marks, the completion check and the reflection.
CALL_KINDS = ("plan", "choose", "complete", "reflect")
# The kinds multi mode wrote before it wrote this record.
_OLD_KINDS = {"operation": "plan", "choice": "choose", "reflection": "reflect"}


def _with_set(d: dict[str, Any], **optional: Any) -> dict[str, Any]:
    """``d`` with each of ``optional`` added, in order, where it is not None: the keys a line carries
    only when they say something (and lines written before them lack)."""
    d.update((k, v) for k, v in optional.items() if v is not None)
    return d


@dataclass
class CallRecord:
    """One request to the model: what it was for (``kind``; in multi mode also the ``role`` that
    asked), its raw reply (None when it failed), its tokens and cost, how long it took and, when it
    failed or could not be read, why."""

    kind: str
    raw: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    duration_s: float = 0.0
    error: str | None = None
    role: str | None = None
    cost_usd: float | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {} if self.role is None else {"role": self.role}
        d.update(kind=self.kind, raw=self.raw, prompt_tokens=self.prompt_tokens,
                 completion_tokens=self.completion_tokens, duration_s=round(self.duration_s, 3), error=self.error)
        return _with_set(d, cost_usd=self.cost_usd)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CallRecord:
        kind = str(d.get("kind", ""))
        duration = d.get("duration_s", d.get("latency_s"))
        return cls(_OLD_KINDS.get(kind, kind) if d.get("role") else kind, d.get("raw"),
                   int(d.get("prompt_tokens") or 0), int(d.get("completion_tokens") or 0), float(duration or 0.0),
                   d.get("error"), d.get("role"), d.get("cost_usd"))


def _raw_homes(d: dict[str, Any]) -> list[tuple[str, Any]]:
    """Where a step's line already holds a reply in full: the planning reply (``model.raw``), the
    completion check's, the multi mode manager's, and each choice among marks."""
    def get(v: Any, *keys: str) -> Any:
        for k in keys:
            v = v.get(k) if isinstance(v, dict) else None
        return v

    homes = [("model", get(d, "model", "raw")), ("completion", get(d, "completion", "raw")),
             ("manager", get(d, "manager", "raw"))]
    choices = get(d, "grounding", "choice_raw")
    if isinstance(choices, list):
        homes += [(f"grounding.{i}", c) for i, c in enumerate(choices)]
    return [(name, v) for name, v in homes if isinstance(v, str)]


def store_replies_once(d: dict[str, Any]) -> dict[str, Any]:
    """A step's line with each call's reply kept once: a call whose reply the line already holds in
    full (see :func:`_raw_homes`) says where (``raw_in``) instead of repeating it."""
    calls = d.get("calls")
    if not isinstance(calls, list):
        return d
    homes = _raw_homes(d)
    used: set[str] = set()
    for c in calls:
        raw = c.get("raw")
        if raw is None:
            continue
        name = next((n for n, v in homes if v == raw and n not in used), None)
        if name is not None:
            used.add(name)
            del c["raw"]
            c["raw_in"] = name
    return d


def replies_restored(d: dict[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`store_replies_once`: each call's ``raw`` filled from where it was kept
    (lines written before, which repeat every reply, are returned as they are)."""
    calls = d.get("calls")
    if not isinstance(calls, list) or not any(isinstance(c, dict) and "raw_in" in c for c in calls):
        return d
    homes = dict(_raw_homes(d))
    d = dict(d)
    d["calls"] = [dict(c, raw=homes.get(c["raw_in"])) if isinstance(c, dict) and "raw_in" in c else c
                  for c in calls]
    for c in d["calls"]:
        if isinstance(c, dict):
            c.pop("raw_in", None)
    return d


def per_role(calls: list[CallRecord]) -> dict[str, dict[str, Any]]:
    """Calls, tokens and cost of each role in ``calls`` (multi mode's ``roles``)."""
    out: dict[str, dict[str, Any]] = {}
    for c in calls:
        if c.role is None:
            continue
        r = out.setdefault(c.role, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": None})
        r["calls"] += 1
        r["prompt_tokens"] += c.prompt_tokens
        r["completion_tokens"] += c.completion_tokens
        if c.cost_usd is not None:
            r["cost_usd"] = round((r["cost_usd"] or 0.0) + c.cost_usd, 6)
    return out


@dataclass
class ModelRecord:
    """The planning call's reply and the token and cost totals of every call of the step."""

    raw: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    input_summary: str = ""
    parse_errors: list[str] | None = None
    calls: int | None = None
    cost_usd: float | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"raw": self.raw, "prompt_tokens": self.prompt_tokens,
                             "completion_tokens": self.completion_tokens, "input_summary": self.input_summary}
        if self.parse_errors:
            d["parse_errors"] = list(self.parse_errors)
        if self.calls is not None:
            d["calls"] = self.calls
            d["cost_usd"] = self.cost_usd
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ModelRecord:
        return cls(d.get("raw"), int(d.get("prompt_tokens") or 0), int(d.get("completion_tokens") or 0),
                   d.get("input_summary") or "", d.get("parse_errors"), d.get("calls"), d.get("cost_usd"))


@dataclass
class CandidateRecord:
    box: list[int]
    point: list[int]
    score: float
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"box": list(self.box), "point": list(self.point), "score": self.score, "text": self.text}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CandidateRecord:
        return cls(list(d["box"]), list(d["point"]), float(d["score"]), d.get("text"))

    @classmethod
    def of(cls, c: Any) -> CandidateRecord:
        """From a perception :class:`~mobile_agent.perception.Candidate`."""
        return cls(list(c.box.as_tuple()), list(c.point.as_tuple()), round(float(c.score), 4), c.text)


@dataclass
class GroundingRecord:
    """What perception found for the operation: status, candidates (best first), the chosen index."""

    status: str
    candidates: list[CandidateRecord] = field(default_factory=list)
    chosen: int | None = None
    message: str = ""
    choice_raw: list[str] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"status": self.status, "candidates": [c.to_dict() for c in self.candidates],
                             "chosen": self.chosen, "message": self.message}
        if self.choice_raw:
            d["choice_raw"] = list(self.choice_raw)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GroundingRecord:
        return cls(str(d.get("status")), [CandidateRecord.from_dict(c) for c in d.get("candidates") or []],
                   d.get("chosen"), d.get("message") or "", d.get("choice_raw"))


@dataclass
class ReflectionRecord:
    changed: bool | None = None
    verdict: str | None = None
    feedback: str | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _with_set({"changed": self.changed, "verdict": self.verdict, "feedback": self.feedback},
                         reason=self.reason)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ReflectionRecord:
        return cls(d.get("changed"), d.get("verdict"), d.get("feedback"), d.get("reason"))


@dataclass
class CompletionRecord:
    """Whether the instruction is complete, why, and the reply that said so; ``by`` names who
    judged when it was not the completion check (multi mode: the manager)."""

    complete: bool
    reason: str = ""
    raw: str = ""
    by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _with_set({"complete": self.complete, "reason": self.reason, "raw": self.raw}, by=self.by)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CompletionRecord:
        return cls(bool(d.get("complete")), d.get("reason") or "", d.get("raw") or "", d.get("by"))


@dataclass
class UserRecord:
    """A step that asked a person (Ask User, Take Over): the request's ``kind`` (``question`` or
    ``take_over``), its ``text`` (the model's question or reason), the person's ``answer`` in their
    words (None when no one could answer: the run ended ``needs_user``) and how long they took."""

    kind: str
    text: str
    answer: str | None = None
    waited_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "answer": self.answer, "waited_s": round(self.waited_s, 3)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> UserRecord:
        answer = d.get("answer")
        return cls(str(d.get("kind") or "question"), str(d.get("text") or ""),
                   answer if isinstance(answer, str) else None, float(d.get("waited_s") or 0.0))


@dataclass
class Timings:
    perception_s: float = 0.0
    model_s: float = 0.0
    device_s: float = 0.0
    total_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"perception_s": self.perception_s, "model_s": self.model_s, "device_s": self.device_s,
                "total_s": self.total_s}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Timings:
        return cls(*(float(d.get(k) or 0.0) for k in ("perception_s", "model_s", "device_s", "total_s")))


@dataclass
class MultiRecord:
    """What a multi-mode step adds: the manager's turn (its observation, route, status, raw reply,
    the alerts it was shown, its input and parse errors), the subgoal the executor worked on, the
    plan and the notes after the turn, a cycle, the text typed after notes were filled in and the
    verifier's deterministic check. Written at the top level of the step's line, as before."""

    manager: dict[str, Any] | None = None
    subgoal: str | None = None
    cycle: dict[str, Any] | None = None
    typed: str | None = None
    verification: dict[str, Any] | None = None
    plan: list[dict[str, Any]] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MultiRecord:
        return cls(d.get("manager"), d.get("subgoal"), d.get("cycle"), d.get("typed"), d.get("verification"),
                   list(d.get("plan") or []), dict(d.get("notes") or {}))


@dataclass
class StepRecord:
    """One step of a run, as ``steps.jsonl`` holds it (see docs/interfaces.md)."""

    step: int
    screenshot: str | None = None
    annotated: str | None = None
    model: ModelRecord = field(default_factory=ModelRecord)
    observation: str = ""
    thought: str = ""
    action: str | None = None
    operation: Operation | None = None
    grounding: GroundingRecord | None = None
    gesture: Gesture = field(default_factory=NoGesture)
    reflection: ReflectionRecord = field(default_factory=ReflectionRecord)
    timings: Timings = field(default_factory=Timings)
    error: str | None = None
    completion: CompletionRecord | None = None
    calls: list[CallRecord] = field(default_factory=list)
    multi: MultiRecord | None = None
    user: UserRecord | None = None
    #: "replayed" (a recorded run's operation, agent/replay.py) or "planned" (the model's, in a
    #: replay that handed over); None in an ordinary run
    source: str | None = None

    @property
    def mode(self) -> str:
        return "single" if self.multi is None else "multi"

    @property
    def carried_out(self) -> bool:
        """True when the step did something to the phone (or was a Stop) without an error."""
        from mobile_agent.agent.operations import Stop

        answered = self.user is not None and self.user.answer is not None  # Ask User, Take Over
        return self.error is None and (not isinstance(self.gesture, NoGesture) or isinstance(self.operation, Stop)
                                       or answered)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of one line of ``steps.jsonl``."""
        d: dict[str, Any] = {
            "step": self.step, "screenshot": self.screenshot, "annotated": self.annotated,
            "model": self.model.to_dict(), "observation": self.observation, "thought": self.thought,
            "action": self.action,
            "operation": operation_to_dict(self.operation) if self.operation is not None else None,
            "grounding": self.grounding.to_dict() if self.grounding is not None else None,
            "gesture": self.gesture.to_dict(), "reflection": self.reflection.to_dict(),
            "timings": self.timings.to_dict(), "error": self.error,
        }
        if self.user is not None:  # a step that asked a person (lines of steps that did not lack it)
            d["user"] = self.user.to_dict()
        _with_set(d, source=self.source)
        if self.multi is not None:
            return store_replies_once(self._multi_dict(d))
        if self.completion is not None:
            d["completion"] = self.completion.to_dict()
        if self.calls:
            d["calls"] = [c.to_dict() for c in self.calls]
        return store_replies_once(d)

    def _multi_dict(self, d: dict[str, Any]) -> dict[str, Any]:
        m = self.multi
        assert m is not None
        d["mode"] = "multi"
        _with_set(d, manager=m.manager)
        if (m.manager is not None and "status" in m.manager) or m.subgoal is not None:
            d["subgoal"] = m.subgoal  # written once the manager's turn was read, even when None
        if self.completion is not None:
            d["completion"] = self.completion.to_dict()
        _with_set(d, cycle=m.cycle, typed=m.typed, verification=m.verification)
        d["roles"] = per_role(self.calls)
        d["calls"] = [c.to_dict() for c in self.calls]
        d["plan"] = list(m.plan)
        d["notes"] = dict(m.notes)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> StepRecord:
        """Read one line of ``steps.jsonl``, of this version or an earlier one. Raises ``ValueError``
        (saying what is wrong) for a line that is not a step record."""
        if not isinstance(d, dict):
            raise ValueError(f"a step record is a JSON object, got {type(d).__name__}")
        d = replies_restored(d)
        try:
            step = d["step"]
            if not isinstance(step, int) or isinstance(step, bool):
                raise ValueError(f"'step' must be a number, got {step!r}")
            return cls(
                step=step, screenshot=d.get("screenshot"), annotated=d.get("annotated"),
                model=ModelRecord.from_dict(d.get("model") or {}),
                observation=d.get("observation") or "", thought=d.get("thought") or "", action=d.get("action"),
                operation=operation_from_dict(d["operation"]) if d.get("operation") else None,
                grounding=GroundingRecord.from_dict(d["grounding"]) if d.get("grounding") else None,
                gesture=gesture_from_dict(d.get("gesture") or {"kind": "none"}),
                reflection=ReflectionRecord.from_dict(d.get("reflection") or {}),
                timings=Timings.from_dict(d.get("timings") or {}),
                error=d.get("error"),
                completion=CompletionRecord.from_dict(d["completion"]) if d.get("completion") else None,
                calls=[CallRecord.from_dict(c) for c in d.get("calls") or []],
                multi=MultiRecord.from_dict(d) if d.get("mode") == "multi" else None,
                user=UserRecord.from_dict(d["user"]) if isinstance(d.get("user"), dict) else None,
                source=d.get("source") if isinstance(d.get("source"), str) else None,
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"step record {d.get('step')!r} is malformed: {type(exc).__name__}: {exc}") from None


def as_step_record(step: StepRecord | dict[str, Any]) -> StepRecord:
    """``step`` as a typed record (a JSON line's dict is read with :meth:`StepRecord.from_dict`)."""
    return step if isinstance(step, StepRecord) else StepRecord.from_dict(step)
