"""Benchmark of the simulated phone: time of one step (gesture, re-render, screenshot) over all
apps at 1080x2400, and the memory of one phone. Prints figures; asserts nothing.

    python bench/bench_sim.py [--rounds 3] [--width 1080 --height 2400]

A step here is what the agent costs the phone each turn: one gesture (tap, swipe, back, type),
then a screenshot. The tree dump (``ui_tree``) is timed separately.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="passes over all apps")
    ap.add_argument("--width", type=int, default=1080)
    ap.add_argument("--height", type=int, default=2400)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    rss_start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    from mobile_agent.device.sim import SimPhone
    from mobile_agent.device.uitree import parse_tree

    phone = SimPhone(seed=args.seed, width=args.width, height=args.height)
    rng = random.Random(args.seed)
    W, H = phone.size()
    step_ms: list[float] = []
    tree_ms: list[float] = []
    per_app: dict[str, list[float]] = {}
    phone.screenshot()  # warm fonts and caches once, as a running phone has them

    def step(app: str, gesture) -> None:
        t0 = time.perf_counter()
        gesture()
        phone.screenshot()
        dt = (time.perf_counter() - t0) * 1000
        step_ms.append(dt)
        per_app.setdefault(app, []).append(dt)

    for _ in range(args.rounds):
        for name in phone.app_names():
            phone.home()
            phone.screenshot()
            step(name, lambda: phone.launch(name))
            for _ in range(6):
                kind = rng.choice(["down", "up", "tap", "tap", "back-ish"])
                if kind == "down":
                    step(name, lambda: phone.swipe(W // 2, H * 7 // 10, W // 2, H * 3 // 10, 300))
                elif kind == "up":
                    step(name, lambda: phone.swipe(W // 2, H * 3 // 10, W // 2, H * 7 // 10, 300))
                elif kind == "tap":
                    t0 = time.perf_counter()
                    nodes = [n for n in parse_tree(phone.ui_tree()) if n.clickable and not n.bounds.is_empty()
                             and n.package != "com.android.systemui"]
                    tree_ms.append((time.perf_counter() - t0) * 1000)
                    if nodes:
                        c = rng.choice(nodes).bounds.center
                        step(name, lambda c=c: phone.tap(c.x, c.y))
                else:
                    step(name, phone.back)
                if phone.state.foreground != name:
                    break
    rss_end = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(f"simulated phone {W}x{H}, {len(phone.app_names())} apps, {len(step_ms)} steps, python {sys.version.split()[0]}")
    print(f"step (gesture + re-render + screenshot): median {statistics.median(step_ms):.1f} ms, "
          f"p10 {percentile(step_ms, 0.1):.1f} ms, p90 {percentile(step_ms, 0.9):.1f} ms, max {max(step_ms):.1f} ms")
    if tree_ms:
        print(f"ui_tree dump + parse: median {statistics.median(tree_ms):.1f} ms")
    print("per app median (ms): " + ", ".join(f"{a} {statistics.median(v):.1f}" for a, v in per_app.items()))
    print(f"memory: peak RSS {rss_end:.0f} MB (interpreter and libraries before the phone: {rss_start:.0f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
