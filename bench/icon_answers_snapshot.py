"""Click Icon's answers on a fixed set of screens and descriptions, written to JSON and compared.

    python bench/icon_answers_snapshot.py --out answers.json [--compare before.json] [--no-real] [--no-tree]
    python bench/icon_answers_snapshot.py --out after.json --compare before.json --only-compare

A refactor of ``Perception.ground_icon`` that means to keep its behaviour is run on both sides of
the change: each answer (status, chosen point, the candidates' boxes and scores, the message) is
recorded, and ``--compare`` says how many answers are the same and prints the first that differ.
The screens: the simulated phone's apps (seed 0), each with the descriptions the perception tests
use and its own clickable nodes' content-descs, without and with a position hint, with the screen's
tree (hybrid grounding) and with a planner that takes the first numbered box; and, where it is
beside the checkout (``../shared/realscreens``), the development set's real screens, each icon
target with and without its position hint and with the screen's view tree. Prints figures: answers
by status and the time taken.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT.parent / "shared" / "realscreens"
SIM_APPS = ("Mail", "Settings", "Video", "Shop", "Notes", "Music", "Maps", "Browser", "Store")
# Descriptions the tests under tests/perception ground (glyph words, framework phrases, a context
# text, a picture, a key, a status glyph, a word the lexicon does not know).
WORDS = ("search", "menu", "hamburger", "Open navigation drawer", "back arrow", "Back", "Navigate up", "More options",
         "three dots", "heart", "send", "wifi", "Cart", "shopping cart", "chat", "Dark theme switch", "red plus",
         "Profile", "profile picture", "Emoji keyboard", "Anchor", "Play Calm Evening", "Compose", "Settings",
         "Close", "Share", "Delete", "Thumbnail", "Cancel button")
HINTS: tuple[tuple[str, ...], ...] = ((), ("top", "right"), ("top", "left"), ("bottom",))


def _answer(g: Any) -> dict[str, Any]:
    return {"status": g.status, "point": g.point.as_tuple() if g.point is not None else None,
            "n": len(g.candidates),
            "cands": [[*c.box.as_tuple(), c.score, c.text] for c in g.candidates],
            "message": g.message}


def _first(marked: Any, cands: list[Any], question: str) -> int:
    return 0


def _sim_cases() -> list[tuple[str, Any, str, str, tuple[str, ...], bool]]:
    from mobile_agent.device.sim import SimPhone
    from mobile_agent.screensets.measure import parse_tree

    out = []
    for app in SIM_APPS:
        ph = SimPhone(seed=0)
        try:
            ph.launch(app)
        except Exception:
            continue
        img, xml = ph.screenshot(), ph.ui_tree()
        w, h = ph.size()
        descs = list(WORDS) + sorted({n.desc for n in parse_tree(xml, w, h) if n.clickable and n.desc and not n.text})
        for d in descs:
            for hint in HINTS:
                out.append((f"sim:{app}", img, xml, d, hint, False))
            out.append((f"sim:{app}", img, xml, d, (), True))
    return out


def _real_cases() -> list[tuple[str, Any, str, str, tuple[str, ...], bool]]:
    from PIL import Image

    if not (REAL / "manifest.jsonl").is_file():
        return []
    out = []
    images: dict[str, Any] = {}
    for line in (REAL / "manifest.jsonl").read_text().splitlines():
        t = json.loads(line)
        if t["kind"] != "icon":
            continue
        if t["image"] not in images:
            images[t["image"]] = Image.open(REAL / t["image"]).convert("RGB")
        xml = (REAL / t["xml"]).read_text() if t.get("xml") else None
        x1, y1, x2, y2 = t["bbox"]
        cx, cy = (x1 + x2) / 2 / t["width"], (y1 + y2) / 2 / t["height"]
        hint = (("top", "center", "bottom")[min(2, int(cy * 3))], ("left", "center", "right")[min(2, int(cx * 3))])
        for h in ((), hint):
            out.append((f"real:{t['image']}", images[t["image"]], xml, t["target"], h, False))
    return out


def _compare(before: list[dict[str, Any]], answers: list[dict[str, Any]]) -> int:
    """Prints how many answers are the same and the first that differ; 1 where any differs."""
    answers = json.loads(json.dumps(answers))  # as written (a point's tuple a list)
    if len(before) != len(answers):
        print(f"the answers differ in number: {len(before)} before, {len(answers)} now")
        return 1
    differ = [(a, b) for a, b in zip(before, answers) if a != b]
    print(f"compared {len(answers)} answers: {len(answers) - len(differ)} the same, {len(differ)} differ")
    for a, b in differ[:10]:
        print(f"  {a['screen']} {a['description']!r} {a['hint']} tree={a['tree']} ask={a['ask']}:")
        print(f"    before {a['status']} {a['point']} n={a['n']} {a['message']!r}")
        print(f"    now    {b['status']} {b['point']} n={b['n']} {b['message']!r}")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="where the answers are written (JSON)")
    ap.add_argument("--compare", help="answers written before, compared with these")
    ap.add_argument("--only-compare", action="store_true",
                    help="compare --out (written before) with --compare, grounding nothing")
    ap.add_argument("--no-real", action="store_true", help="the simulated phone's screens only")
    ap.add_argument("--no-tree", action="store_true", help="vision only (no hybrid grounding)")
    args = ap.parse_args(argv)
    if args.only_compare:
        if not args.compare:
            ap.error("--only-compare needs --compare")
        return _compare(json.loads(Path(args.compare).read_text()), json.loads(Path(args.out).read_text()))

    from mobile_agent.perception import Perception

    p = Perception()
    cases = _sim_cases() + ([] if args.no_real else _real_cases())
    answers: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for screen, img, xml, desc, hint, ask in cases:
        trees = [None] if args.no_tree or xml is None else [None, xml]
        for tree in trees:
            g = p.ground_icon(img, desc, hint, choose=_first if ask else None, tree=tree)
            answers.append({"screen": screen, "description": desc, "hint": list(hint), "tree": tree is not None,
                            "ask": ask, **_answer(g)})
    took = time.perf_counter() - t0
    Path(args.out).write_text(json.dumps(answers, indent=0))
    by = Counter(a["status"] for a in answers)
    print(f"answers {len(answers)} ({len(cases)} cases on {len({c[0] for c in cases})} screens) in {took:.1f} s; "
          + ", ".join(f"{k} {v}" for k, v in sorted(by.items())))
    if args.compare:
        return _compare(json.loads(Path(args.compare).read_text()), answers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
