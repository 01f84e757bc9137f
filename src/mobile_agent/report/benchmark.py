"""The HTML report of an ``eval`` output folder: the paper's SU/PS/RE/CR table per tier, the per-app
table, and one row per task with its metrics and a link to its trajectory report, failures first.

What it reads, first found wins (the shapes are in docs/interfaces.md, "Benchmark results"):

1. ``results.sqlite`` (written by :mod:`mobile_agent.bench.store`): the table of per-task rows is
   the one whose columns include ``success`` (or ``su``); column names are matched loosely (see
   ``_ALIASES``). Rows of several configurations (``config_id``, described in the ``configs``
   table) get one section each, the newest first.
2. ``results.json``: ``{"tasks": [row, ...]}`` (or a bare list of rows) with the same row keys, as
   ``mobile-agent eval`` writes it in ``<out>/<config_id>/results.json``.
3. Neither: every sub-folder that is a run folder becomes a row (SU from its summary.json; the
   other metrics unknown).

Means are taken as in :mod:`mobile_agent.bench.tables`: SU, PS and CR over all runs of a row; RE
over the successful runs only (empty when none succeeded).
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from mobile_agent.errors import ConfigError
from mobile_agent.fsutil import atomic_write_text, load_json
from mobile_agent.report.htmlkit import fmt_cost, fmt_int, fmt_pct, fmt_seconds, relative_src, render_template
from mobile_agent.report.runreport import REPORT_NAME, is_run_dir, write_report

RESULTS_SQLITE = "results.sqlite"
RESULTS_JSON = "results.json"

# Row field -> accepted column names (lower case), first match wins.
_ALIASES: dict[str, tuple[str, ...]] = {
    "task": ("task", "task_key", "key", "task_id", "id", "name"),
    "app": ("app", "apps"),
    "tier": ("tier", "level", "difficulty"),
    "instruction": ("instruction", "prompt"),
    "variant": ("variant",),
    "su": ("su", "success"),
    "ps": ("ps", "process_score"),
    "re": ("re", "relative_efficiency"),
    "cr": ("cr", "completion_rate"),
    "steps": ("steps", "agent_steps", "n_steps"),
    "human_steps": ("human_steps", "reference_steps"),
    "outcome": ("outcome", "status", "result"),
    "run_dir": ("run_dir", "trajectory", "trajectory_dir", "out_dir", "run_path", "path"),
    "config_id": ("config_id",),
    "prompt_tokens": ("prompt_tokens",),
    "completion_tokens": ("completion_tokens",),
    "furthest": ("furthest",),
    "milestones": ("milestones",),
    "duration_s": ("duration_s", "duration", "time_s", "seconds"),
    "tokens": ("tokens", "total_tokens", "tokens_total"),
    "cost_usd": ("cost_usd", "cost"),
    "error": ("error", "message"),
    "model": ("model",),
    "repeat": ("repeat", "attempt", "trial"),
}


@dataclass
class TaskRow:
    """One task run of the benchmark, as shown in the report."""

    task: str
    app: str = "?"
    tier: int | str | None = None
    instruction: str = ""
    su: float | None = None
    ps: float | None = None
    re: float | None = None
    cr: float | None = None
    steps: int | None = None
    human_steps: int | None = None
    outcome: str = ""
    run_dir: Path | None = None
    duration_s: float | None = None
    tokens: int | None = None
    cost_usd: float | None = None
    error: str = ""
    model: str = ""
    config_id: str = ""
    furthest: int | None = None
    milestones: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return not (self.su is not None and self.su >= 1.0)


@dataclass
class Section:
    """The runs of one configuration (model, planner, suite...)."""

    title: str
    rows: list[TaskRow]
    config: dict[str, Any] = field(default_factory=dict)


@dataclass
class BenchData:
    eval_dir: Path
    source: str
    sections: list[Section]
    notes: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def rows(self) -> list[TaskRow]:
        return [r for s in self.sections for r in s.rows]


def _pick(row: dict[str, Any], name: str) -> Any:
    lower = {str(k).lower(): v for k, v in row.items()}
    for alias in _ALIASES[name]:
        if alias in lower and lower[alias] is not None:
            return lower[alias]
    return None


def _as_float(v: Any) -> float | None:
    """A finite number from a cell (bools as 0/1, numeric text parsed); None otherwise."""
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        f = float(v)
    elif isinstance(v, str):
        try:
            f = float(v)
        except ValueError:
            return None
    else:
        return None
    return f if math.isfinite(f) else None


def _as_int(v: Any) -> int | None:
    f = _as_float(v)
    return None if f is None else int(f)


def _tokens(v: Any) -> int | None:
    if isinstance(v, str) and v.strip().startswith("{"):
        try:
            v = load_json(v)
        except json.JSONDecodeError:
            return None
    if isinstance(v, dict):
        return _as_int(v.get("total"))
    return _as_int(v)


def _apps(v: Any) -> str:
    if isinstance(v, str) and v.strip().startswith("["):
        try:
            v = load_json(v)
        except json.JSONDecodeError:
            pass
    if isinstance(v, (list, tuple)):
        return "Multi-app" if len(v) > 1 else (str(v[0]) if v else "?")
    return str(v) if v not in (None, "") else "?"


def _resolve_run(eval_dir: Path, v: Any, task: str, cid: str = "") -> Path | None:
    """The trajectory folder of a row: the stored path (absolute, relative to the eval folder or to
    the working folder the eval ran in), else the runner's ``<out>/<config_id>/<key with # as _v>``."""
    cands: list[Path] = []
    if isinstance(v, str) and v:
        p = Path(v)
        if p.is_absolute():
            cands.append(p)
        else:
            cands += [eval_dir / p, p]
        cands += [eval_dir / p.name] + ([eval_dir / cid / p.name] if cid else [])
    names = [task.replace("#", "_v"), re.sub(r"[^A-Za-z0-9._-]+", "_", task), task]
    for n in names:
        cands += ([eval_dir / cid / n] if cid else []) + [eval_dir / "runs" / n, eval_dir / n]
    for c in cands:
        try:
            if c.is_dir():
                return c
        except (OSError, ValueError):  # a name the file system cannot hold (NUL, too long)
            continue
    return cands[0] if isinstance(v, str) and v else None


