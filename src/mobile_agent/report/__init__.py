"""HTML reports of runs and benchmarks, the live view of a run, and the simulated phone in a browser.

- :func:`write_report`: one run's trajectory folder -> ``report.html`` (opens from disk).
- :func:`write_benchmark_report`: an ``eval`` output folder -> ``report.html`` with the SU/PS/RE/CR
  tables and one row per task linking to its trajectory report.
- :class:`mobile_agent.report.live.LiveView`: a localhost page that follows a run as it goes.
- :func:`mobile_agent.report.simserve.serve_phone`: the simulated phone in the browser.
"""

from __future__ import annotations

from pathlib import Path

from mobile_agent.report.rundata import VERDICT
from mobile_agent.report.runreport import REPORT_NAME, is_run_dir, write_report

__all__ = ["write_report", "write_benchmark_report", "is_run_dir", "REPORT_NAME", "VERDICT"]


def write_benchmark_report(eval_dir: Path, out: Path | None = None) -> Path:
    """Write the HTML report of an ``eval`` output folder and return its path (see
    :mod:`mobile_agent.report.benchmark` for what it reads)."""
    from mobile_agent.report.benchmark import write_benchmark_report as _write

    return _write(Path(eval_dir), None if out is None else Path(out))
