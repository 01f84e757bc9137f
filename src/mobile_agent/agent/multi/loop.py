"""The multi-agent loop: manager, executor, verifier, notes and cycle handling, composed from the
single agent's pieces (parser, grounding, gestures, reflection, trajectory writer).

Each step is one manager turn and one executor operation on the same screen:

1. the manager sees the screen, the plan, the notes and what the last operation did (with any
   failed check or cycle), updates the plan and the notes, and says continue, done or give up;
2. the executor chooses one operation for the current subgoal (``{name}`` in Type is a note);
3. a repeat of the same operation on the same screen is a cycle: not carried out, the manager
   changes route (bounded);
4. the operation is grounded and carried out as in single mode (``--confirm`` asks first);
5. the verifier checks it (typed text read back, the app in front, the screen changed) and, with
   ``reflect``, asks its model for the verdict.

``--max-steps``, the time limit and ``--confirm`` apply across roles: a step is one turn of all of them.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from mobile_agent.agent.loop import (StepLoop, AgentSettings, RunResult, StepRun, _End, _finish, run_ended,
                                     run_summary, save_final_screen, start_run)
from mobile_agent.agent.record import CompletionRecord, MultiRecord, StepRecord, UserRecord, per_role
from mobile_agent.agent.user import ANSWER_MAX, NEEDS_USER, UserRequest, answer_outcome
from mobile_agent.agent.risk import decide
from mobile_agent.device.gestures import LongPress, Swipe, Tap, gesture_point
from mobile_agent.agent.multi.ahead import ParseAhead
from mobile_agent.agent.multi.cycles import CycleGuard
from mobile_agent.agent.multi.executor import Assignment, Executor
from mobile_agent.agent.multi.manager import Manager, ManagerReply, Subgoal
from mobile_agent.agent.multi.notes import Notes, UnknownNoteError
from mobile_agent.agent.multi.verifier import Verifier, deterministic_check, reads_after
from mobile_agent.agent.operations import BASIC_OPERATIONS, AskUser, Stop, TakeOver, Type
from mobile_agent.agent.planner import Calls, HistoryEntry, PlanContext, PlanningError, calls_of
from mobile_agent.agent.reflection import screen_changed
from mobile_agent.agent.trajectory import TrajectoryWriter, draw_gesture
from mobile_agent.errors import ConfigError, DeviceError, MobileAgentError
from mobile_agent.model.base import ChatModel, Usage
from mobile_agent.model.deadline import reset_run_end, set_run_end

log = logging.getLogger(__name__)


class _NeedsUser(Exception):
    """No one answered the manager's question: the step is written, then the run ends needs_user."""


@dataclass
class MultiSettings:
    """What only the multi mode has. ``max_route_changes``: cycles answered by a changed route before
    the run ends as a loop. ``read_tree``: the verifier reads typed text from the accessibility tree
    (where the device has one) instead of OCR. ``recent``: earlier operations shown to each role."""

    max_route_changes: int = 2
    read_tree: bool = False
    recent: int = 8

    def __post_init__(self) -> None:
        if self.max_route_changes < 0:
            raise ConfigError(f"max route changes must be at least 0, got {self.max_route_changes}")


