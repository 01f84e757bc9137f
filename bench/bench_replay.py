"""Replay on the simulated phone: the Mobile-Eval tasks recorded by the oracle, replayed with no model.

    python bench/bench_replay.py [--tasks shop-1,mail-2,...] [--variants 3] [--out DIR] [--recorded DIR]
                                 [--disturbed] [--cache]

1. ``mobile-agent eval`` (the oracle planner, vision perception) records each task's run (variant 0).
2. Each recording is replayed with no model (agent/replay.py) on the task's own phone (variant 0):
   the count that complete, the model calls (0), and a replayed step's time against the oracle's
   (the recorded screen read in the step; on later variants its lines are known, as in a cache entry).
3. Each recording is replayed on the task's other variants (``--variants``: other seeds, other
   names, other list orders): the count that complete, and the count that diverge, and why
   (the screen not the recorded kind, or a recorded target not found on it).
4. With ``--disturbed``: each recording replayed on its ``mobile-eval-disturbed`` twin (loading
   screens, a permission dialog, a notification shade opened by mistake, an ad banner), with a scripted
   model as the fallback that answers what is on the phone when it is asked, as the disturbed task's
   reference plan does (the permission dialog: Click Text (Allow); the shade: Back; an ad banner:
   Click Icon (close, bottom right); else the next operation the reference plan adds to the plain
   one; never a Wait, which the replay does itself before handing over): the count that complete,
   and the model calls per task against a full model run of the disturbed task (one plan a step of
   its reference plan, and the completion check).
5. With ``--cache``: ``mobile-agent eval --cache`` twice over the selection (the oracle planner):
   the hit rate of the second pass, and the two passes' times.

Prints figures; asserts nothing. The replays run in this process, one after another.
"""

from __future__ import annotations

import argparse
import os
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
    ap.add_argument("--recorded", type=Path, default=None, help="an eval folder already recorded (skips step 1)")
    ap.add_argument("--disturbed", action="store_true", help="step 4: the disturbed twins, a scripted fallback")
    ap.add_argument("--cache", action="store_true", help="step 5: two eval --cache passes")
    ap.add_argument("--latency", type=float, default=None,
                    help="step 6 alone: each task recorded with a model answering in this many seconds, then "
                         "replayed with none; a recorded and a replayed step's time side by side")
    args = ap.parse_args()
    if args.latency is not None:
        _side_by_side(args.tasks or SIDE_BY_SIDE, args.latency, args.out or Path(tempfile.mkdtemp(prefix="bench-rs-")))
        return

    from mobile_agent.agent import StepLoop, AgentSettings
    from mobile_agent.agent.replay import Recording, ReplayPlanner
    from mobile_agent.agent.trajectory import read_steps
    from mobile_agent.bench.suite import suite_defs
    from mobile_agent.perception import Perception

    out = args.out or Path(tempfile.mkdtemp(prefix="bench-replay-"))
    rec_dir = args.recorded or out / "recorded"
    if args.recorded is None:
        cmd = ["eval", "--suite", args.suite, "--out", str(rec_dir)] + (["--tasks", args.tasks] if args.tasks else [])
        t = time.monotonic()
        subprocess.run([sys.executable, "-c", "import sys; from mobile_agent.cli import main; "
                        "sys.exit(main(sys.argv[1:]))", *cmd], check=False, stdout=subprocess.DEVNULL)
        print(f"recorded with the oracle in {time.monotonic() - t:.0f} s: {rec_dir}")
    cid = next(p for p in rec_dir.iterdir() if p.is_dir())
    defs = {d.id: d for d in suite_defs(args.suite)}
    ids = [i.strip() for i in args.tasks.split(",")] if args.tasks else list(defs)
    perception = Perception(ocr="rapidocr")
    oracle_steps = [s.timings.total_s for i in ids if (cid / i).is_dir() for s in read_steps(cid / i)]

    rows = []
    recordings: dict[str, Recording] = {}  # loaded once: later replays know the recorded screens' lines
    for v in range(args.variants):
        for tid in ids:
            folder = cid / tid
            try:
                recording = recordings.get(tid) or Recording.load(folder)
            except Exception as exc:  # noqa: BLE001 - a task the oracle did not complete
                rows.append((v, tid, "not recorded", str(exc), 0, []))
                continue
            recordings[tid] = recording
            task = defs[tid].instance(v)
            planner = ReplayPlanner(recording, perception)
            settings = AgentSettings(max_steps=max(10, 2 * len(recording.steps)), time_limit_s=600.0,
                                     settle_interval_s=0.0, settle_timeout_s=1.0, save_annotated=False,
                                     perception_mode="vision", overwrite=True, device_name="sim")
            run = out / "replayed" / f"{tid}_v{v}"
            result = StepLoop(task.make_phone(), planner, perception, settings).run(recording.instruction, run)
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
    if args.disturbed:
        _disturbed(ids, cid, out, perception)
    if args.cache:
        _cache_passes(args.tasks, out)
    first = [t for r in rows if r[0] == 0 for t in r[5]]
    later = [t for r in rows if r[0] > 0 for t in r[5]]
    if first and oracle_steps:
        print(f"\nstep time (no model either way): the oracle's median {statistics.median(oracle_steps):.2f} s over "
              f"{len(oracle_steps)} steps; a replayed step's {statistics.median(first):.2f} s over {len(first)} "
              "(the recorded screen read in the step)"
              + (f", {statistics.median(later):.2f} s over {len(later)} (its lines known: later variants, "
                 "as from a cache entry)" if later else ""))
    print(f"runs in {out}")


