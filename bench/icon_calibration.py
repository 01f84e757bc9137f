"""Click Icon's confidence against the truth: how often its first candidate is right, by score band
and by the lead over the second, on a folder of real screens (a half of the development set's apps).

    python bench/icon_calibration.py --dir ../shared/realscreens --half B [--blend 0,0.3,0.5] [--icon-model M]

For each icon target (no position hint, through the public API ``Perception.ground_icon``), the
candidates as perception ranks them: the first candidate is right when its point lies in the target's
box. Prints, for each blend of the recogniser in the score (``LearnedIconMatcher.blend``):

- the reliability table: for each band of the first candidate's score, how many answers, and how often
  the first candidate was right;
- the same by the first candidate's lead over the second (what decides found or ambiguous);
- for each lead threshold, what the answers would be: found and right, found and wrong (a wrong tap),
  ambiguous with the first right (a question the planner did not need), ambiguous with it wrong
  (a question that saved a wrong tap), none.

Asserts nothing; the folder is only read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

BANDS = (0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0, 1.2, 10.0)
LEADS = (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3)


def answers(folder: str, half: str, blend: float | None, icon_model: str | None,
            ocr_cache: str | None) -> list[dict[str, Any]]:
    """One record a target: its app, status, the first two scores, whether the first is right."""
    from PIL import Image

    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr
    from mobile_agent.screensets.measure import CachedOcr
    from mobile_agent.screensets.realscreens import load_folder, split_half

    real = load_folder(folder, absent_per_screen=0)
    engine = CachedOcr(make_ocr("rapidocr"), ocr_cache) if ocr_cache else "rapidocr"
    p = Perception(ocr=engine, icon_model=icon_model)
    if blend is not None:
        p.matcher.blend = blend
    out = []
    for s in real.screens:
        if half and split_half(s.app) != half:
            continue
        icons = [t for t in s.targets if t.kind == "icon"]
        if not icons:
            continue
        with Image.open(s.image) as im:
            img = im.convert("RGB")
        for t in icons:
            g = p.ground_icon(img, t.target)
            c = list(g.candidates)
            first = c[0] if c else None
            out.append({"app": s.app, "target": t.target, "status": g.status,
                        "first": round(float(first.score), 4) if first else None,
                        "second": round(float(c[1].score), 4) if len(c) > 1 else None,
                        "right": bool(first and t.box.contains_point(first.point)),
                        "chosen_right": bool(g.point and t.box.contains_point(g.point)),
                        "candidates": len(c)})
    return out


def lead(r: dict[str, Any]) -> float:
    if r["first"] is None:
        return 0.0
    return r["first"] - (r["second"] if r["second"] is not None else 0.0) if r["candidates"] > 1 else 10.0


def tables(rows: list[dict[str, Any]]) -> dict[str, Any]:
    scored = [r for r in rows if r["first"] is not None]
    by_score = []
    for lo, hi in zip(BANDS, BANDS[1:]):
        b = [r for r in scored if lo <= r["first"] < hi]
        by_score.append({"band": f"{lo:.1f}-{hi:.1f}" if hi < 10 else f"{lo:.1f}+", "answers": len(b),
                         "first_right": sum(r["right"] for r in b)})
    by_lead = []
    edges = LEADS + (10.0, 11.0)
    for lo, hi in zip(edges, edges[1:]):
        b = [r for r in scored if lo <= lead(r) < hi]
        name = "only one" if lo == 10.0 else (f"{lo:.2f}-{hi:.2f}" if hi < 10 else f"{lo:.2f}+")
        by_lead.append({"lead": name, "answers": len(b), "first_right": sum(r["right"] for r in b)})
    thresholds = []
    for t in LEADS:
        found = [r for r in scored if lead(r) > t]
        asked = [r for r in scored if lead(r) <= t]
        thresholds.append({"lead_over": t, "found_right": sum(r["right"] for r in found),
                           "found_wrong": sum(not r["right"] for r in found),
                           "asked_first_right": sum(r["right"] for r in asked),
                           "asked_first_wrong": sum(not r["right"] for r in asked),
                           "none": len(rows) - len(scored)})
    status = {}
    for r in rows:
        k = f"{r['status']}, first {'right' if r['right'] else 'wrong'}"
        status[k] = status.get(k, 0) + 1
    return {"targets": len(rows), "first_right": sum(r["right"] for r in rows),
            "chosen_right": sum(r["chosen_right"] for r in rows), "status": dict(sorted(status.items())),
            "by_score": by_score, "by_lead": by_lead, "thresholds": thresholds}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--half", default="B", help="A, B, or '' for every app")
    ap.add_argument("--blend", default="", help="comma-separated recogniser shares to compare (default: the matcher's)")
    ap.add_argument("--icon-model", default=None)
    ap.add_argument("--ocr-cache", default=None)
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    blends: list[float | None] = [float(b) for b in a.blend.split(",") if b.strip()] or [None]
    out: dict[str, Any] = {}
    for b in blends:
        rows = answers(a.dir, a.half, b, a.icon_model, a.ocr_cache)
        t = tables(rows)
        out[str(b)] = {"tables": t, "rows": rows}
        n = max(1, t["targets"])
        print(f"blend {b if b is not None else 'default'}: {t['targets']} targets of half {a.half or 'all'}; "
              f"first candidate right {t['first_right']} ({100 * t['first_right'] / n:.1f}%), answer right "
              f"{t['chosen_right']} ({100 * t['chosen_right'] / n:.1f}%); {t['status']}")
        print("  first score  answers  first right")
        for r in t["by_score"]:
            if r["answers"]:
                print(f"  {r['band']:>10}  {r['answers']:7}  {r['first_right']:4} ({100 * r['first_right'] / r['answers']:.0f}%)")
        print("  lead over 2nd  answers  first right")
        for r in t["by_lead"]:
            if r["answers"]:
                print(f"  {r['lead']:>12}  {r['answers']:7}  {r['first_right']:4} ({100 * r['first_right'] / r['answers']:.0f}%)")
        print("  found when lead >  found right  found wrong  asked (first right)  asked (first wrong)  none")
        for r in t["thresholds"]:
            print(f"  {r['lead_over']:16.2f}  {r['found_right']:11}  {r['found_wrong']:11}  {r['asked_first_right']:19}"
                  f"  {r['asked_first_wrong']:19}  {r['none']:4}")
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
