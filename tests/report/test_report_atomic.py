"""Processes writing the same report at once: each write goes through its own temporary file
(one fixed temporary name made some of the writers fail). The writers are spawned, not forked: a fork
of a test process that runs threads can copy a held lock and hang."""

from __future__ import annotations

import multiprocessing as mp

from report_helpers import make_run


def _write_reports(run_dir: str, n: int) -> int:
    from mobile_agent.report import write_report

    failed = 0
    for _ in range(n):
        try:
            write_report(run_dir)
        except OSError:
            failed += 1
    return failed


def test_processes_writing_one_report_at_once_never_fail(tmp_path):
    run, _ = make_run(tmp_path / "run")
    with mp.get_context("spawn").Pool(3) as pool:
        failed = pool.starmap(_write_reports, [(str(run), 100)] * 3)
    assert failed == [0, 0, 0]
    assert (run / "report.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert [p.name for p in run.iterdir() if p.name.endswith(".tmp")] == []
