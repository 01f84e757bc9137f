"""The Ray engine on a local Ray with 2 CPUs (one ray.init for the module): the same results as the
local pool, a worker killed mid-task retried once and stored once, a device pool that never lends
one device to two tasks at once; and Ray stays unimported unless the engine runs."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from mobile_agent.bench.engines import DevicePool, parse_devices
from mobile_agent.bench.runner import EvalConfig, run_eval
from mobile_agent.bench.suite import select
from mobile_agent.errors import ConfigError
from tests.fakes.faults import Faults

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
