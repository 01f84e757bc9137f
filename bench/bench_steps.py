"""A step's cost beyond the model's own time, on the simulated phone, with a model of fixed latency.

    python bench/bench_steps.py [--latency 0,0.5,1.5,5] [--tasks settings-1,maps-2,...] [--repeat 1]
                                [--against SRC] [--no-sequential]

Each task's human reference plan is played by a scripted model through a chat-completions server on
localhost (the real openai SDK, real perception, the simulated phone, the benchmark's runner), the
server holding each answer for the given latency. From each run's ``steps.jsonl`` a step's time is
split into the model's time (``model_s``: every call of the step) and the rest: perception on the
critical path (``perception_s``: grounding, and waiting for a parse that had not finished), the device
(``device_s``: screenshots, the gesture, waiting until the screen is still) and what is left
(``total_s`` minus all of these: encoding the request, saving the screenshots, the loop). A step's
wall time is measured as well, from one step's record to the next (so it holds writing the record).

Side by side in one run, each in its own process, task by task in turn:
- ``this``: this tree as it is (the parse of each screenshot started beside the model call);
- ``sequential``: this tree with ``AgentSettings.overlap_perception`` off (the parse after the
  model's answer, as before), unless ``--no-sequential``;
- ``against``: another tree's code (``--against SRC``, a checkout: its ``src`` is imported), such as
  the commit before these changes.

Prints, for each latency and each variant, medians over the grounding steps (Open App, Click Text,
Click Icon, Long Press) and over all steps; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_TASKS = "settings-1,maps-2,mail-1,notes-1,clips-1,shop-2,music-2"
GROUNDING_OPS = ("Open App", "Click Text", "Click Icon", "Long Press")


def _worker(latency: float, tasks: list[str], out: Path, overlap: bool) -> None:
    """Run the tasks with a model of ``latency`` seconds; print one JSON line per step."""
    sys.path[:0] = [str(REPO_ROOT), str(BENCH_DIR)]
    os.environ.setdefault("BENCH_STEPS_KEY", "k")
    from bench_multi import scripted  # noqa: E402 - the same scripted model as bench_multi.py

    from mobile_agent.bench.runner import EvalConfig, run_task
    from mobile_agent.bench.suite import select
    from tests.fakes.chatserver import LocalChatServer, Reply

    if not overlap:
        # The parse after the model's answer, as before the overlap (only this tree has the switch).
        from mobile_agent.agent import loop

        init = loop.AgentSettings.__init__

        def sequential_init(self, *a, init=init, **k):
            init(self, *a, **k)
            self.overlap_perception = False

        loop.AgentSettings.__init__ = sequential_init  # type: ignore[method-assign]

    for task in select(ids=tasks):
        respond = scripted(task, False)

        def slow(req, respond=respond):
            return Reply(text=respond(req), delay_s=latency)

        with LocalChatServer(slow) as server:
            config = EvalConfig(planner="model", model="openai:bench-model", base_url=server.openai_base_url,
                                api_key_env="BENCH_STEPS_KEY", max_steps=3 * task.human_steps + 4)
            t = time.monotonic()
            row = run_task(config, task, out, f"l{latency}", threads=None)
            wall = time.monotonic() - t
        steps = [json.loads(line) for line in Path(row.trajectory, "steps.jsonl").read_text().splitlines() if line]
        for s in steps:
            tm = s.get("timings") or {}
            op = (s.get("operation") or {}).get("op", "")
            print(json.dumps({"task": task.key, "ok": row.success, "op": op, "wall_run": wall, **tm}), flush=True)


def _run_variant(python: str, src: Path | None, latency: float, tasks: list[str], overlap: bool) -> list[dict]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src / "src")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [python, __file__, "--worker", "--latency", str(latency), "--tasks", ",".join(tasks), "--out", tmp]
        if not overlap:
            cmd.append("--sequential-worker")
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=str(REPO_ROOT))
    if p.returncode != 0:
        raise SystemExit(f"the worker failed ({src or 'this tree'}):\n{p.stderr[-3000:]}")
    return [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def _row(name: str, steps: list[dict]) -> str:
    g = [s for s in steps if s["op"] in GROUNDING_OPS]
    beyond = [s["total_s"] - s["model_s"] for s in g]
    rest = [s["total_s"] - s["model_s"] - s["perception_s"] - s["device_s"] for s in g]
    beyond_all = [s["total_s"] - s["model_s"] for s in steps]
    ok = sum(1 for t in {s["task"]: s["ok"] for s in steps}.values() if t)
    tasks = len({s["task"] for s in steps})
    return (f"  {name:<11}{len(g):>5}{_median([s['model_s'] for s in g]):>9.3f}{_median(beyond):>9.3f}"
            f"{_median([s['perception_s'] for s in g]):>9.3f}{_median([s['device_s'] for s in g]):>9.3f}"
            f"{_median(rest):>9.3f}{_median(beyond_all):>10.3f}{ok:>5}/{tasks}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--latency", default="0,0.5,1.5,5", help="model latencies in seconds, comma-separated")
    ap.add_argument("--tasks", default=DEFAULT_TASKS, help="comma-separated Mobile-Eval task ids")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each variant at each latency")
    ap.add_argument("--against", type=Path, help="another checkout to time beside this tree")
    ap.add_argument("--no-sequential", action="store_true", help="leave out this tree with the overlap off")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--sequential-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    if args.worker:
        _worker(float(args.latency), tasks, args.out, overlap=not args.sequential_worker)
        return 0
    variants: list[tuple[str, Path | None, bool]] = [("this", None, True)]
    if not args.no_sequential:
        variants.append(("sequential", None, False))
    if args.against is not None:
        if not (args.against / "src" / "mobile_agent").is_dir():
            raise SystemExit(f"--against {args.against}: no src/mobile_agent there")
        variants.append(("against", args.against.resolve(), True))
    print("medians in seconds; grounding steps (Open App, Click Text, Click Icon, Long Press) unless said")
    for latency in (float(x) for x in args.latency.split(",")):
        results: dict[str, list[dict]] = {name: [] for name, _, _ in variants}
        for _ in range(max(1, args.repeat)):
            for task in tasks:  # variants in turn, task by task, so that load falls on each alike
                for name, src, overlap in variants:
                    results[name] += _run_variant(sys.executable, src, latency, [task], overlap)
        print(f"\nmodel latency {latency:g} s")
        print(f"  {'variant':<11}{'steps':>5}{'model':>9}{'beyond':>9}{'percep':>9}{'device':>9}{'rest':>9}"
              f"{'beyond*':>10}{'done':>7}")
        for name, _, _ in variants:
            print(_row(name, results[name]))
    print("\nbeyond: the step's time less the model's (total_s - model_s); rest: beyond less perception and device;"
          "\nbeyond*: the same over every step (Type, Page Down, Stop...)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
