"""What a benchmark task is: an instruction, a phone set-up, a success check, and a human-optimal
reference plan whose every step has a milestone (a check on the phone after that step).

Checks read the simulated phone through a :class:`Probe` (its typed state, the foreground app,
the top screen's text fields and the texts of its ui tree). Only the benchmark reads these; the
agent gets the :class:`~mobile_agent.device.base.Device` alone.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from mobile_agent.agent.operations import ClickIcon, ClickText, Operation, Stop, Type

if TYPE_CHECKING:
    from mobile_agent.device.sim import SimPhone
    from mobile_agent.device.sim.state import PhoneState


class Probe:
    """A read-only view of a simulated phone for success checks and milestones."""

    def __init__(self, phone: "SimPhone", user: Any = None) -> None:
        self.phone = phone
        self.user = user  # the simulated user of the ask tier (bench/user.py), or None
        self._labels: list[str] | None = None
        self.visits: list[tuple[str | None, str]] = []

    def told(self, fact: str) -> bool:
        """The simulated user told the agent ``fact`` (or, for ``"take_over"``, took the phone over)."""
        return self.user is not None and fact in self.user.told

    def refresh(self) -> None:
        """Forget cached labels (the screen changed) and note where the phone now is."""
        self._labels = None
        self.visits.append((self.foreground, self.screen_name))

    def visited(self, app: str, screen: str | None = None) -> bool:
        """The app (and screen class, if given) was on screen after some earlier step of this run."""
        return any(a == app and (screen is None or sc == screen) for a, sc in self.visits)

    @property
    def on_home(self) -> bool:
        return self.foreground is None

    @property
    def state(self) -> "PhoneState":
        return self.phone.state

    @property
    def foreground(self) -> str | None:
        """The name of the app on screen, ``None`` on the home screen."""
        return self.phone.state.foreground

    def in_app(self, name: str) -> bool:
        return self.foreground == name

    @property
    def screen_name(self) -> str:
        """The class name of the foreground app's top screen (``"home"`` on the home screen)."""
        app = self.phone.foreground
        return "home" if app is None else type(app.screen).__name__

    def fields(self) -> dict[str, str]:
        """The values of the text fields of the top screen (empty on the home screen)."""
        app = self.phone.foreground
        return {} if app is None else dict(app.screen.fields)

    def field_has(self, text: str) -> bool:
        """Some text field of the top screen contains ``text`` (case-insensitive)."""
        t = norm(text)
        return any(t in norm(v) for v in self.fields().values())

    def labels(self) -> list[str]:
        """Texts and content descriptions of the nodes of the ui tree, in document order."""
        if self._labels is None:
            from mobile_agent.device.uitree import parse_tree

            out: list[str] = []
            for n in parse_tree(self.phone.ui_tree()):
                if n.bounds.is_empty():
                    continue
                if n.text:
                    out.append(n.text)
                if n.desc and n.desc != n.text:
                    out.append(n.desc)
            self._labels = out
        return self._labels

    def focused_rid(self) -> str | None:
        """The resource id of the focused node of the ui tree (a text field being typed in), if any."""
        from mobile_agent.device.uitree import parse_tree

        for n in parse_tree(self.phone.ui_tree()):
            if n.focused:
                return n.rid
        return None

    def shows(self, *texts: str) -> bool:
        """Every one of ``texts`` is a whole label on screen (case-insensitive)."""
        have = {norm(x) for x in self.labels()}
        return all(norm(t) in have for t in texts)

    def shows_part(self, text: str) -> bool:
        """Some label on screen contains ``text`` (case-insensitive)."""
        t = norm(text)
        return any(t in norm(x) for x in self.labels())


Check = Callable[[Probe], bool]


def norm(s: str) -> str:
    """Lower case, runs of white space as one space, outer space and final punctuation dropped."""
    return re.sub(r"\s+", " ", s).strip().lower()


@dataclass(frozen=True)
class RefStep:
    """One step of a reference plan.

    ``milestone`` holds once the step is done (None only for the final Stop). ``icon_desc`` is the
    content-desc of the node a Click Icon targets and ``node_text`` the node text an Open App or
    Click Text targets where it differs from the operation's words (both only for tree-driven
    replay). ``alternatives`` are other operations that count as correct at this point (see
    docs/benchmark.md). ``pick`` tells the oracle which candidate to take when perception finds
    several: ``"best"`` (perception's first), ``"top"``, ``"bottom"``, ``"left"``, ``"right"``.
    """

    op: Operation
    milestone: Check | None = None
    icon_desc: str | None = None
    node_text: str | None = None
    alternatives: tuple[Operation, ...] = ()
    pick: str = "best"
    note: str = ""


