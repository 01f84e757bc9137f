"""The combined page of a run on several phones (``run --device A --device B``): one row a phone,
how it ended, linking to its own trajectory report (``NAME/report.html``)."""

from __future__ import annotations

import json
from pathlib import Path

from mobile_agent.errors import ConfigError
from mobile_agent.fsutil import atomic_write_text, load_json, path_inside
from mobile_agent.report.htmlkit import fmt_seconds, relative_src, render_template

REPORT_NAME = "report.html"
FLEET_FILE = "fleet.json"


def write_fleet_report(fleet_dir: str | Path) -> Path:
    """Write ``FLEET/report.html`` from ``FLEET/fleet.json`` and return its path. A phone whose
    folder holds no report (it never ran) is listed without a link."""
    root = Path(fleet_dir)
    try:
        data = load_json((root / FLEET_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{root} is not a run on several phones: cannot read its {FLEET_FILE} ({exc})") from None
    out = root / REPORT_NAME
    phones = []
    for p in data.get("phones") or []:
        href = None
        try:
            report = path_inside(root, f"{p.get('folder')}/{REPORT_NAME}")
            if report.is_file():
                href = relative_src(report, out)
        except (ConfigError, ValueError, TypeError):
            href = None
        phones.append({"name": str(p.get("name", "?")), "device": str(p.get("device", "?")),
                       "outcome": str(p.get("outcome", "?")), "error": p.get("error") or "",
                       "completed": bool(p.get("completed")), "steps": p.get("steps", 0),
                       "time": fmt_seconds(p.get("duration_s")), "href": href})
    page = render_template("fleet.html", title=f"mobile-agent: {data.get('instruction', '')}",
                           instruction=str(data.get("instruction", "")), phones=phones,
                           duration=fmt_seconds(data.get("duration_s")),
                           done=sum(1 for p in phones if p["completed"]))
    atomic_write_text(out, page)
    return out