def row_from_dict(eval_dir: Path, row: dict[str, Any]) -> TaskRow:
    """A :class:`TaskRow` from one result row (a dict with the keys of ``_ALIASES``, loosely named)."""
    task = str(_pick(row, "task") or "?")
    tier = _pick(row, "tier")
    tier_v: int | str | None = _as_int(tier) if _as_float(tier) is not None else (str(tier) if tier else None)
    known = {a for names in _ALIASES.values() for a in names}
    tokens = _tokens(_pick(row, "tokens"))
    pt, ct = _as_int(_pick(row, "prompt_tokens")), _as_int(_pick(row, "completion_tokens"))
    if tokens is None and (pt is not None or ct is not None):
        tokens = (pt or 0) + (ct or 0)
    cid = str(_pick(row, "config_id") or "")
    return TaskRow(
        task=task, app=_apps(_pick(row, "app")), tier=tier_v, instruction=str(_pick(row, "instruction") or ""),
        su=_as_float(_pick(row, "su")), ps=_as_float(_pick(row, "ps")), re=_as_float(_pick(row, "re")),
        cr=_as_float(_pick(row, "cr")), steps=_as_int(_pick(row, "steps")),
        human_steps=_as_int(_pick(row, "human_steps")), outcome=str(_pick(row, "outcome") or ""),
        run_dir=_resolve_run(eval_dir, _pick(row, "run_dir"), task, cid),
        duration_s=_as_float(_pick(row, "duration_s")), tokens=tokens, cost_usd=_as_float(_pick(row, "cost_usd")),
        error=str(_pick(row, "error") or ""), model=str(_pick(row, "model") or ""), config_id=cid,
        furthest=_as_int(_pick(row, "furthest")), milestones=_as_int(_pick(row, "milestones")),
        extra={k: v for k, v in row.items() if str(k).lower() not in known},
    )


