"""Faults of the environment for the runner's tests, kept out of the product: a task source
(:data:`mobile_agent.bench.runner.TaskSource`) that gives the suite's tasks, except that the tasks
named in it fail when their phone is made, in the worker that runs them.

``Faults(kind, keys)`` is picklable (a frozen dataclass of a module-level class), so it reaches
the local pool's worker processes and Ray's workers. Kinds:

- ``exit``: the process running the task dies at once (``os._exit(3)``), as a killed worker does;
- ``exit-once``: the same on the first attempt only (a marker file in ``marker_dir`` remembers it
  across processes); later attempts run normally;
- ``hang``: the task never ends (sleeps an hour);
- ``raise``: a ``RuntimeError`` (a bug: the task's failure, not the environment's);
- ``oserror``: ``OSError(ENOSPC)``, a full disk (an environment failure).

Pass the same object as ``task_source`` (for workers) and use :meth:`Faults.tasks` for the
selection (for the in-process path)::

    faults = Faults("raise", ("settings-1",))
    run_eval(EvalConfig(), faults.tasks(select(ids=KEYS)), out, task_source=faults)
"""

from __future__ import annotations

import errno
import os
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Sequence

from mobile_agent.bench.runner import EvalConfig, task_by_key
from mobile_agent.bench.task import Task

KINDS = ("exit", "exit-once", "hang", "raise", "oserror")


@dataclass(frozen=True)
class Faults:
    kind: str
    keys: tuple[str, ...]
    marker_dir: str | None = None  # exit-once: where the first attempt leaves its mark

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown fault {self.kind!r}: one of {KINDS}")
        if self.kind == "exit-once" and not self.marker_dir:
            raise ValueError("exit-once needs a marker_dir shared by the attempts")

    def __call__(self, config: EvalConfig, key: str) -> Task:
        task = task_by_key(config, key)
        return self.wrap(task) if key in self.keys else task

    def tasks(self, tasks: Sequence[Task]) -> list[Task]:
        """``tasks`` with the named ones made faulty."""
        return [self.wrap(t) if t.key in self.keys else t for t in tasks]

    def wrap(self, task: Task) -> "FaultyTask":
        return FaultyTask(**{f.name: getattr(task, f.name) for f in fields(Task)}, fault=self)

    def strike(self, key: str) -> None:
        """What the task named ``key`` does instead of making its phone."""
        if self.kind == "exit-once":
            assert self.marker_dir is not None
            mark = Path(self.marker_dir) / f"{key.replace('#', '_v')}.struck"
            if mark.exists():
                return
            mark.write_text(str(os.getpid()), encoding="utf-8")
            os._exit(3)
        if self.kind == "exit":
            os._exit(3)
        if self.kind == "hang":
            time.sleep(3600)
        if self.kind == "oserror":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        raise RuntimeError(f"fault injected at task {key}")


@dataclass
class FaultyTask(Task):
    """A task whose phone cannot be made: its fault strikes first."""

    fault: Faults | None = None

    def make_phone(self, **options: Any) -> Any:
        if self.fault is not None:
            self.fault.strike(self.key)
        return super().make_phone(**options)
