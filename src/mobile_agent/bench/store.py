"""The results store: one SQLite file in the output folder, one row per finished task and
configuration, written (and committed) as each task ends, so a crash or Ctrl-C loses nothing."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from mobile_agent.bench.metrics import Scores
from mobile_agent.errors import ConfigError, redact

DB_NAME = "results.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS configs (
    config_id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    config_id TEXT NOT NULL,
    task_key TEXT NOT NULL,
    task_id TEXT NOT NULL,
    variant INTEGER NOT NULL,
    app TEXT NOT NULL,
    tier INTEGER NOT NULL,
    instruction TEXT NOT NULL,
    success INTEGER NOT NULL,
    ps REAL NOT NULL,
    re REAL NOT NULL,
    cr REAL NOT NULL,
    steps INTEGER NOT NULL,
    human_steps INTEGER NOT NULL,
    correct_steps INTEGER NOT NULL,
    furthest INTEGER NOT NULL,
    milestones INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL,
    duration_s REAL NOT NULL,
    trajectory TEXT,
    error TEXT,
    judge TEXT NOT NULL DEFAULT 'state',
    detail TEXT NOT NULL DEFAULT '{}',
    finished_at TEXT NOT NULL,
    PRIMARY KEY (config_id, task_key)
);
CREATE TABLE IF NOT EXISTS failures (
    config_id TEXT NOT NULL,
    task_key TEXT NOT NULL,
    kind TEXT NOT NULL,
    error TEXT NOT NULL,
    trajectory TEXT,
    finished_at TEXT NOT NULL,
    PRIMARY KEY (config_id, task_key)
);
"""

COLUMNS = ("config_id", "task_key", "task_id", "variant", "app", "tier", "instruction", "success", "ps", "re",
           "cr", "steps", "human_steps", "correct_steps", "furthest", "milestones", "outcome", "prompt_tokens",
           "completion_tokens", "cost_usd", "duration_s", "trajectory", "error", "judge", "detail", "finished_at")


def config_id(config: dict[str, Any]) -> str:
    """A short stable id of a configuration (sorted JSON, SHA-1)."""
    return hashlib.sha1(json.dumps(config, sort_keys=True).encode("utf-8")).hexdigest()[:12]


@dataclass
class _Task:
    """The task a result row is of: the row's first fields."""

    task_key: str
    task_id: str
    variant: int
    app: str
    tier: int
    instruction: str


@dataclass
class ResultRow(Scores, _Task):
    """One finished task: the task, its :class:`~mobile_agent.bench.metrics.Scores`, then how the
    run went. The fields stand in the order of the table's columns (:data:`COLUMNS`)."""

    outcome: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None
    duration_s: float = 0.0
    trajectory: str | None = None
    error: str | None = None
    judge: str = "state"
    detail: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)


class ResultStore:
    """``ResultStore(out_dir)``: opens (or creates) ``out_dir/results.sqlite``."""

    def __init__(self, out_dir: str | Path) -> None:
        self.path = Path(out_dir) / DB_NAME
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path, timeout=30)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.executescript(SCHEMA)
            self.conn.commit()
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(f"cannot open the results database {self.path}: {exc}; choose another --out") from exc

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def register(self, config: dict[str, Any]) -> str:
        cid = config_id(config)
        self.conn.execute("INSERT OR IGNORE INTO configs VALUES (?, ?, ?)",
                          (cid, redact(json.dumps(config, sort_keys=True)), _now()))
        self.conn.commit()
        return cid

    def done(self, cid: str) -> set[str]:
        """Task keys finished for configuration ``cid``."""
        return {r[0] for r in self.conn.execute("SELECT task_key FROM results WHERE config_id = ?", (cid,))}

    def save(self, cid: str, row: ResultRow) -> None:
        """Write one result and commit at once (retried briefly while another writer holds the file).
        An environment failure stored earlier for the same task is cleared: the task has run now."""
        fields = dict(row.as_dict(), success=int(row.success), detail=json.dumps(row.detail or {}))
        values = (cid, *(fields[c] for c in COLUMNS[1:-1]), _now())
        sql = f"INSERT OR REPLACE INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
        self._write([(sql, values), ("DELETE FROM failures WHERE config_id = ? AND task_key = ?",
                                     (cid, row.task_key))])

    def save_failure(self, cid: str, key: str, error: str, trajectory: str | None = None,
                     kind: str = "environment") -> None:
        """Record a task that could not be scored because its environment failed (a full disk, an
        OSError, the device gone). It is no result: it is left out of every metric, ``done`` does
        not count it (``--resume`` runs it again), and an earlier result of the task is removed."""
        self._write([("INSERT OR REPLACE INTO failures VALUES (?, ?, ?, ?, ?, ?)",
                      (cid, key, kind, error, trajectory, _now())),
                     ("DELETE FROM results WHERE config_id = ? AND task_key = ?", (cid, key))])

    def failures(self, cid: str) -> dict[str, str]:
        """Task key -> error of the environment failures stored for configuration ``cid``."""
        return {r[0]: r[1] for r in self.conn.execute(
            "SELECT task_key, error FROM failures WHERE config_id = ? ORDER BY rowid", (cid,))}

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        statements = [(sql, tuple(redact(v) if isinstance(v, str) else v for v in values))  # no key reaches the file
                      for sql, values in statements]
        for attempt in range(5):
            try:
                for sql, values in statements:
                    self.conn.execute(sql, values)
                self.conn.commit()
                return
            except sqlite3.OperationalError:
                self.conn.rollback()
                if attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    def rows(self, cid: str, keys: Iterable[str] | None = None) -> list[ResultRow]:
        cur = self.conn.execute(f"SELECT {', '.join(COLUMNS)} FROM results WHERE config_id = ? ORDER BY rowid", (cid,))
        wanted = set(keys) if keys is not None else None
        out = []
        for r in cur.fetchall():
            d = dict(zip(COLUMNS, r))
            if wanted is not None and d["task_key"] not in wanted:
                continue
            d.pop("config_id")
            d.pop("finished_at")
            d["success"] = bool(d["success"])
            d["detail"] = json.loads(d["detail"] or "{}")
            out.append(ResultRow(**d))
        return out


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
