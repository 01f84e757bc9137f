"""The same instruction on several phones at once (``run --device A --device B``,
``mobile_agent.run_on_phones``): one thread a phone, each with its own device, planner, perception
and trajectory folder (``OUT/NAME``), and ``OUT/fleet.json`` saying how each ended.

A phone that fails (it cannot be opened, it goes away, its run raises) ends its own run only: the
others go on. Ctrl-C (or SIGTERM) in the main thread reaches every phone's thread as the same
interrupt, so each run ends ``interrupted`` with its summary, as a run of one phone does (and the
fleet returns, as a run does, rather than raising).
"""

from __future__ import annotations

import ctypes
import json
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from mobile_agent.errors import ConfigError, MobileAgentError, Terminated
from mobile_agent.fsutil import atomic_write_text

__all__ = ["FLEET_FILE", "FleetResult", "PhoneRun", "exit_code", "phone_names", "run_each", "write_fleet_file"]

#: the fleet's own record in its folder (each phone's run is in a sub-folder of that name)
FLEET_FILE = "fleet.json"

#: the exit status of each outcome, worst last: the fleet exits with the worst of its phones'
_SEVERITY = (0, 3, 1, 2)


@dataclass
class PhoneRun:
    """How one phone's run ended: ``outcome`` as a run's (``completed``, ``failed``...), or ``error``
    where it could not run at all (its device did not open, its settings were refused); ``error``
    says why."""

    name: str
    device: str
    out_dir: Path
    outcome: str
    completed: bool = False
    steps: int = 0
    duration_s: float = 0.0
    error: str | None = None
    needs_user: bool = False
    config_error: bool = False
    result: Any = field(default=None, repr=False)  # the run's RunResult, where it ran

    @property
    def exit_code(self) -> int:
        """What ``run`` on this phone alone would exit with."""
        if self.completed:
            return 0
        if self.config_error:
            return 2
        if self.needs_user:
            return 3
        return 1  # failed, or interrupted (as a run of one phone exits)

    def to_dict(self, root: Path) -> dict[str, Any]:
        try:
            folder = str(self.out_dir.relative_to(root))
        except ValueError:
            folder = str(self.out_dir)
        return {"name": self.name, "device": self.device, "folder": folder, "outcome": self.outcome,
                "completed": self.completed, "steps": self.steps, "duration_s": round(self.duration_s, 3),
                "error": self.error, "exit": self.exit_code}


@dataclass
class FleetResult:
    """Every phone's run, in the order the phones were given, and the fleet's wall time."""

    instruction: str
    out_dir: Path
    runs: list[PhoneRun]
    duration_s: float
    #: the Ctrl-C (KeyboardInterrupt) or SIGTERM (errors.Terminated) that ended the fleet, if one did
    interrupt: BaseException | None = None

    @property
    def completed(self) -> bool:
        return bool(self.runs) and all(r.completed for r in self.runs)

    @property
    def exit_code(self) -> int:
        """The worst of the phones' exit statuses (0 done < 3 needs the user < 1 failed or
        interrupted < 2 refused)."""
        return exit_code(r.exit_code for r in self.runs)

    def to_dict(self) -> dict[str, Any]:
        return {"instruction": self.instruction, "duration_s": round(self.duration_s, 3),
                "completed": self.completed, "exit": self.exit_code,
                "phones": [r.to_dict(self.out_dir) for r in self.runs]}


def exit_code(codes: Any) -> int:
    """The worst of several exit statuses (see :attr:`FleetResult.exit_code`); 0 for none."""
    return max(codes, key=lambda c: _SEVERITY.index(c) if c in _SEVERITY else len(_SEVERITY), default=0)


def phone_names(specs: Sequence[str]) -> list[str]:
    """A folder name for each device spec, unique among them: ``sim``, ``adb-SERIAL``; a spec given
    twice gets ``-1``, ``-2``... (``sim-1``, ``sim-2``)."""
    bases = [re.sub(r"[^A-Za-z0-9._-]+", "-", s).strip("-.") or "phone" for s in specs]
    names: list[str] = []
    for i, base in enumerate(bases):
        if bases.count(base) > 1:
            base = f"{base}-{bases[:i + 1].count(base)}"
        names.append(base)
    return names


