"""Perception figures on a folder of real screenshots with their uiautomator dumps.

A folder holds screenshots (``*.png`` / ``*.jpg``, in the folder or in ``img/``) and, for each, its
view tree as a uiautomator dump of the same name (``*.xml``, beside it or in ``xml/``). Its targets
come from ``manifest.jsonl`` where there is one (one target a line: ``image``, ``xml``, ``app``,
``kind`` text|icon, ``target``, ``bbox``), else from the dumps by the same rules
(:func:`derive_targets`):

- text: a leaf node whose text is unique on its screen, 2-40 characters on one line, its box under
  a quarter of the screen (status bar and keyboard left out);
- icon: a clickable node with a content-desc of 2-40 characters and no text in or below it,
  40-300 px on each side.

A target is hit when the point perception answers lies inside its box. Every figure goes through
the public API: ``Perception().ground_text`` / ``ground_icon``, the hint being the third of the
screen the target's centre lies in (:func:`third_hint`). Texts that are not on a screen (other
screens' labels of the same app, :func:`absent_texts`) are asked for too: the right answer is none.

Bad input (a dump that does not parse, a screenshot without its dump, a manifest line that does not
read or whose box lies outside the picture) is reported as one line naming the file; the rest of the
folder is still measured.
"""

from __future__ import annotations

import hashlib
import json
import statistics
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from PIL import Image

from mobile_agent.types import Box

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
_SKIP_PACKAGES = ("com.android.systemui",)
_KEYBOARD_MARKS = ("inputmethod", "keyboard", "honeyboard")

#: The figures of a real folder, in the order they are printed: key -> label.
FIGURES: dict[str, str] = {
    "text_first": "Click Text, first point inside the target's node",
    "text_shown": "Click Text, first point, of the targets the picture shows (none under the keyboard it shows or a view the dump draws over them)",
    "text_choice": "Click Text, with the planner choosing among marks",
    "text_original": "the original Mobile-Agent's line matching, first point",
    "absent_none": "texts not on the screen answered none",
    "icon_nohint": "Click Icon, top-1, no position hint",
    "icon_hint": "Click Icon, top-1, with the position hint",
    "icon_any": "Click Icon, any candidate inside (with the hint)",
    "icon_detected": "Click Icon target detected at all (an icon box holds its centre)",
    "icon_absent_low": "icons not on the screen answered none or with low confidence (under 0.75, or ambiguous)",
}

#: The score under which a Click Icon answer is a low-confidence one: a weak shape match (0.3-0.5 on
#: real screens) and a control found by its words (0.75) are under it or at it; a glyph that matches
#: its description (0.8 and more) or a place the framework fixes (above 1) is over it.
ICON_CONFIDENT = 0.75


@dataclass(frozen=True)
class Target:
    """One grounding target: ``kind`` text or icon, what is asked for, and the box a hit lies in."""

    kind: str
    target: str
    box: Box


@dataclass
class RealScreen:
    """A screenshot of a real folder with its dump and targets."""

    name: str
    app: str
    image: Path
    xml: Path
    width: int
    height: int
    targets: list[Target] = field(default_factory=list)
    labels: set[str] = field(default_factory=set)  # every text and content-desc of the dump, normalised
    absent: list[str] = field(default_factory=list)  # texts not on this screen (see absent_texts)
    absent_icons: list[str] = field(default_factory=list)  # icons not on this screen (see absent_icons)


@dataclass
class RealFolder:
    root: Path
    screens: list[RealScreen]
    problems: list[str]  # one line each, naming the file
    derived: bool  # targets derived from the dumps (no manifest.jsonl)


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def third_hint(box: Box, width: int, height: int) -> tuple[str, ...]:
    """The position hint of a target: the third of the screen its box's centre lies in, vertically
    (top / center / bottom) then horizontally (left / center / right), ``center`` said once:
    ``("top", "left")``, ``("center", "right")``, ``("bottom", "center")``, ``("center",)``."""
    c = box.center
    fx, fy = c.x / max(1, width), c.y / max(1, height)
    v = "top" if fy < 1 / 3 else "bottom" if fy >= 2 / 3 else "center"
    h = "left" if fx < 1 / 3 else "right" if fx >= 2 / 3 else "center"
    return (v,) if v == h else (v, h)


@dataclass
class _DumpNode:
    text: str
    desc: str
    box: Box
    clickable: bool
    package: str
    leaf: bool
    text_below: bool


