"""The two engines side by side, and a long variant run that survives the death of its driver.
Prints figures; asserts nothing.

    python bench/bench_engines.py compare [--tasks settings-1,store-1,...] [--rounds 2] [--workers 2]
    python bench/bench_engines.py overhead [--n 200]
    python bench/bench_engines.py scale --out DIR [--count 1000] [--kill-after 600] [--engine ray]

``compare``: the same tasks (oracle planner) with the local process pool and with Ray on this
machine, both with ``--workers`` CPUs, in alternating rounds (local, ray, local, ray...) so that
load on a shared machine falls on both alike; tasks per minute per round, medians, and the ratio.
Each round is a fresh results folder; Ray's start (``ray.init``) is timed apart and counted in the
Ray round's wall time, as a user pays it.

``overhead``: the Ray overhead per task: the round trip of an empty Ray task (submit to result,
one at a time and many in flight), and, from a ``compare`` run's rows, the time a Ray worker spends
on a task outside the agent's run.

``scale``: the first ``--count`` task instances of the variants of every task (variant 0 of all 33,
then variant 1...; oracle planner), run by a driver
process that is killed (SIGKILL) after ``--kill-after`` seconds; then the same command with
``--resume`` until it ends. Prints what was stored before the kill, what the resume skipped, that
no task is stored twice, and the rates. Progress lines go to stdout as they happen.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_TASKS = "settings-1,settings-2,settings-3,store-1,store-2,store-3,notes-1,notes-2,music-1,browser-1"


def _select(keys: str | None, count: int | None = None):
    from mobile_agent.bench.suite import select

    if keys:
        return select(ids=[k.strip() for k in keys.split(",") if k.strip()])
    variants = max(1, math.ceil((count or 33) / 33))
    tasks = sorted(select(variants=variants), key=lambda t: t.variant)  # every task's variant 0, then 1...
    return tasks[: count or None]


def _run(engine: str, tasks, out: Path, workers: int) -> dict:
    from mobile_agent.bench.runner import EvalConfig, run_eval

    t0 = time.monotonic()
    init_s = 0.0
    ray_options = None
    if engine == "ray":
        import ray

        from mobile_agent.bench.engines.ray import SIM_RESOURCE, RayOptions, init_local

        t = time.monotonic()
        init_local(ray, workers, {SIM_RESOURCE: workers})
        init_s = time.monotonic() - t
        ray_options = RayOptions(num_cpus=workers)
    try:
        run = run_eval(EvalConfig(), tasks, out, workers=workers, engine=engine, ray_options=ray_options)
    finally:
        if engine == "ray":
            import ray

            ray.shutdown()
    wall = time.monotonic() - t0
    return {"engine": engine, "tasks": len(run.rows), "su": sum(r.success for r in run.rows), "wall_s": wall,
            "init_s": init_s, "per_min": 60 * len(run.rows) / wall, "rows": run.rows}


def compare(args: argparse.Namespace) -> None:
    tasks = _select(args.tasks)
    print(f"{len(tasks)} tasks, {args.workers} workers, {args.rounds} rounds, load {os.getloadavg()[0]:.1f}",
          flush=True)
    res: dict[str, list[dict]] = {"local": [], "ray": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.rounds):
            order = ("local", "ray") if i % 2 == 0 else ("ray", "local")
            for engine in order:
                r = _run(engine, tasks, Path(tmp) / f"{engine}{i}", args.workers)
                res[engine].append(r)
                extra = f", ray.init {r['init_s']:.1f} s" if engine == "ray" else ""
                print(f"round {i + 1} {engine:<5}: {r['tasks']} tasks (SU {r['su']}) in {r['wall_s']:.1f} s = "
                      f"{r['per_min']:.1f} tasks/min{extra}; load {os.getloadavg()[0]:.1f}", flush=True)
    med = {e: statistics.median(x["per_min"] for x in v) for e, v in res.items()}
    print(f"median tasks/min: local {med['local']:.1f}, ray {med['ray']:.1f}; ray/local {med['ray'] / med['local']:.2f}")
    inside = []
    for r in res["ray"]:
        for row in r["rows"]:
            e = row.detail.get("engine") or {}
            if "started" in e:
                inside.append((e["ended"] - e["started"]) - row.duration_s)
    if inside:
        print(f"ray worker time per task outside the agent's run: median {statistics.median(inside):.2f} s "
              f"(n={len(inside)}; loading perception once per worker included)")
    same = all((a.task_key, a.success, a.ps, a.cr, a.steps) == (b.task_key, b.success, b.ps, b.cr, b.steps)
               for a, b in zip(res["local"][0]["rows"], res["ray"][0]["rows"]))
    print(f"same results (key, SU, PS, CR, steps) from both engines: {same}")


def overhead(args: argparse.Namespace) -> None:
    import ray

    t = time.monotonic()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             object_store_memory=128 * 1024 * 1024)
    print(f"ray.init (local, 2 CPUs): {time.monotonic() - t:.2f} s")

    @ray.remote(num_cpus=1)
    def empty(x: int) -> int:
        return x

    ray.get([empty.remote(i) for i in range(4)])  # workers started
    one = []
    for i in range(args.n):
        t = time.perf_counter()
        ray.get(empty.remote(i))
        one.append(time.perf_counter() - t)
    t = time.perf_counter()
    ray.get([empty.remote(i) for i in range(args.n)])
    many = (time.perf_counter() - t) / args.n
    ray.shutdown()
    print(f"empty Ray task round trip, one at a time: median {statistics.median(one) * 1000:.1f} ms "
          f"(p90 {sorted(one)[int(0.9 * len(one))] * 1000:.1f} ms, n={args.n}); {args.n} in flight: "
          f"{many * 1000:.2f} ms per task; load {os.getloadavg()[0]:.1f}")


def _stored(out: Path) -> tuple[int, int]:
    db = out / "results.sqlite"
    if not db.exists():
        return 0, 0
    with sqlite3.connect(db, timeout=30) as c:
        n, distinct = c.execute("SELECT COUNT(*), COUNT(DISTINCT config_id || task_key) FROM results").fetchone()
    return n, distinct


def _driver(args: argparse.Namespace) -> None:
    from mobile_agent.bench.engines.ray import RayOptions
    from mobile_agent.bench.runner import EvalConfig, run_eval

    tasks = _select(None, args.count)
    t0 = time.monotonic()
    done = {"n": 0}

    def on_result(key, row, error):
        done["n"] += 1
        if done["n"] % 10 == 0:
            rate = 60 * done["n"] / (time.monotonic() - t0)
            print(f"  {time.strftime('%H:%M:%S')} {done['n']} finished this run, {rate:.1f} tasks/min", flush=True)

    options = RayOptions(num_cpus=args.workers) if args.engine == "ray" else None
    run = run_eval(EvalConfig(), tasks, args.out, workers=args.workers, resume=args.resume, engine=args.engine,
                   ray_options=options, on_result=on_result)
    print(f"driver ended: {len(run.rows)} stored of {len(tasks)}, skipped {len(run.skipped)}, not run "
          f"{len(run.failed)}, SU {sum(r.success for r in run.rows)}/{len(run.rows)}, {run.duration_s:.0f} s", flush=True)


def scale(args: argparse.Namespace) -> None:
    out = Path(args.out)
    cmd = [sys.executable, __file__, "driver", "--out", str(out), "--count", str(args.count), "--workers",
           str(args.workers), "--engine", args.engine]
    print(f"{time.strftime('%H:%M:%S')} {args.count} tasks, engine {args.engine}, {args.workers} workers; "
          f"driver killed after {args.kill_after} s", flush=True)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd)
    try:
        p.wait(timeout=args.kill_after)
        print("the driver ended before the kill", flush=True)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGKILL)
        p.wait()
        first = time.monotonic() - t0
        n, distinct = _stored(out)
        print(f"{time.strftime('%H:%M:%S')} driver killed (SIGKILL) after {first:.0f} s: {n} rows stored "
              f"({distinct} distinct), {60 * n / first:.1f} tasks/min", flush=True)
        time.sleep(5)
        left = subprocess.run(["pgrep", "-c", "-f", "ray::"], capture_output=True, text=True).stdout.strip()
        print(f"Ray worker processes left 5 s after the kill: {left or 0}", flush=True)
        t1 = time.monotonic()
        before = n
        subprocess.run([*cmd, "--resume"], check=False)
        n, distinct = _stored(out)
        second = time.monotonic() - t1
        print(f"{time.strftime('%H:%M:%S')} resume ended after {second:.0f} s: {n} rows ({distinct} distinct; "
              f"{n - before} new), {60 * (n - before) / second:.1f} tasks/min", flush=True)
    n, distinct = _stored(out)
    print(json.dumps({"count": args.count, "stored": n, "distinct": distinct,
                      "wall_s": round(time.monotonic() - t0, 1)}), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--tasks", default=DEFAULT_TASKS)
    c.add_argument("--rounds", type=int, default=2)
    c.add_argument("--workers", type=int, default=2)
    o = sub.add_parser("overhead")
    o.add_argument("--n", type=int, default=200)
    for name in ("scale", "driver"):
        s = sub.add_parser(name)
        s.add_argument("--out", required=True)
        s.add_argument("--count", type=int, default=1000)
        s.add_argument("--workers", type=int, default=2)
        s.add_argument("--engine", default="ray")
        s.add_argument("--kill-after", type=float, default=600)
        s.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    {"compare": compare, "overhead": overhead, "scale": scale, "driver": _driver}[args.cmd](args)


if __name__ == "__main__":
    main()
