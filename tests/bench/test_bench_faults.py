"""Faults of the environment, kept apart from the agent's failures: a full disk (a real file-size
limit on the eval process) is no SU 0, makes a non-zero exit, and --resume runs the task again;
workers end when the eval process is killed; two evals on one folder are refused."""

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

from mobile_agent.bench.runner import EvalConfig, run_eval
from mobile_agent.bench.suite import select
from mobile_agent.errors import ConfigError
from mobile_agent.fsutil import FolderLock
from tests.fakes.faults import Faults

ROOT = Path(__file__).resolve().parents[2]  # the repository: the script imports tests.fakes
CLI = "import sys\nfrom mobile_agent.cli import main\nsys.exit(main(sys.argv[1:]))"


def _eval(args: list[str], fsize: int | None = None) -> subprocess.CompletedProcess:
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))  # writes past it fail: EFBIG

    return subprocess.run([sys.executable, "-c", CLI, "eval", *args], capture_output=True, text=True, timeout=300,
                          preexec_fn=limit if fsize else None, env={**os.environ, "COLUMNS": "200"})


def test_a_full_disk_is_an_environment_failure_not_an_agent_failure(tmp_path):
    out = tmp_path / "out"
    args = ["--tasks", "settings-1", "--out", str(out), "--json", str(tmp_path / "r.json")]
    # 160 KB per file: the database and the JSON files fit, no screenshot (about 220 KB) does
    first = _eval(args, fsize=160 * 1024)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "environment failure" in first.stdout and "settings-1" in first.stdout
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["tasks"] == [] and "settings-1" in data["environment_failures"]
    assert "File too large" in data["environment_failures"]["settings-1"]
    assert data["paper_table"][-1]["runs"] == 0  # no SU 0 counted for a task that could not run
    with sqlite3.connect(out / "results.sqlite") as db:
        assert db.execute("SELECT count(*) FROM results").fetchone()[0] == 0
        assert db.execute("SELECT task_key, kind FROM failures").fetchall() == [("settings-1", "environment")]
    # with room on the disk, --resume runs it again, scores it, and clears the failure
    second = _eval(args + ["--resume"])
    assert second.returncode == 0, second.stdout + second.stderr
    (task,) = json.loads((tmp_path / "r.json").read_text())["tasks"]
    assert task["task_key"] == "settings-1" and task["success"]
    with sqlite3.connect(out / "results.sqlite") as db:
        assert db.execute("SELECT count(*) FROM failures").fetchone()[0] == 0


def test_an_oserror_of_a_task_is_recorded_as_an_environment_failure(tmp_path):
    tasks = select(ids=["settings-1", "settings-2"])
    faults = Faults("oserror", ("settings-1",))
    run = run_eval(EvalConfig(), faults.tasks(tasks), tmp_path, task_source=faults)
    assert not run.complete and list(run.environment) == ["settings-1"]
    assert "No space left on device" in run.failed["settings-1"]
    assert [r.task_key for r in run.rows] == ["settings-2"]
    again = run_eval(EvalConfig(), tasks, tmp_path, resume=True)
    assert again.skipped == ["settings-2"] and again.complete and [r.success for r in again.rows] == [True, True]


def test_workers_end_when_the_eval_process_is_killed(tmp_path):
    script = ("import sys\nfrom mobile_agent.bench.runner import EvalConfig, run_eval\n"
              "from mobile_agent.bench.suite import select\nfrom tests.fakes.faults import Faults\n"
              "faults = Faults('hang', ('settings-1', 'settings-2', 'settings-3'))\n"
              "run_eval(EvalConfig(), faults.tasks(select(ids=list(faults.keys))), sys.argv[1], workers=2, "
              "task_source=faults)\n")
    parent = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], cwd=ROOT)
    try:
        proc = psutil.Process(parent.pid)
        deadline = time.monotonic() + 60
        workers: list[psutil.Process] = []
        while time.monotonic() < deadline:
            workers = [c for c in proc.children(recursive=True)
                       if "resource_tracker" not in " ".join(c.cmdline())]
            if len(workers) >= 2:
                break
            time.sleep(0.2)
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(2.0)  # both are inside their (hanging) task now
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        gone, alive = psutil.wait_procs(workers, timeout=15)
        assert not alive, f"workers still running after the parent was killed: {[p.pid for p in alive]}"
    finally:
        parent.kill()
        for p in psutil.Process().children(recursive=True):
            if p.pid != parent.pid:
                try:
                    p.kill()
                except psutil.NoSuchProcess:
                    pass


def test_a_second_eval_on_one_folder_is_refused_with_a_clear_message(tmp_path):
    with FolderLock(tmp_path, "eval"):
        with pytest.raises(ConfigError, match="another eval is using"):
            run_eval(EvalConfig(), select(ids=["settings-1"]), tmp_path)
        done = _eval(["--tasks", "settings-1", "--out", str(tmp_path)])
    assert done.returncode == 2 and "another eval is using" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "results.sqlite").exists()