def _connect_ro(path: Path) -> sqlite3.Connection:
    try:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5.0)
    except sqlite3.Error as exc:
        raise ConfigError(f"cannot open {path}: {exc} (is it an SQLite file written by `mobile-agent eval`?)") from exc


def _config_title(cid: str, config: dict[str, Any]) -> str:
    keys = ("planner", "model", "suite", "device", "ocr", "reflect")
    bits = [f"{k} {config[k]}" for k in keys if config.get(k) not in (None, "", False)]
    return f"Configuration {cid}" + (f" ({', '.join(bits)})" if bits else "")


def _read_sqlite(eval_dir: Path, path: Path) -> BenchData:
    con = _connect_ro(path)
    try:
        con.row_factory = sqlite3.Row
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                                            "ORDER BY name")]
        known = {a for names in _ALIASES.values() for a in names}
        best: tuple[int, str] | None = None
        for t in tables:
            cols = {r[1].lower() for r in con.execute(f'PRAGMA table_info("{t}")')}
            if cols & set(_ALIASES["su"]):
                score = len(cols & known)
                if best is None or score > best[0]:
                    best = (score, t)
        if best is None:
            raise ConfigError(f"{path} has no table of task results (no table with a `success` or `su` column; "
                              f"tables: {', '.join(tables) or 'none'})")
        raw = [dict(r) for r in con.execute(f'SELECT * FROM "{best[1]}" ORDER BY rowid')]
        configs: dict[str, tuple[str, dict[str, Any]]] = {}
        if "configs" in tables:
            for r in con.execute('SELECT * FROM "configs"'):
                d = dict(r)
                try:
                    cfg = load_json(d.get("config") or "{}")
                except (TypeError, json.JSONDecodeError):
                    cfg = {}
                configs[str(d.get("config_id"))] = (str(d.get("created_at") or ""), cfg if isinstance(cfg, dict) else {})
        failures: list[str] = []
        if "failures" in tables:
            for r in con.execute('SELECT * FROM "failures" ORDER BY rowid'):
                d = dict(r)
                failures.append(f"{d.get('task_key')} (configuration {d.get('config_id')}) was not scored: "
                                f"{d.get('kind')} failure: {d.get('error')}. Rerun with --resume.")
    except sqlite3.DatabaseError as exc:
        raise ConfigError(f"cannot read {path}: {exc} (the file may be damaged; rerun `mobile-agent eval`)") from exc
    finally:
        con.close()
    rows = [row_from_dict(eval_dir, r) for r in raw]
    groups: dict[str, list[TaskRow]] = {}
    for r in rows:
        groups.setdefault(r.config_id, []).append(r)
    order = sorted(groups, key=lambda c: configs.get(c, ("", {}))[0], reverse=True)  # newest first
    sections = []
    for cid in order:
        cfg = configs.get(cid, ("", {}))[1]
        title = _config_title(cid, cfg) if cid else "Results"
        sections.append(Section(title, groups[cid], cfg))
    meta: dict[str, Any] = {}
    if order and order[0]:
        try:  # the newest configuration's results.json has the wall time of its last eval
            newest = load_json((eval_dir / order[0] / RESULTS_JSON).read_text(encoding="utf-8"))
            if _as_float(newest.get("duration_s")) is not None:
                meta["wall_s"] = float(newest["duration_s"])
        except (OSError, ValueError, AttributeError):
            pass
    return BenchData(eval_dir, f"{RESULTS_SQLITE} (table {best[1]})", sections or [Section("Results", [])],
                     notes=failures, meta=meta)


def _read_json(eval_dir: Path, path: Path) -> BenchData:
    try:
        data = load_json(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} is not valid JSON ({exc}); rerun `mobile-agent eval` to rewrite it") from exc
    meta: dict[str, Any] = {}
    config: dict[str, Any] = {}
    if isinstance(data, dict):
        rows = next((data[k] for k in ("tasks", "results", "runs") if isinstance(data.get(k), list)), None)
        meta = {k: v for k, v in data.items() if not isinstance(v, (list, dict)) and v is not None}
        config = data.get("config") if isinstance(data.get("config"), dict) else {}
        if rows is None:
            raise ConfigError(f"{path} has no list of task rows (expected a \"tasks\" list; see docs/interfaces.md)")
    elif isinstance(data, list):
        rows = data
    else:
        raise ConfigError(f"{path} holds a {type(data).__name__}; expected {{\"tasks\": [...]}}")
    cid = str(meta.get("config_id") or "")
    parsed = [row_from_dict(eval_dir, r) for r in rows if isinstance(r, dict)]
    title = _config_title(cid, config) if (cid or config) else "Results"
    return BenchData(eval_dir, RESULTS_JSON, [Section(title, parsed, config)], meta=meta)


