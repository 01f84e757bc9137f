"""The noisy planner: the reference plan, phrased the way real models phrase it.

A model that knows what to do still says it in its own words: ``Click Text (search settings)``
where the screen says "Search settings", ``Click Icon (magnifying glass)`` for the search icon, a
position hint that points the wrong way, and now and then a step that leads nowhere and has to be
undone. The noisy planner plays a task's reference plan with such noise, drawn from a generator
seeded by the run's seed and the task key, so the same configuration gives the same run. It
measures the grounding pipeline and the metrics without a model, offline, like the oracle.

What it does, step by step:

- Open App: the name in another case now and then.
- Click Text: the label in lower case or in title case, without its final punctuation, or (for
  labels of three words or more) its first two words.
- Click Icon: a description of the icon instead of its name (``magnifying glass`` for search,
  ``paper plane`` for send), and now and then a wrong position hint.
- A wrong step before a reference step now and then, followed by the step that undoes it: another
  app opened before an Open App (then Exit), or a Page Down on a screen (then Page Up) where the
  plan has not scrolled yet.
- The ask tier (a task with a person to ask): a question in other words now and then ("Could you
  tell me: ..."), and now and then a needless question before a step ("Should I go on?"), which the
  simulated user cannot answer: it costs a step and shows in the question counts.
- When a step in other words could not be carried out (perception found nothing) or changed
  nothing, it says the reference step in its exact words, as a model would after that feedback;
  when a step in the exact words is not found, it gives up with Stop. A tap that a wrong position
  hint sent to another widget goes unnoticed (no reflection without a model): the run measures
  how far a wrong hint misleads grounding.

Like the oracle it never reads the phone's state or tree; where perception asks which of several
candidates it means, it takes the one the reference step names. Like the oracle it reads the screen
before a step that needs it and waits on a loading screen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Sequence

from PIL import Image

from mobile_agent.agent.loop import NOT_CARRIED_OUT
from mobile_agent.agent.operations import (
    USER_OPERATIONS, AskUser, ClickIcon, ClickText, Exit, OpenApp, Operation, PageDown, PageUp, Stop, Type, Wait,
)
from mobile_agent.agent.planner import BasePlanner, Choice, Plan, PlanContext
from mobile_agent.bench.oracle import MAX_WAITS, looks_before, pick_candidate, screen_loading
from mobile_agent.bench.task import Task
from mobile_agent.types import POSITIONS

# How models describe the icons of the suite instead of naming them (each still names the icon).
ICON_WORDS: dict[str, tuple[str, ...]] = {
    "search": ("magnifying glass", "search icon", "magnifier"),
    "send": ("paper plane", "send button", "send arrow"),
    "check": ("check mark", "tick", "checkmark button"),
    "heart": ("heart icon", "like heart", "heart-shaped like button"),
    "comment": ("speech bubble", "comment bubble", "comments icon"),
    "thumbs up": ("like thumb", "thumbs-up icon", "thumb up"),
}

# Apps a wrong Open App may land in (the launcher has them on every phone).
SPARE_APPS = ("Calendar", "Weather", "Settings", "Notes", "Music", "Maps")


@dataclass(frozen=True)
class NoiseRates:
    """Chances per step of each kind of noise."""

    app_case: float = 0.3
    text: float = 0.4
    icon: float = 0.6
    wrong_position: float = 0.1
    wrong_step: float = 0.12
    question: float = 0.5  # a question in other words (the ask tier)
    needless_question: float = 0.1  # a question no one needed, before a step (the ask tier)


#: What a needless question says, and how a question may be reworded.
NEEDLESS_QUESTIONS = ("Should I go on?", "Is this the right screen?", "Do you want me to continue?")
QUESTION_FORMS = ("Could you tell me: {q}", "Quick question: {q}", "{lower}")


@dataclass
class _Queued:
    op: Operation
    ref: int | None = None  # index of the reference step it carries out (None: a wrong step or its undoing)
    exact: bool = True  # said in the reference plan's own words
    why: str = ""
    loading: bool = False  # a Wait on a loading screen, outside the plan


@dataclass
class NoiseLog:
    """What the planner changed, step by step (stored with the run's details)."""

    entries: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.entries.append(text)


class NoisyPlanner(BasePlanner):
    """Plays ``task``'s reference plan with model-like noise drawn from ``seed``."""

    name = "noisy"

    def __init__(self, task: Task, seed: int = 0, rates: NoiseRates | None = None, perception: Any = None) -> None:
        self.task = task
        self.perception = perception if "loading" in task.disturbances else None  # as the oracle
        self.waits = 0
        self.rates = rates or NoiseRates()
        self.rng = random.Random(f"noisy:{seed}:{task.key}")
        self.index = 0  # the next reference step to plan
        self.queue: list[_Queued] = []
        self.current: _Queued | None = None
        self.retried: set[int] = set()
        self.gave_up: str | None = None
        self.log = NoiseLog()
        from mobile_agent.bench.user import asks_user

        self._asks = asks_user(task)  # the ask tier: questions in other words, needless ones (no draw elsewhere)

    # -- phrasing ---------------------------------------------------------------------------------
    def _chance(self, p: float) -> bool:
        return self.rng.random() < p

    def phrase(self, op: Operation) -> Operation:
        """``op`` in other words (or unchanged), drawn from the generator."""
        r = self.rates
        if isinstance(op, OpenApp) and self._chance(r.app_case):
            return OpenApp(op.name.lower())
        if isinstance(op, ClickText) and self._chance(r.text):
            return ClickText(self._text_variant(op.text))
        if isinstance(op, AskUser) and self._chance(r.question):
            q = op.question
            return AskUser(self.rng.choice(QUESTION_FORMS).format(q=q, lower=q[:1].lower() + q[1:]))
        if isinstance(op, ClickIcon):
            desc, pos = op.description, op.position
            words = ICON_WORDS.get(desc.lower())
            if words and self._chance(r.icon):
                desc = self.rng.choice(words)
            if self._chance(r.wrong_position):
                pos = self._wrong_position(pos)
            return ClickIcon(desc, pos)
        return op

    def _text_variant(self, text: str) -> str:
        words = text.split()
        options = [text.lower(), text.title()]
        stripped = text.rstrip(".…!?:")
        if stripped != text:
            options.append(stripped)
        if len(words) >= 3:
            options.append(" ".join(words[:2]))
        if text[:1].islower():
            options.append(text[:1].upper() + text[1:])
        options = [o for o in options if o != text] or [text]
        return self.rng.choice(options)

    def _wrong_position(self, pos: tuple[str, ...]) -> tuple[str, ...]:
        opposite = {"top": "bottom", "bottom": "top", "left": "right", "right": "left", "center": "top"}
        if pos:
            return tuple(opposite.get(p, p) for p in pos)
        return (self.rng.choice([p for p in POSITIONS if p != "center"]),)

    # -- wrong steps ---------------------------------------------------------------------------------
    def _wrong_step(self, i: int) -> list[_Queued]:
        """A wrong step and its undoing before reference step ``i``, or nothing."""
        ref = self.task.plan[i].op
        if i == 0 and not isinstance(ref, OpenApp):
            return []
        if not self._chance(self.rates.wrong_step):
            return []
        before = [s.op for s in self.task.plan[:i]]
        if isinstance(ref, OpenApp):
            spare = [a for a in SPARE_APPS if a not in self.task.apps]
            if not spare:
                return []
            other = self.rng.choice(spare)
            return [_Queued(OpenApp(other), why=f"wrong app {other}"), _Queued(Exit(), why="undo: back home")]
        scrolled = any(isinstance(o, (PageDown, PageUp)) for o in before)
        typing = bool(before) and isinstance(before[-1], Type)
        if isinstance(ref, (ClickText, ClickIcon)) and not scrolled and not typing:
            return [_Queued(PageDown(), why="wrong scroll"), _Queued(PageUp(), why="undo: scroll back")]
        return []

    # -- the planner ----------------------------------------------------------------------------------
    def _next(self) -> _Queued:
        if self.queue:
            return self.queue.pop(0)
        n = len(self.task.plan)
        i = min(self.index, n - 1)
        self.index += 1
        ref = self.task.plan[i].op
        if isinstance(ref, Stop):
            return _Queued(ref, i)
        wrong = self._wrong_step(i)
        if not wrong and self._asks and not isinstance(ref, USER_OPERATIONS) and self._chance(
                self.rates.needless_question):
            wrong = [_Queued(AskUser(self.rng.choice(NEEDLESS_QUESTIONS)), why="a needless question")]
        said = self.phrase(ref)
        item = _Queued(said, i, exact=said == ref, why="" if said == ref else f"said {said} for {ref}")
        if wrong:
            for w in wrong:
                self.log.add(f"before reference step {i + 1}: {w.op} ({w.why})")
            self.queue = [*wrong[1:], item]
            return wrong[0]
        return item

    def _upcoming(self) -> Operation:
        if self.queue:
            return self.queue[0].op
        return self.task.plan[min(self.index, len(self.task.plan) - 1)].op

    def plan(self, ctx: PlanContext) -> Plan:
        last = self.current
        if looks_before(self._upcoming()):
            if self.waits < MAX_WAITS and screen_loading(self.perception, ctx.screenshot):
                self.waits += 1
                i = self.index
                if not self.queue and i < len(self.task.plan) and isinstance(self.task.plan[i].op, Wait):
                    self.index += 1
                    self.current = _Queued(Wait(), i, loading=True)  # the plan's own Wait
                else:
                    self.current = _Queued(Wait(), None, loading=True, why="a loading screen")
                return self._answer(self.current, "The app is still loading: wait.")
            self.waits = 0
        if last is not None and last.loading:
            last = None  # a Wait on a loading screen: nothing to retry or undo
        outcome = ctx.history[-1].outcome if ctx.history else ""
        missed = outcome.startswith(NOT_CARRIED_OUT)
        if last is not None and last.ref is not None and not last.exact and last.ref not in self.retried and (
                missed or outcome.endswith("did not change")):
            self.retried.add(last.ref)
            ref = self.task.plan[last.ref].op
            self.current = _Queued(ref, last.ref)
            self.log.add(f"reference step {last.ref + 1}: {last.op} {'not found' if missed else 'changed nothing'}, "
                         f"said {ref} instead")
            return self._answer(self.current, "That did not work; the exact words this time.")
        if missed and last is not None:
            if last.ref is not None:
                self.gave_up = f"reference step {last.ref + 1} ({ctx.history[-1].operation}) could not be grounded"
                return Plan("The screen as it is.", f"Giving up: {self.gave_up}.", Stop(), raw="Action: Stop")
        if last is not None and last.ref is None and (missed or outcome.endswith("did not change")):
            # a wrong step that did not happen or changed nothing: nothing to undo
            if self.queue and self.queue[0].ref is None:
                self.queue.pop(0)
        self.current = self._next()
        if self.current.why and self.current.ref is not None:
            self.log.add(f"reference step {self.current.ref + 1}: {self.current.why}")
        ref_i = self.current.ref
        thought = (f"Reference step {ref_i + 1} of {len(self.task.plan)}." if ref_i is not None
                   else f"A detour: {self.current.why}.")
        return self._answer(self.current, thought)

    def _answer(self, item: _Queued, thought: str) -> Plan:
        return Plan("The screen as it is.", thought, item.op, raw=f"Thought: {thought}\nAction: {item.op}",
                    input_summary="noisy: no model")

    def choose(self, ctx: PlanContext, marked: Image.Image, candidates: Sequence[Any], question: str) -> Choice:
        item = self.current
        how = self.task.plan[item.ref].pick if item is not None and item.ref is not None else "best"
        return Choice(pick_candidate(candidates, how), raw="noisy")