def read_dump(xml: bytes | str) -> list[_DumpNode]:
    """The nodes of a uiautomator dump (pre-order). Raises ``ValueError`` when it is no dump."""
    try:
        root = ET.fromstring(xml.encode("utf-8") if isinstance(xml, str) else xml)
    except ET.ParseError as exc:
        raise ValueError(f"not XML ({exc})") from None
    if root.tag not in ("hierarchy", "node"):
        raise ValueError(f"not a uiautomator dump (root element <{root.tag}>)")
    out: list[_DumpNode] = []

    def walk(el: ET.Element) -> bool:
        children = el.findall("node")
        idx = len(out)
        if el.tag == "node":
            try:
                box = Box.from_bounds(el.get("bounds", ""))
            except ValueError:
                box = Box(0, 0, 0, 0)
            out.append(_DumpNode((el.get("text") or "").strip(), (el.get("content-desc") or "").strip(), box,
                                 el.get("clickable") == "true", el.get("package") or "", not children, False))
        below = False
        for ch in children:
            below = walk(ch) or below
        if el.tag == "node":
            out[idx].text_below = below
            return below or bool(out[idx].text)
        return below

    walk(root)
    return out


def derive_targets(nodes: Sequence[_DumpNode], width: int, height: int) -> list[Target]:
    """Targets by the folder rules (module docstring) from a dump's nodes."""
    screen = Box(0, 0, width, height)
    counts: dict[str, int] = {}
    for n in nodes:
        if n.text:
            counts[n.text] = counts.get(n.text, 0) + 1
    out: list[Target] = []
    for n in nodes:
        if n.package in _SKIP_PACKAGES or any(m in n.package.lower() for m in _KEYBOARD_MARKS):
            continue
        box = n.box.intersect(screen)
        if box.is_empty():
            continue
        if (n.leaf and n.text and counts[n.text] == 1 and 2 <= len(n.text) <= 40 and "\n" not in n.text
                and box.area < width * height / 4):
            out.append(Target("text", n.text, box))
        elif (n.clickable and n.desc and not n.text and not n.text_below and 2 <= len(n.desc) <= 40
              and 40 <= box.width <= 300 and 40 <= box.height <= 300):
            out.append(Target("icon", n.desc, box))
    return out


def _targets_by_app(screens: Sequence[RealScreen], kind: str) -> dict[str, list[str]]:
    """Each app's targets of ``kind`` over its screens, once each, in the order first seen."""
    by_app: dict[str, list[str]] = {}
    for s in screens:
        for t in s.targets:
            if t.kind == kind and t.target not in by_app.setdefault(s.app, []):
                by_app[s.app].append(t.target)
    return by_app


def absent_texts(screens: Sequence[RealScreen], per_screen: int = 3) -> None:
    """Give each screen up to ``per_screen`` texts that are not on it: text targets of the same
    app's other screens that no text or content-desc of its dump holds or is held by (case folded).
    The choice is fixed (by a hash of screen and text), so that runs compare."""
    by_app = _targets_by_app(screens, "text")
    for s in screens:
        pool = []
        for text in by_app.get(s.app, []):
            k = _norm(text)
            if len(k) < 3 or any(k in lab or lab in k for lab in s.labels if lab):
                continue
            pool.append(text)
        pool.sort(key=lambda t: hashlib.sha256(f"{s.name}\0{t}".encode()).hexdigest())
        s.absent = pool[:per_screen]


def absent_icons(screens: Sequence[RealScreen], per_screen: int = 3) -> None:
    """Give each screen up to ``per_screen`` icon descriptions that are not on it: icon targets of
    the same app's other screens that no text or content-desc of its dump holds or is held by (case
    folded), and whose glyph family (``icons.offline.description_families``: "Navigate up" and
    "Back" are one) none of its dump's descriptions names either, so that no icon of the screen is
    a fair answer. The choice is fixed (by a hash of screen and description), so that runs compare."""
    from mobile_agent.perception.icons.lexicon import description_families

    by_app = _targets_by_app(screens, "icon")
    for s in screens:
        here: set[str] = set()
        for lab in s.labels:
            here |= description_families(lab)
        pool = []
        for desc in by_app.get(s.app, []):
            k = _norm(desc)
            if len(k) < 2 or any(k in lab or lab in k for lab in s.labels if lab) or description_families(desc) & here:
                continue
            pool.append(desc)
        pool.sort(key=lambda t: hashlib.sha256(f"{s.name}\0icon\0{t}".encode()).hexdigest())
        s.absent_icons = pool[:per_screen]


