"""The Ray engine on a local Ray with 2 CPUs (one ray.init for the module): the same results as the
local pool, a worker killed mid-task retried once and stored once, a device pool that never lends
one device to two tasks at once; and Ray stays unimported unless the engine runs."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time

import pytest

from mobile_agent.bench.engines import DevicePool, parse_devices
from mobile_agent.bench.runner import EvalConfig, run_eval
from mobile_agent.bench.suite import select
from mobile_agent.errors import ConfigError
from tests.fakes.faults import Faults
from tests.fakes.clock import hang_guard

METRICS = ("success", "ps", "re", "cr", "steps", "furthest", "correct_steps", "outcome")


@pytest.fixture(scope="module")
def ray_local():
    ray = pytest.importorskip("ray")
    from mobile_agent.bench.engines.ray import SIM_RESOURCE, init_local

    init_local(ray, 2, {SIM_RESOURCE: 2}, object_store_mb=128)
    yield ray
    ray.shutdown()


def rows_in_store(out, cid):
    with sqlite3.connect(out / "results.sqlite") as db:
        return [r[0] for r in db.execute("SELECT task_key FROM results WHERE config_id = ?", (cid,))]


@pytest.mark.slow
def test_ray_gives_the_local_pools_results_and_resumes(ray_local, tmp_path):
    from mobile_agent.bench.engines.ray import RayOptions

    tasks = select(ids=["settings-1", "store-1"])
    local = run_eval(EvalConfig(), tasks, tmp_path / "local", workers=2)
    ray_out = tmp_path / "ray"
    first = run_eval(EvalConfig(), tasks[:1], ray_out, engine="ray", ray_options=RayOptions())
    assert first.complete and len(first.rows) == 1
    run = run_eval(EvalConfig(), tasks, ray_out, engine="ray", ray_options=RayOptions(), resume=True)
    assert run.complete and run.skipped == ["settings-1"] and run.config_id == local.config_id
    assert [r.task_key for r in run.rows] == [t.key for t in tasks]
    for a, b in zip(local.rows, run.rows):
        assert {m: getattr(a, m) for m in METRICS} == {m: getattr(b, m) for m in METRICS}
    assert all(r.success for r in run.rows)
    assert [r.detail["engine"]["engine"] for r in run.rows[1:]] == ["ray"]
    assert sorted(rows_in_store(ray_out, run.config_id)) == sorted(t.key for t in tasks)


@pytest.mark.slow
def test_killed_worker_retried_once_stored_once_and_devices_never_shared(ray_local, tmp_path):
    from mobile_agent.bench.engines.ray import RayOptions

    tasks = select(ids=["settings-1", "settings-2", "store-1"])
    # One device for two CPUs: without the pool two tasks would run on it at once.
    marks = tmp_path / "marks"
    marks.mkdir()
    once = Faults("exit-once", ("settings-2",), marker_dir=str(marks))
    run = run_eval(EvalConfig(), once.tasks(tasks), tmp_path, engine="ray", task_source=once,
                   ray_options=RayOptions(devices=["sim:a"], retries=1))
    assert run.complete, run.failed
    engine = {r.task_key: r.detail["engine"] for r in run.rows}
    assert engine["settings-2"]["attempt"] == 2 and engine["settings-1"]["attempt"] == 1
    assert rows_in_store(tmp_path, run.config_id).count("settings-2") == 1
    assert len(rows_in_store(tmp_path, run.config_id)) == 3
    spans = sorted((e["started"], e["ended"]) for e in engine.values())
    assert all(e["device"] == "sim:a" for e in engine.values())
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), "one device, two tasks at once"
    # A worker that dies on every attempt: bounded, reported, not stored.
    dies = Faults("exit", ("store-1",))
    again = run_eval(EvalConfig(), dies.tasks(tasks[2:]), tmp_path / "dies", engine="ray", task_source=dies,
                     ray_options=RayOptions(retries=1))
    assert "store-1" in again.failed and "2 attempts" in again.failed["store-1"]
    assert rows_in_store(tmp_path / "dies", again.config_id) == []


def test_device_pool_lends_each_device_once():
    pool = DevicePool(parse_devices("emulator-5554, adb:R58M, 10.0.0.7:5555"))
    assert pool.names == ["adb:emulator-5554", "adb:R58M", "adb:10.0.0.7:5555"]
    got = [pool.take(f"t{i}") for i in range(4)]
    assert got[:3] == pool.names and got[3] is None
    pool.give_back("adb:R58M")
    assert pool.take("t5") == "adb:R58M" and pool.take("t6") is None
    with pytest.raises(ValueError):
        pool.give_back("adb:nope")


def test_devices_from_a_file_and_bad_lists(tmp_path):
    f = tmp_path / "phones.txt"
    f.write_text("# lab phones\nsim:one\n\nsim:two  # the second\n", encoding="utf-8")
    assert parse_devices(str(f)) == parse_devices(f"@{f}") == ["sim:one", "sim:two"]
    for bad, words in [("sim:a,adb:b", "mixes"), ("sim:a,sim:a", "twice"), (",", "no device"),
                       ("@" + str(tmp_path / "missing.txt"), "cannot read"), ("sim:", "no name")]:
        with pytest.raises(ConfigError, match=words):
            parse_devices(bad)


def test_bench_imports_no_ray():
    code = ("import sys, mobile_agent.bench, mobile_agent.bench.runner, mobile_agent.bench.engines, "
            "mobile_agent.cli; assert 'ray' not in sys.modules, 'ray imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_runner_does_not_import_the_ray_engine():
    """The engine depends on the runner (its per-task function, its finish), never both ways."""
    import ast
    from pathlib import Path

    import mobile_agent.bench.runner as runner

    tree = ast.parse(Path(runner.__file__).read_text(encoding="utf-8"))
    names = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [n for n in names if n.startswith("mobile_agent.bench.engines.ray")]
    with pytest.raises(ConfigError, match="RayOptions"):
        run_eval(EvalConfig(), select(ids=["settings-1"]), "unused", engine="ray", lock=False)


def test_a_wrong_address_fails_in_seconds_before_ray_init(tmp_path):
    """Ray retries a dead GCS address for minutes; the engine checks that something answers first."""
    import time

    pytest.importorskip("ray")
    from mobile_agent.bench.engines.ray import RayOptions
    from tests.fakes.adb_server import free_port

    t0 = time.monotonic()
    with pytest.raises(ConfigError, match=r"nothing answers at the Ray address 127\.0\.0\.1:\d+.*--address auto"):
        run_eval(EvalConfig(), select(ids=["settings-1"]), tmp_path / "out", engine="ray",
                 ray_options=RayOptions(address=f"127.0.0.1:{free_port()}"))
    assert time.monotonic() - t0 < hang_guard(3.0)  # Ray itself retries for minutes


def _cluster(tmp: str, port: int, cwd: str, token: str, dashboard: int):
    """``ray start --head --block`` as users start a cluster, in its own temporary folder, with
    Ray's token authentication on and a token of its own (``~/.ray/auth_token`` is left alone); the
    process (and so the cluster) ends when the test sends it SIGTERM."""
    import os
    import shutil
    import socket
    import time
    from pathlib import Path

    ray_cli = Path(sys.executable).parent / "ray"
    if not ray_cli.exists() and shutil.which("ray") is None:
        pytest.skip("the ray command is not installed")
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""),
               RAY_memory_monitor_refresh_ms="0", RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token)
    env.pop("RAY_ADDRESS", None)
    proc = subprocess.Popen([str(ray_cli if ray_cli.exists() else "ray"), "start", "--head", "--block",
                             f"--port={port}", "--num-cpus=2", f"--temp-dir={tmp}", "--include-dashboard=true",
                             f"--dashboard-port={dashboard}", "--dashboard-host=127.0.0.1",
                             "--disable-usage-stats"], env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.skip("ray start --head could not start a cluster here")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            socket.create_connection(("127.0.0.1", dashboard), timeout=1).close()  # the job server
            time.sleep(3)  # the GCS answers before the raylet has registered
            return proc
        except OSError:
            time.sleep(0.5)
    _stop_cluster(proc)
    pytest.skip("ray start --head did not come up within 90 s")


def _stop_cluster(proc) -> None:
    import os
    import signal

    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the group this test started, and nothing else
            proc.wait()


@pytest.mark.slow
def test_a_real_cluster_from_ray_address_with_a_relative_out(tmp_path):
    """A cluster started with ``ray start --head``; eval run from another folder with RAY_ADDRESS
    set and the default-style relative --out: one folder holds the store, the trajectories and a
    report whose links work; the workers are the cluster's; the same eval as a ``ray job submit``
    job; an explicit address without the cluster's token fails with a message naming it."""
    import json
    import os
    import re
    import secrets
    import tempfile
    from pathlib import Path

    pytest.importorskip("ray")
    from tests.fakes.adb_server import free_port

    port = free_port()
    tmp = tempfile.mkdtemp(prefix="ray")  # short: Ray's socket paths must fit in 107 bytes
    started_in = tmp_path / "cluster"
    started_in.mkdir()
    token = secrets.token_hex(16)
    dashboard = free_port()
    proc = _cluster(tmp, port, str(started_in), token, dashboard)
    try:
        work = tmp_path / "elsewhere"
        work.mkdir()
        src = str(Path(__file__).resolve().parents[2] / "src")
        env = dict(os.environ, PYTHONPATH=src, RAY_ADDRESS=f"127.0.0.1:{port}", RAY_AUTH_MODE="token",
                   RAY_AUTH_TOKEN=token)
        cli = "import sys; from mobile_agent.cli import console_main; sys.argv[0] = 'mobile-agent'; console_main()"
        both = subprocess.run([sys.executable, "-c", cli, "eval", "--engine", "ray", "--workers", "2", "--tasks",
                               "settings-1", "--out", "runs/eval"], cwd=work, env=env, capture_output=True,
                              text=True, timeout=120)
        assert both.returncode == 2 and "--workers sizes a local Ray" in both.stderr + both.stdout
        slow = os.environ.get("MOBILE_AGENT_RAY_SLOW") == "1"  # the two checks that take minutes on two cores
        # an explicit address without the cluster's token: a usage error that says what to set
        wrong = None if not slow else subprocess.run([sys.executable, "-c", cli, "eval", "--engine", "ray", "--address",
                                f"127.0.0.1:{port}", "--tasks", "settings-1", "--out", "runs/other"], cwd=work,
                               env=dict(env, RAY_AUTH_TOKEN="0" * 32, RAY_ADDRESS=""), capture_output=True,
                               text=True, timeout=300)
        assert wrong is None or (wrong.returncode == 2 and "RAY_AUTH_TOKEN" in wrong.stderr), wrong
        done = subprocess.run([sys.executable, "-c", cli, "eval", "--engine", "ray", "--tasks",
                               "settings-1,notes-1", "--out", "runs/eval"], cwd=work, env=env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert "with 2 worker(s)" in done.stdout, done.stdout[-1000:]
        out = work / "runs" / "eval"
        (results,) = out.glob("*/results.json")
        data = json.loads(results.read_text())
        assert data["workers"] == 2
        trajectories = sorted(p.parent.name for p in out.glob("*/*/steps.jsonl"))
        assert trajectories == ["notes-1", "settings-1"]
        # ray job submit: the job's environment names the cluster (RAY_ADDRESS), nothing else is said
        ray_cli = Path(sys.executable).parent / "ray"
        job_env = {k: v for k, v in env.items() if k != "RAY_ADDRESS"}
        for _ in range(12 if slow else 0):  # the head's job agent registers some seconds after the cluster answers (more under load)
            job = subprocess.run([str(ray_cli) if ray_cli.exists() else "ray", "job", "submit", "--address",
                                  f"http://127.0.0.1:{dashboard}", "--", sys.executable, "-c", cli, "eval", "--engine",
                                  "ray", "--tasks", "settings-1", "--out", str(work / "job")], cwd=work, env=job_env,
                                 capture_output=True, text=True, timeout=600)
            if "No available agent to submit job" not in job.stdout + job.stderr:
                break
            time.sleep(5)
        if slow:  # MOBILE_AGENT_RAY_SLOW=1 adds the job submission and the wrong token (minutes on two cores)
            if "No available agent to submit job" in job.stdout + job.stderr:
                pytest.skip("the cluster's job agent did not register within a minute on this machine (load); "
                            "the eval through RAY_ADDRESS with a relative --out passed")
            assert job.returncode == 0 and "with 2 worker(s)" in job.stdout, job.stdout[-1500:] + job.stderr[-1500:]
            assert list((work / "job").glob("*/settings-1/steps.jsonl"))
        # nothing written where the cluster was started
        assert not list(started_in.rglob("steps.jsonl")) and not list(Path(tmp).rglob("steps.jsonl"))
        report = (out / "report.html") if (out / "report.html").exists() else next(out.rglob("report.html"))
        links = re.findall(r'href="([^"#]+?/report\.html)"', report.read_text())
        assert links and all((report.parent / link).resolve().exists() for link in links), links
    finally:
        _stop_cluster(proc)
