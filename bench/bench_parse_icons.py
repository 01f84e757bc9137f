"""`parse` with icon descriptions on real screens, in one process: the full parse (OCR and icon
boxes) and the learned recogniser naming every icon box (what `mobile-agent parse` prints beside
each icon), per screen, side by side. Prints medians; asserts nothing.

    python bench/bench_parse_icons.py [--dir ../shared/realscreens] [--screens 10]

Every ``len/N``-th screenshot of the folder (sorted by name) is read; the perception's and the
recogniser's caches are cleared before each screen, so each is a first look.
"""

from __future__ import annotations

import argparse
import glob
import os
import statistics
import sys
import time


def main(argv: list[str] | None = None) -> int:
    import numpy as np
    from PIL import Image

    from mobile_agent.perception import Perception
    from mobile_agent.perception.icons.learned import LearnedIconMatcher

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default="../shared/realscreens")
    ap.add_argument("--screens", type=int, default=10)
    a = ap.parse_args(argv)
    files = sorted(glob.glob(os.path.join(a.dir, "img", "*.png")) or glob.glob(os.path.join(a.dir, "*.png")))
    if not files:
        print(f"no screenshots under {a.dir}: nothing to measure")
        return 0
    files = files[:: max(1, len(files) // a.screens)][: a.screens]
    perception, matcher = Perception(), LearnedIconMatcher()
    parse_s, name_s, boxes = [], [], []
    for f in files:
        with Image.open(f) as im:
            img = im.convert("RGB")
        rgb = np.asarray(img)
        perception.clear_cache()
        t = time.perf_counter()
        res = perception.parse(img, icons=True)
        parse_s.append(time.perf_counter() - t)
        found = [i.box for i in res.icons or []]
        matcher._memo.clear()
        t = time.perf_counter()
        matcher.describe(rgb, found)
        name_s.append(time.perf_counter() - t)
        boxes.append(len(found))
    p, n = statistics.median(parse_s), statistics.median(name_s)
    print(f"{len(files)} screens of {a.dir}, load average {os.getloadavg()[0]:.2f}")
    print(f"full parse: median {p * 1000:.0f} ms; the recogniser naming every icon box: median {n * 1000:.0f} ms "
          f"for a median {statistics.median(boxes):g} boxes; together {(p + n) * 1000:.0f} ms")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