def _image_size(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        return im.size


def _app_of(nodes: Sequence[_DumpNode], stem: str) -> str:
    for n in nodes:
        if n.package and n.package not in _SKIP_PACKAGES:
            return n.package
    return stem.split("__")[0]


def load_folder(path: str | Path, absent_per_screen: int = 3) -> RealFolder:
    """Read a real folder (module docstring). Raises ``FileNotFoundError`` when ``path`` is no
    folder or holds no screenshot; every other fault is a line of ``problems``."""
    root = Path(path)
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such folder")
    problems: list[str] = []
    manifest = root / "manifest.jsonl"
    screens: dict[str, RealScreen] = {}
    bad: set[str] = set()

    def screen_for(img_rel: str, xml_rel: str | None, app: str | None) -> RealScreen | None:
        if img_rel in screens:
            return screens[img_rel]
        if img_rel in bad:
            return None
        img = root / img_rel
        xml = root / xml_rel if xml_rel else _dump_for(root, img)
        try:
            w, h = _image_size(img)
        except FileNotFoundError:
            problems.append(f"{img}: no such screenshot")
            bad.add(img_rel)
            return None
        except (OSError, Image.DecompressionBombError) as exc:
            problems.append(f"{img}: not an image ({exc})")
            bad.add(img_rel)
            return None
        if xml is None or not xml.is_file():
            problems.append(f"{img}: screenshot without its uiautomator dump"
                            + (f" ({xml} is missing)" if xml is not None else ""))
            bad.add(img_rel)
            return None
        try:
            nodes = read_dump(xml.read_bytes())
        except (ValueError, OSError) as exc:
            problems.append(f"{xml}: dump does not parse: {exc}")
            bad.add(img_rel)
            return None
        s = RealScreen(img.stem, app or _app_of(nodes, img.stem), img, xml, w, h,
                       labels={_norm(x) for n in nodes for x in (n.text, n.desc) if x})
        s._nodes = nodes  # type: ignore[attr-defined]
        screens[img_rel] = s
        return s

    if manifest.is_file():
        for no, line in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
                img_rel, kind, target = str(d["image"]), str(d["kind"]), str(d["target"])
                x1, y1, x2, y2 = (int(v) for v in d["bbox"])
                if kind not in ("text", "icon"):
                    raise ValueError(f"kind {kind!r} is neither text nor icon")
            except (ValueError, KeyError, TypeError) as exc:
                problems.append(f"{manifest}:{no}: unreadable target line ({exc})")
                continue
            s = screen_for(img_rel, d.get("xml"), d.get("app"))
            if s is None:
                continue
            box = Box(x1, y1, x2, y2)
            if box.is_empty() or x1 < 0 or y1 < 0 or x2 > s.width or y2 > s.height:
                problems.append(f"{manifest}:{no}: box {list(box.as_tuple())} of {target!r} lies outside "
                                f"the {s.width}x{s.height} picture {img_rel}")
                continue
            s.targets.append(Target(kind, target, box))
        derived = False
    else:
        imgs = sorted(p for d in (root, root / "img") if d.is_dir() for p in d.iterdir()
                      if p.suffix.lower() in IMAGE_SUFFIXES)
        if not imgs:
            raise FileNotFoundError(f"{root}: no manifest.jsonl and no screenshot (*.png, *.jpg) in it or in img/")
        for img in imgs:
            s = screen_for(str(img.relative_to(root)), None, None)
            if s is not None:
                s.targets = derive_targets(s._nodes, s.width, s.height)  # type: ignore[attr-defined]
        derived = True
    out = list(screens.values())
    for s in out:
        del s._nodes  # type: ignore[attr-defined]
    if absent_per_screen:
        absent_texts(out, absent_per_screen)
        absent_icons(out, absent_per_screen)
    return RealFolder(root, out, problems, derived)


def _dump_for(root: Path, img: Path) -> Path | None:
    for cand in (img.with_suffix(".xml"), img.parent.parent / "xml" / f"{img.stem}.xml", root / "xml" / f"{img.stem}.xml"):
        if cand.is_file():
            return cand
    return img.with_suffix(".xml")


def split_half(app: str) -> str:
    """The half of the apps an app belongs to ("A" or "B", fixed by a hash of its name): tune on
    one, check on the other."""
    return "AB"[hashlib.sha256(app.encode("utf-8")).digest()[0] % 2]


@dataclass
class RealResult:
    """Hits and totals by figure (:data:`FIGURES`), overall, per app and per half; misses; times."""

    screens: int = 0
    problems: list[str] = field(default_factory=list)
    tally: dict[str, dict[str, list[int]]] = field(default_factory=dict)  # group -> figure -> [hit, total]
    misses: list[str] = field(default_factory=list)
    parse_s: list[float] = field(default_factory=list)
    reference_pairs: list[tuple[float, float]] = field(default_factory=list)
    icon_wording: str = "own"
    unworded: int = 0  # icon targets (and absent icons) the paraphrase table holds no wording for

    def count(self, app: str, key: str, hit: bool) -> None:
        for group in ("all", f"half {split_half(app)}", f"app {app}"):
            v = self.tally.setdefault(group, {}).setdefault(key, [0, 0])
            v[0] += bool(hit)
            v[1] += 1

    def to_dict(self) -> dict[str, Any]:
        def fig(v: list[int]) -> dict[str, Any]:
            return {"share": round(v[0] / v[1], 4) if v[1] else None, "hit": v[0], "total": v[1]}

        groups = {g: {k: fig(t[k]) for k in FIGURES if k in t} for g, t in self.tally.items()}
        d: dict[str, Any] = {
            "screens": self.screens,
            "problems": self.problems,
            "figures": groups.get("all", {}),
            "halves": {g[5:]: v for g, v in sorted(groups.items()) if g.startswith("half ")},
            "apps": {g[4:]: v for g, v in sorted(groups.items()) if g.startswith("app ")},
            "misses": self.misses,
            "icon_wording": self.icon_wording,
        }
        if self.icon_wording != "own":
            d["unworded"] = self.unworded
        if self.parse_s:
            d["parse_s_median"] = round(statistics.median(self.parse_s), 4)
        if self.reference_pairs:
            d["reference"] = {
                "parse_s_median": round(statistics.median(a for a, _ in self.reference_pairs), 4),
                "reference_s_median": round(statistics.median(b for _, b in self.reference_pairs), 4),
                "median_of_ratios": round(statistics.median(a / b for a, b in self.reference_pairs), 3),
                "n": len(self.reference_pairs)}
        return d


def detector_box(icons: Sequence[Any], node: Box) -> Box:
    """The detector's box for a target's node: the largest icon box whose centre lies in the node
    and that is no larger than it; the node itself where the detector found none (what the icon
    recogniser is measured on: ``bench/bench_recogniser.py``)."""
    inside = [i.box for i in icons if node.contains_point(i.box.center) and i.box.area <= node.area]
    return max(inside, key=lambda b: b.area) if inside else node


def _first_point(g: Any) -> Any:
    if g.chosen is not None:
        return g.chosen
    return g.candidates[0] if g.candidates and g.status in ("ambiguous", "too_many") else None


def _inside(c: Any, box: Box) -> bool:
    return c is not None and box.contains_point(c.point)


def force_dark(img: Image.Image) -> Image.Image:
    """``img`` as Android's force dark draws an app made light: each colour's lightness inverted
    (CIELAB L), its hue and chroma kept (the keyboard becomes the input method's dark grey panel,
    lighter than the black page). For measuring a real folder in a dark theme
    (``bench/variant_folder.py --force-dark``)."""
    import cv2
    import numpy as np

    lab = cv2.cvtColor(np.asarray(img.convert("RGB")), cv2.COLOR_RGB2LAB)
    lab[:, :, 0] = 255 - lab[:, :, 0]
    return Image.fromarray(cv2.cvtColor(lab, cv2.COLOR_LAB2RGB))


def covered(s: RealScreen, lines: Sequence[Any]) -> Callable[[Box], str | None]:
    """Why a target's node of screen ``s`` is not on its picture, or None: under the on-screen
    keyboard that the picture's text ``lines`` show (its rows of letter keys,
    :func:`perception.icons.layout.keyboard_top`; the dump is the app's window and does not hold
    the keyboard's), or under a view the dump draws over it (an open drawer, a bar laid over the
    page: :meth:`perception.hybrid.ScreenTree.hidden`). Counted apart as ``text_shown``: a
    grounding from the picture cannot find what the picture does not show."""
    from mobile_agent.perception.hybrid import ScreenTree
    from mobile_agent.perception.icons.layout import keyboard_top

    kb = keyboard_top([(l.box, l.text) for l in lines], s.width, s.height)
    try:
        tree = ScreenTree(s.xml.read_bytes(), s.width, s.height)
        hidden = [line.box for _, line in tree.label_lines("text", behind=True)]
    except (OSError, ValueError):
        hidden = []

    def why(box: Box) -> str | None:
        if kb is not None and box.center.y >= kb:
            return "under the keyboard"
        if any(h.contains_point(box.center) and h.iou(box) >= 0.5 for h in hidden):
            return "under a view the dump draws over it"
        return None

    return why


def _found(g: Any) -> str:
    """What a grounding answered, in a few words (for the misses)."""
    c = _first_point(g)
    if c is None:
        return f"{g.status}" + (f" ({g.message})" if g.message else "")
    label = f" {c.text!r}" if c.text else ""
    return f"{g.status}: {c.point.as_tuple()}{label} in {list(c.box.as_tuple())}"


def _asked(target: str, app: str, icon_wording: str, res: RealResult) -> tuple[str, ...]:
    """The words an icon target is asked by: the app's own (``icon_wording`` "own"), or each of
    its other wordings (:mod:`screensets.paraphrases`; "paraphrase"). A target the table does not
    hold is left out there, and counted in ``res.unworded``."""
    if icon_wording == "own":
        return (target,)
    from mobile_agent.screensets.paraphrases import wordings

    other = wordings(target, app)
    if not other:
        res.unworded += 1
    return other


def _absent_asked(s: RealScreen, icon_wording: str, res: RealResult) -> list[str]:
    """The icon descriptions not on ``s`` that are asked for: its absent ones (:func:`absent_icons`)
    in the app's words, or each of their other wordings that is neither a text or content-desc
    of the screen nor another wording of an icon target on it ("Back" for an absent "Collapse"
    on a screen with "Navigate up")."""
    if icon_wording == "own":
        return list(s.absent_icons)
    from mobile_agent.screensets.paraphrases import wordings

    here = {_norm(w) for t in s.targets if t.kind == "icon" for w in (t.target,) + wordings(t.target, s.app)}
    out: list[str] = []
    for desc in s.absent_icons:
        for w in _asked(desc, s.app, icon_wording, res):
            k = _norm(w)
            if k in here or any(k == lab or (lab and (k in lab.split() or lab in k.split())) for lab in s.labels):
                continue
            if w not in out:
                out.append(w)
    return out


def run_real(folder: RealFolder, perception: Any, *, icons: bool = True,
             timer: Callable[[], Any] | None = None, reference: Callable[[Image.Image], Any] | None = None,
             log: Callable[[str], None] | None = None, icon_wording: str = "own") -> RealResult:
    """Measure :data:`FIGURES` on every screen of ``folder`` with ``perception`` (a ``Perception``).

    ``timer`` (a factory of ``Perception``) adds a cold full parse a screen (icons included); with
    ``reference`` (RapidOCR's defaults) timed beside it on the same screen, the order alternating.

    ``icon_wording`` "paraphrase" asks each icon target, and each icon not on a screen, by each of
    the other wordings :mod:`screensets.paraphrases` gives its description (other apps' and the
    framework's words for the same control) instead of the app's own: the icon figures then count
    one ask per wording."""
    if icon_wording not in ("own", "paraphrase"):
        raise ValueError(f"icon wording {icon_wording!r}: use own or paraphrase")
    from mobile_agent.screensets.measure import original_line_matches

    res = RealResult(screens=len(folder.screens), problems=list(folder.problems), icon_wording=icon_wording)
    tp = timer() if timer is not None else None
    if tp is not None and folder.screens:
        with Image.open(folder.screens[0].image) as im0:
            first = im0.convert("RGB")
        tp.parse(first, icons=True)  # load the models outside the timings
        if reference is not None:
            reference(first)
    for i, s in enumerate(folder.screens):
        try:
            with Image.open(s.image) as im:
                img = im.convert("RGB")
        except OSError as exc:
            res.problems.append(f"{s.image}: not an image ({exc})")
            continue
        if tp is not None:
            ref_t = None
            if reference is not None and i % 2 == 1:
                t = time.perf_counter()
                reference(img)
                ref_t = time.perf_counter() - t
            tp.clear_cache()
            t = time.perf_counter()
            tp.parse(img, icons=True, incremental=False)
            res.parse_s.append(time.perf_counter() - t)
            if reference is not None and ref_t is None:
                t = time.perf_counter()
                reference(img)
                ref_t = time.perf_counter() - t
            if ref_t is not None:
                res.reference_pairs.append((res.parse_s[-1], ref_t))
        parsed = perception.parse(img, icons=icons)
        hidden_why = covered(s, parsed.lines)
        for tg in s.targets:
            where = f"{s.app} {s.name}: {tg.kind} {tg.target!r} node {list(tg.box.as_tuple())}"
            if tg.kind == "text":
                g = perception.ground_text(img, tg.target)
                first_ok = _inside(_first_point(g), tg.box)
                res.count(s.app, "text_first", first_ok)
                why = hidden_why(tg.box)
                if why is None:
                    res.count(s.app, "text_shown", first_ok)
                chosen_ok = g.status == "found" and _inside(g.chosen, tg.box)
                if not chosen_ok:
                    def oracle(marked: Any, cands: Sequence[Any], question: str, box: Box = tg.box) -> int | None:
                        return next((k for k, c in enumerate(cands) if _inside(c, box)), None)

                    gc = perception.ground_text(img, tg.target, choose=oracle)
                    chosen_ok = gc.status == "found" and _inside(gc.chosen, tg.box)
                res.count(s.app, "text_choice", chosen_ok)
                orig = original_line_matches(tg.target, parsed.lines)
                res.count(s.app, "text_original", bool(orig) and tg.box.contains_point(orig[0].center))
                if not first_ok:
                    res.misses.append(f"{where} -> {_found(g)}" + (f" [{why}]" if why else ""))
            elif icons:
                for asked in _asked(tg.target, s.app, icon_wording, res):
                    wh = where if asked == tg.target else f"{s.app} {s.name}: icon {asked!r} (the app's words: " \
                                                          f"{tg.target!r}) node {list(tg.box.as_tuple())}"
                    g = perception.ground_icon(img, asked)
                    ok = g.status == "found" and _inside(g.chosen, tg.box)
                    res.count(s.app, "icon_nohint", ok)
                    hint = third_hint(tg.box, s.width, s.height)
                    gh = perception.ground_icon(img, asked, hint)
                    ok_h = gh.status == "found" and _inside(gh.chosen, tg.box)
                    res.count(s.app, "icon_hint", ok_h)
                    res.count(s.app, "icon_any", any(_inside(c, tg.box) for c in gh.candidates))
                    c = tg.box.center
                    res.count(s.app, "icon_detected", any(ib.box.contains_point(c) for ib in parsed.icons or []))
                    if not ok_h:
                        res.misses.append(f"{wh} hint {' '.join(hint)} -> {_found(gh)}"
                                          + ("" if ok else " (without the hint too)"))
                    elif not ok:
                        res.misses.append(f"{wh} without a hint -> {_found(g)} (with the hint found)")
        for desc in _absent_asked(s, icon_wording, res) if icons else ():
            g = perception.ground_icon(img, desc)
            sure = g.status == "found" and g.chosen is not None and g.chosen.score >= ICON_CONFIDENT
            res.count(s.app, "icon_absent_low", not sure)
            if sure:
                res.misses.append(f"{s.app} {s.name}: absent icon {desc!r} -> {_found(g)} score {g.chosen.score:.2f}")
        for text in s.absent:
            g = perception.ground_text(img, text)
            none = _first_point(g) is None
            res.count(s.app, "absent_none", none)
            if not none:
                res.misses.append(f"{s.app} {s.name}: absent text {text!r} -> {_found(g)}")
        if log:
            log(f"[{i + 1}/{len(folder.screens)}] {s.name}")
    return res


def format_real(d: dict[str, Any], per_app: bool = True) -> Iterable[str]:
    """Lines for :meth:`RealResult.to_dict`."""

    def pct(v: dict[str, Any] | None) -> str:
        if not v or v["share"] is None:
            return "n/a"
        return f"{v['share'] * 100:.1f}% ({v['hit']}/{v['total']})"

    for p in d["problems"]:
        yield f"skipped: {p}"
    yield f"screens: {d['screens']}"
    if d.get("icon_wording", "own") != "own":
        yield (f"icon targets asked by each of their other wordings (screensets/paraphrases.py), one ask a "
               f"wording; {d.get('unworded', 0)} icon descriptions without one left out")
    halves = d.get("halves") or {}
    yield "figure: all" + "".join(f" | half {h}" for h in halves)
    for key, label in FIGURES.items():
        if key in d["figures"]:
            yield f"  {label}: {pct(d['figures'].get(key))}" + "".join(
                f" | {pct(v.get(key))}" for v in halves.values())
    ref = d.get("reference")
    if ref:
        yield (f"  full parse against RapidOCR's defaults, side by side: {ref['median_of_ratios']:.3f} (median of "
               f"per-screen ratios; {ref['parse_s_median']:.2f} s against {ref['reference_s_median']:.2f} s, "
               f"n={ref['n']})")
    elif d.get("parse_s_median") is not None:
        yield f"  full parse, cold: median {d['parse_s_median']:.2f} s"
    if per_app:
        yield "per app (half): " + ", ".join(FIGURES)
        for app, v in d["apps"].items():
            yield f"  {app} ({split_half(app)}): " + "; ".join(
                f"{k} {v[k]['hit']}/{v[k]['total']}" for k in FIGURES if k in v)


@dataclass
class Capture:
    """One screen taken by :func:`capture_screen`: kept (written to the folder) or why not."""

    name: str
    kept: bool
    reason: str = ""
    texts: int = 0  # text targets of the dump
    texts_read: int = 0  # of which perception found inside their node


def capture_screen(device: Any, folder: str | Path, perception: Any | None = None, name: str | None = None,
                   min_text_share: float = 0.6) -> Capture:
    """Take a screenshot and the uiautomator dump of ``device`` together and keep them in ``folder``
    (``img/NAME.png``, ``xml/NAME.xml``) only when they agree:

    - the screen did not change while the dump was taken (a screenshot before and one after, the
      status bar and small noise ignored);
    - the dump reads and is as wide as the picture, no node reaching past it;
    - with ``perception``, Click Text finds at least ``min_text_share`` of the dump's text targets
      inside their nodes (a dump of another screen, or of a screen still drawing, does not).

    ``name`` defaults to the dump's package and the time in milliseconds (``PACKAGE__MS``)."""
    from mobile_agent.fsutil import atomic_save_image, atomic_write_text
    from mobile_agent.perception.change import screen_changed

    before = device.screenshot()
    xml = device.ui_tree()
    after = device.screenshot()
    label = name or "screen"
    if not xml:
        return Capture(label, False, "the phone gave no uiautomator dump (a screen that never goes idle, "
                                     "or uiautomator is busy)")
    try:
        nodes = read_dump(xml)
    except ValueError as exc:
        return Capture(label, False, f"the uiautomator dump does not read: {exc}")
    if name is None:
        label = f"{_app_of(nodes, 'screen')}__{int(time.time() * 1000)}"
    if before.size != after.size or screen_changed(before, after):
        return Capture(label, False, "the screen changed while the dump was taken (an animation, a video, a "
                                     "screen still loading); take it again once the screen is still")
    w, h = after.size
    boxes = [n.box for n in nodes if not n.box.is_empty()]
    if not boxes or max(b.x2 for b in boxes) != w or max(b.y2 for b in boxes) > h:
        return Capture(label, False, f"the dump's screen ({max((b.x2 for b in boxes), default=0)} px wide, "
                                     f"{max((b.y2 for b in boxes), default=0)} px high) is not the {w}x{h} picture's")
    texts = [t for t in derive_targets(nodes, w, h) if t.kind == "text"]
    read = 0
    if perception is not None and texts:
        read = sum(_inside(_first_point(perception.ground_text(after, t.target)), t.box) for t in texts)
        if read < min_text_share * len(texts):
            return Capture(label, False, f"the picture shows {read} of the dump's {len(texts)} texts (under "
                                         f"{min_text_share:.0%}): the dump is not of this screen", len(texts), read)
    root = Path(folder)
    atomic_save_image(root / "img" / f"{label}.png", after)
    atomic_write_text(root / "xml" / f"{label}.xml", xml)
    return Capture(label, True, "", len(texts), read)
