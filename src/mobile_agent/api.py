"""The Python API's :class:`Agent` (``from mobile_agent import Agent``): the step loop of
:mod:`mobile_agent.agent` with what ``mobile-agent run`` adds around it, so that a run from Python
writes the same folder as one from the command line, ``report.html`` included."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from mobile_agent.agent.loop import AgentSettings, RunResult, StepLoop

if TYPE_CHECKING:
    from mobile_agent.agent.fleet import FleetResult
    from mobile_agent.agent.planner import Planner
    from mobile_agent.device.base import Device
    from mobile_agent.perception import Perception

__all__ = ["Agent", "run_on_phones"]

log = logging.getLogger(__name__)


class Agent:
    """Carries out instructions on a phone, step by step, as ``mobile-agent run`` does: each step a
    screenshot, the planner's operation in words, perception's point for it, the gesture, a check
    that the screen changed; after Stop, a completion check.

    Args:
        device: the phone: ``open_device("sim")`` (the simulated phone), ``open_device("adb")`` or
            ``open_device("adb:SERIAL")`` (a real one), ``open_device("ios:URL")`` (an iPhone's
            WebDriverAgent), or any object with the ``Device`` methods.
        planner: what decides each step: ``LLMPlanner(make_chat_model("gpt-4o"))`` with a real
            model, ``LLMPlanner(ScriptedChatModel([...]))`` offline.
        perception: what finds where to tap (OCR, icon detection and matching). Default:
            ``Perception()``, the bundled OCR models and the learned icon matcher (the shipped
            recogniser beside the shape matcher).
        settings: how a run goes: ``AgentSettings(max_steps=..., time_limit_s=..., confirm=...,
            dry_run=..., reflect=..., on_step=..., on_finish=..., overwrite=...)``. Default:
            ``AgentSettings()`` (20 steps, 15 minutes).
        report: write ``report.html`` into the run folder when a run ends (default True), before
            ``settings.on_finish`` is called.

    Example::

        agent = Agent(open_device("sim"), LLMPlanner(make_chat_model("gpt-4o")))
        result = agent.run("Turn on the dark mode", "runs/dark")
        result.outcome, result.completed, result.steps, result.out_dir
    """

    __slots__ = ("device", "planner", "perception", "settings", "report")

    def __init__(self, device: Device, planner: Planner, perception: Perception | None = None,
                 settings: AgentSettings | None = None, *, report: bool = True) -> None:
        """An agent on ``device`` that ``planner`` drives; the arguments are described on the class."""
        if perception is None:
            from mobile_agent.perception import Perception

            perception = Perception()  # AgentSettings.icon_model, where given, is put in by the loop's Agent
        self.device = device
        self.planner = planner
        self.perception = perception
        self.settings = settings if settings is not None else AgentSettings()
        self.report = report

    def run(self, instruction: str, out_dir: str | Path) -> RunResult:
        """Carry out ``instruction`` and return how it ended (:class:`RunResult`: ``outcome``,
        ``completed``, ``steps``, ``out_dir``, ``usage``, ``cost_usd``, ``duration_s``, ``error``).

        The run writes ``out_dir``: ``steps.jsonl`` (one line per step), ``screens/``,
        ``summary.json`` and ``report.html``. A folder that already holds a run is refused with a
        ``ConfigError`` before anything is written (give another folder, or
        ``AgentSettings(overwrite=True)`` to replace it). A run that goes wrong does not raise: its
        outcome says how it ended; Ctrl-C ends it as ``interrupted``."""
        settings = self.settings
        if self.report:
            settings = dataclasses.replace(settings, on_finish=_with_report(settings.on_finish))
        loop = StepLoop(self.device, self.planner, self.perception, settings)
        return loop.run(instruction, out_dir)

    def __repr__(self) -> str:
        return (f"Agent(device={type(self.device).__name__}, planner={getattr(self.planner, 'name', '?')!r}, "
                f"report={self.report})")


def run_on_phones(instruction: str, devices: Sequence[str | Device], planner: Callable[[Device], Planner],
                  out_dir: str | Path, *, perception: Callable[[], Perception] | None = None,
                  settings: AgentSettings | None = None, report: bool = True) -> FleetResult:
    """Carry out ``instruction`` on several phones at once, as ``mobile-agent run --device A --device
    B`` does, and return how each ended (``FleetResult``: ``runs``, one ``PhoneRun`` a phone with its
    ``outcome``, ``completed``, ``steps``, ``out_dir`` and ``result``; ``completed`` when every phone
    completed; ``exit_code``, the worst phone's).

    Args:
        devices: device specs (``"sim"``, ``"adb:SERIAL"``) or opened devices; a spec is opened on
            the phone's own thread, so a phone that cannot be opened ends its own run only.
        planner: makes each phone's planner (a planner keeps the history of one run), e.g.
            ``lambda device: LLMPlanner(make_chat_model("gpt-4o"))``.
        perception: makes each phone's perception (default ``Perception()``; one a phone, since a
            perception is used from one thread at a time).
        settings: every phone's settings (``device_name`` is set to each phone's name).
        report: write each run's ``report.html`` and the combined ``OUT/report.html``.

    Each phone's run goes into ``out_dir/NAME`` (``sim-1``, ``sim-2``, ``adb-SERIAL``...), and
    ``out_dir/fleet.json`` says how each ended. A phone that fails does not stop the others; Ctrl-C
    ends every run ``interrupted`` (``FleetResult.interrupt`` holds it), as it ends one run."""
    from mobile_agent.agent.fleet import phone_names, run_each

    base = settings if settings is not None else AgentSettings()
    specs = [d if isinstance(d, str) else type(d).__name__ for d in devices]
    names = phone_names(specs)

    def start_for(name: str, device: Any) -> Callable[[Path], Any]:
        def start(folder: Path) -> Any:
            from mobile_agent.device import open_device

            phone = open_device(device) if isinstance(device, str) else device
            own = dataclasses.replace(base, device_name=name)
            return Agent(phone, planner(phone), perception() if perception is not None else None, own,
                         report=report).run(instruction, folder)

        return start

    fleet = run_each(instruction, {n: (s, start_for(n, d)) for n, s, d in zip(names, specs, devices)}, out_dir)
    if report:
        from mobile_agent.report.fleet import write_fleet_report

        try:
            write_fleet_report(fleet.out_dir)
        except Exception as exc:  # noqa: BLE001 - every phone's own record is complete
            log.warning("could not write the combined report of %s: %s", fleet.out_dir, exc)
    return fleet


def _with_report(then: object):
    """``on_finish`` that writes report.html, then calls ``then`` (the user's own, if any)."""

    def finish(run_dir: Path) -> None:
        from mobile_agent.report import write_report

        try:
            write_report(run_dir)
        except Exception as exc:  # noqa: BLE001 - the run's record is complete; the page is a view of it
            log.warning("could not write the report of %s: %s", run_dir, exc)
        if callable(then):
            then(run_dir)

    return finish
