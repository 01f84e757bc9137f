"""Click Icon figures: icon detected at all, top-1 without a position hint, top-1 with the hint,
any candidate inside (with the hint). Prints figures; asserts nothing.

    python bench/bench_icons.py [--set sim|wide|heldout|heldout2|material|iconstress] [--screens N] [--seed 0] [--dark] [--cache DIR] [--misses] [--hybrid] [--detect-time]

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
with its figures also by phenomenon and by description. The position hint is what a planner would say of where the node is
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


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / max(1, n):.1f}% ({k}/{n})"


def _miss(target: str, g, gh, detected: bool) -> str:
    """One miss line: the target, where grounding tapped without and with the hint, detection."""
    return (f"{target} -> {g.point and g.point.as_tuple()} / hint {gh.point and gh.point.as_tuple()}"
            f"{'' if detected else ' (not detected)'}")


def _print_four(n: int, detected: int, top1: int, top1_hint: int, any_hint: int) -> None:
    """The issue's four icon figures, in the same words for every set."""
    print(f"icon detected at all:              {_pct(detected, n)}")
    print(f"Click Icon top-1, no position hint: {_pct(top1, n)}")
    print(f"Click Icon top-1, with the hint:    {_pct(top1_hint, n)}")
    print(f"any candidate inside (with hint):   {_pct(any_hint, n)}")


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
    names, the framework prior's ``--framework-weight`` and ``--no-own-place``."""
    from mobile_agent.perception import Perception
    from mobile_agent.perception.icons.offline import OfflineIconMatcher

    p = Perception(ocr=ocr, incremental=False)
    if args.ref_sets is not None:
        p.matcher = OfflineIconMatcher(sets=args.ref_sets)
    if args.framework_weight is not None:
        p.framework_weight = args.framework_weight
    if args.no_own_place:
        p.own_place = False
    return p


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--screens", type=int, default=None, help="default: 120 (sim, wide), 60 (heldout)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dark", action="store_true")
    ap.add_argument("--cache", type=Path, default=None, help="folder for OCR lines kept between runs")
    ap.add_argument("--misses", action="store_true", help="print each miss")
    ap.add_argument("--hybrid", action="store_true", help="also ground with the screen's accessibility tree")
    ap.add_argument("--detect-time", action="store_true",
                    help="only time icon detection (each screen detected twice, the second timed; OCR from "
                         "--cache) and print the median per screen")
    ap.add_argument("--set", dest="screen_set", choices=("sim", "wide", "heldout", "heldout2", "material", "iconstress"),
                    default="sim",
                    help="sim: the simulated phone's own look; wide: the same screens in other looks; "
                         "heldout: the held-out icon set; heldout2: the second, harder held-out set (thin-stroke "
                         "Tabler icons, real photos); material: Material Symbols Rounded and Sharp toolbars; iconstress: what "
                         "real apps do to icons (Lucide), figures by phenomenon")
    ap.add_argument("--match-time", action="store_true",
                    help="only time Click Icon's matching: each screen parsed first, then each target's "
                         "ground_icon (no hint) timed; prints the median per call and per screen")
    ap.add_argument("--ref-sets", type=int, default=None, choices=(1, 2, 3, 4),
                    help="the offline matcher's reference sets (default 4; 3: without Material Symbols Outlined, "
                         "as before it was added), to measure before and after side by side")
    ap.add_argument("--framework-weight", type=float, default=None,
                    help="weight of the framework place prior (Navigate up, More options; default the "
                         "Perception's, 0 turns it off)")
    ap.add_argument("--no-own-place", action="store_true",
                    help="without the place prior for the user's own picture (the top bar's end, a bottom "
                         "navigation's last tab), to measure before and after side by side")
    args = ap.parse_args(argv)
    if args.screen_set in ("heldout", "heldout2", "material", "iconstress"):
        if args.hybrid:
            ap.error("--hybrid needs an accessibility tree: the held-out set has none")
        return heldout(args)
    args.screens = args.screens or 120

    import mobile_agent.screensets.measure as bp
    from mobile_agent.screensets.measure import CachedOcr, _text_is_drawn, collect_sim_screens, position_hint

    # Keep each screen's XML beside the nodes the collector parses from it (for --hybrid).
    xml_of: list[tuple[Any, str]] = []
    parse = bp.parse_tree

    def keep(xml: str, w: int, h: int) -> Any:
        nodes = parse(xml, w, h)
        xml_of.append((nodes, xml))
        return nodes

    bp.parse_tree = keep
    if args.screen_set == "wide":
        import mobile_agent.screensets.wide as wide

        wide.parse_tree = keep
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr

    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    if args.screen_set == "wide":
        screens = wide.collect_wide_screens(seed=args.seed, max_screens=args.screens)
    else:
        screens = collect_sim_screens(seed=args.seed, max_screens=args.screens, dark=args.dark)
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
                misses.append(_miss(f"{s.name}: {node.desc!r} {hint} node {node.box.as_tuple()}", g, gh, det))

    print(f"screens {len(screens)}, icon targets with a content-desc {n}")
    _print_four(n, detected, top1, top1_hint, any_hint)
    if args.hybrid:
        print(f"hybrid (tree) top-1, no hint:       {_pct(tree_top1, n)}")
        print(f"hybrid (tree) top-1, with the hint: {_pct(tree_top1_hint, n)}")
    if args.misses:
        for m in misses:
            print("  miss", m)
    return 0


