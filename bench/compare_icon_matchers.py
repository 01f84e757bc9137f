"""Click Icon with each icon matcher side by side, on a folder of real screens or a drawn icon set.

    python bench/compare_icon_matchers.py --dir REALSCREENS [--ocr-cache DIR] [--matchers offline,learned,...]
    python bench/compare_icon_matchers.py --set heldout2 [--screens N]
    python bench/compare_icon_matchers.py --dir REALSCREENS --detectors cv,yolo:icon_detect.onnx --matchers learned

Matchers: ``offline`` (the shape matcher alone), ``learned`` (the recogniser blended with it at the
default share), ``learned@B`` (the recogniser's share ``B``: 1.0 is the recogniser alone), and
``learned:PATH@B`` (another model file). The parse (OCR lines, icon boxes) is made once a screen and
shared by every matcher. ``--detectors`` puts icon detectors side by side too (each row then
``DETECTOR/MATCHER``): the default ``cv`` and, for a user with the weights, ``yolo:PATH``. Prints top-1 without and with the position hint, per half of the apps and
per app for a folder.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def make(spec: str) -> Any:
    from mobile_agent.perception.icons import make_matcher

    base, _, blend = spec.partition("@")
    m = make_matcher(base)
    if blend:
        m.blend = float(blend)
    return m


def folder_targets(path: str) -> list[tuple[Any, str, Any, tuple[str, ...], str]]:
    """(image path, description, node box, hint, groups: its half and its app) of every icon target
    of a real folder."""
    from mobile_agent.screensets.realscreens import load_folder, split_half, third_hint

    folder = load_folder(path, absent_per_screen=0)
    return [(s.image, tg.target, tg.box, third_hint(tg.box, s.width, s.height),
             (f"half {split_half(s.app)}", f"app {s.app}"))
            for s in folder.screens for tg in s.targets if tg.kind == "icon"]


def set_targets(name: str, screens: int | None) -> list[tuple[Any, str, Any, tuple[str, ...], str]]:
    """The same for a drawn icon set of the registry (its images kept in memory; the hint is the
    one ``bench perception --set`` gives)."""
    from mobile_agent.screensets import registry
    from mobile_agent.screensets.measure import position_hint

    chosen = registry.get(name)
    loaded = chosen.load(seed=0, count=screens or chosen.default_count() or 60)
    return [(s.image, t.description, t.box, position_hint(t.box, *s.image.size), ())
            for s in loaded for t in s.targets]


def main(argv: list[str] | None = None) -> int:
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr
    from mobile_agent.screensets.measure import CachedOcr

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir")
    ap.add_argument("--set")
    ap.add_argument("--screens", type=int)
    ap.add_argument("--ocr-cache")
    ap.add_argument("--matchers", default="offline,learned")
    ap.add_argument("--detectors", default="cv", help="icon detectors side by side (comma-separated): cv (the "
                    "default), yolo:PATH (an ONNX export, e.g. OmniParser's icon_detect), gdino:PATH")
    a = ap.parse_args(argv)
    targets = folder_targets(a.dir) if a.dir else set_targets(a.set, a.screens)
    matcher_specs = a.matchers.split(",")
    detectors = a.detectors.split(",")
    matchers = {s: make(s) for s in matcher_specs}
    ocr = CachedOcr(make_ocr("rapidocr"), a.ocr_cache) if a.ocr_cache else "rapidocr"
    # one Perception a detector (a missing weights file is a clear error before any work)
    from mobile_agent.errors import ConfigError

    try:
        perceptions = {d: Perception(ocr=ocr, detector=d) for d in detectors}
    except ConfigError as exc:
        print(f"error: --detectors: {exc}", file=sys.stderr)
        return 2
    # each row's name (DETECTOR/MATCHER where detectors are compared) and its Perception and matcher
    runs = {f"{d}/{s}" if len(detectors) > 1 else s: (perceptions[d], matchers[s])
            for d in detectors for s in matcher_specs}
    specs = list(runs)
    hits: dict[str, dict[str, list[int]]] = {s: defaultdict(lambda: [0, 0, 0]) for s in specs}
    spent: dict[str, float] = defaultdict(float)
    last = None
    img = None
    for image, desc, box, hint, groups in targets:
        if image is not last:
            img = Image.open(image).convert("RGB") if isinstance(image, (str, Path)) else image
            last = image
            for each in perceptions.values():
                each.parse(img, icons=True)
        for s in specs:
            p, matcher = runs[s]
            p.matcher = matcher
            t = time.perf_counter()
            g = p.ground_icon(img, desc)
            gh = p.ground_icon(img, desc, hint)
            spent[s] += time.perf_counter() - t
            for grp in ("all", *groups):
                h = hits[s][grp]
                h[0] += g.status == "found" and g.chosen is not None and box.contains_point(g.chosen.point)
                h[1] += gh.status == "found" and gh.chosen is not None and box.contains_point(gh.chosen.point)
                h[2] += 1
    for s in specs:
        for grp, (n0, n1, n) in sorted(hits[s].items()):
            print(f"{s:>24} {grp:>7}: no hint {n0}/{n} ({100 * n0 / max(1, n):.1f}%), hint {n1}/{n} "
                  f"({100 * n1 / max(1, n):.1f}%)")
        print(f"{s:>24} grounding time {spent[s]:.1f} s for {len(targets)} targets")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
