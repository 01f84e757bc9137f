"""The paper's metrics, computed from milestones: SU, PS, RE, CR (definitions in docs/benchmark.md).

* A task's milestones are the checks after each step of its reference plan (the final Stop has
  none). After every agent step the benchmark notes ``reached``: the highest milestone index whose
  check holds on the phone then (0: none). The run's progress is the furthest index reached so far;
  a milestone counts as reached once a later one was (the furthest one counts for those before it).
* SU: the success check holds when the run ends (1 or 0).
* CR: furthest milestone index / number of milestones; 1 on success.
* RE: human steps (the reference plan's length, its Stop included) / agent steps.
* PS: correct agent steps / agent steps. A step is correct when it was carried out and it raised
  the furthest milestone, or it is an alternative the task lists for the next reference step, or it
  is a Stop issued while the success check holds. A step that changed nothing, that was not carried
  out, that led away from the goal, or that only undid an earlier wrong step is not correct.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Sequence

from mobile_agent.agent.operations import Operation, Stop
from mobile_agent.bench.task import norm

if TYPE_CHECKING:
    from mobile_agent.bench.task import Probe, Task


@dataclass(frozen=True)
class StepOutcome:
    """What one agent step did, as the benchmark saw it on the phone afterwards."""

    step: int
    operation: Operation | None
    carried_out: bool
    reached: int
    success: bool


@dataclass
class Judged:
    step: int
    action: str
    furthest: int
    correct: bool
    why: str


@dataclass
class Scores:
    """The scores of one run: success, PS, RE, CR and the counts they come from. A task's
    :class:`Metrics` and its row in the results store (:class:`~mobile_agent.bench.store.ResultRow`)
    are both these fields and more."""

    success: bool
    ps: float
    re: float
    cr: float
    steps: int
    human_steps: int
    correct_steps: int
    furthest: int
    milestones: int

    def scores(self) -> dict[str, Any]:
        """The fields of :class:`Scores` alone, by name."""
        return {f.name: getattr(self, f.name) for f in fields(Scores)}


@dataclass
class Metrics(Scores):
    """The scores of one run, and the benchmark's judgement of each step."""

    judged: list[Judged] = field(default_factory=list)

    @property
    def su(self) -> float:
        """SU: 1.0 for a success, else 0.0."""
        return 1.0 if self.success else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"su": self.su, **asdict(self)}


def same_operation(op: Operation, alternative: Operation) -> bool:
    """``op`` is ``alternative``: equal kind and equal words (case and spacing aside; an alternative
    whose words are ``*`` takes any words). A Click Icon's position is not compared."""
    if type(op) is not type(alternative):
        return False
    for attr in ("name", "text", "description"):
        if hasattr(op, attr):
            want = norm(getattr(alternative, attr))
            if want != "*" and norm(getattr(op, attr)) != want:
                return False
    return True


def judge_steps(task: "Task", outcomes: Sequence[StepOutcome]) -> list[Judged]:
    """Decide for each step whether it was correct (see the module docstring)."""
    furthest = 0
    out: list[Judged] = []
    plan = task.plan
    for o in outcomes:
        before = furthest
        furthest = max(furthest, o.reached)
        action = str(o.operation) if o.operation is not None else "(none)"
        nxt = plan[before] if before < len(plan) else None
        if isinstance(o.operation, Stop):
            ok, why = (True, "Stop with the task done") if o.success else (False, "Stop before the task was done")
        elif not o.carried_out:
            ok, why = False, "not carried out"
        elif furthest > before:
            ok, why = True, f"reached milestone {furthest}"
        elif nxt is not None and o.operation is not None and any(same_operation(o.operation, alt)
                                                                 for alt in nxt.alternatives):
            ok, why = True, f"an accepted alternative for reference step {before + 1}"
        else:
            ok, why = False, "no progress"
        out.append(Judged(o.step, action, furthest, ok, why))
    return out


def compute(task: "Task", outcomes: Sequence[StepOutcome], success: bool) -> Metrics:
    """SU, PS, RE and CR of one run of ``task``."""
    judged = judge_steps(task, outcomes)
    n = len(outcomes)
    milestones = len(task.milestones)
    furthest = max((o.reached for o in outcomes), default=0)
    if success:
        furthest = milestones
    correct = sum(j.correct for j in judged)
    return Metrics(
        success=success,
        ps=correct / n if n else 0.0,
        re=task.human_steps / n if n else 0.0,
        cr=1.0 if success else (furthest / milestones if milestones else 0.0),
        steps=n, human_steps=task.human_steps, correct_steps=correct, furthest=furthest,
        milestones=milestones, judged=judged,
    )


def reached(task: "Task", probe: "Probe") -> int:
    """The highest milestone index (1-based) whose check holds now; 0 when none does."""
    best = 0
    for i, m in enumerate(task.milestones, start=1):
        try:
            if m(probe):
                best = i
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            continue
    return best


class ProgressTracker:
    """Watches a simulated phone during a run: after each step it refreshes the probe and notes the
    milestone reached and whether the success check holds."""

    def __init__(self, task: "Task", phone: Any, user: Any = None) -> None:
        from mobile_agent.bench.task import Probe

        self.task = task
        self.probe = Probe(phone, user)
        self.outcomes: list[StepOutcome] = []

    def success(self) -> bool:
        try:
            return bool(self.task.success(self.probe))
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            return False

    def after_step(self, step: int, operation: Operation | None, carried_out: bool) -> StepOutcome:
        self.probe.refresh()
        o = StepOutcome(step, operation, carried_out, reached(self.task, self.probe), self.success())
        self.outcomes.append(o)
        return o

    def metrics(self) -> Metrics:
        self.probe.refresh()
        return compute(self.task, self.outcomes, self.success())