def heldout(args: argparse.Namespace) -> int:
    if args.screen_set == "heldout2":
        from mobile_agent.screensets import icon_heldout_v2 as ho
    elif args.screen_set == "material":
        from mobile_agent.screensets import icon_material as ho  # type: ignore[no-redef]
    elif args.screen_set == "iconstress":
        from mobile_agent.screensets import icon_stress as ho  # type: ignore[no-redef]
    else:
        from mobile_agent.screensets import icon_heldout as ho  # type: ignore[no-redef]
    from mobile_agent.screensets.measure import CachedOcr, position_hint
    from mobile_agent.errors import ConfigError
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr

    count = args.screens or ho.SCREENS
    try:
        if args.screen_set == "material":
            screens = ho.material_screens(seed=args.seed, count=count)  # type: ignore[attr-defined]
        elif args.screen_set == "iconstress":
            screens = ho.stress_screens(seed=args.seed, count=count)  # type: ignore[attr-defined]
        else:
            screens = ho.heldout_screens(seed=args.seed, count=count)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    digest = ho.set_digest(screens)
    frozen = args.seed == ho.SEED and count == ho.SCREENS and digest == ho.FROZEN_SHA256
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    p = _perception(args, CachedOcr(make_ocr("rapidocr"), args.cache))
    if args.detect_time:
        return _detect_time(p, [s.image for s in screens])
    if args.match_time:
        return _match_time(p, [(s.image, [t.description for t in s.targets]) for s in screens])
    n = detected = top1 = top1_hint = any_hint = 0
    by_family: dict[str, list[int]] = {}
    by_words: dict[str, list[int]] = {}
    by_phen: dict[str, list[int]] = {}  # phenomenon -> targets, detected, top-1, top-1 hint, any
    misses: list[str] = []
    for s in screens:
        w, h = s.image.size
        icons = p.parse(s.image, icons=True).icons or []
        for t in s.targets:
            n += 1
            det = any(t.box.contains_point(ib.box.center) or ib.box.contains_point(t.box.center) for ib in icons)
            detected += det
            g = p.ground_icon(s.image, t.description)
            ok = g.status == "found" and g.chosen is not None and t.box.contains_point(g.chosen.point)
            hint = position_hint(t.box, w, h)
            gh = p.ground_icon(s.image, t.description, hint)
            okh = gh.status == "found" and gh.chosen is not None and t.box.contains_point(gh.chosen.point)
            anyh = any(t.box.contains_point(c.point) for c in gh.candidates)
            top1 += ok
            top1_hint += okh
            any_hint += anyh
            f = by_family.setdefault(t.family, [0, 0, 0])
            f[0] += 1
            f[1] += ok
            f[2] += okh
            f = by_words.setdefault(t.description, [0, 0, 0])
            f[0] += 1
            f[1] += ok
            f[2] += okh
            ph = getattr(t, "phenomenon", None)
            if ph is not None:
                f = by_phen.setdefault(ph, [0, 0, 0, 0, 0])
                for k, v in enumerate((1, det, ok, okh, anyh)):
                    f[k] += v
            if not ok or not okh:
                misses.append(_miss(f"{s.name} [{s.look}]: {t.description!r} {hint} box {t.box.as_tuple()}"
                                    f"{' (' + t.phenomenon + ')' if hasattr(t, 'phenomenon') else ''}", g, gh, det))

    which = {"heldout2": "second held-out icon set (v2)", "material": "Material-styles icon set",
             "iconstress": "icon stress set"}.get(
        args.screen_set, "held-out icon set")
    print(f"{which}, seed {args.seed}: screens {len(screens)}, icon targets {n}; set sha256 {digest[:16]}"
          f" ({'the frozen set' if frozen else 'NOT the frozen set'})")
    _print_four(n, detected, top1, top1_hint, any_hint)
    print("by family (targets: top-1 no hint / with hint): " + ", ".join(
        f"{fam} {v[0]}: {v[1]}/{v[2]}" for fam, v in sorted(by_family.items(), key=lambda kv: -kv[1][0])))
    if by_phen:
        print("by phenomenon (targets: detected / top-1 no hint / top-1 with hint / any candidate):")
        for ph, v in sorted(by_phen.items(), key=lambda kv: -kv[1][0]):
            print(f"  {ph:26s} {v[0]:3d}: {v[1]:3d} / {v[2]:3d} / {v[3]:3d} / {v[4]:3d}")
    if args.screen_set in ("material", "iconstress"):
        print("by description (targets: top-1 no hint / with hint): " + ", ".join(
            f"{d!r} {v[0]}: {v[1]}/{v[2]}" for d, v in sorted(by_words.items(), key=lambda kv: -kv[1][0])))
    if args.misses:
        for m in misses:
            print("  miss", m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