def _read_run_folders(eval_dir: Path) -> BenchData:
    rows: list[TaskRow] = []
    for sub in sorted(p for p in eval_dir.rglob("summary.json") if p.parent != eval_dir):
        run = sub.parent
        try:
            s = load_json(sub.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            s = {}
        if not isinstance(s, dict):
            s = {}
        tok = s.get("tokens") if isinstance(s.get("tokens"), dict) else {}
        rows.append(TaskRow(task=run.relative_to(eval_dir).as_posix(), instruction=str(s.get("instruction") or ""),
                            su=(1.0 if s.get("completed") else 0.0) if "completed" in s else None,
                            steps=_as_int(s.get("steps")), outcome=str(s.get("outcome") or ""), run_dir=run,
                            duration_s=_as_float(s.get("duration_s")), tokens=_as_int(tok.get("total")),
                            cost_usd=_as_float(s.get("cost_usd")), error=str(s.get("error") or ""),
                            model=str(s.get("model") or "")))
    if not rows:
        raise ConfigError(f"{eval_dir} is not an eval output folder: no {RESULTS_SQLITE}, no {RESULTS_JSON} and no "
                          f"run folders in it (give the folder `mobile-agent eval --out` wrote)")
    return BenchData(eval_dir, "run folders (no results file)", [Section("Runs", rows)],
                     notes=["No results file: SU is the agent's own completion claim; PS, RE and CR are unknown."])


def is_eval_dir(path: Path) -> bool:
    return (path / RESULTS_SQLITE).is_file() or (path / RESULTS_JSON).is_file()


def read_bench(eval_dir: Path) -> BenchData:
    """The task rows of an eval output folder (see the module docstring for what is read)."""
    if not eval_dir.is_dir():
        raise ConfigError(f"eval output folder not found: {eval_dir}")
    if (eval_dir / RESULTS_SQLITE).is_file():
        return _read_sqlite(eval_dir, eval_dir / RESULTS_SQLITE)
    if (eval_dir / RESULTS_JSON).is_file():
        return _read_json(eval_dir, eval_dir / RESULTS_JSON)
    return _read_run_folders(eval_dir)


# ---------------------------------------------------------------- aggregation

@dataclass
class Agg:
    label: str
    n: int
    successes: int
    su: float | None
    ps: float | None
    re: float | None
    cr: float | None
    steps: float | None
    human_steps: float | None


def _mean(values: Iterable[float | int | None]) -> float | None:
    vals = [float(v) for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


def aggregate(label: str, rows: list[TaskRow]) -> Agg:
    """Means over ``rows``: SU, PS and CR over all of them, RE over the successful ones (a metric
    missing from a row is left out of its mean)."""
    ok = [r for r in rows if not r.failed]
    return Agg(label, len(rows), len(ok), _mean(r.su for r in rows), _mean(r.ps for r in rows),
               _mean(r.re for r in ok), _mean(r.cr for r in rows), _mean(r.steps for r in rows),
               _mean(r.human_steps for r in rows))


def _group(rows: list[TaskRow], key: str) -> list[tuple[Any, list[TaskRow]]]:
    groups: dict[Any, list[TaskRow]] = {}
    for r in rows:
        groups.setdefault(getattr(r, key), []).append(r)
    return sorted(groups.items(), key=lambda kv: (kv[0] is None, str(kv[0])))


def _tier_label(t: Any) -> str:
    return "tier ?" if t is None else f"Instruction {t}" if isinstance(t, int) else str(t)


# ---------------------------------------------------------------- HTML

def _agg_view(a: Agg) -> dict[str, Any]:
    def f(v: float | None, digits: int = 1) -> str:
        return "–" if v is None else f"{v:.{digits}f}"
    return {"label": a.label, "n": a.n, "su": fmt_pct(a.su), "ps": fmt_pct(a.ps), "re": fmt_pct(a.re),
            "cr": fmt_pct(a.cr), "steps": f(a.steps), "human_steps": f(a.human_steps)}


def _task_link(row: TaskRow, page: Path) -> dict[str, str] | None:
    if row.run_dir is None:
        return None
    rep = row.run_dir / REPORT_NAME
    if not rep.is_file():
        return {"href": "", "title": str(row.run_dir)}
    return {"href": relative_src(rep, page), "title": ""}


def _detail(row: TaskRow) -> dict[str, Any]:
    detail = row.extra.get("detail")
    if isinstance(detail, str):
        try:
            detail = load_json(detail)
        except json.JSONDecodeError:
            detail = None
    return detail if isinstance(detail, dict) else {}


def _questions(row: TaskRow) -> dict[str, int] | None:
    """The ask tier's counts of a run (``detail.questions``): asked, answered, needed; None elsewhere."""
    q = _detail(row).get("questions")
    if not isinstance(q, dict):
        return None
    return {k: _as_int(q.get(k)) or 0 for k in ("asked", "answered", "needed")}


def _why(row: TaskRow) -> str:
    """Why a run failed: its error, or the stored explanation of its first wrong step (or the oracle
    giving up). Empty for a success."""
    if not row.failed:
        return row.error
    parts = [row.error] if row.error else []
    detail = _detail(row)
    if detail:
        if detail.get("first_wrong"):
            parts.append(f"first wrong: {detail['first_wrong']}")
        if detail.get("oracle_gave_up"):
            parts.append(f"the oracle gave up: {detail['oracle_gave_up']}")
    return "; ".join(parts)


#: a run's figures that ``detail.cache`` keeps (``bench.runner.run_figures``)
_FIGURES = ("calls", "tokens", "duration_s", "steps", "replayed")


def _figures(v: Any) -> dict[str, float] | None:
    """A run's figures kept in ``detail.cache`` (:data:`_FIGURES`), or None."""
    if not isinstance(v, dict):
        return None
    return {k: _as_float(v.get(k)) or 0.0 for k in _FIGURES}


def _counts(v: float) -> str:
    return fmt_int(int(v))


def _ratio(now: float, then: float) -> str:
    return "–" if then <= 0 else f"{now / then:.2f}"


def replayed_pairs(caches: Sequence[Any]) -> list[tuple[dict[str, float], dict[str, float]]]:
    """The tasks replayed from a run cache (``detail.cache`` records): each one's figures and those
    of the run that filled the cache, where both were kept."""
    out = []
    for c in caches:
        if isinstance(c, dict) and c.get("hit"):
            now, kept = _figures(c.get("run")), _figures(c.get("kept_run"))
            if now is not None and kept is not None:
                out.append((now, kept))
    return out


def cache_totals(pairs: Sequence[tuple[dict[str, float], dict[str, float]]]) -> dict[str, Any]:
    """Totals over replayed tasks (``(this run, the run that filled the cache)`` figure pairs), as
    the report's and ``eval``'s words give them: "this / filled by" and their ratio per figure."""
    tot = {k: (sum(n[k] for n, _ in pairs), sum(k_[k] for _, k_ in pairs)) for k in _FIGURES}

    def both(key: str, fmt: Any) -> str:
        return f"{fmt(tot[key][0])} / {fmt(tot[key][1])}"

    return {"n": len(pairs), "calls": both("calls", _counts), "tokens": both("tokens", _counts),
            "time": both("duration_s", fmt_seconds),
            "replayed": f"{int(tot['replayed'][0])} of {int(tot['steps'][0])}",
            "calls_ratio": _ratio(*tot["calls"]), "tokens_ratio": _ratio(*tot["tokens"]),
            "time_ratio": _ratio(*tot["duration_s"])}


def replayed_sentence(total: dict[str, Any]) -> str:
    """:func:`cache_totals` in one sentence (the report's summary and ``eval``'s line)."""
    return (f"Over the {total['n']} replayed, against the runs that filled the cache: model calls {total['calls']} "
            f"({total['calls_ratio']}), tokens {total['tokens']} ({total['tokens_ratio']}), time {total['time']} "
            f"({total['time_ratio']}); {total['replayed']} steps replayed.")


@dataclass
class CacheSummary:
    """An eval run's use of its run cache over the tasks that ran with it: how many were replayed
    from it (``hits`` of ``n``), how many runs were kept for the next pass, and the totals of the
    replayed ones against the runs that filled the cache (:func:`cache_totals`; None when no
    replayed task kept both runs' figures). The one computation behind ``eval``'s cache lines and the
    report's summary."""

    n: int
    hits: int
    kept: int
    total: dict[str, Any] | None

    def hit_words(self) -> str:
        return f"{self.hits} of {self.n} task(s) replayed from it"


def cache_summary(caches: Sequence[Any]) -> CacheSummary | None:
    """:class:`CacheSummary` of the ``detail.cache`` records of an eval run's tasks (records that are
    not dicts are left out); None when no task ran with a cache."""
    cached = [c for c in caches if isinstance(c, dict)]
    if not cached:
        return None
    pairs = replayed_pairs(cached)
    return CacheSummary(len(cached), sum(bool(c.get("hit")) for c in cached), sum(bool(c.get("kept")) for c in cached),
                        cache_totals(pairs) if pairs else None)


def _cache_view(rows: list[TaskRow]) -> dict[str, Any] | None:
    """An eval run with ``--cache``: each task's model calls, tokens, time and replayed steps against
    the run the cache held for it when the task began (the run that filled the cache: the first
    pass's, or the last pass's that planned something), and the totals over the tasks replayed from
    it. None when no row ran with a cache."""
    out = []
    caches = []
    for r in sorted(rows, key=lambda r: r.task):
        c = _detail(r).get("cache")
        if not isinstance(c, dict):
            continue
        now, kept = _figures(c.get("run")), _figures(c.get("kept_run"))
        if now is None:  # an older result: only the hit is known
            now = {"calls": 0.0, "tokens": float(r.tokens or 0), "duration_s": r.duration_s or 0.0,
                   "steps": float(r.steps or 0), "replayed": 0.0}
            c = {**c, "run": now}
        caches.append(c)

        def pair(key: str, fmt: Any) -> str:
            return fmt(now[key]) + (f" / {fmt(kept[key])}" if kept is not None else "")

        out.append({"task": r.task, "hit": "hit" if c.get("hit") else "miss",
                    "kept": "kept" if c.get("kept") else "not kept" if "kept" in c else "–",
                    "calls": pair("calls", _counts),
                    "tokens": pair("tokens", _counts),
                    "time": pair("duration_s", fmt_seconds),
                    "replayed": f"{int(now['replayed'])} of {int(now['steps'])}",
                    "status": "ok" if not r.failed else "fail"})
    summary = cache_summary(caches)
    if summary is None:
        return None
    total = summary.total or cache_totals([])
    return {"rows": out, "total": total,
            "summary": f"Run cache: {summary.hit_words()}. " + replayed_sentence(total)}


def _task_rows(rows: list[TaskRow], page: Path) -> list[dict[str, Any]]:
    ordered = sorted(rows, key=lambda r: (not r.failed, r.tier if isinstance(r.tier, int) else 99, r.app, r.task))
    return [{
        "status": "fail" if r.failed else "ok", "task": r.task, "app": r.app,
        "tier": str(r.tier) if r.tier is not None else "?", "instruction": r.instruction,
        "su": fmt_pct(r.su), "ps": fmt_pct(r.ps), "re": fmt_pct(None if r.failed else r.re), "cr": fmt_pct(r.cr),
        "steps": fmt_int(r.steps), "human_steps": fmt_int(r.human_steps),
        "milestones": f"{r.furthest}/{r.milestones}" if r.furthest is not None and r.milestones else "–",
        "outcome": r.outcome, "time": fmt_seconds(r.duration_s), "tokens": fmt_int(r.tokens),
        "cost": fmt_cost(r.cost_usd), "link": _task_link(r, page), "why": _why(r),
        "questions": (lambda q: f"{q['asked']} / {q['needed']}" if q is not None else "–")(_questions(r)),
    } for r in ordered]


def _section_view(sec: Section, index: int, page: Path) -> dict[str, Any]:
    rows = sec.rows
    total = aggregate("All", rows)
    counts = [q for q in (_questions(r) for r in rows) if q is not None]
    questions = None
    if counts:
        asked, needed = sum(q["asked"] for q in counts), sum(q["needed"] for q in counts)
        questions = (f"Questions to the user: {asked} asked ({sum(q['answered'] for q in counts)} answered from "
                     f"hidden facts or carried out) where the reference plans ask {needed}; {asked / len(counts):.2f} asked and "
                     f"{needed / len(counts):.2f} needed per run, "
                     f"{sum(max(0, q['asked'] - q['needed']) for q in counts)} beyond what was needed.")
    return {"title": sec.title, "suffix": "" if index == 0 else f"-{index + 1}", "questions": questions,
            "cache": _cache_view(rows),
            "successes": total.successes,
            "n": total.n, "total": _agg_view(total),
            "tiers": [_agg_view(aggregate(_tier_label(t), rs)) for t, rs in _group(rows, "tier")],
            "apps": [_agg_view(aggregate(str(a), rs)) for a, rs in _group(rows, "app")],
            "rows": _task_rows(rows, page)}


def render_bench(data: BenchData, page: Path) -> str:
    """The benchmark report page as HTML text, for a file written at ``page`` (the Jinja2 template
    ``templates/benchmark.html``, autoescaped)."""
    rows = data.rows
    failed = sum(r.failed for r in rows)
    tot_tokens = sum(r.tokens or 0 for r in rows)
    costs = [r.cost_usd for r in rows if r.cost_usd is not None]
    time_total = sum(r.duration_s or 0.0 for r in rows)
    models = sorted({r.model for r in rows if r.model}) or sorted(
        {str(s.config.get("model")) for s in data.sections if s.config.get("model")})
    wall = _as_float(data.meta.get("wall_s", data.meta.get("duration_s")))
    facts = [("Tasks", f"{len(rows)} ({failed} failed)"), ("Configurations", str(len(data.sections))),
             ("Task time (sum of tasks)", fmt_seconds(time_total)),
             *([("Wall time (last eval)", fmt_seconds(wall))] if wall is not None else []),
             ("Tokens", fmt_int(tot_tokens)), ("Cost", fmt_cost(sum(costs)) if costs else "–"),
             ("Model", ", ".join(models) or "–"), ("Read from", data.source)]
    facts += [(str(k), str(v)) for k, v in list(data.meta.items())[:12] if k not in ("model", "wall_s", "duration_s")]
    return render_template("benchmark.html", title=f"mobile-agent benchmark: {data.eval_dir.name}",
                           folder=data.eval_dir.name, facts=[{"label": k, "value": v} for k, v in facts],
                           notes=data.notes,
                           sections=[_section_view(sec, i, page) for i, sec in enumerate(data.sections)])


def write_benchmark_report(eval_dir: Path, out: Path | None = None) -> Path:
    """Write ``report.html`` for an eval output folder (and the trajectory report of each task run
    that has none yet); returns the page's path."""
    eval_dir = Path(eval_dir)
    data = read_bench(eval_dir)
    out = Path(out) if out is not None else eval_dir / REPORT_NAME
    if out.is_dir():
        out = out / REPORT_NAME
    for r in data.rows:
        if r.run_dir is not None and r.run_dir.is_dir() and is_run_dir(r.run_dir) \
                and not (r.run_dir / REPORT_NAME).is_file():
            try:
                write_report(r.run_dir)
            except (ConfigError, OSError) as exc:
                data.notes.append(f"could not write the trajectory report of {r.task}: {exc}")
    atomic_write_text(out, render_bench(data, out))
    return out
