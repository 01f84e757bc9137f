"""Click Icon figures: icon detected at all, top-1 without a position hint, top-1 with the hint,
any candidate inside (with the hint). Prints figures; asserts nothing.

    python bench/bench_icons.py [--set NAME] [--screens N] [--seed 0] [--dark] [--cache DIR] [--misses]
                                [--hybrid] [--detect-time]

NAME: a set of the screen sets' registry (``mobile_agent.screensets.registry``) with icon targets.
sim and wide: the simulated phone's screens (120); targets are the clickable nodes without text
that have a content-desc (the tree is the ground truth). heldout: the held-out icon set
(``mobile_agent.screensets.icon_heldout``, 60 screens laid out as real apps lay them out, drawn with icon
fonts the matcher neither uses nor was developed against); targets are its icons whose family is
unique on their screen, the hit box their 48 dp touch target; the run says whether the screens are
the frozen set (seed 0, 60 screens). heldout2: the second held-out set
(``mobile_agent.screensets.icon_heldout_v2``: thin-stroke Tabler icons, real photos, icons on photos,
pills and gradients, low contrast, badges; needs the test extra), measured the same way. material: the
Material-styles set (``mobile_agent.screensets.icon_material``: toolbars drawn with Material Symbols
Rounded and Sharp, styles the matcher does not take as references, at 1080x2400 and 720x1600, light
and dark, status bars of 24-52 dp, gesture or three-button navigation), measured the same way, with
its figures also by description. iconstress: the icon stress set (``mobile_agent.screensets.icon_stress``:
what real apps' screens do to icons, Lucide icons, one phenomenon per target), measured the same way,
with its figures also by phenomenon. Every drawn icon set's figures come also by description
(``icon_heldout.run_icons``, which ``mobile-agent bench perception --set NAME`` prints too). The position hint is what a planner would say of where the node is
(``mobile_agent.screensets.measure.position_hint``, as the perception benchmark uses it).

OCR is the slow part and does not change with icon work, so ``--cache DIR`` keeps each screen's
OCR lines there (``mobile_agent.screensets.measure.CachedOcr``, as ``bench perception --ocr-cache``)
and the next run only detects and matches icons.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mobile_agent.screensets import registry
from mobile_agent.screensets.icon_heldout import miss_line

ICON_KINDS = ("icon", "both")  # the registry's sets with icon targets


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / max(1, n):.1f}% ({k}/{n})"


def _detect_time(p: Any, images: list[Any]) -> int:
    """Median icon detection time per screen (``ParseResult.timings['icons']``): each screen is
    parsed twice, the second parse timed (its OCR lines come from the cache either way)."""
    import statistics

    times = []
    for img in images:
        p.parse(img, icons=True)
        p.clear_cache()
        times.append(p.parse(img, icons=True).timings["icons"])
        p.clear_cache()
    print(f"icon detection, median per screen over {len(times)} screens: {statistics.median(times):.3f} s "
          f"(quartiles {statistics.quantiles(times, n=4)[0]:.3f}-{statistics.quantiles(times, n=4)[2]:.3f} s)")
    return 0


def _match_time(p: Any, screens: list[tuple[Any, list[str]]]) -> int:
    """Median time of one Click Icon grounding (shape matching and priors; the screen's parse is done
    before the clock starts), and of a screen's groundings together."""
    import statistics
    import time

    calls, per_screen = [], []
    for img, descriptions in screens:
        if not descriptions:
            continue
        p.parse(img, icons=True)
        total = 0.0
        for d in descriptions:
            t0 = time.perf_counter()
            p.ground_icon(img, d)
            dt = time.perf_counter() - t0
            calls.append(dt)
            total += dt
        per_screen.append(total)
        p.clear_cache()
    print(f"Click Icon matching, median per grounding over {len(calls)} groundings: {statistics.median(calls):.4f} s; "
          f"per screen ({len(per_screen)} screens, all its targets): {statistics.median(per_screen):.3f} s")
    return 0