@dataclass
class Task:
    """One runnable task instance (a task definition with its parameters drawn)."""

    id: str
    apps: tuple[str, ...]
    tier: int
    instruction: str
    paper_instruction: str
    plan: list[RefStep]
    success: Check
    params: dict[str, Any] = field(default_factory=dict)
    variant: int = 0
    phone_seed: int = 0
    setup: Callable[["SimPhone"], None] | None = None
    description: str = ""
    disturbances: tuple[str, ...] = ()  # of the simulated phone (the "disturbed" suite)
    # The ask tier: what only the user knows (bench/user.py Fact), what the user does on a Take Over
    # (sets the phone's state), and whether a person may be asked at all (a task whose instruction
    # says everything is asked nothing, but can be).
    facts: tuple[Any, ...] = ()
    take_over: Callable[["SimPhone"], None] | None = None
    asks: bool = False

    @property
    def app(self) -> str:
        return "Multi-app" if len(self.apps) > 1 else self.apps[0]

    @property
    def real_instruction(self) -> str:
        """The paper's wording with this instance's parameters put in (``{address}``, ``{date}``)."""
        try:
            return self.paper_instruction.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return self.paper_instruction

    @property
    def human_steps(self) -> int:
        """Length of the reference plan, its final Stop included."""
        return len(self.plan)

    @property
    def milestones(self) -> list[Check]:
        return [s.milestone for s in self.plan if s.milestone is not None]

    @property
    def key(self) -> str:
        """``id`` for variant 0, ``id#k`` for variant k."""
        return self.id if self.variant == 0 else f"{self.id}#{self.variant}"

    def operations(self) -> list[Operation]:
        return [s.op for s in self.plan]

    def make_phone(self, **options: Any) -> "SimPhone":
        """A fresh simulated phone for this task, set up."""
        from mobile_agent.device.sim import SimPhone

        if self.disturbances:
            options.setdefault("disturbances", self.disturbances)
        phone = SimPhone(seed=self.phone_seed, **options)
        if self.setup is not None:
            self.setup(phone)
        return phone


class Params:
    """Parameters of a task definition. Variant 0 takes each default (the paper's own values where
    it gives them); variant k > 0 draws from the choices with a generator seeded by (task, k)."""

    def __init__(self, task_id: str, variant: int = 0) -> None:
        self.variant = variant
        self.rng = random.Random(f"{task_id}:{variant}")
        self.values: dict[str, Any] = {}

    def pick(self, name: str, default: Any, choices: Sequence[Any]) -> Any:
        value = default if self.variant == 0 or not choices else self.rng.choice(list(choices))
        self.values[name] = value
        return value


Builder = Callable[[Params, "PhoneState"], Task]


@dataclass(frozen=True)
class TaskDef:
    """A task definition: id, apps, tier, and a builder that makes a :class:`Task` for a variant."""

    id: str
    apps: tuple[str, ...]
    tier: int
    build: Builder

    @property
    def app(self) -> str:
        return "Multi-app" if len(self.apps) > 1 else self.apps[0]

    def instance(self, variant: int = 0, base_seed: int = 0) -> Task:
        from mobile_agent.device.sim.state import PhoneState

        seed = base_seed + variant
        params = Params(self.id, variant)
        task = self.build(params, PhoneState.initial(seed))
        task.id, task.apps, task.tier = self.id, self.apps, self.tier
        task.variant, task.phone_seed = variant, seed
        task.params = dict(params.values)
        if not task.plan or not isinstance(task.plan[-1].op, Stop):
            raise ValueError(f"task {self.id}: a reference plan ends with Stop")
        for s in task.plan[:-1]:
            if s.milestone is None:
                raise ValueError(f"task {self.id}: every reference step but the final Stop needs a milestone ({s.op})")
            if isinstance(s.op, ClickIcon) and not s.icon_desc:
                raise ValueError(f"task {self.id}: {s.op} needs the content-desc it targets (icon_desc)")
        return task


# --- small helpers for task modules --------------------------------------------------------------

def step(op: Operation, milestone: Check, **kw: Any) -> RefStep:
    return RefStep(op, milestone, **kw)


def stop() -> RefStep:
    return RefStep(Stop())


def typed(text: str) -> Type:
    return Type(text)


def click(text: str) -> ClickText:
    return ClickText(text)