#: the tasks of step 6 by default (bench_steps.py's: 23 grounding steps)
SIDE_BY_SIDE = "settings-1,maps-2,mail-1,notes-1,clips-1,shop-2,music-2"


def _side_by_side(tasks: str, latency: float, out: Path) -> None:
    """6. Each task recorded with a model of ``latency`` seconds (the scripted model of
    bench_multi.py behind a local chat server, vision perception as eval's), then replayed with no
    model on the same variant, once with the screens' parses the recorded run kept (parses.json,
    lines.json) and once without them (every screen read, as before they were kept); the median step
    time of each, side by side, and their ratios to a recorded step's."""
    root = Path(__file__).resolve().parent
    sys.path[:0] = [str(root.parent), str(root)]
    os.environ.setdefault("BENCH_REPLAY_KEY", "k")
    from bench_multi import scripted  # noqa: E402 - the same scripted model as bench_multi.py / bench_steps.py

    from mobile_agent.agent import StepLoop, AgentSettings
    from mobile_agent.agent.replay import Recording, ReplayPlanner
    from mobile_agent.agent.trajectory import read_steps
    from mobile_agent.bench.runner import EvalConfig, run_task
    from mobile_agent.bench.suite import select
    from mobile_agent.perception import Perception
    from tests.fakes.chatserver import LocalChatServer, Reply

    recorded: list[float] = []
    replayed: list[float] = []
    before: list[float] = []  # the same replays reading every screen (no kept parses or lines)
    parts: dict[str, list[float]] = {"perception_s": [], "device_s": []}
    perception = Perception(ocr="rapidocr")
    for task in select(ids=[t.strip() for t in tasks.split(",")]):
        respond = scripted(task, False)
        with LocalChatServer(lambda req, respond=respond: Reply(text=respond(req), delay_s=latency)) as server:
            config = EvalConfig(planner="model", model="openai:bench-model", base_url=server.openai_base_url,
                                api_key_env="BENCH_REPLAY_KEY", max_steps=3 * task.human_steps + 4)
            row = run_task(config, task, out / "recorded", "rec", threads=None)
        rec_steps = read_steps(Path(row.trajectory))
        if not row.success:
            print(f"  {task.key:<12} not recorded to completion: skipped")
            continue
        recording = Recording.load(Path(row.trajectory))
        settings = AgentSettings(max_steps=max(10, 2 * len(recording.steps)), time_limit_s=600.0,
                                 save_annotated=False, perception_mode="vision", overwrite=True, device_name="sim")
        bare = Recording.load(Path(row.trajectory))
        bare.parses.clear()  # as before the recorded parses were kept: every screen read in the replay
        bare.lines.clear()
        bare_run = out / "replayed-bare" / task.key
        StepLoop(task.make_phone(), ReplayPlanner(bare, perception), perception, settings).run(bare.instruction, bare_run)
        before += [s.timings.total_s for s in read_steps(bare_run) if s.source == "replayed"]
        run = out / "replayed" / task.key
        result = StepLoop(task.make_phone(), ReplayPlanner(recording, perception), perception, settings).run(
            recording.instruction, run)
        rep_steps = [s for s in read_steps(run) if s.source == "replayed"]
        recorded += [s.timings.total_s for s in rec_steps]
        replayed += [s.timings.total_s for s in rep_steps]
        for k in parts:
            parts[k] += [getattr(s.timings, k) for s in rep_steps]
        print(f"  {task.key:<12} {'completed' if result.completed else 'diverged '}  recorded "
              f"{statistics.median([s.timings.total_s for s in rec_steps]):.2f} s, replayed "
              f"{statistics.median([s.timings.total_s for s in rep_steps] or [0]):.2f} s (median step)", flush=True)
    if recorded and replayed:
        a, b = statistics.median(recorded), statistics.median(replayed)
        print(f"\nmodel latency {latency:g} s: a recorded step's median {a:.2f} s over {len(recorded)}; a replayed "
              f"step's {b:.2f} s over {len(replayed)} (perception {statistics.median(parts['perception_s']):.2f} s, "
              f"device {statistics.median(parts['device_s']):.2f} s); ratio {b / a:.2f}")
        if before:
            c = statistics.median(before)
            print(f"the same replays reading every screen (no parses.json, no lines.json, as before): {c:.2f} s over "
                  f"{len(before)}; ratio {c / a:.2f}")
    print(f"runs in {out}")


