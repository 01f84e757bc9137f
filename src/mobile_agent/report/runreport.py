"""One run's trajectory report: a trajectory folder -> ``report.html`` (re-exported by
:mod:`mobile_agent.report`; the benchmark's page writes each task run's report with it)."""

from __future__ import annotations

from pathlib import Path

from mobile_agent.errors import ConfigError
from mobile_agent.fsutil import atomic_write_text
from mobile_agent.report.rundata import SCREENS, STEPS, SUMMARY, read_run
from mobile_agent.report.trajectory import render_run

REPORT_NAME = "report.html"


def is_run_dir(path: Path) -> bool:
    """True when ``path`` holds any part of a trajectory folder."""
    return any((path / name).exists() for name in (SUMMARY, STEPS, SCREENS))


def write_report(run_dir: Path, out: Path | None = None, embed: bool = False) -> Path:
    """Write the HTML report of the run in ``run_dir`` and return its path.

    ``out`` defaults to ``run_dir/report.html``; screenshots are linked relative to it, or embedded
    in the file with ``embed=True`` (a larger file that can be moved alone). Missing files and
    steps cut off by a crash are shown as marked gaps; raises :class:`ConfigError` only when
    ``run_dir`` is not a run folder at all.
    """
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ConfigError(f"run folder not found: {run_dir} (give the folder a run wrote, with summary.json "
                          f"and steps.jsonl)")
    if not is_run_dir(run_dir):
        raise ConfigError(f"{run_dir} is not a run folder: it has no {SUMMARY}, {STEPS} or {SCREENS}/ "
                          f"(give the folder `mobile-agent run` wrote, or an `eval` output folder)")
    out = Path(out) if out is not None else run_dir / REPORT_NAME
    if out.is_dir():
        out = out / REPORT_NAME
    run = read_run(run_dir)
    atomic_write_text(out, render_run(run, out, embed=embed))
    return out