def run_each(instruction: str, starts: Mapping[str, tuple[str, Callable[[Path], Any]]], out_dir: str | Path,
             on_end: Callable[[PhoneRun], None] | None = None) -> FleetResult:
    """Run ``instruction`` on every phone at once and return how each ended.

    ``starts`` maps each phone's folder name to ``(device spec, start)``; ``start(folder)`` opens
    the phone and runs the instruction on it into ``folder`` (``OUT/NAME``), returning the run's
    ``RunResult``. It runs on a thread of its own: whatever it raises ends that phone only
    (``outcome`` ``error``). ``on_end`` is called (from the phone's thread) as each phone ends.
    ``OUT/fleet.json`` is written at the end. An interrupt (Ctrl-C, SIGTERM) ends every phone's run
    ``interrupted``, as it ends a run of one phone, and is kept in ``FleetResult.interrupt``."""
    root = Path(out_dir)
    t0 = time.monotonic()
    runs: dict[str, PhoneRun] = {}
    lock = threading.Lock()

    ended = {name: threading.Event() for name in starts}

    def work(name: str, device: str, start: Callable[[Path], Any]) -> None:
        try:
            run_one(name, device, start)
        finally:
            ended[name].set()

    def run_one(name: str, device: str, start: Callable[[Path], Any]) -> None:
        folder = root / name
        t = time.monotonic()
        try:
            result = start(folder)
            run = PhoneRun(name, device, Path(getattr(result, "out_dir", folder)), result.outcome,
                           completed=bool(result.completed), steps=int(result.steps),
                           duration_s=float(getattr(result, "duration_s", time.monotonic() - t)),
                           error=getattr(result, "error", None),
                           needs_user=getattr(result, "needs_user", None) is not None,
                           config_error=isinstance(getattr(result, "exception", None), ConfigError), result=result)
        except KeyboardInterrupt as exc:  # the fleet was interrupted before this phone's run began
            run = PhoneRun(name, device, folder, "interrupted", duration_s=time.monotonic() - t,
                           error=str(exc) or ("ended by SIGTERM" if isinstance(exc, Terminated) else "interrupted"))
        except (MobileAgentError, OSError, Exception) as exc:  # noqa: BLE001 - one phone's failure is its own
            run = PhoneRun(name, device, folder, "error", duration_s=time.monotonic() - t,
                           error=f"{type(exc).__name__}: {exc}" if not isinstance(exc, MobileAgentError) else str(exc),
                           config_error=isinstance(exc, ConfigError))
        with lock:
            runs[name] = run
        if on_end is not None:
            try:
                on_end(run)
            except Exception:  # noqa: BLE001 - a display's failure does not lose the phone's record
                pass

    threads = {name: threading.Thread(target=work, args=(name, device, start), name=f"phone-{name}", daemon=True)
               for name, (device, start) in starts.items()}
    for thread in threads.values():
        thread.start()
    interrupt: BaseException | None = None
    try:  # waits on events, never Thread.join: a join that Ctrl-C interrupts marks a running thread
        for event in ended.values():  # stopped on Python 3.11 (its tstate lock released under it)
            while not event.wait(0.2):
                pass
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: every phone's run ends interrupted, as one run's does
        interrupt = exc
        for name, thread in threads.items():
            if not ended[name].is_set():
                _raise_in(thread, type(exc))
        give_up = time.monotonic() + 30.0
        for event in ended.values():
            event.wait(max(0.0, give_up - time.monotonic()))
    result = FleetResult(instruction, root, [runs[n] if n in runs else
                                             PhoneRun(n, starts[n][0], root / n, "interrupted",
                                                      error="did not end within 30 s of the interrupt")
                                             for n in starts], time.monotonic() - t0, interrupt)
    write_fleet_file(result)
    return result


def write_fleet_file(result: FleetResult) -> Path:
    """``OUT/fleet.json``: the instruction, the wall time and each phone's end (its folder relative to OUT)."""
    result.out_dir.mkdir(parents=True, exist_ok=True)
    path = result.out_dir / FLEET_FILE
    atomic_write_text(path, json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n")
    return path


def _raise_in(thread: threading.Thread, exc_type: type[BaseException]) -> None:
    """Raise ``exc_type`` in ``thread`` at its next Python instruction (a call blocked in C, such as a
    model request, raises it when it returns; the model's deadline bounds that)."""
    if thread.ident is None or not thread.is_alive():
        return
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(exc_type))
