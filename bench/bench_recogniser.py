"""The icon recogniser alone on a folder of real screens: top-1 and top-5 per app and per half.

    python bench/bench_recogniser.py --dir REALSCREENS [--model PATH] [-v]

For each icon target of the folder whose description names a vocabulary concept, the crop is the
detector's box that the target's node holds (the largest box whose centre lies in the node and that
is no larger than it; the node itself where the detector found none), and a hit is the recogniser's
first class (top-1), or any of its first five (top-5), being a concept the description names. The
folder is only read: this is a validation, never data to train or tune on.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def description_concepts(description: str) -> set[str]:
    from mobile_agent.perception.icons.learned import concept_weights

    return {c for c, _, _ in concept_weights(description)}


def measure(folder: str, model: str | None, ocr_cache: str | None, verbose: bool,
            half: str | None = None) -> dict[str, Any]:
    """The figures (``half``: only the screens of that half of the apps)."""
    import numpy as np

    from mobile_agent.perception import Perception
    from mobile_agent.perception.icons.recogniser import IconRecogniser
    from mobile_agent.perception.ocr import make_ocr
    from mobile_agent.screensets.measure import CachedOcr
    from mobile_agent.screensets.realscreens import detector_box, load_folder, split_half

    rec = IconRecogniser(model)
    real = load_folder(folder, absent_per_screen=0)
    perception = Perception(ocr=CachedOcr(make_ocr("rapidocr"), ocr_cache) if ocr_cache else "rapidocr")
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # top-1, top-5, total
    unknown = 0
    lines = []
    for s in real.screens:
        if half and split_half(s.app) != half:
            continue
        with Image.open(s.image) as im:
            img = im.convert("RGB")
        rgb = np.asarray(img)
        icons = list(perception.parse(img, icons=True).icons or [])
        for tg in s.targets:
            if tg.kind != "icon":
                continue
            want = description_concepts(tg.target)
            if not want:
                unknown += 1
                continue
            box = detector_box(icons, tg.box)
            probs, _ = rec.classify(rgb, [box])
            top = rec.top(probs, 5)[0]
            h1, h5 = top[0][0] in want, any(c in want for c, _ in top)
            for g in ("all", f"half {split_half(s.app)}", f"app {s.app}"):
                counts[g][0] += h1
                counts[g][1] += h5
                counts[g][2] += 1
            if verbose and not h1:
                lines.append(f"  {s.app}: {tg.target!r} wants {sorted(want)} -> "
                             + ", ".join(f"{c} {p:.2f}" for c, p in top[:3]))
    return {"groups": {g: {"top1": v[0], "top5": v[1], "total": v[2]} for g, v in sorted(counts.items())},
            "no_concept": unknown, "misses": lines}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--model", default=None, help="an icon_recogniser.onnx (default: the shipped one)")
    ap.add_argument("--ocr-cache")
    ap.add_argument("--json")
    ap.add_argument("-v", "--verbose", action="store_true", help="each top-1 miss")
    a = ap.parse_args(argv)
    d = measure(a.dir, a.model, a.ocr_cache, a.verbose)
    for g, v in d["groups"].items():
        n = max(1, v["total"])
        print(f"{g}: top-1 {v['top1']}/{v['total']} ({100 * v['top1'] / n:.1f}%), "
              f"top-5 {v['top5']}/{v['total']} ({100 * v['top5'] / n:.1f}%)")
    print(f"targets whose description names no vocabulary concept (not counted): {d['no_concept']}")
    for line in d["misses"]:
        print(line)
    if a.json:
        Path(a.json).write_text(json.dumps(d, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
