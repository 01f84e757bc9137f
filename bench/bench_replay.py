"""Replay on the simulated phone: the Mobile-Eval tasks recorded by the oracle, replayed with no model.

    python bench/bench_replay.py [--tasks shop-1,mail-2,...] [--variants 3] [--out DIR] [--suite mobile-eval]

1. ``mobile-agent eval`` (the oracle planner, vision perception) records each task's run (variant 0).
2. Each recording is replayed with no model (agent/replay.py) on the task's own phone (variant 0):
   the count that complete, the model calls (0), and a replayed step's time against the oracle's.
3. Each recording is replayed on the task's other variants (``--variants``: other seeds, other
   names, other list orders): the count that complete, and the count that diverge, and why
   (the screen not the recorded kind, or a recorded target not found on it).

Prints figures; asserts nothing. The replays run in this process, one after another.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", default=None, help="comma-separated task ids (default: all of the suite)")
    ap.add_argument("--variants", type=int, default=3, help="variants 0..N-1 replayed on (0: the recorded one)")
    ap.add_argument("--suite", default="mobile-eval")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()

    from mobile_agent.agent import Agent, AgentSettings
    from mobile_agent.agent.replay import Recording, ReplayPlanner
    from mobile_agent.agent.trajectory import read_steps
    from mobile_agent.bench.suite import suite_defs
    from mobile_agent.perception import Perception

    out = args.out or Path(tempfile.mkdtemp(prefix="bench-replay-"))
    rec_dir = out / "recorded"
    cmd = [sys.executable, "-m", "mobile_agent.cli", "eval", "--suite", args.suite, "--out", str(rec_dir)]
    if args.tasks:
        cmd += ["--tasks", args.tasks]
    t = time.monotonic()
    subprocess.run([sys.executable, "-c", "import sys; from mobile_agent.cli import main; sys.exit(main(sys.argv[1:]))",
                    *cmd[3:]], check=False, stdout=subprocess.DEVNULL)
    print(f"recorded with the oracle in {time.monotonic() - t:.0f} s: {rec_dir}")
    cid = next(p for p in rec_dir.iterdir() if p.is_dir())
    defs = {d.id: d for d in suite_defs(args.suite)}
    ids = [i.strip() for i in args.tasks.split(",")] if args.tasks else list(defs)
    perception = Perception(ocr="rapidocr")
    oracle_steps = [s.timings.total_s for i in ids if (cid / i).is_dir() for s in read_steps(cid / i)]

    rows = []
    for v in range(args.variants):
        for tid in ids:
            folder = cid / tid
            try:
                recording = Recording.load(folder)
            except Exception as exc:  # noqa: BLE001 - a task the oracle did not complete
                rows.append((v, tid, "not recorded", str(exc), 0, []))
                continue
            task = defs[tid].instance(v)
            planner = ReplayPlanner(recording, perception)
            settings = AgentSettings(max_steps=max(10, 2 * len(recording.steps)), time_limit_s=600.0,
                                     settle_interval_s=0.0, settle_timeout_s=1.0, save_annotated=False,
                                     perception_mode="vision", overwrite=True, device_name="sim")
            run = out / "replayed" / f"{tid}_v{v}"
            result = Agent(task.make_phone(), planner, perception, settings).run(recording.instruction, run)
            calls = sum(s.model.calls or 0 for s in read_steps(run))
            times = [s.timings.total_s for s in read_steps(run) if s.source == "replayed"]
            why = "" if result.completed else (result.error or result.outcome)
            rows.append((v, tid, "completed" if result.completed else "diverged", why, calls, times))
            print(f"  v{v} {tid:<12} {rows[-1][2]:<10} {calls} call(s)  {why[:150]}", flush=True)

    for v in range(args.variants):
        mine = [r for r in rows if r[0] == v]
        done = sum(r[2] == "completed" for r in mine)
        calls = sum(r[4] for r in mine)
        label = "the recorded variant" if v == 0 else f"variant {v}"
        print(f"\n{label}: {done}/{len(mine)} replayed to completion, {calls} model call(s)")
        kinds = Counter(_kind(r[3]) for r in mine if r[2] != "completed")
        for k, n in kinds.most_common():
            print(f"  {n} diverged: {k}")
    replayed = [t for r in rows for t in r[5]]
    if replayed and oracle_steps:
        print(f"\nstep time (no model either way): replayed median {statistics.median(replayed):.2f} s over "
              f"{len(replayed)} steps; the oracle's median {statistics.median(oracle_steps):.2f} s over "
              f"{len(oracle_steps)} steps")
    print(f"runs in {out}")


def _kind(why: str) -> str:
    if "found nothing to act on" in why:
        return "a recorded target not on the screen"
    if "is not the one recorded step" in why:
        return "the screen not the recorded kind"
    if "no more steps" in why:
        return "the recording ended before the run"
    return why[:80] or "?"


if __name__ == "__main__":
    main()