def _disturbed(ids: list[str], cid: Path, out: Path, perception) -> None:
    import difflib

    from mobile_agent.agent import StepLoop, AgentSettings, LLMPlanner
    from mobile_agent.agent.replay import Recording, ReplayPlanner
    from mobile_agent.agent.trajectory import read_steps
    from mobile_agent.bench.suite import suite_defs

    twins = {d.id.removeprefix("disturbed-"): d for d in suite_defs("mobile-eval-disturbed")}
    plain = {d.id: d for d in suite_defs("mobile-eval")}
    done = 0
    ratios = []
    print("\nthe disturbed twins, a scripted model as the fallback:")
    for tid in ids:
        if tid not in twins or not (cid / tid).is_dir():
            continue
        task = twins[tid].instance(0)
        base = [str(s.op) for s in plain[tid].instance(0).plan]
        full = [str(s.op) for s in task.plan]
        extra = []
        for tag, _, _, j1, j2 in difflib.SequenceMatcher(a=base, b=full, autojunk=False).get_opcodes():
            if tag in ("insert", "replace"):
                extra += [op for op in full[j1:j2] if op != "Wait"]  # the replay waits out loading itself
        phone = task.make_phone()
        fallback = LLMPlanner(_Script(extra, phone), parse_retries=0)
        recording = Recording.load(cid / tid)
        planner = ReplayPlanner(recording, perception, fallback)
        settings = AgentSettings(max_steps=2 * len(full) + 4, time_limit_s=600.0, settle_interval_s=0.0,
                                 settle_timeout_s=1.0, save_annotated=False, perception_mode="vision",
                                 overwrite=True, device_name="sim")
        run = out / "disturbed" / tid
        result = StepLoop(phone, planner, perception, settings).run(recording.instruction, run)
        steps = read_steps(run)
        calls = sum(s.model.calls or 0 for s in steps)
        full_calls = len(full) + 1
        ratios.append(calls / full_calls)
        done += result.completed
        print(f"  {tid:<12} {'completed' if result.completed else result.outcome:<10} {calls} call(s) against "
              f"{full_calls} ({calls / full_calls:.2f}); replayed {planner.counts.replayed}, planned "
              f"{planner.counts.planned}, waited {planner.counts.waited}, "
              f"{'closed %d, ' % planner.counts.dismissed if hasattr(planner.counts, 'dismissed') else ''}"
              f"resumed {planner.counts.resumed}  "
              f"{(result.error or '')[:120]}", flush=True)
    if ratios:
        print(f"disturbed: {done}/{len(ratios)} completed; model calls against a full model run: median "
              f"{statistics.median(ratios):.2f}, mean {statistics.mean(ratios):.2f}")


def _cache_passes(tasks: str | None, out: Path) -> None:
    import re

    print("\neval --cache, two passes (oracle planner):")
    for n in (1, 2):
        cmd = ["eval", "--cache", str(out / "cache"), "--out", str(out / f"cache-pass{n}")]
        cmd += ["--tasks", tasks] if tasks else []
        done = subprocess.run([sys.executable, "-c", "import sys; from mobile_agent.cli import main; "
                               "sys.exit(main(sys.argv[1:]))", *cmd], capture_output=True, text=True, check=False,
                              env={**__import__("os").environ, "COLUMNS": "300"})
        text = " ".join(done.stdout.split())
        hit = re.search(r"cache: \d+ of \d+ task\(s\) replayed from it; \d+ kept", text)
        su = re.search(r"SU \d+/\d+ in [\d.]+ s", text)
        step = re.search(r"per step: median [\d.]+ s", text)
        print(f"  pass {n}: {hit.group(0) if hit else '?'}; {su.group(0) if su else '?'}; "
              f"{step.group(0) if step else ''}")


class _Script:
    """A scripted model that answers what is on ``phone`` when asked to plan (a competent model's
    answer to each disturbance, as the reference plan has it), else the next of ``extra`` (the
    operations the disturbed reference plan adds); a choice among marks gets "Answer: 0" (the best
    ranked), so that a choice does not take a plan's reply."""

    name = "scripted"

    def __init__(self, extra: list[str], phone) -> None:
        self.extra = list(extra)
        self.phone = phone

    @property
    def replies(self) -> list[str]:
        from mobile_agent.bench.mobile_eval.disturbed import AD_TEXT
        from mobile_agent.bench.task import Probe

        p = self.phone
        probe = Probe(p)
        if p._permission_pending is not None and probe.shows("Don't allow"):
            op = "Click Text (Allow)"
        elif p.shade_open:
            op = "Back"
        elif probe.shows_part(AD_TEXT):
            op = "Click Icon (close, bottom right)"
        elif self.extra:
            op = self.extra.pop(0)
        else:
            return []
        if op in self.extra:
            self.extra.remove(op)
        return [f"Observation: the screen.\nThought: deal with what is in the way.\nAction: {op}"]

    def complete(self, messages, max_tokens=None):
        from mobile_agent.errors import ModelError
        from mobile_agent.model.base import ChatResponse

        text = messages[-1].plain_text
        if "Answer:" in text and "Action:" not in text:
            return ChatResponse("Answer: 0", model=self.name)
        if "Verdict: complete | incomplete" in text:
            return ChatResponse("Verdict: complete\nReason: done", model=self.name)
        replies = self.replies
        if not replies:
            raise ModelError("the scripted model has no reply left")
        return ChatResponse(replies[0], model=self.name)


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
