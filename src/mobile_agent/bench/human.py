"""Judging by a person at the terminal, for real phones (there is no state to read there), as the
paper's authors judged: success, each step, and how much of the task was done."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from mobile_agent.bench.task import Task


@dataclass
class Verdict:
    success: bool
    ps: float
    re: float
    cr: float
    correct_steps: int
    human_steps: int
    steps: list[dict[str, Any]] = field(default_factory=list)


class HumanJudge:
    """Asks on ``out`` and reads answers from ``inp`` (the terminal by default). End of input
    counts as "no" / the default, so a run never hangs on a closed stdin."""

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None) -> None:
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout

    def _ask(self, question: str) -> str:
        self.out.write(question + " ")
        self.out.flush()
        line = self.inp.readline()
        return line.strip().lower()

    def yes(self, question: str, default: bool = False) -> bool:
        for _ in range(3):
            a = self._ask(f"{question} [{'Y/n' if default else 'y/N'}]")
            if a == "":
                return default
            if a in ("y", "yes"):
                return True
            if a in ("n", "no"):
                return False
            self.out.write("please answer y or n\n")
        return default

    def number(self, question: str, default: float, lo: float, hi: float) -> float:
        for _ in range(3):
            a = self._ask(f"{question} [{default:g}]")
            if a == "":
                return default
            try:
                v = float(a.rstrip("%"))
            except ValueError:
                self.out.write(f"please give a number from {lo:g} to {hi:g}\n")
                continue
            if lo <= v <= hi:
                return v
            self.out.write(f"please give a number from {lo:g} to {hi:g}\n")
        return default

    def judge(self, task: Task, trajectory: Path, steps: int) -> Verdict:
        """Ask about the run in ``trajectory`` (its steps.jsonl names each action)."""
        actions: list[str] = []
        path = Path(trajectory) / "steps.jsonl"
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    actions.append(json.loads(line).get("action") or "(none)")
                except json.JSONDecodeError:
                    continue
        self.out.write(f"\nTask {task.key}: {task.real_instruction}\n")
        success = self.yes("Was the instruction carried out?")
        judged = []
        for i, a in enumerate(actions, start=1):
            ok = self.yes(f"  step {i}: {a} - was this step correct?", default=False)
            judged.append({"step": i, "action": a, "correct": ok, "why": "judged by a person"})
        human = int(self.number("How many steps would a person need?", float(task.human_steps), 1, 100))
        cr = 1.0 if success else self.number("What share of the task was done (0-100 %)?", 0.0, 0, 100) / 100.0
        n = len(actions) or steps
        correct = sum(j["correct"] for j in judged)
        return Verdict(success, correct / n if n else 0.0, human / n if n else 0.0, cr, correct, human, judged)
