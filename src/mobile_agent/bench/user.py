"""The benchmark's simulated user: answers the agent's questions from a task's hidden facts, and
takes the phone over where the task says how (signing in, by setting the phone's state).

A task of the ``mobile-eval-ask`` tier leaves something out of its instruction that only the user
knows (which of two contacts, which size, a one-time code). Its :class:`Fact` s hold it, each with
the words a question about it names; the simulated user answers a question that names one of them
and says "I don't know." to anything else. ``Take Over`` does the task's ``take_over`` on the phone
(the user signs in by hand) where it has one, and otherwise says the user cannot help there.

It keeps what it was asked (:attr:`SimulatedUser.asked`): the benchmark counts the questions
(asked, answered from a fact, needed by the reference plan) and milestones read which facts were
told (:meth:`Probe.told`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mobile_agent.agent.operations import USER_OPERATIONS
from mobile_agent.agent.user import UserRequest

if TYPE_CHECKING:
    from mobile_agent.bench.task import Task

DONT_KNOW = "I don't know."
CANNOT_HELP = "I can't do anything on the phone here; please go on yourself."
TOOK_OVER = "Done: I signed in. Go on."


@dataclass(frozen=True)
class Fact:
    """Something only the user knows: its ``name`` (what milestones ask about), the ``words`` a
    question about it names (any one of them, as a whole word or phrase, case aside) and the
    user's ``answer``."""

    name: str
    words: tuple[str, ...]
    answer: str

    def asked_by(self, question: str) -> bool:
        q = " ".join(re.findall(r"[a-z0-9]+(?:[-'][a-z0-9]+)*", question.lower()))
        return any(re.search(rf"(?<![a-z0-9]){re.escape(w.lower())}(?![a-z0-9])", q) for w in self.words)


@dataclass
class Asked:
    """One request the simulated user got: its kind, text, the answer and the fact it told (or
    ``take_over`` for a take-over it carried out; None when it could not help)."""

    kind: str
    text: str
    answer: str
    told: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "answer": self.answer, "told": self.told}


@dataclass
class SimulatedUser:
    """The person behind a benchmark run on the simulated phone (``AgentSettings.ask``)."""

    task: "Task"
    phone: Any
    asked: list[Asked] = field(default_factory=list)

    def __call__(self, req: UserRequest) -> str:
        if req.kind == "take_over":
            if self.task.take_over is not None:
                self.task.take_over(self.phone)
                return self._note(req, TOOK_OVER, "take_over")
            return self._note(req, CANNOT_HELP, None)
        fact = next((f for f in self.task.facts if f.asked_by(req.text)), None)
        if fact is None:
            return self._note(req, DONT_KNOW, None)
        return self._note(req, fact.answer, fact.name)

    def _note(self, req: UserRequest, answer: str, told: str | None) -> str:
        self.asked.append(Asked(req.kind, req.text, answer, told))
        return answer

    @property
    def told(self) -> set[str]:
        return {a.told for a in self.asked if a.told is not None}

    def counts(self) -> dict[str, Any]:
        """The question metrics of the run: requests ``asked`` (questions and take-overs),
        ``answered`` (a fact told or a take-over done), ``needed`` (the reference plan's), and each
        request."""
        return {"asked": len(self.asked), "answered": sum(a.told is not None for a in self.asked),
                "needed": questions_needed(self.task), "requests": [a.as_dict() for a in self.asked]}


def questions_needed(task: "Task") -> int:
    """How many times the reference plan asks the user (Ask User and Take Over steps)."""
    return sum(isinstance(s.op, USER_OPERATIONS) for s in task.plan)


def asks_user(task: "Task") -> bool:
    """The task has a person to ask (the ask tier): hidden facts, a take-over, or a plan that asks."""
    return bool(task.facts) or task.take_over is not None or task.asks
