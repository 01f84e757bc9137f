"""The step loop: screenshot, plan, ground, act, wait until the screen is still, reflect, record.

```python
from mobile_agent.agent import StepLoop, AgentSettings, LLMPlanner
from mobile_agent.model import make_chat_model
agent = StepLoop(device, LLMPlanner(make_chat_model("gpt-4o")), perception, AgentSettings(max_steps=20))
result = agent.run("Turn on the dark mode", "runs/dark")
result.outcome, result.completed, result.steps
```
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, NamedTuple, Protocol, Sequence

from PIL import Image

from mobile_agent.agent import prompts
from mobile_agent.agent.allowlist import AllowGate, check_allowed_apps, refusal_feedback
from mobile_agent.agent.operations import (
    OPERATION_TYPES, USER, USER_OPERATIONS, AskUser, Geometry, OpenApp, Operation, Stop, supported,
)
from mobile_agent.agent.overlap import Prefetch
from mobile_agent.agent.planner import (
    Calls, Choice, Completion, HistoryEntry, Plan, PlanContext, Planner, PlanningError, calls_of,
)
from mobile_agent.agent.points import ground_point
from mobile_agent.agent.record import CandidateRecord, CompletionRecord, GroundingRecord, StepRecord, UserRecord
from mobile_agent.agent.reflection import LoopDetector, pixels_changed, screen_changed
from mobile_agent.agent.risk import decide
from mobile_agent.agent.trajectory import TrajectoryWriter, draw_gesture
from mobile_agent.agent.user import NEEDS_USER, AskFn, UserRequest, answer_outcome
from mobile_agent.device.base import device_capabilities
from mobile_agent.device.gestures import DoubleTap, Gesture, Launch, NoGesture, Swipe, Tap, TypeText, gesture_point
from mobile_agent.device.gestures import LongPress as LongPressGesture
from mobile_agent.errors import ConfigError, DeviceError, MobileAgentError, Terminated, TimeLimitReached
from mobile_agent.model.base import Usage
from mobile_agent.model.deadline import reset_run_end, set_run_end

log = logging.getLogger(__name__)


def placeholder(name: str) -> str:
    """How the records, the model and a run cache write the value of ``--param`` or ``--secret``
    NAME: ``{NAME}``."""
    return "{" + name + "}"


def fill_secrets(text: str, secrets: dict[str, str]) -> str:
    """``text`` with each ``{NAME}`` of ``secrets`` replaced by its value (``--secret NAME=VALUE``)."""
    for name, value in secrets.items():
        text = text.replace(placeholder(name), value)
    return text

ConfirmFn = Callable[[Operation, str], bool]

#: A model that answers faster than this (seconds) leaves no time to hide a parse behind: the
#: screenshot after it is parsed when grounding needs it, as without the overlap (agent/overlap.py).
QUICK_MODEL_S = 0.25

#: How a history entry's outcome starts when grounding found nothing to act on (planners may test it).
NOT_CARRIED_OUT = "not carried out"

_RISKY = re.compile(
    r"\b(send|buy|buy now|pay|pay now|payment|purchase|check ?out|place order|order now|delete|remove|erase|"
    r"post|publish|transfer)\b",
    re.IGNORECASE,
)


class PerceptionLike(Protocol):
    """The part of :class:`mobile_agent.perception.Perception` the loop uses (see docs/interfaces.md)."""

    def ground_text(self, image: Image.Image, text: str, position: tuple[str, ...] = (), choose: Any = None) -> Any: ...

    def ground_app(self, image: Image.Image, name: str, choose: Any = None) -> Any: ...

    def ground_icon(self, image: Image.Image, description: str, position: tuple[str, ...] = (),
                    choose: Any = None) -> Any: ...

    def screen_changed(self, before: Image.Image, after: Image.Image) -> bool: ...


@dataclass
class AgentSettings:
    """How a run goes.

    ``image_max_side``/``jpeg_quality``: how screenshots are encoded for the model.
    ``history_screens``: how many screenshots (the current one included) each request carries.
    ``confirm``: asked before an operation that would touch something risky, with why: what it sends,
    buys, pays, deletes, installs, signs out of or confirms (:mod:`mobile_agent.agent.risk` decides on
    the grounded element and the screen, with ``risk_rules``: None for the built-in words and the
    user's file); False ends the run. ``save_annotated``: keep a ``*_annotated.png`` copy of each
    screenshot with the gesture drawn (the benchmark does not: its pages draw it themselves).
    ``dry_run``: plan and ground one step, draw where it would tap, touch nothing.
    ``reflect``: an extra model call after each operation that changed the screen (as expected /
    wrong page). ``completion_check``: after Stop, ask whether the instruction is really complete.
    ``on_step``: called with each step's :class:`StepRecord` as it is written (for live output; single
    and multi mode alike).
    ``on_finish``: called with the run folder once ``summary.json`` is written (the CLI and the
    benchmark write the HTML report there; the agent layer itself knows nothing of reports).
    ``overwrite``: a run into a folder that already holds one (its ``summary.json`` or ``steps.jsonl``)
    replaces it; without it the run is refused with a :class:`ConfigError` before anything is written.
    ``overlap_perception``: parse each screenshot beside the model call, and write the screenshots
    on a thread of their own (:mod:`mobile_agent.agent.overlap`), where the planner asks a model
    (``asks_model``); the same grounding and records, less time a step beyond the model's.
    ``ask``: reaches the person behind the run (:mod:`mobile_agent.agent.user`): with it the prompt
    offers Ask User and Take Over, and the callback gets each :class:`UserRequest` and returns the
    answer in the person's words, or None when no one can answer (the run ends ``needs_user``). The
    time spent waiting for the person does not count towards ``time_limit_s``.
    ``allowed_apps``: when not empty, the only apps the run may open (labels or packages, ``run
    --allow-app``): an Open App of another app, or a press on another app's launcher icon, is
    refused as a step error, the model told, and the run goes on (:mod:`mobile_agent.agent.allowlist`).
    """

    max_steps: int = 20
    time_limit_s: float | None = 900.0
    image_max_side: int | None = 1024
    jpeg_quality: int = 80
    history_screens: int = 1
    confirm: ConfirmFn | None = None
    risk_rules: Any = None
    save_annotated: bool = True
    dry_run: bool = False
    reflect: bool = False
    completion_check: bool = True
    loop_threshold: int = 3
    settle_timeout_s: float = 3.0
    settle_interval_s: float = 0.2
    swipe_ms: int = 400
    long_press_ms: int = 800
    launch_fallback: bool = False
    on_finish: Callable[[Path], None] | None = None
    device_name: str = ""
    on_step: Callable[[StepRecord], None] | None = None
    perception_mode: str = "vision"  # "hybrid": the device's ui_tree() beside the pixels where it gives one
    overwrite: bool = False
    overlap_perception: bool = True
    ask: AskFn | None = None
    #: ``--secret NAME=VALUE``: a typed ``{NAME}`` reaches the phone as VALUE; the records, the model
    #: and a run cache keep ``{NAME}`` (:func:`fill_secrets`)
    secrets: dict[str, str] = field(default_factory=dict)
    allowed_apps: tuple[str, ...] = ()
    #: the icon recogniser Click Icon uses: a folder ``mobile-agent perception learn`` wrote, or its
    #: ``.onnx`` file (None: the perception's own, the shipped one by default)
    icon_model: str | Path | None = None

    def __post_init__(self) -> None:
        self.allowed_apps = check_allowed_apps(self.allowed_apps)
        if self.max_steps < 1:
            raise ConfigError(f"max steps must be at least 1, got {self.max_steps}")
        if self.history_screens < 1:
            raise ConfigError(f"history screens must be at least 1 (the current screen), got {self.history_screens}")
        if not 1 <= self.jpeg_quality <= 95:
            raise ConfigError(f"JPEG quality must be in 1..95, got {self.jpeg_quality}")
        if self.perception_mode not in ("vision", "hybrid"):
            raise ConfigError(f"perception mode must be vision or hybrid, got {self.perception_mode!r}")
        if self.image_max_side is not None and self.image_max_side < 64:
            raise ConfigError(f"image longest side must be at least 64 pixels, got {self.image_max_side}")


@dataclass
class RunResult:
    """How a run ended. ``completed`` is true only when Stop was confirmed by the completion check."""

    outcome: str
    completed: bool
    steps: int
    out_dir: Path
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = None
    duration_s: float = 0.0
    error: str | None = None
    exception: BaseException | None = None
    needs_user: UserRequest | None = None  # the request no one answered (outcome ``needs_user``)
    answer: str | None = None  # the text an Answer gave the user (``summary.json`` ``answer``)


class _End(Exception):
    def __init__(self, outcome: str, error: str | None = None, exc: BaseException | None = None) -> None:
        super().__init__(outcome)
        self.outcome, self.error, self.exc = outcome, error, exc


def run_ended(exc: BaseException) -> tuple[str, str | None, BaseException | None]:
    """The outcome, error text and exception kept for a run that ``exc`` ended (call it inside the
    ``except`` clause: a bug below is logged with its traceback)."""
    if isinstance(exc, _End) and isinstance(exc.exc, TimeLimitReached):  # the limit came during a model call
        return "time_limit", exc.error, None
    if isinstance(exc, _End):
        return exc.outcome, exc.error, exc.exc
    if isinstance(exc, TimeLimitReached):
        return "time_limit", str(exc), None
    if isinstance(exc, KeyboardInterrupt):  # Ctrl-C, or SIGTERM (errors.Terminated says which)
        # an interrupt raised in a phone's thread (agent/fleet.py) is its type alone, with no message
        return "interrupted", str(exc) or ("ended by SIGTERM" if isinstance(exc, Terminated)
                                           else "interrupted by the user (Ctrl-C)"), None
    if isinstance(exc, MobileAgentError):  # a model or device failure outside a step's own handling
        return "error", str(exc), exc
    log.exception("the run failed")
    return "error", f"internal error: {type(exc).__name__}: {exc}", exc


def save_final_screen(device: Any, writer: TrajectoryWriter, dry_run: bool, current: Image.Image | None) -> None:
    """Save the screen the run ended on: a new screenshot, or in a dry run (which touched nothing) the
    last one taken; the record is written without it when the device cannot give one."""
    try:
        final = device.screenshot() if not dry_run else current
        if final is not None:
            writer.save_screen("final", final)
    except Exception as exc:  # noqa: BLE001 - the record is written without it
        log.warning("could not take the final screenshot: %s", exc)


def start_run(instruction: str, out_dir: str | Path, overwrite: bool = False) -> tuple[TrajectoryWriter, str, float]:
    """Check the instruction and open the run folder: (its writer, the start time, the monotonic start).
    A folder that holds an earlier run is refused unless ``overwrite``."""
    if not instruction.strip():
        raise ConfigError("the instruction is empty: say what the agent should do")
    return TrajectoryWriter(out_dir, overwrite=overwrite), _now(), time.monotonic()


def run_summary(instruction: str, outcome: str, completed: bool, steps: int, started: str, duration: float,
                usage: Usage, cost: float | None, model: str, device: str, error: str | None,
                needs_user: UserRequest | None = None) -> dict[str, Any]:
    """The fields of ``summary.json`` both modes write (docs/interfaces.md); a run that ended
    ``needs_user`` adds the request no one answered (``needs_user``: kind, text, step)."""
    extra = {"needs_user": needs_user.to_dict()} if needs_user is not None else {}
    return {
        "instruction": instruction, "outcome": outcome, "completed": completed, "steps": steps,
        "started_at": started, "ended_at": _now(), "duration_s": round(duration, 3),
        "tokens": {"prompt": usage.prompt_tokens, "completion": usage.completion_tokens, "total": usage.total_tokens},
        "cost_usd": None if cost is None else round(cost, 6), "model": model, "device": device, "error": error,
        **extra,
    }


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class StepRun:
    """One step as it goes: what the planner was given, the record being filled, the model calls
    made so far, when it started, and the writer of the run folder. The loop's pieces
    (:meth:`StepLoop.plan`, :meth:`StepLoop.ground`, :meth:`StepLoop.act`, :meth:`StepLoop.reflect`,
    :meth:`StepLoop.record`) work on one; other loops (the multi-agent mode) make their own."""

    ctx: PlanContext
    rec: StepRecord
    calls: Calls
    t0: float
    writer: TrajectoryWriter
    tree: str | None = None  # the accessibility tree grounding read (hybrid perception), for --confirm


class StepEnd(NamedTuple):
    """How a step ended: the screen after it (None: the next step takes a screenshot), its history
    entry, the feedback for the next step, and the run's outcome when the run ends here."""

    after: Image.Image | None
    entry: HistoryEntry | None
    feedback: list[str]
    outcome: str | None


