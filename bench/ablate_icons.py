"""How much each Click Icon rule carries: every rule switched off in turn on a folder of real screens.

    python bench/ablate_icons.py --dir REALSCREENS [--ocr-cache DIR] [--rules a,b] [--json OUT]

For each rule of ``perception/icons`` (grounding, layout, offline) the icon targets of the folder
are grounded with the rule switched off (a patch of this process only, undone after), without
and with the position hint, and compared target by target with all rules on: the targets the rule
wins (hit with it, missed without it) and loses (missed with it, hit without it), per app. The
parse (OCR, icon boxes) is the same for every run and is done once.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections import defaultdict
from typing import Any, Callable, Iterator

from PIL import Image


@contextlib.contextmanager
def _patched(obj: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


@contextlib.contextmanager
def _without_keys(table: dict, keys: Callable[[str, Any], bool]) -> Iterator[None]:
    gone = {k: v for k, v in table.items() if keys(k, v)}
    for k in gone:
        del table[k]
    try:
        yield
    finally:
        table.update(gone)


def _no_faint(crop: Any) -> Any:
    import numpy as np

    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]]).astype(np.int16)
    bg = np.median(border, axis=0)
    dist = np.abs(crop.astype(np.int16) - bg).max(axis=2)
    thr = max(40, int(int(dist.max()) * 0.45))
    return (dist >= thr).astype(np.uint8) * 255


def rules() -> dict[str, Callable[[], Any]]:
    """Rule name -> a context manager that switches it off."""
    from mobile_agent.perception.icons import grounding, layout, offline

    material_words = ("flashlight", "torch", "place", "places", "unfold_less", "unfold_more")
    return {
        "text_controls": lambda: _patched(grounding, "text_controls", lambda *a, **k: []),
        "labelled_controls": lambda: _patched(grounding, "labelled_controls", lambda *a, **k: []),
        "selection_control": lambda: _patched(grounding, "selection_control", lambda *a, **k: None),
        "floating_buttons": lambda: _patched(layout, "floating_buttons", lambda rgb, boxes, lines=(): [False] * len(boxes)),
        "layout_priors": lambda: _patched(layout, "layout_priors", lambda fams, boxes, *a, **k: [0.0] * len(boxes)),
        "framework_prior": lambda: _patched(layout, "framework_prior", lambda d, boxes, *a, **k: [0.0] * len(boxes)),
        "app_actions": lambda: _patched(layout, "app_actions", lambda *a, **k: []),
        "badged_glyphs": lambda: _patched(offline, "badged_glyphs", lambda d: []),
        "material_names": lambda: _stack(
            _without_keys(offline.VOCABULARY, lambda k, v: k in material_words),
            _without_keys(offline._PHRASES, lambda k, v: v in material_words)),
        "tabs": lambda: _stack(_without_keys(offline.VOCABULARY, lambda k, v: k == "tabs"),
                               _without_keys(offline._PHRASES, lambda k, v: v == "tabs")),
        "tile_score": lambda: _patched(offline, "tile_score", lambda *a, **k: 0.0),
        "scrim_glyphs": lambda: _patched(offline, "_ink_box", _no_faint),
        "keyboard": lambda: _patched(layout, "keyboard_top", lambda *a, **k: None),
    }


@contextlib.contextmanager
def _stack(*cms: Any) -> Iterator[None]:
    with contextlib.ExitStack() as st:
        for cm in cms:
            st.enter_context(cm)
        yield


def measure(folder: Any, perception: Any) -> dict[tuple[str, int], tuple[bool, bool, str]]:
    """(screen, target index) -> (hit without the hint, hit with it, app) for every icon target."""
    from mobile_agent.screensets.realscreens import _inside, third_hint

    out = {}
    for s in folder.screens:
        with Image.open(s.image) as im:
            img = im.convert("RGB")
        for k, tg in enumerate(s.targets):
            if tg.kind != "icon":
                continue
            g = perception.ground_icon(img, tg.target)
            gh = perception.ground_icon(img, tg.target, third_hint(tg.box, s.width, s.height))
            out[(s.name, k)] = (g.status == "found" and _inside(g.chosen, tg.box),
                                gh.status == "found" and _inside(gh.chosen, tg.box), s.app, tg.target)
    return out


def main(argv: list[str] | None = None) -> int:
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr
    from mobile_agent.screensets.measure import CachedOcr
    from mobile_agent.screensets.realscreens import load_folder, split_half

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--ocr-cache")
    ap.add_argument("--rules", help="comma-separated rules (default: all)")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    folder = load_folder(a.dir, absent_per_screen=0)
    perception = Perception(ocr=CachedOcr(make_ocr("rapidocr"), a.ocr_cache) if a.ocr_cache else "rapidocr")
    table = rules()
    chosen = a.rules.split(",") if a.rules else list(table)
    base = measure(folder, perception)
    n = len(base)
    nh, hh = sum(v[0] for v in base.values()), sum(v[1] for v in base.values())
    print(f"all rules on: no hint {nh}/{n}, hint {hh}/{n}")
    report: dict[str, Any] = {"all": {"nohint": nh, "hint": hh, "total": n}}
    for name in chosen:
        with table[name]():
            off = measure(folder, perception)
        row: dict[str, Any] = {"nohint": sum(v[0] for v in off.values()), "hint": sum(v[1] for v in off.values())}
        for i, fig in ((0, "nohint"), (1, "hint")):
            wins: dict[str, list[str]] = defaultdict(list)
            losses: dict[str, list[str]] = defaultdict(list)
            for key, v in base.items():
                if v[i] and not off[key][i]:
                    wins[v[2]].append(v[3])
                elif off[key][i] and not v[i]:
                    losses[v[2]].append(v[3])
            row[f"{fig}_wins"] = dict(wins)
            row[f"{fig}_losses"] = dict(losses)
        report[name] = row
        apps = sorted(set(row["nohint_wins"]) | set(row["hint_wins"]))
        halves = sorted({split_half(x) for x in apps})
        print(f"{name} off: no hint {row['nohint']}/{n} ({row['nohint'] - nh:+d}), hint {row['hint']}/{n} "
              f"({row['hint'] - hh:+d}); wins on {len(apps)} app(s) {apps} halves {halves}")
        for fig in ("nohint", "hint"):
            for kind in ("wins", "losses"):
                for app, ts in sorted(row[f"{fig}_{kind}"].items()):
                    print(f"    {fig} {kind[:-1]}: {app}: {ts}")
        sys.stdout.flush()
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
