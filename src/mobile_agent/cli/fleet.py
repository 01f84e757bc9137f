"""``run`` on several phones at once (``--device`` repeated, or ``--device adb`` with several phones
attached): each phone's run into ``OUT/NAME``, one line a phone in the terminal, ``OUT/report.html``
linking every run, and the worst phone's exit status (:mod:`mobile_agent.agent.fleet` runs them)."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from rich.markup import escape

from mobile_agent.cli._common import check_out, console, run_in, step_line, terminal_ask
from mobile_agent.device import DEVICE_KINDS, DEVICE_SPECS
from mobile_agent.errors import ConfigError

__all__ = ["phone_specs", "run_fleet"]


def phone_specs(devices: list[str], attached: Callable[[], list[str]] | None = None) -> list[str]:
    """The phones of ``--device`` (given once or more): ``adb`` alone stands for every attached phone
    that is ready (``adb:SERIAL`` each; ``adb`` as it was where none is, or the adb server cannot be
    asked: opening it then says why). A phone named twice is refused: two runs would fight over it."""
    specs: list[str] = []
    for given in devices:
        spec = given.strip()
        kind = spec.partition(":")[0]
        if kind not in DEVICE_KINDS:
            raise ConfigError(f"unknown device {given!r}: use {DEVICE_SPECS}")
        if spec == "adb":
            serials = (attached or _ready_serials)()
            specs.extend([f"adb:{s}" for s in serials] if serials else ["adb"])
        else:
            specs.append(spec)
    for spec in specs:
        if spec != "sim" and specs.count(spec) > 1:
            raise ConfigError(f"--device {spec} is given twice (or is also one of `--device adb`'s phones): one run "
                              "a phone; the simulated phone (sim) may be given more than once")
    return specs


def _ready_serials() -> list[str]:
    from mobile_agent.device.adb import list_devices
    from mobile_agent.errors import MobileAgentError

    try:
        return [d.serial for d in list_devices(start_server=False) if d.state == "device"]
    except (MobileAgentError, OSError):
        return []


class _Lines:
    """One line a phone: updated in place at a terminal (its last step, then how it ended); elsewhere
    (a pipe, a log) a phone's line is printed once, when it ends."""

    def __init__(self, names: list[str], specs: list[str]) -> None:
        self.names, self.specs = names, specs
        self.state = {n: "starting" for n in names}
        self.lock = threading.RLock()
        self.live: Any = None
        if console.is_terminal:
            from rich.live import Live

            self.live = Live(self._render(), console=console, refresh_per_second=4, transient=False)

    def _render(self) -> Any:
        from rich.text import Text

        width = max(len(n) for n in self.names)
        return Text.from_markup("\n".join(f"[bold]{escape(n.ljust(width))}[/bold]  {self.state[n]}"
                                          for n in self.names))

    def update(self, name: str, text: str) -> None:
        with self.lock:
            self.state[name] = text
            if self.live is not None:
                self.live.update(self._render())

    def say(self, name: str) -> Callable[[str], None]:
        def say(text: str) -> None:
            with self.lock:
                console.print(escape(f"{name}: {text}"), highlight=False, soft_wrap=True)

        return say

    @contextmanager
    def paused(self) -> Iterator[None]:
        """The in-place lines stopped while the terminal asks a person something."""
        with self.lock:
            if self.live is not None:
                self.live.stop()
            try:
                yield
            finally:
                if self.live is not None:
                    self.live.start()

    def __enter__(self) -> _Lines:
        if self.live is not None:
            self.live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.stop()


def _end_line(run: Any) -> str:
    colour = "green" if run.completed else "red"
    why = f": {run.error}" if run.error and not run.completed else ""
    return (f"[{colour}]{escape(run.outcome)}[/{colour}] " + escape(
        f"after {run.steps} step(s), {run.duration_s:.1f} s{why}; trajectory: {run.out_dir}"))


def run_fleet(instruction: str, specs: list[str], out: Path, overwrite: bool, build: Callable[..., Any], *,
              asks: bool, title: str) -> int:
    """Run ``instruction`` on every phone of ``specs`` at once and return the worst exit status.

    ``build(spec, on_step, person, say)`` makes one phone's ``(phone, agent, keep)``: ``keep(folder,
    result)`` keeps the run in the cache where ``--cache`` is given. Each phone's folder is
    ``out/NAME`` (:func:`mobile_agent.agent.fleet.phone_names`); a folder that holds a run is refused
    before any phone starts (without ``--overwrite``)."""
    from mobile_agent.agent.fleet import FLEET_FILE, phone_names, run_each
    from mobile_agent.agent.user import printable
    from mobile_agent.report.fleet import write_fleet_report

    names = phone_names(specs)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file; give a folder for the phones' trajectories")
    if (out / FLEET_FILE).exists() and not overwrite:
        raise ConfigError(f"--out {out} already holds a run on several phones ({FLEET_FILE}); choose a new folder, "
                          "or replace it (--overwrite)")
    for name in names:
        check_out(out / name, overwrite)
    console.print(f"[bold]{escape(instruction)}[/bold]  " + escape(
        f"(on {len(specs)} phones at once: {', '.join(f'{n} ({s})' if n != s else n for n, s in zip(names, specs))}; "
        f"{title}; trajectories in {out}/NAME)"), highlight=False, soft_wrap=True)
    lines = _Lines(names, specs)
    asking = threading.Lock()

    def start_for(name: str, spec: str) -> Callable[[Path], Any]:
        def on_step(rec: Any) -> None:
            lines.update(name, step_line(rec))

        def person(req: Any) -> str | None:
            with asking, lines.paused():
                console.print(escape(f"{name} asks:"), highlight=False)
                return terminal_ask(req)

        def start(folder: Path) -> Any:
            phone, agent, keep = build(spec, on_step, person if asks else None, lines.say(name))
            result = run_in(folder, overwrite, lambda f: agent.run(instruction, f))
            keep(folder, result)
            return result

        return start

    def on_end(run: Any) -> None:
        name = run.name
        lines.update(name, _end_line(run))
        if lines.live is None:
            with lines.lock:
                console.print(f"[bold]{escape(name)}[/bold]  " + _end_line(run), highlight=False, soft_wrap=True)
        if run.needs_user and run.result is not None and run.result.needs_user is not None:
            lines.say(name)(printable(run.result.needs_user.prompt()) + " (no one could answer; it is in "
                                                                        "summary.json)")

    with lines:
        fleet = run_each(instruction, {n: (s, start_for(n, s)) for n, s in zip(names, specs)}, out, on_end=on_end)
    try:
        report = write_fleet_report(out)
        where = f"; report: {report}"
    except Exception as exc:  # noqa: BLE001 - every phone's own record and report is kept
        where = f"; the combined report could not be written ({exc})"
    done = sum(1 for r in fleet.runs if r.completed)
    colour = "green" if fleet.completed else "red"
    console.print(f"[{colour}]{done} of {len(fleet.runs)} phone(s) completed[/{colour}]" + escape(
        f" in {fleet.duration_s:.1f} s{where}"), highlight=False, soft_wrap=True)
    return fleet.exit_code  # an interrupted phone's is 1, as a run of one phone's