def is_risky(op: Operation) -> bool:
    """True for operations whose words say they send, buy, pay, delete or post (checked word by word)."""
    words = op.words()
    return bool(words and _RISKY.search(words))


class StepLoop:
    """The Mobile-Agent step loop over a :class:`~mobile_agent.device.base.Device`, a :class:`Planner`
    and a perception object (``mobile_agent.perception.Perception``): :meth:`run` repeats one step,
    whose named parts (``_observe``, ``_plan_step``, ...) each hand it on or end it. The Python API's
    ``mobile_agent.Agent`` (``api.py``) wraps it with the report; ``agent.multi.MultiAgent`` runs its
    own loop of roles and calls its public pieces (:meth:`plan`, :meth:`ground`, :meth:`act`). Named ``Agent`` before (``mobile_agent.agent.Agent``, which
    still gives this class, with a ``DeprecationWarning``)."""

    def __init__(self, device: Any, planner: Planner, perception: PerceptionLike | None,
                 settings: AgentSettings | None = None) -> None:
        self.device = device
        self.planner = planner
        self.perception = perception
        self.settings = settings or AgentSettings()
        if self.settings.icon_model is not None and perception is not None:
            use = getattr(perception, "use_icon_model", None)
            if not callable(use):
                raise ConfigError(f"settings.icon_model: the perception {type(perception).__name__} takes no icon model")
            use(self.settings.icon_model)

    # --- the run ---------------------------------------------------------------------------------

    def run(self, instruction: str, out_dir: str | Path) -> RunResult:
        """Carry out ``instruction``, writing the trajectory to ``out_dir``. Never raises for a run
        that goes wrong (the outcome says how it ended); Ctrl-C (and SIGTERM through the CLI) ends it
        cleanly as ``interrupted``. A folder that cannot be written (a full disk) raises
        :class:`~mobile_agent.errors.StorageError` when not even ``summary.json`` can be written."""
        s = self.settings
        writer, started, t0 = start_run(instruction, out_dir, s.overwrite)
        self._usage, self._cost, self._steps = Usage(), None, 0
        self._pending_device_s = 0.0
        history: list[HistoryEntry] = []
        # A device's words for the model at the first step (an iPhone's Back: device/ios.py NOTES).
        feedback: list[str] = [str(n) for n in getattr(self.device, "notes", ()) or ()]
        screens: list[Image.Image] = []
        detector = LoopDetector(s.loop_threshold)
        operations = supported(device_capabilities(self.device) | ({USER} if s.ask is not None else set()))
        current: Image.Image | None = None
        outcome, error, exc_kept = "step_limit", None, None
        completed = False
        self._needs_user, self._user_wait_s, self._t0, self._answer = None, 0.0, t0, None
        deadline = set_run_end(t0 + s.time_limit_s if s.time_limit_s is not None else None)  # holds in model calls
        self._prefetch = self._make_prefetch()
        if self._prefetch is not None:  # each screen's lines, as parsed ahead, for a replay (agent/replay.py)
            self._prefetch.keep_lines(writer.dir / "lines.json")
        self._quick_model = False
        self._allow = AllowGate(self.device, self.perception, s.allowed_apps) if s.allowed_apps else None
        try:
            for step in range(1, s.max_steps + 1):
                if s.time_limit_s is not None and time.monotonic() - t0 - self._user_wait_s > s.time_limit_s:
                    raise _End("time_limit", f"the wall-clock limit of {s.time_limit_s:.0f} s was reached")
                if current is None:
                    current = self._screenshot()
                    self._parse_ahead(current)
                ctx = PlanContext(
                    instruction=instruction, step=step, screenshot=current, history=tuple(history),
                    earlier_screens=tuple(screens[-(s.history_screens - 1):]) if s.history_screens > 1 else (),
                    feedback=tuple(feedback), image_max_side=s.image_max_side, jpeg_quality=s.jpeg_quality,
                    operations=operations,
                )
                self._reply = ""
                after, entry, new_feedback, done = self._step(ctx, writer, detector)
                self._steps = step
                if entry is not None:
                    history.append(self._turn(entry, current, history))
                feedback = new_feedback
                if done:
                    outcome, completed = done, done == "completed"
                    break
                screens.append(current)
                del screens[:-max(1, s.history_screens - 1)]  # keep only what the history sends
                current = after
        except (KeyboardInterrupt, Exception) as exc:  # noqa: BLE001 - a bug below must still leave a complete record
            outcome, error, exc_kept = run_ended(exc)
        finally:
            reset_run_end(deadline)
            self._close_prefetch()
        save_final_screen(self.device, writer, s.dry_run, current)
        duration = time.monotonic() - t0
        summary = run_summary(
            instruction, outcome, completed, self._steps, started, duration, self._usage, self._cost,
            getattr(self.planner, "name", type(self.planner).__name__), s.device_name or type(self.device).__name__,
            error, self._needs_user if outcome == NEEDS_USER else None)
        if self._answer is not None:  # what an Answer gave the user
            summary["answer"] = self._answer
        extra = getattr(self.planner, "summary_extra", None)  # a replay's counts (agent/replay.py)
        if callable(extra):
            summary.update(extra())
        writer.write_summary(summary)
        if s.on_finish is not None:
            _finish(s.on_finish, writer.dir)
        return RunResult(outcome, completed, self._steps, writer.dir, self._usage, self._cost, duration, error, exc_kept,
                         self._needs_user if outcome == NEEDS_USER else None, self._answer)

    # --- one step: observe, plan, ground, act, reflect, record -------------------------------------

    def _step(self, ctx: PlanContext, writer: TrajectoryWriter, detector: LoopDetector) -> StepEnd:
        """One step as its named parts; each part either hands the step on or ends it (a
        :class:`StepEnd`: the screen after, the history entry, the feedback for the next step, the
        outcome when the run ends here), and the step is recorded once it has ended. A part that
        ends the run raises ``_End`` after recording the step."""
        step = self._observe(ctx, writer)
        plan = self._plan_step(step, detector)
        end = self._user_turn(step, plan) or self._stop_turn(step, plan) or self._allow_step(step, plan, None)
        if end is None:
            gesture, end = self._ground_step(step, plan)
            end = end or self._allow_step(step, plan, gesture) or self._confirm_step(step, plan, gesture)
            if end is None:
                after = self._act_step(step, gesture)
                end = self._reflect_step(step, plan, gesture, after)
        self.record(step)
        return end

    def _observe(self, ctx: PlanContext, writer: TrajectoryWriter) -> StepRun:
        """The step begins: its record, the device time of the step before it, its screenshot kept."""
        step = StepRun(ctx, StepRecord(ctx.step), Calls(), time.monotonic(), writer)
        step.rec.timings.device_s = self._pending_device_s
        self._pending_device_s = 0.0
        step.rec.screenshot = self._save_screen(writer, f"step_{ctx.step:03d}", ctx.screenshot)
        return step

    def _end_run(self, step: StepRun, outcome: str, error: str | None, exc: BaseException | None = None) -> _End:
        """The run ends in this step: the step is recorded (with ``error``) before the run ends."""
        if error is not None:
            step.rec.error = error
        self.record(step)
        return _End(outcome, error, exc)

    def _plan_step(self, step: StepRun, detector: LoopDetector) -> Plan:
        """The planner's operation (the screenshot's parse runs meanwhile: see overlap.py); the same
        operation on the same screen ``loop_threshold`` times ends the run."""
        ctx = step.ctx
        plan = self.plan(step)
        if self._prefetch is not None:
            self._prefetch.answered()
            self._quick_model = plan.calls.model_s < QUICK_MODEL_S
        op = plan.operation
        if detector.is_loop(op, ctx.screenshot):
            raise self._end_run(step, "loop",
                                f"loop: {op} was chosen {self.settings.loop_threshold} times on the same screen; stopped")
        detector.record(op, ctx.screenshot)
        return plan

    def _user_turn(self, step: StepRun, plan: Plan) -> StepEnd | None:
        """Ask User, Take Over: the person behind the run answers (or no one can: needs_user)."""
        op, ctx = plan.operation, step.ctx
        if not isinstance(op, USER_OPERATIONS):
            return None
        answer = self.ask_user(step, op)
        if answer is None:
            raise self._end_run(step, NEEDS_USER, None)
        after = ctx.screenshot
        if not isinstance(op, AskUser):  # the person used the phone: look at it again
            after = self._screenshot()
            self._parse_ahead(after, undo_last=not self._perceived)
        return StepEnd(after, HistoryEntry(ctx.step, op, answer_outcome(self._request(op, ctx.step), answer),
                                           plan.thought), [], "dry_run" if self.settings.dry_run else None)

    def _stop_turn(self, step: StepRun, plan: Plan) -> StepEnd | None:
        """Stop: the completion check (an Answer is a Stop with the text the user gets back)."""
        op, ctx, s = plan.operation, step.ctx, self.settings
        if not isinstance(op, Stop):
            return None
        self._answer = getattr(op, "text", self._answer)
        if not s.completion_check or s.dry_run:
            return StepEnd(None, HistoryEntry(ctx.step, op, "stopped", plan.thought), [],
                           "completed" if not s.dry_run else "dry_run")
        comp = self.check_completion(step)
        if comp.complete:
            step.rec.reflection.verdict = "as_expected"
            return StepEnd(None, HistoryEntry(ctx.step, op, "confirmed complete", plan.thought), [], "completed")
        fb = prompts.incomplete_feedback(comp.reason)
        step.rec.reflection.feedback = fb
        return StepEnd(ctx.screenshot, HistoryEntry(ctx.step, op, "not complete yet: " + (comp.reason or "continue")),
                       [fb], None)

    def _ground_step(self, step: StepRun, plan: Plan) -> tuple[Gesture, StepEnd | None]:
        """Where: the operation's gesture (the annotated screenshot kept); an operation perception
        found nothing for is not carried out, and the planner is told why."""
        op, ctx, rec, s = plan.operation, step.ctx, step.rec, self.settings
        gesture, grounding_fb = self.ground(op, step)
        rec.gesture = gesture
        boxes = [c.box for c in rec.grounding.candidates] if rec.grounding is not None else []
        if s.save_annotated and (isinstance(gesture, (Tap, LongPressGesture, Swipe)) or boxes):
            annotated = draw_gesture(ctx.screenshot, gesture, boxes)
            rec.annotated = self._save_screen(step.writer, f"step_{ctx.step:03d}_annotated", annotated)
        if grounding_fb is None:
            return gesture, None
        rec.reflection.feedback = grounding_fb
        return gesture, StepEnd(ctx.screenshot,
                                HistoryEntry(ctx.step, op, f"{NOT_CARRIED_OUT}: nothing matched", plan.thought),
                                [grounding_fb], None if not s.dry_run else "dry_run")

    _allow: AllowGate | None = None

    def _allow_step(self, step: StepRun, plan: Plan, gesture: Gesture | None) -> StepEnd | None:
        """With ``allowed_apps``, an Open App (before grounding) or a press on a launcher icon (after
        it) of an app outside the list is refused: a step error, the model told, the run goes on."""
        op, ctx, rec, gate = plan.operation, step.ctx, step.rec, self._allow
        why = gate.refusal(op, gesture, ctx.screenshot) if gate is not None else None
        if gate is None or why is None:
            return None
        rec.error, rec.gesture = why, NoGesture()
        rec.reflection.feedback = fb = refusal_feedback(op, why, gate.allowed)
        return StepEnd(ctx.screenshot, HistoryEntry(ctx.step, op, f"{NOT_CARRIED_OUT}: {why}", plan.thought), [fb],
                       "dry_run" if self.settings.dry_run else None)

    @staticmethod
    def _where(gesture: Gesture) -> str:
        """`` at (x, y)`` for a gesture at a point (a swipe has none), for the user's and the model's words."""
        point = gesture_point(gesture) if not isinstance(gesture, Swipe) else None
        return f" at ({point[0]}, {point[1]})" if point is not None else ""

    def _confirm_step(self, step: StepRun, plan: Plan, gesture: Gesture) -> StepEnd | None:
        """With ``--confirm``, a risky operation asks the user first (declined: the run ends); a dry
        run ends here."""
        op, ctx, rec, s = plan.operation, step.ctx, step.rec, self.settings
        grounding = rec.grounding.to_dict() if rec.grounding is not None else None
        if s.confirm is not None:
            self._perception_quiet()
        risk = decide(op, grounding, self.perception, ctx.screenshot, s.risk_rules, step.tree, gesture) \
            if s.confirm is not None else None
        if risk is not None and risk.risky:
            if not s.confirm(op, f"{op}{self._where(gesture)}: {risk.why}"):
                raise self._end_run(step, "interrupted", f"the user declined {op}")
        if s.dry_run:
            return StepEnd(None, HistoryEntry(ctx.step, op, "dry run: not carried out", plan.thought), [], "dry_run")
        return None

    def _act_step(self, step: StepRun, gesture: Gesture) -> Image.Image:
        """The gesture on the device, then the wait until the screen is still; the next step's screen
        is parsed (and encoded for the model) while this one reflects and records."""
        s, rec = self.settings, step.rec
        t = time.monotonic()
        try:
            if isinstance(gesture, DoubleTap) and s.confirm is not None:
                after = self._double_tap_judged(step, gesture)
            else:
                after = self.act(gesture, step.ctx.screenshot)
        except DeviceError as exc:
            rec.timings.device_s += time.monotonic() - t
            raise self._end_run(step, "error", f"device: {exc}", exc)
        rec.timings.device_s += time.monotonic() - t
        self._parse_ahead(after, undo_last=not self._perceived)
        prepare = getattr(self.planner, "prepare", None)
        if self._prefetch is not None and prepare is not None:
            self._prefetch.aside(lambda: _quietly(prepare, after, s.image_max_side, s.jpeg_quality))
        return after

    def _double_tap_judged(self, step: StepRun, gesture: DoubleTap) -> Image.Image:
        """With ``--confirm``, a double tap's second tap is judged on the screen it meets: the first
        tap is made, and where it changed the screen (a list item that opened its page), what now lies
        under the point is judged as a tap there (a video page's Subscribe); declined, the second tap
        is not made and the run ends. On a phone a double tap made so is two taps with a look between
        them (the screenshot's time apart), which an app that waits for a double tap reads as two taps."""
        from mobile_agent.agent.operations import TapPoint

        before = step.ctx.screenshot
        self.device.tap(gesture.x, gesture.y)
        mid = self._settle(before)
        if screen_changed(self.perception, before, mid):
            op = TapPoint(gesture.x, gesture.y)
            tree = self._ui_tree() if self.settings.perception_mode == "hybrid" else None
            grounding, _ = ground_point(op, mid, self.perception)
            risk = decide(op, grounding.to_dict(), self.perception, mid, self.settings.risk_rules, tree)
            if risk.risky and not self.settings.confirm(
                    op, f"the second tap of the double tap at ({gesture.x}, {gesture.y}) meets the screen its first "
                        f"tap opened: {risk.why}"):
                raise self._end_run(step, "interrupted", f"the user declined the second tap at ({gesture.x}, "
                                                         f"{gesture.y})")
        self.device.tap(gesture.x, gesture.y)
        return self._settle(mid)

    def _reflect_step(self, step: StepRun, plan: Plan, gesture: Gesture, after: Image.Image) -> StepEnd:
        """Did the screen change, and (with ``--reflect``) was it the page expected?"""
        op = plan.operation
        feedback, outcome_text = self.reflect(step, op, plan.thought, after, self._where(gesture))
        return StepEnd(after, HistoryEntry(step.ctx.step, op, outcome_text, plan.thought), list(feedback), None)

    _pending_device_s = 0.0

    _reply = ""

    def _turn(self, entry: HistoryEntry, screen: Image.Image, history: list[HistoryEntry]) -> HistoryEntry:
        """``entry`` with the model's reply of its step and, for a planner that sends earlier screenshots
        (``screens_kept``), the screen it planned on; the screens of older entries are let go."""
        keep = int(getattr(self.planner, "screens_kept", 0) or 0)
        if keep and len(history) >= keep and history[-keep].screen is not None:
            history[-keep] = replace(history[-keep], screen=None)
        return replace(entry, reply=self._reply, screen=screen if keep else None)

    def plan(self, step: StepRun, record: bool = True) -> Plan:
        """Ask the planner for the next operation and record its reply. Raises ``_End`` when the
        planner fails (the step is written first, unless ``record`` is False: the multi-agent loop
        writes its own)."""
        rec = step.rec
        try:
            plan: Plan = self.planner.plan(step.ctx)
        except MobileAgentError as exc:
            step.calls.merge(calls_of(exc))
            if isinstance(exc, PlanningError):
                rec.model.raw = exc.raw
            rec.error = str(exc)
            if record:
                self.record(step)
            raise _End("error", str(exc), exc)
        step.calls.merge(plan.calls)
        op = plan.operation
        rec.model.raw = self._reply = plan.raw
        rec.model.input_summary = plan.input_summary
        if plan.parse_errors:
            rec.model.parse_errors = plan.parse_errors
        rec.observation, rec.thought, rec.action, rec.operation = plan.observation, plan.thought, str(op), op
        rec.source = plan.source
        return plan

    @staticmethod
    def _request(op: Operation, step: int) -> UserRequest:
        return UserRequest("question" if isinstance(op, AskUser) else "take_over", op.words(), step)

    _needs_user: UserRequest | None = None
    _answer: str | None = None
    _user_wait_s = 0.0
    _t0 = 0.0

    def ask_user(self, step: StepRun, op: Operation) -> str | None:
        """Ask the person behind the run (``settings.ask``) and record the request and the answer
        (``StepRecord.user``). Returns the answer, or None when no one can answer (the run ends
        ``needs_user``; the request goes into the summary). The wait does not count towards the
        run's time limit, nor towards the model calls' end of the run."""
        s = self.settings
        req = self._request(op, step.ctx.step)
        answer: str | None = None
        t = time.monotonic()
        if s.ask is not None:  # a planner without the parser (the oracle) may name it anyway
            answer = s.ask(req)
        waited = time.monotonic() - t
        self._user_wait_s += waited
        if s.time_limit_s is not None:
            set_run_end(self._t0 + s.time_limit_s + self._user_wait_s)  # the run's token restores it at the end
        step.rec.user = UserRecord(req.kind, req.text, answer if isinstance(answer, str) else None, waited)
        if not isinstance(answer, str):
            self._needs_user = req
            return None
        return answer

    def check_completion(self, step: StepRun) -> Completion:
        """After Stop: ask whether the instruction is complete; record the answer."""
        try:
            comp = self.planner.check_completion(step.ctx)
        except MobileAgentError as exc:
            step.calls.merge(calls_of(exc))
            step.rec.error = f"completion check failed: {exc}"
            self.record(step)
            raise _End("error", step.rec.error, exc)
        step.calls.merge(comp.calls)
        step.rec.completion = CompletionRecord(comp.complete, comp.reason, comp.raw)
        return comp

    def ground(self, op: Operation, step: StepRun) -> tuple[Gesture, str | None]:
        """The gesture for ``op`` and, when it cannot be carried out, the feedback for the planner.
        Operations that ground nothing become their gesture directly; the others ask perception
        where (``op.grounds``) and become a gesture at the point it chose."""
        ctx, rec = step.ctx, step.rec
        w, h = ctx.screenshot.size
        s = self.settings
        caps = device_capabilities(self.device)
        if op.needs is not None and op.needs not in caps:
            what = op.op if type(op) in OPERATION_TYPES else str(op)  # a point op's point, Press Key's key
            return NoGesture(), prompts.grounding_feedback(op, f"this phone cannot do {what}")
        geo = Geometry(w, h, swipe_ms=s.swipe_ms, long_press_ms=s.long_press_ms, wait_s=s.settle_timeout_s)
        if op.grounds == "point":  # a point-output model's point: what lies there is recorded (agent/points.py)
            self._perception_quiet()
            step.tree = self._ui_tree() if s.perception_mode == "hybrid" else None
            t = time.monotonic()
            rec.grounding, why = ground_point(op, ctx.screenshot, self.perception)
            rec.timings.perception_s += time.monotonic() - t
            return (op.gesture(geo), None) if why is None else (NoGesture(), prompts.grounding_feedback(op, why))
        if op.grounds is None:
            return op.gesture(geo), None
        if self.perception is None:
            raise _End("error", f"{op} needs perception to find where to tap, and the agent has none")
        t = time.monotonic()
        self._perception_quiet()  # the parse begun beside the model call: grounding finds it done
        rec.timings.perception_s += time.monotonic() - t

        choices: list[Choice] = []
        failures: list[str] = []

        def choose(marked: Image.Image, candidates: Sequence[Any], question: str) -> int | None:
            try:
                c = self.planner.choose(ctx, marked, candidates, question)
            except MobileAgentError as exc:
                step.calls.merge(calls_of(exc))
                log.warning("choice among marks failed: %s", exc)
                failures.append(str(exc))
                return None
            step.calls.merge(c.calls)
            choices.append(c)
            return c.index

        t = time.monotonic()
        p = self.perception
        # Hybrid grounding: the screen's accessibility tree, where the device gives one, goes with
        # the screenshot (perception checks that the two agree).
        tree = step.tree = self._ui_tree() if s.perception_mode == "hybrid" else None
        more = {"tree": tree} if tree is not None else {}
        if op.grounds == "text":
            g = p.ground_text(ctx.screenshot, op.words(), choose=choose, **more)
        elif op.grounds == "icon":
            g = p.ground_icon(ctx.screenshot, op.words(), position=op.position, choose=choose, **more)
        elif op.grounds == "app":
            g = p.ground_app(ctx.screenshot, op.words(), choose=choose, **more)
        else:  # "target": a text where one is on the screen, else an icon
            g = p.ground_text(ctx.screenshot, op.words(), position=op.position, choose=choose, **more)
            if g.chosen is None and not failures:
                g = p.ground_icon(ctx.screenshot, op.words(), position=op.position, choose=choose, **more)
        asked = getattr(p, "take_calls", Calls)()  # a grounding model's calls (agent/grounder.py), in the step's
        # Time spent asking the model to choose (or to point) is model time, not perception time.
        rec.timings.perception_s += time.monotonic() - t - sum(c.calls.model_s for c in choices) - asked.model_s
        step.calls.merge(asked)
        cands = list(g.candidates or [])
        chosen_index = None
        if g.chosen is not None:
            chosen_index = next((i for i, c in enumerate(cands) if c is g.chosen), None)
            if chosen_index is None:
                chosen_index = next((i for i, c in enumerate(cands) if c == g.chosen), None)
        message = g.message or ""
        if failures and g.chosen is None:
            message = f"the model's choice among the numbered candidates failed: {failures[-1]}"
        rec.grounding = GroundingRecord(g.status, [CandidateRecord.of(c) for c in cands], chosen_index, message,
                                        [c.raw for c in choices] or None)
        if g.chosen is not None:
            pt = g.chosen.point
            return op.at(int(pt.x), int(pt.y), geo), None
        if isinstance(op, OpenApp) and s.launch_fallback and "launch" in caps:
            return Launch(op.name), None
        msg = message or f"nothing on the screen matches {op}."
        return NoGesture(), prompts.grounding_feedback(op, msg)

    def act(self, gesture: Gesture, before: Image.Image) -> Image.Image:
        """Perform ``gesture`` on the device and return the screen once it is still (a typed
        secret's ``{NAME}`` is filled in here, on its way to the phone only)."""
        if self.settings.secrets and isinstance(gesture, TypeText):
            gesture = TypeText(fill_secrets(gesture.text, self.settings.secrets), clear=gesture.clear)
        result = gesture.perform(self.device)
        if isinstance(gesture, Launch) and result is False:
            raise DeviceError(f"the phone could not launch {gesture.app!r}")
        return self._settle(before)

    def reflect(self, step: StepRun, op: Operation, thought: str, after: Image.Image,
                where: str) -> tuple[list[str], str]:
        """Did the screen change, and (with ``reflect``) did the operation do what was expected?
        Returns the feedback for the next step and the outcome in words for the history."""
        ctx, rec = step.ctx, step.rec
        t = time.monotonic()
        changed = screen_changed(self.perception, ctx.screenshot, after)
        rec.timings.perception_s += time.monotonic() - t
        rec.reflection.changed = changed
        feedback: list[str] = []
        if not changed:
            fb = prompts.no_change_feedback(op)
            rec.reflection.verdict, rec.reflection.feedback = "no_change", fb
            feedback.append(fb)
            return feedback, f"done{where}; the screen did not change"
        outcome_text = f"done{where}; the screen changed"
        if self.settings.reflect:
            try:
                refl = self.planner.reflect(ctx, ctx.screenshot, after, op, thought)
                step.calls.merge(refl.calls)
                rec.reflection.verdict = refl.verdict
                rec.reflection.reason = refl.reason
                if refl.verdict == "wrong_page":
                    fb = prompts.wrong_page_feedback(op, refl.reason)
                    rec.reflection.feedback = fb
                    feedback.append(fb)
                    outcome_text += "; it led to an unexpected page"
            except MobileAgentError as exc:
                step.calls.merge(calls_of(exc))
                log.warning("reflection call failed: %s", exc)
                rec.reflection.reason = f"reflection call failed: {exc}"
        return feedback, outcome_text

    def record(self, step: StepRun) -> None:
        """Close the step's record (timings, tokens, calls), write it and pass it to ``on_step``."""
        rec, calls, tm = step.rec, step.calls, step.rec.timings
        tm.model_s = round(calls.model_s, 3)
        tm.perception_s = round(tm.perception_s, 3)
        tm.device_s = round(tm.device_s, 3)
        tm.total_s = round(tm.device_s + time.monotonic() - step.t0, 3)
        rec.model.prompt_tokens = calls.usage.prompt_tokens
        rec.model.completion_tokens = calls.usage.completion_tokens
        rec.model.calls = calls.count
        rec.model.cost_usd = calls.cost_usd
        rec.calls = list(calls.records)
        self._account(calls)
        self._steps = step.ctx.step
        if self._prefetch is not None:
            self._prefetch.flush()  # the step's screenshots are on disk before its line says so
            self._prefetch.note_screen(step.ctx.step, step.ctx.screenshot)
        step.writer.append_step(rec)
        if self.settings.on_step is not None:
            self.settings.on_step(rec)

    # --- helpers ---------------------------------------------------------------------------------

    _prefetch: Prefetch | None = None

    def _make_prefetch(self) -> Prefetch | None:
        """A :class:`Prefetch` where the overlap pays: a planner that waits for a model, and a
        perception with a parse memo (a planner without a model has no time to hide the parse in)."""
        if (not self.settings.overlap_perception or not getattr(self.planner, "asks_model", False)
                or not callable(getattr(self.perception, "parse", None))):
            return None
        return Prefetch(self.perception)

    def _close_prefetch(self) -> None:
        pre, self._prefetch = self._prefetch, None
        if pre is not None:
            try:
                pre.close()
            except Exception as exc:  # noqa: BLE001 - the run's outcome stands; the record says what is missing
                log.warning("a screenshot could not be written: %s", exc)

    _perceived = False  # whether this step used perception (grounding, the confirmation gate)

    _quick_model = False  # the last plan came back faster than a parse: nothing to hide the next one behind

    def _parse_ahead(self, image: Image.Image, undo_last: bool = False) -> None:
        self._perceived = False
        if self._prefetch is not None:
            self._prefetch.start(image, undo_last, parse=not self._quick_model)

    def _perception_quiet(self) -> None:
        """Wait for a parse running beside the loop (perception is used from one thread at a time)."""
        self._perceived = True
        if self._prefetch is not None:
            self._prefetch.wait()

    def _save_screen(self, writer: TrajectoryWriter, name: str, image: Image.Image) -> str:
        """Save a screenshot of the step (on the writing thread where there is one)."""
        if self._prefetch is None:
            return writer.save_screen(name, image)
        rel = writer.screen_path(name)
        # a copy: PIL's save keeps its settings on the image, and this thread may encode it meanwhile
        self._prefetch.aside(lambda: writer.save_screen(name, image.copy()))
        return rel

    def _account(self, calls: Calls) -> None:
        self._usage = self._usage + calls.usage
        if calls.cost_usd is not None:
            self._cost = (self._cost or 0.0) + calls.cost_usd

    def _screenshot(self) -> Image.Image:
        t = time.monotonic()
        img = self.device.screenshot()
        self._pending_device_s += time.monotonic() - t
        return img

    def _ui_tree(self) -> str | None:
        """The device's accessibility tree now, or ``None`` where it gives none (or fails to)."""
        if "ui_tree" not in device_capabilities(self.device):
            return None
        try:
            return self.device.ui_tree()
        except Exception as exc:  # noqa: BLE001 - no tree is vision grounding, not a failed step
            log.warning("no accessibility tree this step: %s", exc)
            return None

    def _settle(self, before: Image.Image) -> Image.Image:
        """Wait until the screen is still (the device's own ``wait_still`` where it declares one)
        and return the screen."""
        s = self.settings
        if "wait_still" in device_capabilities(self.device):
            self.device.wait_still(timeout_s=s.settle_timeout_s)
            return self.device.screenshot()
        # Still as soon as two successive frames agree (the first pair is taken without a pause: a
        # screenshot takes its own time); ``settle_interval_s`` between the pairs that differ.
        deadline = time.monotonic() + s.settle_timeout_s
        prev = self.device.screenshot()
        while True:
            cur = self.device.screenshot()
            if not pixels_changed(prev, cur) or time.monotonic() >= deadline:
                return cur
            prev = cur
            time.sleep(s.settle_interval_s)


def _quietly(fn: Callable[..., Any], *args: Any) -> None:
    """Work done ahead of time: a failure is left to the step that needs the result (it does the
    work again and reports it)."""
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001
        log.debug("work ahead failed: %s", exc)


def _finish(on_finish: Callable[[Path], None], run_dir: Path) -> None:
    """Call the caller's end-of-run hook (the CLI and the benchmark write the HTML report there);
    the run's record is complete without it, so a failure is logged, not raised."""
    try:
        on_finish(run_dir)
    except Exception as exc:  # noqa: BLE001
        log.warning("the end-of-run hook failed: %s", exc)


def __getattr__(name: str) -> Any:
    """``agent.loop.Agent``, this class's name before, gives :class:`StepLoop` with a warning."""
    if name == "Agent":
        return deprecated_agent()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def deprecated_agent() -> type[StepLoop]:
    import warnings

    warnings.warn("mobile_agent.agent.Agent is now mobile_agent.agent.StepLoop (the step loop); the Python "
                  "API's agent, with the report, is mobile_agent.Agent", DeprecationWarning, stacklevel=3)
    return StepLoop