def _perception(args: argparse.Namespace, ocr: Any) -> Any:
    """The Perception a run measures: the default one, or with the reference sets ``--ref-sets``
    names, the framework prior's ``--framework-weight``."""
    from mobile_agent.perception import Perception
    from mobile_agent.perception.icons.offline import OfflineIconMatcher

    p = Perception(ocr=ocr, incremental=False)
    if args.ref_sets is not None:
        p.matcher = OfflineIconMatcher(sets=args.ref_sets)
    if args.framework_weight is not None:
        p.framework_weight = args.framework_weight
    return p


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--screens", type=int, default=None,
                    help="default: the set's own count (120 of the phone's screens; a drawn set's frozen count)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dark", action="store_true")
    ap.add_argument("--cache", type=Path, default=None, help="folder for OCR lines kept between runs")
    ap.add_argument("--misses", action="store_true", help="print each miss")
    ap.add_argument("--hybrid", action="store_true", help="also ground with the screen's accessibility tree")
    ap.add_argument("--detect-time", action="store_true",
                    help="only time icon detection (each screen detected twice, the second timed; OCR from "
                         "--cache) and print the median per screen")
    ap.add_argument("--set", dest="screen_set", choices=registry.names(ICON_KINDS), default="sim",
                    help=registry.help_text(ICON_KINDS, folders=False)
                    + " A folder of real screens: mobile-agent bench perception --set dir:PATH.")
    ap.add_argument("--match-time", action="store_true",
                    help="only time Click Icon's matching: each screen parsed first, then each target's "
                         "ground_icon (no hint) timed; prints the median per call and per screen")
    ap.add_argument("--ref-sets", type=int, default=None, choices=(1, 2, 3, 4),
                    help="the offline matcher's reference sets (default 4; 3: without Material Symbols Outlined, "
                         "as before it was added), to measure before and after side by side")
    ap.add_argument("--framework-weight", type=float, default=None,
                    help="weight of the framework place prior (Navigate up, More options; default the "
                         "Perception's, 0 turns it off)")
    args = ap.parse_args(argv)
    chosen = registry.get(args.screen_set, ICON_KINDS)
    if chosen.truth != "tree":
        if args.hybrid:
            ap.error(f"--hybrid needs an accessibility tree: the {chosen.title} has none")
        return heldout(args, chosen)
    args.screens = args.screens or chosen.default_count()

    import mobile_agent.screensets.measure as bp
    from mobile_agent.screensets.icon_heldout import format_four
    from mobile_agent.screensets.measure import CachedOcr, _text_is_drawn, position_hint

    # Keep each screen's XML beside the nodes the collector parses from it (for --hybrid).
    xml_of: list[tuple[Any, str]] = []
    parse = bp.parse_tree

    def keep(xml: str, w: int, h: int) -> Any:
        nodes = parse(xml, w, h)
        xml_of.append((nodes, xml))
        return nodes

    bp.parse_tree = keep
    if chosen.module != "measure":  # the wide set reads its trees with its own name
        setattr(chosen.code(), "parse_tree", keep)
    from mobile_agent.perception.ocr import make_ocr

    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    screens = chosen.load(seed=args.seed, count=args.screens, dark=args.dark)
    p = _perception(args, CachedOcr(make_ocr("rapidocr"), args.cache))
    if args.detect_time:
        return _detect_time(p, [s.image for s in screens])
    if args.match_time:
        return _match_time(p, [(s.image, [n.desc for n in s.nodes if n.clickable and n.desc and not n.text])
                               for s in screens])
    n = detected = top1 = top1_hint = any_hint = 0
    tree_top1 = tree_top1_hint = 0
    misses: list[str] = []
    for s in screens:
        w, h = s.image.size
        res = p.parse(s.image, icons=True)
        icons = res.icons or []
        for node in s.nodes:
            if not node.clickable or (node.text and _text_is_drawn(node)) or node.has_text_below or not node.desc:
                continue
            n += 1
            c = node.box.center
            det = any(ib.box.contains_point(c) for ib in icons)
            detected += det
            g = p.ground_icon(s.image, node.desc)
            ok = g.status == "found" and g.chosen is not None and node.box.contains_point(g.chosen.point)
            top1 += ok
            hint = position_hint(node.box, w, h)
            gh = p.ground_icon(s.image, node.desc, hint)
            okh = gh.status == "found" and gh.chosen is not None and node.box.contains_point(gh.chosen.point)
            top1_hint += okh
            anyh = any(node.box.contains_point(cand.point) for cand in gh.candidates)
            any_hint += anyh
            if args.hybrid:
                xml = next(x for nodes, x in xml_of if nodes is s.nodes)
                gt = p.ground_icon(s.image, node.desc, tree=xml)
                tree_top1 += gt.status == "found" and node.box.contains_point(gt.chosen.point)
                gt = p.ground_icon(s.image, node.desc, hint, tree=xml)
                tree_top1_hint += gt.status == "found" and node.box.contains_point(gt.chosen.point)
            if not ok or not okh:
                misses.append(miss_line(f"{s.name}: {node.desc!r} {hint} node {node.box.as_tuple()}", g, gh, det))

    print(f"screens {len(screens)}, icon targets with a content-desc {n}")
    print("\n".join(format_four(n, detected, top1, top1_hint, any_hint)))
    if args.hybrid:
        print(f"hybrid (tree) top-1, no hint:       {_pct(tree_top1, n)}")
        print(f"hybrid (tree) top-1, with the hint: {_pct(tree_top1_hint, n)}")
    if args.misses:
        for m in misses:
            print("  miss", m)
    return 0


def heldout(args: argparse.Namespace, chosen: Any) -> int:
    """An icon set with its own targets (the held-out sets, icon stress, Material styles)."""
    from mobile_agent.errors import ConfigError
    from mobile_agent.perception.ocr import make_ocr
    from mobile_agent.screensets.icon_heldout import format_icons, run_icons
    from mobile_agent.screensets.measure import CachedOcr

    try:
        screens = chosen.load(seed=args.seed, count=args.screens)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    p = _perception(args, CachedOcr(make_ocr("rapidocr"), args.cache))
    if args.detect_time:
        return _detect_time(p, [s.image for s in screens])
    if args.match_time:
        return _match_time(p, [(s.image, [t.description for t in s.targets]) for s in screens])
    d = run_icons(screens, p)
    d.update(title=chosen.title, seed=args.seed, digest=chosen.digest(screens),
             frozen=chosen.is_frozen_set(screens, args.seed))
    print("\n".join(format_icons(d, by_description=True)))
    if args.misses:
        for m in d["misses"]:
            print("  miss", m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