class MultiAgent:
    """``MultiAgent(device, model, perception, settings, executor_model=None)``; ``run`` as
    :meth:`mobile_agent.agent.StepLoop.run`. The manager (and the verifier's reflection) use ``model``;
    the executor uses ``executor_model`` (default: ``model``)."""

    def __init__(self, device: Any, model: ChatModel, perception: Any, settings: AgentSettings | None = None,
                 executor_model: ChatModel | None = None, multi: MultiSettings | None = None) -> None:
        self.device = device
        self.settings = settings or AgentSettings()
        if self.settings.allowed_apps:  # enforced by the single agent's step (agent/allowlist.py) only
            raise ConfigError("allowed_apps is enforced by the single-mode agent; multi mode does not enforce it")
        self.multi = multi or MultiSettings()
        self.perception = perception
        self.manager = Manager(model)
        self.executor = Executor(executor_model or model)
        self.verifier = Verifier(model if self.settings.reflect else None)
        # The single agent's grounding, gestures and settling, driven with the executor as its planner.
        self._pieces = StepLoop(device, self.executor, perception, self.settings)
        self.name = model.name if executor_model is None else f"{model.name} + {executor_model.name}"

    # --- the run ---------------------------------------------------------------------------------

    def run(self, instruction: str, out_dir: str | Path) -> RunResult:
        s = self.settings
        writer, started, t0 = start_run(instruction, out_dir, s.overwrite)
        self._usage, self._cost, self._steps = Usage(), None, 0
        self._roles: dict[str, dict[str, Any]] = {}
        self.notes = Notes()
        self.plan: list[Subgoal] = []
        self.reports: list[HistoryEntry] = []
        self.alerts: list[str] = []
        self.feedback: list[str] = []
        self.guard = CycleGuard(s.loop_threshold, self.multi.max_route_changes)
        self.plan_history: list[dict[str, Any]] = []
        self._needs_user: UserRequest | None = None
        self._user_wait_s, self._t0, self._answers = 0.0, t0, 0
        current: Image.Image | None = None
        outcome, error, exc_kept, completed = "step_limit", None, None, False
        deadline = set_run_end(t0 + s.time_limit_s if s.time_limit_s is not None else None)  # holds in model calls
        self._ahead = ParseAhead(self._pieces)  # each screen parsed beside the model calls (ahead.py)
        try:
            for step in range(1, s.max_steps + 1):
                if s.time_limit_s is not None and time.monotonic() - t0 - self._user_wait_s > s.time_limit_s:
                    raise _End("time_limit", f"the wall-clock limit of {s.time_limit_s:.0f} s was reached")
                if current is None:
                    current = self.device.screenshot()
                    self._ahead.screen(current)
                after, done = self._step(instruction, step, current, writer)
                self._steps = step
                if done:
                    outcome, completed = done, done == "completed"
                    break
                current = after
        except (KeyboardInterrupt, Exception) as exc:  # noqa: BLE001 - a bug below must still leave a complete record
            outcome, error, exc_kept = run_ended(exc)
        finally:
            self._ahead.close()
        reset_run_end(deadline)
        save_final_screen(self.device, writer, s.dry_run, current)
        duration = time.monotonic() - t0
        needs_user = self._needs_user if outcome == NEEDS_USER else None
        writer.write_summary({
            **run_summary(instruction, outcome, completed, self._steps, started, duration, self._usage, self._cost,
                          self.name, s.device_name or type(self.device).__name__, error, needs_user),
            "mode": "multi",
            "models": {"manager": self.manager.name, "executor": self.executor.name,
                       "verifier": self.manager.name if self.verifier.model is not None else None},
            "roles": self._roles, "route_changes": self.guard.changes,
            "plan": [g.to_dict() for g in self.plan], "notes": self.notes.as_dict(),
            "notes_history": self.notes.history(), "plan_history": self.plan_history,
        })
        if s.on_finish is not None:
            _finish(s.on_finish, writer.dir)
        return RunResult(outcome, completed, self._steps, writer.dir, self._usage, self._cost, duration, error,
                         exc_kept, needs_user)

    # --- one step --------------------------------------------------------------------------------

    def _ctx(self, instruction: str, step: int, screen: Image.Image, feedback: list[str] | None = None) -> PlanContext:
        s = self.settings
        # the executor's prompt (prompts/executor.txt) offers the basic operations: its parser and
        # its parse-error feedback offer the same
        return PlanContext(instruction=instruction, step=step, screenshot=screen, feedback=tuple(feedback or ()),
                           image_max_side=s.image_max_side, jpeg_quality=s.jpeg_quality, operations=BASIC_OPERATIONS)

    def _step(self, instruction: str, step: int, screen: Image.Image, writer: TrajectoryWriter):
        """One turn of every role. Returns (the screen after it, the outcome if the run ends here)."""
        s = self.settings
        t_step = time.monotonic()
        calls = Calls()
        ctx = self._ctx(instruction, step, screen)
        rec = StepRecord(step, screenshot=self._ahead.save(writer, f"step_{step:03d}", screen), multi=MultiRecord())
        m = rec.multi
        assert m is not None
        tm = rec.timings

        def finish(outcome: str | None = None, after: Image.Image | None = None):
            tm.model_s = round(calls.model_s, 3)
            tm.perception_s = round(tm.perception_s, 3)
            tm.device_s = round(tm.device_s, 3)
            tm.total_s = round(time.monotonic() - t_step, 3)
            rec.model.prompt_tokens = calls.usage.prompt_tokens
            rec.model.completion_tokens = calls.usage.completion_tokens
            rec.model.calls, rec.model.cost_usd = calls.count, calls.cost_usd
            rec.calls = list(calls.records)
            m.plan = [g.to_dict() for g in self.plan]
            m.notes = self.notes.as_dict()
            for role, r in per_role(rec.calls).items():
                tot = self._roles.setdefault(role, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0,
                                                    "cost_usd": None})
                for k in ("calls", "prompt_tokens", "completion_tokens"):
                    tot[k] += r[k]
                if r["cost_usd"] is not None:
                    tot["cost_usd"] = round((tot["cost_usd"] or 0.0) + r["cost_usd"], 6)
            self._usage = self._usage + calls.usage
            if calls.cost_usd is not None:
                self._cost = (self._cost or 0.0) + calls.cost_usd
            self._steps = step
            self._ahead.flush()  # the step's screenshots are on disk before its line says so
            writer.append_step(rec)
            if s.on_step is not None:
                s.on_step(rec)
            return after, outcome

        def fail(outcome: str, message: str, exc: BaseException | None = None):
            rec.error = message
            finish(outcome)
            raise _End(outcome, message, exc)

        # 1. the manager: plan, notes, done?
        alerts, self.alerts = self.alerts, []
        try:
            reply, summary, mcalls, merrors = self.manager.update(ctx, self.plan, self.notes, self.reports, alerts,
                                                                  may_ask=s.ask is not None)
        except PlanningError as exc:
            calls.merge(exc.calls)
            m.manager = {"raw": exc.raw, "parse_errors": exc.errors}
            fail("error", str(exc), exc)
        except MobileAgentError as exc:
            calls.merge(calls_of(exc))
            fail("error", str(exc), exc)
        calls.merge(mcalls)
        self._apply(reply, step)
        m.manager = {"observation": reply.observation, "route": reply.route, "status": reply.status,
                     "raw": reply.raw, "alerts": alerts, "input_summary": summary}
        if merrors:
            m.manager["parse_errors"] = merrors
        current = reply.current
        m.subgoal = current.text if current is not None else None
        if reply.status == "done":
            rec.observation, rec.thought = reply.observation, "The manager judges the instruction done."
            rec.action, rec.operation = str(Stop()), Stop()
            rec.completion = CompletionRecord(True, reply.observation, reply.raw, by="manager")
            rec.reflection.verdict = "as_expected"
            return finish("completed" if not s.dry_run else "dry_run")
        if reply.status == "give_up":
            rec.observation, rec.action, rec.operation = reply.observation, str(Stop()), Stop()
            fail("error", f"the manager gave up: {reply.observation or reply.route or 'no reason given'}")
        if reply.ask is not None and s.ask is not None:  # the manager asks the user: this step's turn
            try:
                return finish(*self._ask_user(reply, step, screen, rec))
            except _NeedsUser:
                finish()
                raise _End(NEEDS_USER, None)
        if current is None:
            fail("error", "the manager's plan has no open subgoal but the status is continue")

        # 2. the executor: one operation for the current subgoal
        self.executor.assignment = Assignment(current.text, tuple(self.plan), self.notes,
                                              tuple(self.reports[-self.multi.recent:]), tuple(self.feedback))
        self.feedback = []
        piece = StepRun(ctx, rec, calls, t_step, writer)
        try:
            plan = self._pieces.plan(piece, record=False)
        except _End as end:
            fail(end.outcome, end.error or end.outcome, end.exc)
        self._ahead.answered(calls.model_s)
        op = plan.operation

        def report(outcome_text: str) -> None:
            self.reports.append(HistoryEntry(step, op, outcome_text))

        # 3. a cycle: the same operation on the same screen, threshold times (a Stop the manager keeps
        #    refusing too)
        cycle = self.guard.check(op, screen)
        if cycle is not None:
            m.cycle = {"repeats": cycle.repeats, "change": cycle.change, "give_up": cycle.give_up}
            if cycle.give_up:
                fail("loop", f"loop: {op} was chosen {cycle.repeats} times on the same screen after "
                             f"{cycle.change - 1} route change(s); stopped")
            report("not carried out: a cycle (" + cycle.ban() + ")")
            self.alerts.append(cycle.alert())
            self.feedback.append(cycle.ban())
            rec.reflection.feedback = cycle.ban()
            return finish(None, screen)

        if isinstance(op, Stop):
            report(f"the executor says the subgoal {current.text!r} is reached")
            self.alerts.append(f"the executor says the subgoal {current.text!r} is reached: mark it done and give "
                               "the next one, or say done if the whole instruction is done")
            return finish(None, screen)

        # 4. notes in Type, grounding, confirmation, the gesture
        typed: str | None = None
        act_op = op
        if isinstance(op, Type):
            try:
                typed = self.notes.expand(op.text)
            except UnknownNoteError as exc:
                fb = (f"Your last operation, {op}, was not carried out: {exc}. Write a note's name in braces "
                      "exactly, or the text itself.")
                report(f"not carried out: {exc}")
                self.feedback.append(fb)
                rec.reflection.feedback = fb
                return finish(None, screen)
            act_op = Type(typed, clear=op.clear)
            if typed != op.text:
                m.typed = typed
        gesture, grounding_fb = self._pieces.ground(act_op, piece)
        rec.gesture = gesture
        grounding = rec.grounding.to_dict() if rec.grounding is not None else None
        boxes = [c.box for c in rec.grounding.candidates] if rec.grounding is not None else []
        point = gesture_point(gesture) if isinstance(gesture, (Tap, LongPress)) else None
        where = f" at ({point[0]}, {point[1]})" if point is not None else ""
        if s.save_annotated and (isinstance(gesture, (Tap, LongPress, Swipe)) or boxes):
            rec.annotated = self._ahead.save(writer, f"step_{step:03d}_annotated",
                                             draw_gesture(screen, gesture, boxes))
        if grounding_fb is not None:
            rec.reflection.feedback = grounding_fb
            report("not carried out: nothing matched")
            self.feedback.append(grounding_fb)
            self.alerts.append(f"{op} could not be carried out: "
                               f"{(rec.grounding.message if rec.grounding else '') or 'nothing matched'}")
            return finish("dry_run" if s.dry_run else None, screen)
        if s.confirm is not None:
            self._ahead.quiet()
        risk = decide(act_op, grounding, self.perception, screen, s.risk_rules, piece.tree, gesture) \
            if s.confirm is not None else None
        if risk is not None and risk.risky:
            if not s.confirm(act_op, f"{act_op}{where}: {risk.why}"):
                fail("interrupted", f"the user declined {act_op}")
        if s.dry_run:
            report("dry run: not carried out")
            return finish("dry_run")
        t = time.monotonic()
        try:
            after = self._pieces.act(gesture, screen)
        except DeviceError as exc:
            tm.device_s += time.monotonic() - t
            fail("error", f"device: {exc}", exc)
        tm.device_s += time.monotonic() - t
        # parsed beside the verifier and the next step's models, unless the verifier reads it at once
        self._ahead.screen(after, ahead=not reads_after(op, typed, self.multi.read_tree))
        self._ahead.prepare(after, s.image_max_side, s.jpeg_quality)  # for the verifier's and the next step's requests

        # 5. the verifier: a deterministic check (it waits for the parse only where it reads the
        #    screen's text), then the reflection verdict
        t = time.monotonic()
        try:
            changed = screen_changed(self.perception, screen, after)
            tree = None
            if self.multi.read_tree and isinstance(op, Type):
                try:
                    tree = self.device.ui_tree()
                except (DeviceError, AttributeError) as exc:
                    log.warning("could not read the ui tree: %s", exc)
            check = deterministic_check(op, typed, screen, after, self._ahead.reading(self.perception), changed, tree)
        except Exception as exc:  # noqa: BLE001 - the gesture was made: its step is recorded with the error
            tm.perception_s += time.monotonic() - t
            outcome, error, kept = run_ended(exc)
            fail(outcome, f"{error} (checking {op} after it was carried out)", kept)
        tm.perception_s += time.monotonic() - t
        rec.reflection.changed = changed
        outcome_text = f"done{where}; the screen {'changed' if changed else 'did not change'}"
        if check is not None:
            m.verification = check.to_dict()
            if check.passed is False:
                msg = check.message()
                rec.reflection.verdict = "check_failed" if changed else "no_change"
                rec.reflection.feedback = msg
                outcome_text += f"; check failed: {msg}"
                self.alerts.append(f"{op}: {msg}")
                self.feedback.append(f"Your last operation, {op}: {msg}.")
                report(outcome_text)
                return finish(None, after)
            if check.passed:
                outcome_text += f"; checked: {check.seen}"
        if not changed and check is None:
            rec.reflection.verdict = "no_change"
        if changed and self.verifier.model is not None:
            try:
                refl = self.verifier.reflect(ctx, screen, after, op, plan.thought)
                calls.merge(refl.calls)
                rec.reflection.verdict, rec.reflection.reason = refl.verdict, refl.reason
                if refl.verdict == "wrong_page":
                    outcome_text += f"; the verifier: it led to an unexpected page ({refl.reason})"
                    self.alerts.append(f"{op} led to an unexpected page: {refl.reason}")
            except MobileAgentError as exc:
                calls.merge(calls_of(exc))
                rec.reflection.reason = f"reflection call failed: {exc}"
        elif changed and rec.reflection.verdict is None:
            rec.reflection.verdict = "as_expected" if check is not None and check.passed else None
        report(outcome_text)
        return finish(None, after)

    def _ask_user(self, reply: ManagerReply, step: int, screen: Image.Image,
                  rec: StepRecord) -> tuple[None, Image.Image]:
        """The manager's question (or take-over) to the person behind the run. The answer is kept as
        a note (``answer_N``, one line) and reported as the user's words; after a take-over the phone
        is looked at again. No one to answer ends the run ``needs_user`` (raises ``_End``)."""
        s = self.settings
        assert reply.ask is not None and s.ask is not None
        kind, words = reply.ask
        op = AskUser(words) if kind == "question" else TakeOver(words)
        rec.observation, rec.thought = reply.observation, "The manager asks the user."
        rec.action, rec.operation = str(op), op
        req = UserRequest(kind, words, step)
        t = time.monotonic()
        answer = s.ask(req)
        waited = time.monotonic() - t
        self._user_wait_s += waited
        if s.time_limit_s is not None:
            set_run_end(self._t0 + s.time_limit_s + self._user_wait_s)  # the wait is not the run's time
        rec.user = UserRecord(kind, words, answer if isinstance(answer, str) else None, waited)
        if not isinstance(answer, str):
            self._needs_user = req
            self.reports.append(HistoryEntry(step, op, "no one answered"))
            raise _NeedsUser()
        outcome = answer_outcome(req, answer)
        if kind == "question" and answer.strip():
            self._answers += 1
            name = f"answer_{self._answers}"
            self.notes.set(name, " ".join(answer.split())[:ANSWER_MAX], step)
            outcome += f"; kept as the note {name}"
        self.reports.append(HistoryEntry(step, op, outcome))
        if kind == "question":
            return None, screen
        after = self.device.screenshot()  # the person used the phone: look at it again
        self._ahead.screen(after)
        return None, after

    def _apply(self, reply: ManagerReply, step: int) -> None:
        """Take the manager's plan and notes (notes merge: earlier ones stay unless rewritten)."""
        before = [g.to_dict() for g in self.plan]
        self.plan = list(reply.plan)
        for name, value in reply.notes.items():
            self.notes.set(name, value, step)
        now = [g.to_dict() for g in self.plan]
        if now != before or reply.changed_route:
            self.plan_history.append({"step": step, "plan": now, "route": reply.route if reply.changed_route else ""})
