"""Full-parse time, side by side, on the simulated phone's screens at 1080x2400: our RapidOCR
engine as it is by default (packed recognition, denormals flushed), without packing, without
flushing denormals, and RapidOCR with its own default settings. Prints figures; asserts nothing.

    python bench/bench_parse.py [--screens 40] [--no-defaults]

Each screen is parsed cold (caches emptied) by each configuration in turn, the order rotating from
one screen to the next, so that load on the machine falls on all of them alike. A full parse is
what the agent's first look at a screen costs: OCR and icon detection. The ratios are medians of
per-screen ratios. Readings of the two packings are compared line by line (case aside).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any


def _fmt(v: list[float]) -> str:
    s = sorted(v)

    def q(p: float) -> float:
        return s[min(len(s) - 1, round(p * (len(s) - 1)))]

    return f"median {statistics.median(s) * 1000:.0f} ms (p10 {q(0.1) * 1000:.0f}, p90 {q(0.9) * 1000:.0f}; n={len(s)})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--screens", type=int, default=40, help="screens of the simulated phone to parse")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-defaults", action="store_true", help="leave out RapidOCR with default settings (slow)")
    args = ap.parse_args(argv)

    import numpy as np

    from mobile_agent.bench.perception import collect_sim_screens
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr.rapid import RapidOcrEngine

    screens = collect_sim_screens(seed=args.seed, max_screens=args.screens)
    images = [s.image.convert("RGB") for s in screens]
    packed = Perception(ocr=RapidOcrEngine(), incremental=False)
    alone = Perception(ocr=RapidOcrEngine(pack=False), incremental=False)
    denormal = Perception(ocr=RapidOcrEngine(flush_denormals=False), incremental=False)
    runs: dict[str, Callable[[Any], Any]] = {
        "packed (default)": lambda img: packed.parse(img, icons=True),
        "one crop per input": lambda img: alone.parse(img, icons=True),
        "denormals kept": lambda img: denormal.parse(img, icons=True),
    }
    if not args.no_defaults:
        from rapidocr import RapidOCR

        defaults = RapidOCR(params={"Global.log_level": "error"})
        runs["RapidOCR defaults (OCR only)"] = lambda img: defaults(np.asarray(img)[:, :, ::-1])
    for f in runs.values():  # load the models outside the timings
        f(images[0])
    times: dict[str, list[float]] = {k: [] for k in runs}
    readings: dict[str, list[list[str]]] = {k: [] for k in runs}
    names = list(runs)
    for n, img in enumerate(images):
        for k in names[n % len(names):] + names[:n % len(names)]:
            for p in (packed, alone, denormal):
                p.clear_cache()
            t = time.perf_counter()
            res = runs[k](img)
            times[k].append(time.perf_counter() - t)
            if hasattr(res, "lines"):
                readings[k].append([line.text.lower() for line in res.lines])
    print(f"screens: {len(images)} of the simulated phone at {images[0].width}x{images[0].height}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    for k in names:
        print(f"{k}: {_fmt(times[k])}")
    base = times["packed (default)"]
    for k in names[1:]:
        r = statistics.median(a / b for a, b in zip(base, times[k]))
        print(f"ratio packed (default) / {k}: {r:.3f}")
    for other in ("one crop per input", "denormals kept"):
        same = total = 0
        for a, b in zip(readings[other], readings["packed (default)"]):
            total += len(a)
            rest = list(b)
            for t in a:
                if t in rest:
                    rest.remove(t)
                    same += 1
        print(f"lines read alike, packed (default) and {other}: {same}/{total} ({100.0 * same / max(1, total):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
