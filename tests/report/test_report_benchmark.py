"""The benchmark report of an eval output folder: SQLite results, the JSON shape, and plain run folders."""

from __future__ import annotations

import json
import shutil
import sqlite3
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mobile_agent.cli import main
from mobile_agent.errors import ConfigError
from mobile_agent.report import write_benchmark_report
from report_helpers import cached_run

ROWS = [
    # task, app, tier, su, ps, re, cr, steps, human_steps
    ("settings_dark_mode", "Settings", 1, 1.0, 1.0, 1.0, 1.0, 4, 4),
    ("settings_network_speed", "Settings", 2, 0.0, 0.5, 0.4, 0.5, 10, 4),
    ("notes_new_note", "Notes", 1, 1.0, 0.8, 0.8, 1.0, 5, 4),
    ("notes_search", "Notes", 3, 0.0, 0.2, 0.25, 0.0, 20, 5),
    ("mail_multi", "Multi-app", 3, 1.0, 0.9, 0.9, 1.0, 10, 9),
]


class _Tables(HTMLParser):
    """Reads the tables of the page as lists of cell texts, by table id; and the task links."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.links: dict[str, str] = {}
        self._table: str | None = None
        self._row: list[str] | None = None
        self._cell: str | None = None
        self._task: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "table":
            self._table = a.get("id", "")
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self._row = []
            self._task = a.get("data-task")
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""
        elif tag == "a" and self._task and "trajectory" in a.get("class", ""):
            self.links[self._task] = a["href"]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "tr" and self._row is not None and self._table is not None:
            self.tables[self._table].append(self._row)
            self._row = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell += data


def _pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def _means(rs: list[tuple]) -> list[str]:
    """tasks, SU, PS, RE, CR as the report shows them: RE over the successful runs only."""
    ok = [r for r in rs if r[3] >= 1]
    re_ = _pct(sum(r[5] for r in ok) / len(ok)) if ok else "–"
    return [str(len(rs)), _pct(sum(r[3] for r in rs) / len(rs)), _pct(sum(r[4] for r in rs) / len(rs)), re_,
            _pct(sum(r[6] for r in rs) / len(rs))]


def _expected_by(key: int) -> dict[str, list[str]]:
    groups: dict[str, list[tuple]] = {}
    for r in ROWS:
        label = f"Instruction {r[key]}" if key == 2 else r[key]
        groups.setdefault(label, []).append(r)
    return {label: _means(rs) for label, rs in groups.items()}


def _make_eval(tmp_path: Path, fmt: str) -> Path:
    ev = tmp_path / "eval"
    (ev / "runs").mkdir(parents=True)
    rows = []
    for task, app, tier, su, ps, re_, cr, steps, human in ROWS:
        shutil.copytree(cached_run(), ev / "runs" / task)
        (ev / "runs" / task / "report.html").unlink(missing_ok=True)
        rows.append({"task": task, "app": app, "tier": tier, "instruction": f"do {task}", "su": su, "ps": ps,
                     "re": re_, "cr": cr, "steps": steps, "human_steps": human,
                     "outcome": "completed" if su else "step_limit", "run_dir": f"runs/{task}",
                     "duration_s": 3.5, "tokens": 1000, "cost_usd": 0.01, "error": None if su else "not done"})
    if fmt == "sqlite":
        con = sqlite3.connect(ev / "results.sqlite")
        con.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        con.execute("INSERT INTO meta VALUES ('model', 'scripted')")
        cols = list(rows[0])
        con.execute(f"CREATE TABLE results ({', '.join(cols)})")
        con.executemany(f"INSERT INTO results VALUES ({', '.join('?' * len(cols))})",
                        [tuple(r[c] for c in cols) for r in rows])
        con.commit()
        con.close()
    else:
        (ev / "results.json").write_text(json.dumps({"suite": "mobile-eval", "tasks": rows}))
    return ev


@pytest.mark.parametrize("fmt", ["sqlite", "json"])
def test_benchmark_report_tables_and_links(tmp_path: Path, fmt: str) -> None:
    ev = _make_eval(tmp_path, fmt)
    out = write_benchmark_report(ev)
    assert out == ev / "report.html"
    p = _Tables()
    p.feed(out.read_text(encoding="utf-8"))
    by_tier = {r[0]: r[1:6] for r in p.tables["by-tier"][1:]}
    assert by_tier.pop("All") == _means(ROWS)
    assert by_tier == _expected_by(2)
    by_app = {r[0]: r[1:6] for r in p.tables["by-app"][1:]}
    by_app.pop("All")
    assert by_app == _expected_by(1)
    # the four scores right after the task (at a phone's width the columns after them scroll)
    assert p.tables["tasks"][0][:8] == ["task", "SU", "PS", "RE", "CR", "app", "tier", "instruction"]
    by_task = {r[0]: r[1:5] for r in p.tables["tasks"][1:]}
    assert by_task == {r[0]: _means([r])[1:] for r in ROWS}
    tasks = [r[0] for r in p.tables["tasks"][1:]]
    failures = [r[0] for r in ROWS if r[3] < 1]
    assert sorted(tasks[: len(failures)]) == sorted(failures)  # failures first
    assert set(tasks) == {r[0] for r in ROWS}
    # every task links to its trajectory report, which the benchmark report wrote
    for task, href in p.links.items():
        target = (out.parent / unquote(href)).resolve()
        assert target == (ev / "runs" / task / "report.html").resolve() and target.is_file()
    assert len(p.links) == len(ROWS)


def test_benchmark_report_from_run_folders_only(tmp_path: Path) -> None:
    ev = tmp_path / "ev"
    shutil.copytree(cached_run(), ev / "a")
    shutil.copytree(cached_run(), ev / "b")
    s = json.loads((ev / "b" / "summary.json").read_text())
    s.update(completed=False, outcome="step_limit")
    (ev / "b" / "summary.json").write_text(json.dumps(s))
    out = tmp_path / "b.html"
    assert main(["report", str(ev), "--out", str(out)]) == 0
    p = _Tables()
    p.feed(out.read_text(encoding="utf-8"))
    assert [r[0] for r in p.tables["tasks"][1:]] == ["b", "a"]
    assert p.tables["by-tier"][-1][2] == "50.0%"


def test_damaged_results_are_config_errors(tmp_path: Path) -> None:
    ev = tmp_path / "ev"
    ev.mkdir()
    (ev / "results.json").write_text("{not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        write_benchmark_report(ev)
    (ev / "results.json").unlink()
    (ev / "results.sqlite").write_bytes(b"this is not a database, just text" * 100)
    with pytest.raises(ConfigError, match="results.sqlite"):
        write_benchmark_report(ev)
    assert main(["report", str(ev)]) == 2


def test_benchmark_report_reads_the_bench_result_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real results store of `mobile-agent eval` (two configurations, trajectory paths stored
    relative to the folder the eval ran in) gives one section per configuration, with working links."""
    from mobile_agent.bench.store import ResultRow, ResultStore

    monkeypatch.chdir(tmp_path)
    out = Path("evalout")
    with ResultStore(out) as store:
        cids = [store.register({"planner": "oracle", "suite": "mobile-eval"}),
                store.register({"planner": "model", "model": "gpt-test", "suite": "mobile-eval"})]
        for cid, rows in zip(cids, (ROWS, ROWS[:2])):
            for task, app, tier, su, ps, re_, cr, steps, human in rows:
                key = f"{task}#1"
                traj = out / cid / key.replace("#", "_v")
                shutil.copytree(cached_run(), traj)
                store.save(cid, ResultRow(task_key=key, task_id=task, variant=1, app=app, tier=tier,
                                          instruction=f"do {task}", success=bool(su), ps=ps, re=re_, cr=cr,
                                          steps=steps, human_steps=human, correct_steps=int(ps * steps),
                                          furthest=2, milestones=3, outcome="completed" if su else "step_limit",
                                          prompt_tokens=900, completion_tokens=100, cost_usd=None, duration_s=2.0,
                                          trajectory=str(traj), error=None))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    ev = tmp_path / "evalout"
    report = write_benchmark_report(ev)
    p = _Tables()
    p.feed(report.read_text(encoding="utf-8"))
    assert {"by-tier", "tasks", "by-tier-2", "tasks-2"} <= set(p.tables)
    sizes = sorted([len(p.tables["tasks"]) - 1, len(p.tables["tasks-2"]) - 1])
    assert sizes == [2, len(ROWS)]
    full = "tasks" if len(p.tables["tasks"]) - 1 == len(ROWS) else "tasks-2"
    tier_id = "by-tier" if full == "tasks" else "by-tier-2"
    assert {r[0]: r[1:6] for r in p.tables[tier_id][1:] if r[0] != "All"} == _expected_by(2)
    assert len(p.links) == len(ROWS)
    for task, href in p.links.items():
        target = (report.parent / unquote(href)).resolve()
        assert target.is_file() and target.parent.name == task.replace("#", "_v")
    text = report.read_text(encoding="utf-8")
    assert "gpt-test" in text and "2/3" in text and "1,000" in text


_cell = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats() | st.text(max_size=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.dictionaries(st.sampled_from(["task_key", "app", "tier", "success", "ps", "re", "cr", "steps",
                                                      "human_steps", "trajectory", "tokens", "cost_usd", "detail",
                                                      "error", "duration_s", "config_id"]), _cell, max_size=10),
                     max_size=5))
def test_any_result_rows_render(tmp_path: Path, rows: list[dict]) -> None:
    ev = tmp_path / "fuzz"
    ev.mkdir(exist_ok=True)
    (ev / "results.json").write_text(json.dumps({"tasks": rows}))
    out = write_benchmark_report(ev)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
