"""Summary tables: the paper's (rows Instruction 1, 2, 3; columns SU, PS, RE, CR) and one per app.

Each cell is a mean over the runs of that row, as a percentage. SU, PS and CR are averaged over
all runs; RE over the successful runs only (the ratio of steps says nothing about a run that did
not get there), and is empty when none succeeded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from mobile_agent.bench.store import ResultRow

APP_ORDER = ("Shop", "Music", "Browser", "Mail", "Maps", "Store", "Notes", "Settings", "Clips", "Video", "Multi-app")


@dataclass
class Row:
    label: str
    runs: int
    successes: int
    su: float | None
    ps: float | None
    re: float | None
    cr: float | None
    steps: int
    tokens: int

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, "runs": self.runs, "successes": self.successes, "SU": self.su, "PS": self.ps,
                "RE": self.re, "CR": self.cr, "steps": self.steps, "tokens": self.tokens}


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def aggregate(label: str, rows: Sequence[ResultRow]) -> Row:
    ok = [r for r in rows if r.success]
    return Row(label, len(rows), len(ok), _mean([float(r.success) for r in rows]), _mean([r.ps for r in rows]),
               _mean([r.re for r in ok]), _mean([r.cr for r in rows]), sum(r.steps for r in rows),
               sum(r.prompt_tokens + r.completion_tokens for r in rows))


def tier_table(rows: Iterable[ResultRow]) -> list[Row]:
    rows = list(rows)
    out = [aggregate(f"Instruction {t}", [r for r in rows if r.tier == t]) for t in (1, 2, 3)]
    out.append(aggregate("All", rows))
    return out


def app_table(rows: Iterable[ResultRow]) -> list[Row]:
    rows = list(rows)
    apps = [a for a in APP_ORDER if any(r.app == a for r in rows)]
    apps += sorted({r.app for r in rows} - set(apps))
    return [aggregate(a, [r for r in rows if r.app == a]) for a in apps]


def pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


#: what the columns of the tables mean (the HTML report says the same under its tables)
LEGEND = ("SU: success · PS: process score (correct steps / steps) · RE: relative efficiency (human steps / "
          "agent steps, successful runs only) · CR: completion rate (milestones reached) · steps: agent steps. "
          "Means over runs.")


def render(title: str, table: list[Row]):
    """A rich Table."""
    from rich.table import Table
    from rich.text import Text

    t = Table(title=title)
    for col in ("", "runs", "SU", "PS", "RE", "CR", "steps"):
        t.add_column(col, justify="left" if not col else "right")
    for r in table:
        t.add_row(Text(r.label), str(r.runs), pct(r.su), pct(r.ps), pct(r.re), pct(r.cr), str(r.steps))
    return t


def summary_json(rows: Sequence[ResultRow], config: dict[str, Any], extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "config": config,
        "paper_table": [r.as_dict() for r in tier_table(rows)],
        "app_table": [r.as_dict() for r in app_table(rows)],
        "tasks": [r.as_dict() for r in rows],
        **(extra or {}),
    }


def question_summary(rows: Sequence[ResultRow]) -> dict[str, Any] | None:
    """The ask tier's question counts (each run's ``detail.questions``): per task the requests the
    agent made of the simulated user (``asked``: questions and take-overs), those answered from a
    hidden fact or carried out (``answered``), those the reference plan makes (``needed``); in all,
    their sums, the means per run, and ``extra`` (asked beyond what was needed: a cost). None
    when no run could ask."""
    per = [(r, (r.detail or {}).get("questions")) for r in rows]
    per = [(r, q) for r, q in per if isinstance(q, dict)]
    if not per:
        return None
    tasks = [{"task": r.task_key, "asked": int(q.get("asked") or 0), "answered": int(q.get("answered") or 0),
              "needed": int(q.get("needed") or 0), "success": bool(r.success)} for r, q in per]
    n = len(tasks)
    total = {k: sum(t[k] for t in tasks) for k in ("asked", "answered", "needed")}
    return {"runs": n, **total, "asked_per_run": total["asked"] / n, "needed_per_run": total["needed"] / n,
            "extra": sum(max(0, t["asked"] - t["needed"]) for t in tasks), "tasks": tasks}


def render_questions(summary: dict[str, Any]):
    """A rich Table of :func:`question_summary`: one row per run, then the totals."""
    from rich.table import Table
    from rich.text import Text

    t = Table(title="Questions to the user (asked, answered from the task's facts, needed by the reference plan)")
    for col in ("task", "asked", "answered", "needed", "SU"):
        t.add_column(col, justify="left" if col == "task" else "right")
    for r in summary["tasks"]:
        t.add_row(Text(r["task"]), str(r["asked"]), str(r["answered"]), str(r["needed"]), "1" if r["success"] else "0")
    t.add_row(Text("All"), str(summary["asked"]), str(summary["answered"]), str(summary["needed"]),
              f"{sum(r['success'] for r in summary['tasks'])}/{summary['runs']}")
    t.caption = (f"{summary['asked_per_run']:.2f} asked and {summary['needed_per_run']:.2f} needed per run; "
                 f"{summary['extra']} asked beyond what was needed")
    return t
