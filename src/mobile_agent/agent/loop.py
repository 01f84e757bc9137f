"""The step loop: screenshot, plan, ground, act, wait until the screen is still, reflect, record.

```python
from mobile_agent.agent import Agent, AgentSettings, LLMPlanner
from mobile_agent.model import make_chat_model
agent = Agent(device, LLMPlanner(make_chat_model("gpt-4o")), perception, AgentSettings(max_steps=20))
result = agent.run("Turn on the dark mode", "runs/dark")
result.outcome, result.completed, result.steps
```
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

from PIL import Image

from mobile_agent.agent import prompts
from mobile_agent.agent.operations import (
    Back, ClickIcon, ClickText, Exit, OpenApp, Operation, PageDown, PageUp, Stop, Type, operation_to_dict,
)
from mobile_agent.agent.planner import Calls, Choice, HistoryEntry, Plan, PlanContext, Planner, PlanningError
from mobile_agent.agent.reflection import LoopDetector, pixels_changed, screen_changed
from mobile_agent.agent.risk import decide
from mobile_agent.agent.trajectory import TrajectoryWriter, draw_gesture
from mobile_agent.errors import ConfigError, DeviceError, MobileAgentError
from mobile_agent.model.base import Usage

log = logging.getLogger(__name__)

ConfirmFn = Callable[[Operation, str], bool]

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
    ``on_step``: called with each step's record as it is written (for live output).
    ``on_finish``: called with the run folder once ``summary.json`` is written (the CLI and the
    benchmark write the HTML report there; the agent layer itself knows nothing of reports).
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
    launch_fallback: bool = False
    on_finish: Callable[[Path], None] | None = None
    device_name: str = ""
    on_step: Callable[[dict[str, Any]], None] | None = None
    perception_mode: str = "vision"  # "hybrid": the device's ui_tree() beside the pixels where it gives one

    def __post_init__(self) -> None:
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


class _End(Exception):
    def __init__(self, outcome: str, error: str | None = None, exc: BaseException | None = None) -> None:
        super().__init__(outcome)
        self.outcome, self.error, self.exc = outcome, error, exc


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _candidate_dict(c: Any) -> dict[str, Any]:
    return {"box": list(c.box.as_tuple()), "point": list(c.point.as_tuple()),
            "score": round(float(c.score), 4), "text": getattr(c, "text", None)}


def is_risky(op: Operation) -> bool:
    """True for operations whose words say they send, buy, pay, delete or post (checked word by word)."""
    words = getattr(op, "text", None) or getattr(op, "description", None) or getattr(op, "name", None)
    return bool(words and _RISKY.search(words))


class Agent:
    """The Mobile-Agent loop over a :class:`~mobile_agent.device.base.Device`, a :class:`Planner` and a
    perception object (``mobile_agent.perception.Perception``)."""

    def __init__(self, device: Any, planner: Planner, perception: PerceptionLike | None,
                 settings: AgentSettings | None = None) -> None:
        self.device = device
        self.planner = planner
        self.perception = perception
        self.settings = settings or AgentSettings()

    # --- the run ---------------------------------------------------------------------------------

    def run(self, instruction: str, out_dir: str | Path) -> RunResult:
        """Carry out ``instruction``, writing the trajectory to ``out_dir``. Never raises for a run
        that goes wrong (the outcome says how it ended); Ctrl-C ends it cleanly as ``interrupted``."""
        if not instruction.strip():
            raise ConfigError("the instruction is empty: say what the agent should do")
        s = self.settings
        writer = TrajectoryWriter(out_dir)
        started, t0 = _now(), time.monotonic()
        self._usage, self._cost, self._steps = Usage(), None, 0
        self._pending_device_s = 0.0
        history: list[HistoryEntry] = []
        feedback: list[str] = []
        screens: list[Image.Image] = []
        detector = LoopDetector(s.loop_threshold)
        current: Image.Image | None = None
        outcome, error, exc_kept = "step_limit", None, None
        completed = False
        try:
            for step in range(1, s.max_steps + 1):
                if s.time_limit_s is not None and time.monotonic() - t0 > s.time_limit_s:
                    raise _End("time_limit", f"the wall-clock limit of {s.time_limit_s:.0f} s was reached")
                if current is None:
                    current = self._screenshot()
                ctx = PlanContext(
                    instruction=instruction, step=step, screenshot=current, history=tuple(history),
                    earlier_screens=tuple(screens[-(s.history_screens - 1):]) if s.history_screens > 1 else (),
                    feedback=tuple(feedback), image_max_side=s.image_max_side, jpeg_quality=s.jpeg_quality,
                )
                after, entry, new_feedback, done = self._step(ctx, writer, detector)
                self._steps = step
                if entry is not None:
                    history.append(entry)
                feedback = new_feedback
                if done:
                    outcome, completed = done, done == "completed"
                    break
                screens.append(current)
                del screens[:-max(1, s.history_screens - 1)]  # keep only what the history sends
                current = after
        except _End as end:
            outcome, error, exc_kept = end.outcome, end.error, end.exc
        except KeyboardInterrupt:
            outcome, error = "interrupted", "interrupted by the user (Ctrl-C)"
        except MobileAgentError as exc:  # a model or device failure outside a step's own handling
            outcome, error, exc_kept = "error", str(exc), exc
        except Exception as exc:  # noqa: BLE001 - a bug below must still leave a complete record
            log.exception("the run failed")
            outcome, error, exc_kept = "error", f"internal error: {type(exc).__name__}: {exc}", exc
        try:
            final = self.device.screenshot() if not s.dry_run else current
            if final is not None:
                writer.save_screen("final", final)
        except Exception as exc:  # noqa: BLE001 - the record is written without it
            log.warning("could not take the final screenshot: %s", exc)
        duration = time.monotonic() - t0
        writer.write_summary({
            "instruction": instruction, "outcome": outcome, "completed": completed, "steps": self._steps,
            "started_at": started, "ended_at": _now(), "duration_s": round(duration, 3),
            "tokens": {"prompt": self._usage.prompt_tokens, "completion": self._usage.completion_tokens,
                       "total": self._usage.total_tokens},
            "cost_usd": None if self._cost is None else round(self._cost, 6),
            "model": getattr(self.planner, "name", type(self.planner).__name__),
            "device": s.device_name or type(self.device).__name__,
            "error": error,
        })
        if s.on_finish is not None:
            _finish(s.on_finish, writer.dir)
        return RunResult(outcome, completed, self._steps, writer.dir, self._usage, self._cost, duration, error, exc_kept)

    # --- one step --------------------------------------------------------------------------------

    def _step(self, ctx: PlanContext, writer: TrajectoryWriter, detector: LoopDetector):
        """Plan, ground, act and reflect once. Returns (screen after, history entry, feedback for the
        next step, outcome if the run ends here)."""
        s = self.settings
        t_step = time.monotonic()
        timings = {"perception_s": 0.0, "model_s": 0.0, "device_s": self._pending_device_s, "total_s": 0.0}
        self._pending_device_s = 0.0
        calls = Calls()
        shot = writer.save_screen(f"step_{ctx.step:03d}", ctx.screenshot)
        rec: dict[str, Any] = {
            "step": ctx.step, "screenshot": shot, "annotated": None,
            "model": {"raw": None, "prompt_tokens": 0, "completion_tokens": 0, "input_summary": ""},
            "observation": "", "thought": "", "action": None, "operation": None,
            "grounding": None, "gesture": {"kind": "none"},
            "reflection": {"changed": None, "verdict": None, "feedback": None},
            "timings": timings, "error": None,
        }

        def finish(outcome: str | None = None, entry: HistoryEntry | None = None, feedback: Sequence[str] = (),
                   after: Image.Image | None = None):
            timings["model_s"] = round(calls.model_s, 3)
            timings["perception_s"] = round(timings["perception_s"], 3)
            timings["device_s"] = round(timings["device_s"], 3)
            timings["total_s"] = round(timings["device_s"] + time.monotonic() - t_step, 3)
            rec["model"]["prompt_tokens"] = calls.usage.prompt_tokens
            rec["model"]["completion_tokens"] = calls.usage.completion_tokens
            rec["model"]["calls"] = calls.count
            rec["model"]["cost_usd"] = calls.cost_usd
            self._account(calls)
            self._steps = ctx.step
            writer.append_step(rec)
            if s.on_step is not None:
                s.on_step(rec)
            return after, entry, list(feedback), outcome

        # 1. plan
        try:
            plan: Plan = self.planner.plan(ctx)
        except PlanningError as exc:
            calls.merge(exc.calls)
            rec["model"]["raw"] = exc.raw
            rec["error"] = str(exc)
            finish("error")
            raise _End("error", str(exc), exc)
        except MobileAgentError as exc:
            rec["error"] = str(exc)
            finish("error")
            raise _End("error", str(exc), exc)
        calls.merge(plan.calls)
        op = plan.operation
        rec["model"]["raw"] = plan.raw
        rec["model"]["input_summary"] = plan.input_summary
        if plan.parse_errors:
            rec["model"]["parse_errors"] = plan.parse_errors
        rec.update(observation=plan.observation, thought=plan.thought, action=str(op),
                   operation=operation_to_dict(op))

        # 2. a loop: the same operation on the same screen, threshold times
        if detector.is_loop(op, ctx.screenshot):
            msg = f"loop: {op} was chosen {s.loop_threshold} times on the same screen; stopped"
            rec["error"] = msg
            finish("loop")
            raise _End("loop", msg)
        detector.record(op, ctx.screenshot)

        # 3. Stop: the completion check
        if isinstance(op, Stop):
            if not s.completion_check or s.dry_run:
                return finish("completed" if not s.dry_run else "dry_run", HistoryEntry(ctx.step, op, "stopped", plan.thought))
            try:
                comp = self.planner.check_completion(ctx)
            except MobileAgentError as exc:
                calls.merge(getattr(exc, "calls", Calls()))
                rec["error"] = f"completion check failed: {exc}"
                finish("error")
                raise _End("error", rec["error"], exc)
            calls.merge(comp.calls)
            rec["completion"] = {"complete": comp.complete, "reason": comp.reason, "raw": comp.raw}
            if comp.complete:
                rec["reflection"]["verdict"] = "as_expected"
                return finish("completed", HistoryEntry(ctx.step, op, "confirmed complete", plan.thought))
            fb = prompts.incomplete_feedback(comp.reason)
            rec["reflection"]["feedback"] = fb
            return finish(None, HistoryEntry(ctx.step, op, "not complete yet: " + (comp.reason or "continue")),
                          [fb], after=ctx.screenshot)

        # 4. ground
        gesture, grounding_fb = self._ground(op, ctx, rec, timings, calls)
        rec["gesture"] = gesture
        boxes = [c["box"] for c in (rec["grounding"] or {}).get("candidates", [])]
        if s.save_annotated and (gesture["kind"] in ("tap", "swipe") or boxes):
            annotated = draw_gesture(ctx.screenshot, gesture, boxes)
            rec["annotated"] = writer.save_screen(f"step_{ctx.step:03d}_annotated", annotated)
        if grounding_fb is not None:
            rec["reflection"]["feedback"] = grounding_fb
            return finish(None if not s.dry_run else "dry_run",
                          HistoryEntry(ctx.step, op, f"{NOT_CARRIED_OUT}: nothing matched", plan.thought),
                          [grounding_fb], after=ctx.screenshot)

        # 5. safety
        risk = decide(op, rec["grounding"], self.perception, ctx.screenshot, s.risk_rules) if s.confirm is not None else None
        if risk is not None and risk.risky:
            where = f" at ({gesture['x']}, {gesture['y']})" if gesture["kind"] == "tap" else ""
            if not s.confirm(op, f"{op}{where}: {risk.why}"):
                msg = f"the user declined {op}"
                rec["error"] = msg
                finish("interrupted")
                raise _End("interrupted", msg)
        if s.dry_run:
            return finish("dry_run", HistoryEntry(ctx.step, op, "dry run: not carried out", plan.thought))

        # 6. act, and wait until the screen is still
        t = time.monotonic()
        try:
            self._act(gesture)
            after = self._settle(ctx.screenshot)
        except DeviceError as exc:
            timings["device_s"] += time.monotonic() - t
            rec["error"] = f"device: {exc}"
            finish("error")
            raise _End("error", rec["error"], exc)
        timings["device_s"] += time.monotonic() - t

        # 7. reflect
        t = time.monotonic()
        changed = screen_changed(self.perception, ctx.screenshot, after)
        timings["perception_s"] += time.monotonic() - t
        rec["reflection"]["changed"] = changed
        feedback: list[str] = []
        where = f" at ({gesture['x']}, {gesture['y']})" if gesture["kind"] == "tap" else ""
        if not changed:
            fb = prompts.no_change_feedback(op)
            rec["reflection"].update(verdict="no_change", feedback=fb)
            feedback.append(fb)
            outcome_text = f"done{where}; the screen did not change"
        else:
            outcome_text = f"done{where}; the screen changed"
            if s.reflect:
                try:
                    refl = self.planner.reflect(ctx, ctx.screenshot, after, op, plan.thought)
                    calls.merge(refl.calls)
                    rec["reflection"]["verdict"] = refl.verdict
                    rec["reflection"]["reason"] = refl.reason
                    if refl.verdict == "wrong_page":
                        fb = prompts.wrong_page_feedback(op, refl.reason)
                        rec["reflection"]["feedback"] = fb
                        feedback.append(fb)
                        outcome_text += "; it led to an unexpected page"
                except MobileAgentError as exc:
                    calls.merge(getattr(exc, "calls", Calls()))
                    log.warning("reflection call failed: %s", exc)
                    rec["reflection"]["reason"] = f"reflection call failed: {exc}"
        return finish(None, HistoryEntry(ctx.step, op, outcome_text, plan.thought), feedback, after=after)

    _pending_device_s = 0.0

    # --- helpers ---------------------------------------------------------------------------------

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
        dump = getattr(self.device, "ui_tree", None)
        if dump is None:
            return None
        try:
            return dump()
        except Exception as exc:  # noqa: BLE001 - no tree is vision grounding, not a failed step
            log.warning("no accessibility tree this step: %s", exc)
            return None

    def _ground(self, op: Operation, ctx: PlanContext, rec: dict, timings: dict, calls: Calls):
        """The gesture for ``op`` and, when it cannot be carried out, the feedback for the planner."""
        w, h = ctx.screenshot.size
        if isinstance(op, PageDown):
            return {"kind": "swipe", "x1": w // 2, "y1": int(h * 0.7), "x2": w // 2, "y2": int(h * 0.3),
                    "duration_ms": self.settings.swipe_ms}, None
        if isinstance(op, PageUp):
            return {"kind": "swipe", "x1": w // 2, "y1": int(h * 0.3), "x2": w // 2, "y2": int(h * 0.7),
                    "duration_ms": self.settings.swipe_ms}, None
        if isinstance(op, Back):
            return {"kind": "back"}, None
        if isinstance(op, Exit):
            return {"kind": "home"}, None
        if isinstance(op, Type):
            return {"kind": "type", "text": op.text}, None
        if self.perception is None:
            raise _End("error", f"{op} needs perception to find where to tap, and the agent has none")

        choices: list[Choice] = []

        def choose(marked: Image.Image, candidates: Sequence[Any], question: str) -> int | None:
            try:
                c = self.planner.choose(ctx, marked, candidates, question)
            except MobileAgentError as exc:
                calls.merge(getattr(exc, "calls", Calls()))
                log.warning("choice among marks failed: %s", exc)
                return None
            calls.merge(c.calls)
            choices.append(c)
            return c.index

        t = time.monotonic()
        # Hybrid grounding: the screen's accessibility tree, where the device gives one, goes with
        # the screenshot (perception checks that the two agree).
        tree = self._ui_tree() if self.settings.perception_mode == "hybrid" else None
        more = {"tree": tree} if tree is not None else {}
        if isinstance(op, ClickText):
            g = self.perception.ground_text(ctx.screenshot, op.text, choose=choose, **more)
        elif isinstance(op, ClickIcon):
            g = self.perception.ground_icon(ctx.screenshot, op.description, position=op.position, choose=choose, **more)
        elif isinstance(op, OpenApp):
            g = self.perception.ground_app(ctx.screenshot, op.name, choose=choose, **more)
        else:  # pragma: no cover - every operation is handled above
            raise _End("error", f"no grounding for {op}")
        # Time spent asking the model to choose is model time, not perception time.
        timings["perception_s"] += time.monotonic() - t - sum(c.calls.model_s for c in choices)
        cands = list(g.candidates or [])
        chosen_index = None
        if g.chosen is not None:
            chosen_index = next((i for i, c in enumerate(cands) if c is g.chosen), None)
            if chosen_index is None:
                chosen_index = next((i for i, c in enumerate(cands) if c == g.chosen), None)
        rec["grounding"] = {"status": g.status, "candidates": [_candidate_dict(c) for c in cands],
                            "chosen": chosen_index, "message": g.message or ""}
        if choices:
            rec["grounding"]["choice_raw"] = [c.raw for c in choices]
        if g.chosen is not None:
            p = g.chosen.point
            return {"kind": "tap", "x": int(p.x), "y": int(p.y)}, None
        if isinstance(op, OpenApp) and self.settings.launch_fallback and callable(getattr(self.device, "launch", None)):
            if self.device.launch(op.name):
                return {"kind": "none", "launch": op.name}, None
        msg = g.message or f"nothing on the screen matches {op}."
        return {"kind": "none"}, prompts.grounding_feedback(op, msg)

    def _act(self, g: dict[str, Any]) -> None:
        kind = g["kind"]
        if kind == "tap":
            self.device.tap(g["x"], g["y"])
        elif kind == "swipe":
            self.device.swipe(g["x1"], g["y1"], g["x2"], g["y2"], g["duration_ms"])
        elif kind == "type":
            self.device.type_text(g["text"])
        elif kind == "back":
            self.device.back()
        elif kind == "home":
            self.device.home()

    def _settle(self, before: Image.Image) -> Image.Image:
        """Wait until the screen is still (the device's own ``wait_still`` where it has one) and
        return the screen."""
        s = self.settings
        wait_still = getattr(self.device, "wait_still", None)
        if callable(wait_still):
            wait_still(timeout_s=s.settle_timeout_s)
            return self.device.screenshot()
        deadline = time.monotonic() + s.settle_timeout_s
        prev = self.device.screenshot()
        while time.monotonic() < deadline:
            time.sleep(s.settle_interval_s)
            cur = self.device.screenshot()
            if not pixels_changed(prev, cur):
                return cur
            prev = cur
        return prev


def _finish(on_finish: Callable[[Path], None], run_dir: Path) -> None:
    """Call the caller's end-of-run hook (the CLI and the benchmark write the HTML report there);
    the run's record is complete without it, so a failure is logged, not raised."""
    try:
        on_finish(run_dir)
    except Exception as exc:  # noqa: BLE001
        log.warning("the end-of-run hook failed: %s", exc)
