"""The driver of an eval killed mid-run (SIGKILL: no chance to clean up) and the run resumed:
``mobile-agent eval`` as a real process, killed once some results are stored; its
workers end with it; ``--resume`` runs only what was not stored; every task ends stored exactly
once, with the results an uninterrupted run gives.

Local engine only: a local Ray takes 20-30 s to start on this machine, too long for the suite; the
Ray engine's resume is tested in test_bench_ray.py (a worker killed mid-task, a resumed run)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

KEYS = ["settings-1", "settings-2", "settings-3", "notes-1"]
CLI = "import sys\nfrom mobile_agent.cli import main\nsys.exit(main(sys.argv[1:]))"  # the mobile-agent command
METRICS = ("success", "ps", "re", "cr", "steps", "correct_steps", "furthest", "milestones", "human_steps", "outcome")


def _cmd(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-c", CLI, "eval", "--tasks", ",".join(KEYS), "--workers", "2",
            "--out", str(out), "--json", str(out / "run.json"), *extra]


def _env() -> dict[str, str]:
    return {**os.environ, "COLUMNS": "200"}


def _stored(out: Path) -> dict[str, dict]:
    db_path = out / "results.sqlite"
    if not db_path.exists():
        return {}
    try:
        with sqlite3.connect(db_path, timeout=5) as db:
            db.row_factory = sqlite3.Row
            return {r["task_key"]: dict(r) for r in db.execute("SELECT * FROM results")}
    except sqlite3.OperationalError:  # the table is not created yet
        return {}


def _count(out: Path) -> dict[str, int]:
    with sqlite3.connect(out / "results.sqlite") as db:
        return dict(db.execute("SELECT task_key, count(*) FROM results GROUP BY task_key").fetchall())


@pytest.mark.slow
def test_kill_the_driver_then_resume(tmp_path):
    reference = tmp_path / "whole"
    whole = subprocess.run(_cmd(reference), capture_output=True, text=True, timeout=600, env=_env())
    assert whole.returncode == 0, whole.stdout + whole.stderr
    want = _stored(reference)
    assert sorted(want) == sorted(KEYS)

    out = tmp_path / "killed"
    driver = subprocess.Popen(_cmd(out), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=_env())
    try:
        proc = psutil.Process(driver.pid)
        workers: list[psutil.Process] = []
        done: dict[str, dict] = {}
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and driver.poll() is None:
            workers = [c for c in proc.children(recursive=True) if c not in workers] + workers
            done = _stored(out)
            if done:
                break
            time.sleep(0.05)
        assert done, "no result was stored before the run ended or timed out"
        driver.send_signal(signal.SIGKILL)
        driver.wait(timeout=30)
        assert len(workers) >= 2, "the workers did not start"
        gone, alive = psutil.wait_procs(workers, timeout=20)
        assert not alive, f"processes of the killed driver still running: {[p.cmdline() for p in alive]}"
    finally:
        driver.kill()
        driver.wait()
    before = _stored(out)
    assert 0 < len(before) < len(KEYS), f"the kill came too late to test a resume: {sorted(before)}"

    again = subprocess.run(_cmd(out, "--resume"), capture_output=True, text=True, timeout=600, env=_env())
    assert again.returncode == 0, again.stdout + again.stderr
    data = json.loads((out / "run.json").read_text())
    assert sorted(data["skipped"]) == sorted(before)  # none that was stored ran again
    after = _stored(out)
    assert _count(out) == {k: 1 for k in KEYS}  # every task stored exactly once
    for key, row in before.items():  # the stored rows of the first run are untouched
        assert after[key] == row, key
    for key in KEYS:
        assert {m: after[key][m] for m in METRICS} == {m: want[key][m] for m in METRICS}, key
    assert all(after[k]["success"] for k in KEYS)
    # the resumed tasks have their full trajectory (one run, not a leftover of the killed one)
    for key in set(KEYS) - set(before):
        steps = Path(after[key]["trajectory"]) / "steps.jsonl"
        assert len(steps.read_text().splitlines()) == after[key]["steps"], key
