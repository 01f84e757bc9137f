"""The HTML pages of a flow run: ``OUT/<flow>/report.html`` for each flow (its steps, their
status and reasons, the values its queries read, the screen when it failed, a link to each ai:
step's own run report) and ``OUT/index.html`` linking them, as the flows' results say
(``flow.json``, ``summary.json``). Drawn with the report package's templates (autoescaped)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from mobile_agent.errors import redact
from mobile_agent.fsutil import atomic_write_text
from mobile_agent.report.htmlkit import fmt_cost, fmt_seconds, relative_src, render_template

REPORT_NAME = "report.html"
INDEX_NAME = "index.html"


def _text(value: Any) -> str:
    if value is None:
        return ""
    return redact(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str))


def write_flow_report(result: Any, folder: Path, index: Path | None = None) -> Path:
    """Write ``folder/report.html`` for ``result`` (a ``FlowResult``), linking the ``index`` page
    where one is given, and return its path."""
    page = Path(folder) / REPORT_NAME
    steps = []
    for s in result.steps:
        run = Path(folder) / f"step-{s.n:02d}-ai" / REPORT_NAME
        steps.append({"n": s.n, "line": s.line, "step": redact(s.step), "status": s.status, "tries": s.tries,
                      "time": fmt_seconds(s.duration_s) if s.status != "skipped" else "",
                      "reason": redact(s.reason), "value": _text(s.value),
                      "href": relative_src(run, page) if run.is_file() else None})
    shot = Path(result.screenshot) if result.screenshot else None
    html = render_template(
        "flow.html", title=f"flow: {result.name}", flow=result, steps=steps, duration=fmt_seconds(result.duration_s),
        cost=fmt_cost(result.cost_usd) if result.cost_usd is not None else "",
        values=[(k, _text(v)) for k, v in result.values.items()],
        screenshot=relative_src(shot, page) if shot is not None and shot.is_file() else None,
        index_href=relative_src(index, page) if index is not None else None, failure=redact(result.failure))
    atomic_write_text(page, html)
    return page


def write_index(results: Sequence[Any], folders: Sequence[Path], out_dir: Path) -> Path:
    """Write ``out_dir/index.html``: one row a flow (and device), linking its ``report.html``."""
    index = Path(out_dir) / INDEX_NAME
    rows = []
    for r, folder in zip(results, folders):
        page = Path(folder) / REPORT_NAME
        rows.append({"name": r.name, "device": r.device, "passed": r.passed, "steps": len(r.steps),
                     "time": fmt_seconds(r.duration_s), "failure": redact(r.failure),
                     "href": relative_src(page, index) if page.is_file() else None})
    known = [r.cost_usd for r in results if r.cost_usd is not None]
    html = render_template("flows.html", title="mobile-agent test flows", flows=rows,
                           passed=sum(r.passed for r in results), failed=sum(not r.passed for r in results),
                           duration=fmt_seconds(sum(r.duration_s for r in results)),
                           calls=sum(r.model_calls for r in results), cost=fmt_cost(sum(known)) if known else "")
    atomic_write_text(index, html)
    return index
