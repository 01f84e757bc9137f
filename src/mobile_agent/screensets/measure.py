"""The perception benchmark: OCR, grounding and icon figures on screens with a ground-truth tree.

Screens come with a uiautomator XML dump (``bounds="[x1,y1][x2,y2]"``), which is the ground truth:
visible text nodes for text grounding, clickable nodes without text for icon recall, their
``content-desc`` for icon matching. :func:`collect_sim_screens` gathers such screens from the
simulated phone by tapping the clickable nodes of every app (breadth first, a few levels deep);
:func:`run_benchmark` measures. Nothing here asserts anything about time: it prints figures.
"""

from __future__ import annotations

import hashlib
import pickle
import statistics
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np
from PIL import Image

from mobile_agent.perception.change import changed_fraction, changed_regions
from mobile_agent.perception.results import Candidate
from mobile_agent.types import Box


@dataclass
class Node:
    """One node of a uiautomator dump, with what the benchmark needs."""

    text: str
    desc: str
    box: Box
    clickable: bool
    package: str
    cls: str
    has_text_below: bool = False
    clipped: bool = False  # partly off the screen
    covered: bool = False  # its centre lies under a clickable node drawn later (a scrim, a drawer, a dialog)
    cut: bool = False  # at the side edge of a row that scrolls sideways: partly scrolled out of sight


@dataclass
class BenchScreen:
    """A screenshot, its tree, and where it came from (app and tap path)."""

    name: str
    image: Image.Image
    nodes: list[Node]
    parent: int | None = None  # index of the screen this one was reached from by one tap
    app: str | None = None  # the app launched (None: the home screen)
    taps: tuple[tuple[int, int], ...] = ()  # the taps after the launch, in the screen's pixels
    look: str = ""  # how the screen was drawn (the wide set: font, icons, themes, status bar, ...)


@dataclass
class BenchResult:
    screens: int = 0
    parse_s: list[float] = field(default_factory=list)
    parse_cpu_s: list[float] = field(default_factory=list)
    incremental_cpu_s: list[float] = field(default_factory=list)
    ocr_s: list[float] = field(default_factory=list)
    icons_s: list[float] = field(default_factory=list)
    incremental_s: list[float] = field(default_factory=list)
    incremental_fraction: list[float] = field(default_factory=list)
    text_total: int = 0
    text_hit: int = 0
    text_hit_alone: int = 0
    text_misses: list[str] = field(default_factory=list)
    text_covered: int = 0  # text nodes left out: under a clickable overlay (see :func:`parse_tree`)
    icon_total: int = 0
    icon_hit: int = 0
    icon_misses: list[str] = field(default_factory=list)
    match_total: int = 0
    match_hit: int = 0
    match_known_total: int = 0
    match_known_hit: int = 0
    match_unique_total: int = 0
    match_unique_hit: int = 0
    match_misses: list[str] = field(default_factory=list)
    app_total: int = 0
    app_hit: int = 0
    # the table (see :func:`run_benchmark` for what each counts)
    text_first_hit: int = 0
    original_first_hit: int = 0
    original_any_hit: int = 0
    icon_target_detected: int = 0
    icon_hint_hit: int = 0
    icon_hint_any: int = 0
    icon_hint_misses: list[str] = field(default_factory=list)
    # text nodes left out of the table's Click Text rows, by reason (see :func:`text_target_reason`):
    # reason -> [nodes, first point inside, with choice inside]
    text_left_out: dict[str, list[int]] = field(default_factory=dict)
    text_first_misses: list[str] = field(default_factory=list)
    sizes: list[tuple[int, int]] = field(default_factory=list)  # each full parse's screen size
    reference_s: list[float] = field(default_factory=list)  # RapidOCR's own defaults, side by side
    reference_pair_s: list[tuple[float, float]] = field(default_factory=list)  # (ours, reference) per screen

    def to_dict(self) -> dict[str, Any]:
        def stats(v: list[float]) -> dict[str, float] | None:
            if not v:
                return None
            q = np.percentile(v, [10, 90])
            return {"n": len(v), "median": round(statistics.median(v), 4), "p10": round(float(q[0]), 4),
                    "p90": round(float(q[1]), 4), "min": round(min(v), 4), "max": round(max(v), 4)}

        def share(hit: int, total: int) -> float | None:
            return round(hit / total, 4) if total else None

        def figure(hit: int, total: int, **more: Any) -> dict[str, Any]:
            """A figure of the report: its share, what it counts of how many, then ``more``."""
            return {"share": share(hit, total), "hit": hit, "total": total, **more}

        by_size: dict[str, list[float]] = {}
        for (w, h), t in zip(self.sizes, self.parse_s):
            by_size.setdefault(f"{w}x{h}", []).append(t)
        ref_ratio = None
        if self.reference_pair_s:
            ref_ratio = {"ratio_of_medians": round(statistics.median(a for a, _ in self.reference_pair_s)
                                                   / statistics.median(b for _, b in self.reference_pair_s), 3),
                         "median_of_ratios": round(statistics.median(a / b for a, b in self.reference_pair_s), 3),
                         "n": len(self.reference_pair_s)}
        return {
            "screens": self.screens,
            "load_average_1min": _loadavg(),
            "parse_s_by_size": {k: stats(v) for k, v in sorted(by_size.items())},
            "reference_parse_s": stats(self.reference_s),
            "reference_ratio": ref_ratio,
            "table": {
                "click_text_first_point": figure(self.text_first_hit, self.text_total),
                "click_text_with_choice": figure(self.text_hit, self.text_total),
                "original_line_matching_first_point": figure(self.original_first_hit, self.text_total),
                "original_line_matching_with_choice": figure(self.original_any_hit, self.text_total),
                "click_icon_top1_no_hint": figure(self.match_hit, self.match_total),
                "click_icon_top1_with_hint": figure(self.icon_hint_hit, self.match_total),
                "click_icon_any_candidate_with_hint": figure(self.icon_hint_any, self.match_total),
                "icon_detected_at_all": figure(self.icon_target_detected, self.match_total),
                "icon_hint_misses": self.icon_hint_misses[:40],
                "click_text_left_out": {k: {"nodes": v[0], "first_point_hit": v[1], "with_choice_hit": v[2]}
                                        for k, v in sorted(self.text_left_out.items())},
                "click_text_first_point_misses": self.text_first_misses[:60],
            },
            "parse_s": stats(self.parse_s), "parse_cpu_s": stats(self.parse_cpu_s),
            "incremental_cpu_s": stats(self.incremental_cpu_s), "ocr_s": stats(self.ocr_s), "icons_s": stats(self.icons_s),
            "incremental_s": stats(self.incremental_s),
            "incremental_changed_fraction": stats(self.incremental_fraction),
            "text_grounding": figure(self.text_hit, self.text_total,
                                     share_without_choice=share(self.text_hit_alone, self.text_total),
                                     covered_left_out=self.text_covered, misses=self.text_misses[:40]),
            "icon_recall": figure(self.icon_hit, self.icon_total, misses=self.icon_misses[:40]),
            "icon_matching_top1": figure(self.match_hit, self.match_total,
                                         share_known_words=share(self.match_known_hit, self.match_known_total),
                                         known_total=self.match_known_total,
                                         share_unique=share(self.match_unique_hit, self.match_unique_total),
                                         unique_total=self.match_unique_total, misses=self.match_misses[:40]),
            "app_grounding": figure(self.app_hit, self.app_total),
        }


def _loadavg() -> float | None:
    """The 1-minute load average where the system reports one (timings mean little under load)."""
    import os

    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def parse_tree(xml: str, width: int, height: int) -> list[Node]:
    """The visible nodes of a uiautomator dump (clipped to the screen, at least 12 px each way).

    A node whose centre lies under a clickable node that comes later in drawing order and is neither
    its ancestor nor its descendant is marked ``covered``: a tap there reaches the overlay (an open
    drawer's scrim, a dialog, a floating button), not the node, even where the node shows through.
    """
    root = ET.fromstring(xml.encode("utf-8") if isinstance(xml, str) else xml)
    screen = Box(0, 0, width, height)
    out: list[Node] = []
    spans: list[tuple[int, int]] = []  # pre-order index of each node in ``out`` and of its subtree's end
    clickables: list[tuple[int, Box]] = []  # (pre-order index, box) of every clickable node
    counter = [0]

    def walk(el: ET.Element, row: Box | None) -> bool:
        order = counter[0]
        counter[0] += 1
        try:
            full: Box | None = Box.from_bounds(el.get("bounds", "")) if el.tag == "node" else None
        except ValueError:
            full = None
        if full is not None and el.get("scrollable") == "true" and full.width > full.height:
            row = full.intersect(screen)  # a row that scrolls sideways: its children may be cut at its edges
        has_text = False
        for child in el.findall("node"):
            has_text = walk(child, row) or has_text
        if el.tag != "node" or full is None:
            return has_text
        box = full.intersect(screen)
        text = (el.get("text") or "").strip()
        if el.get("clickable") == "true" and not box.is_empty():
            clickables.append((order, box))
        if box.width >= 12 and box.height >= 12:
            cut = row is not None and box != row and (box.x1 <= row.x1 or box.x2 >= row.x2)
            out.append(Node(text, (el.get("content-desc") or "").strip(), box, el.get("clickable") == "true",
                            el.get("package") or "", el.get("class") or "", has_text, box != full, cut=cut))
            spans.append((order, counter[0] - 1))
        return has_text or bool(text)

    walk(root, None)
    for node, (_, end) in zip(out, spans):
        c = node.box.center
        node.covered = any(o > end and b.contains_point(c) for o, b in clickables)
    return out


_UNDRAWN_TEXT = ("Switch", "ToggleButton", "CheckBox", "RadioButton", "SeekBar", "ProgressBar")


def _text_is_drawn(n: Node) -> bool:
    """Switches, check boxes and sliders carry a state text (ON, OFF, 60) that is not drawn."""
    return not n.cls.endswith(_UNDRAWN_TEXT)


_KEYBOARD_MARKS = ("inputmethod", "keyboard", "honeyboard")
SYSTEMUI = "com.android.systemui"

LEFT_OUT_REASONS = {
    "status bar": "a text of the status bar (clock, battery level, network speed): tapping it does nothing",
    "keyboard": "a key of the on-screen keyboard: the agent types with Type, not Click Text",
    "cut by the screen edge": "at the side edge of a row that scrolls sideways (chips, tabs), partly "
                              "scrolled out of sight and narrower than its text: the text is not all on the screen",
    "repeated": "the same text in another node on the screen: a request by that text alone cannot say "
                "which one is meant (the planner's choice among numbered marks, or a position, decides)",
}


def _norm(text: str) -> str:
    from mobile_agent.perception.textmatch import normalize_text

    return normalize_text(text)


def text_target_reason(n: Node, nodes: Sequence[Node]) -> str:
    """Why the text node ``n`` is no target a user could ask for by its text alone (one of
    :data:`LEFT_OUT_REASONS`), or ``""`` for a Click Text target of the table.

    Such nodes are still grounded and counted apart (``click_text_left_out``), never dropped
    silently. ``nodes`` are the screen's nodes (for repeated texts)."""
    if n.package == SYSTEMUI and not n.clickable:
        return "status bar"
    if any(m in n.package.lower() for m in _KEYBOARD_MARKS):
        return "keyboard"
    if n.cut and n.box.width < 0.25 * n.box.height * len(_norm(n.text).replace(" ", "")):
        # cut at the edge of a row scrolled sideways, and narrower than its text needs (a chip's
        # text is about half its height tall, a character about half as wide as tall)
        return "cut by the screen edge"
    key = _norm(n.text)
    if key and any(o is not n and o.text and not o.covered and not o.clipped and _text_is_drawn(o)
                   and _norm(o.text) == key for o in nodes):
        return "repeated"
    return ""


class CachedOcr:
    """An OCR engine that reads each screenshot once: its lines are kept in memory and, with a
    ``folder``, on disk (by the pixels' hash and the engine's settings), so that a second benchmark
    run reads no screen again. Only for figures that do not time the OCR: the benchmark's timed
    parses never go through it. Empty the folder after changing the OCR code. Everything else
    (``read_glyphs``, ``recognize``) is the engine's."""

    def __init__(self, inner: Any, folder: str | Path | None) -> None:
        self.inner = inner
        self.folder = Path(folder) if folder is not None else None
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
        self.name = inner.name
        settings = sorted((k, v) for k, v in vars(inner).items() if isinstance(v, (int, float, str, bool)))
        self._tag = hashlib.sha256(repr((inner.name, settings)).encode()).hexdigest()[:8]
        self._mem: dict[str, Any] = {}
        self._packed: list[Any] = []

    def read(self, rgb: np.ndarray, det_scale: float | None = None) -> Any:
        key = (hashlib.sha256(np.ascontiguousarray(rgb).tobytes()).hexdigest()[:24]
               + f"-{rgb.shape[1]}x{rgb.shape[0]}-{self._tag}")
        if key in self._mem:
            lines, self._packed = self._mem[key]
            return lines
        f = self.folder / f"{key}.pkl" if self.folder is not None else None
        kept = None
        if f is not None and f.exists():
            try:
                kept = pickle.loads(f.read_bytes())
            except Exception:  # noqa: BLE001 - a damaged cache file is read again
                kept = None
        if not (isinstance(kept, tuple) and len(kept) == 2):  # lines and packed glyph boxes
            lines = self.inner.read(rgb, det_scale) if det_scale is not None else self.inner.read(rgb)
            last = getattr(self.inner, "last_packed_glyphs", None)
            kept = (lines, list(last()) if last is not None else [])
            if f is not None:
                tmp = f.with_suffix(".tmp")
                tmp.write_bytes(pickle.dumps(kept))
                tmp.replace(f)
        self._mem[key] = kept
        lines, self._packed = kept
        return lines

    def last_packed_glyphs(self) -> list[Any]:
        """The glyph-sized boxes the engine read packed on the screen last read (kept with its lines)."""
        return list(self._packed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _key(image: Image.Image) -> bytes:
    return hashlib.blake2b(image.tobytes(), digest_size=16).digest()


def collect_sim_screens(seed: int = 0, depth: int = 1, max_screens: int = 80, max_taps_per_screen: int = 14,
                        dark: bool = False, log: Callable[[str], None] | None = None) -> list[BenchScreen]:
    """Screens of the simulated phone: the home screen, each app's first screen, and the screens
    one tap (``depth`` taps) away from them, each reached on a fresh phone by replaying its taps."""
    from mobile_agent.device.sim import SimPhone

    def fresh() -> Any:
        return SimPhone(seed=seed, dark=dark)

    phone = fresh()
    w, h = phone.size()
    screens: list[BenchScreen] = []
    seen: set[bytes] = set()

    def add(name: str, ph: Any, parent: int | None, app: str | None = None,
            taps: tuple[tuple[int, int], ...] = ()) -> int | None:
        img = ph.screenshot()
        k = _key(img)
        if k in seen:
            return None
        seen.add(k)
        screens.append(BenchScreen(name, img, parse_tree(ph.ui_tree(), w, h), parent, app, taps))
        if log:
            log(f"screen {len(screens)}: {name}")
        return len(screens) - 1

    add("home", phone, None)
    queue: list[tuple[str, list[tuple[int, int]], int | None]] = [(app, [], None) for app in phone.app_names()]
    while queue and len(screens) < max_screens:
        app, path, parent = queue.pop(0)
        ph = fresh()
        ph.launch(app)
        try:
            for x, y in path:
                ph.tap(x, y)
        except Exception:  # noqa: BLE001 - a tap the phone refuses ends this path, not the benchmark
            continue
        idx = add(f"{app}" + "".join(f" > tap({x},{y})" for x, y in path), ph, parent, app, tuple(path))
        if idx is None or len(path) >= depth:
            continue
        taps = [n for n in screens[idx].nodes
                if n.clickable and n.package != "com.android.systemui" and n.box.area >= 400]
        for n in taps[:max_taps_per_screen]:
            c = n.box.center
            queue.append((app, path + [(c.x, c.y)], idx))
    return screens


def _inside(c: Candidate | None, box: Box, slack: int = 0) -> bool:
    return c is not None and box.expand(slack).contains_point(c.point)


def position_hint(box: Box, width: int, height: int) -> tuple[str, ...]:
    """The position words a planner would write for a target at ``box``: top / bottom for the
    upper and lower thirds, left / right for the outer 40%, ``center`` when neither applies."""
    c = box.center
    fx, fy = c.x / max(1, width), c.y / max(1, height)
    words = []
    if fy < 1 / 3:
        words.append("top")
    elif fy > 2 / 3:
        words.append("bottom")
    if fx < 0.4:
        words.append("left")
    elif fx > 0.6:
        words.append("right")
    return tuple(words) or ("center",)


def original_line_matches(target: str, lines: Sequence[Any]) -> list[Box]:
    """The original Mobile-Agent's Click Text: OCR lines whose text equals the target, or where
    none does, lines that contain it; the tap goes to the whole line's centre."""
    t = target.strip()
    exact = [line.box for line in lines if line.text.strip() == t]
    return exact or [line.box for line in lines if t and t in line.text]


def _first_point(g: Any) -> Candidate | None:
    """Where perception taps when nobody is asked: the chosen candidate, else the best-ranked one."""
    if g.chosen is not None:
        return g.chosen
    return g.candidates[0] if g.candidates and g.status in ("ambiguous", "too_many") else None


def reference_ocr() -> Callable[[Image.Image], Any]:
    """RapidOCR with its own default settings (the issue's reference for the full-parse ratio)."""
    from rapidocr import RapidOCR

    engine = RapidOCR(params={"Global.log_level": "error"})
    return lambda img: engine(np.asarray(img.convert("RGB"))[:, :, ::-1])


def run_benchmark(screens: Sequence[BenchScreen], make_perception: Callable[[], Any],
                  log: Callable[[str], None] | None = None, repeat_parse: int = 1,
                  reference: Callable[[Image.Image], Any] | None = None,
                  grounding_perception: Any | None = None, timing: bool = True,
                  icons: bool = True) -> BenchResult:
    """Measure parse times, text grounding, icon recall, icon matching and app grounding.

    The issue's table, per target (what computes each figure; icon grounding itself lives in
    ``Perception.ground_icon``, which is what the icon figures measure):

    - Click Text, first point: ``ground_text(image, text)`` without a planner; its chosen point,
      or when it reports several, its best-ranked one, lies inside the text's node.
    - Click Text with choice: the same with the planner (an oracle here) picking among the marks.
    - original line matching: :func:`original_line_matches` on the same OCR lines, first line's
      centre (first point) or any matching line's centre (with choice).
    - Click Icon targets: clickable nodes with a content-desc and no text in or under them.
      top-1 without hint: ``ground_icon(image, desc)``'s chosen point inside the node; with hint:
      ``ground_icon(image, desc, position_hint(node))``; any candidate: one of the candidates
      of the hinted grounding inside; detected at all: an icon box of the full parse holds the
      node's centre.
    - full parse: each screen parsed cold (icons included); with ``reference`` (RapidOCR's own
      defaults) timed on the same screen right before or after (the order alternating).
      ``timing=False`` leaves the timed parses (full and incremental) out; ``icons=False``, the
      icon and Open App figures (text figures only).

    ``grounding_perception`` (default: one from ``make_perception``) grounds the targets; one
    whose OCR keeps its lines (:class:`CachedOcr`) makes a rerun cheap. Timed parses always use
    their own perception from ``make_perception``, nothing cached.

    Text nodes a user could not ask for by their text alone (:func:`text_target_reason`) are
    left out of the Click Text rows and counted apart, by reason.
    """
    from mobile_agent.perception.icons.offline import description_glyphs

    res = BenchResult(screens=len(screens))
    p = grounding_perception if grounding_perception is not None else make_perception()
    timer = make_perception() if timing else None
    if timer is not None:
        timer.parse(screens[0].image)  # load the models once, outside the timings
        if reference is not None:
            reference(screens[0].image)
    for i, s in enumerate(screens):
        w, h = s.image.size
        # Full parse, cold: nothing reused from earlier screens (memo and recognition cache emptied).
        for k in range(repeat_parse if timer is not None else 0):
            assert timer is not None
            ref_t = None
            if reference is not None and (i + k) % 2 == 1:
                t = time.perf_counter()
                reference(s.image)
                ref_t = time.perf_counter() - t
            timer.clear_cache()
            t, c = time.perf_counter(), time.process_time()
            r = timer.parse(s.image, icons=True, incremental=False)
            res.parse_s.append(time.perf_counter() - t)
            res.parse_cpu_s.append(time.process_time() - c)
            res.sizes.append((w, h))
            res.ocr_s.append(r.timings.get("ocr", 0.0))
            res.icons_s.append(r.timings.get("icons", 0.0))
            if reference is not None and ref_t is None:
                t = time.perf_counter()
                reference(s.image)
                ref_t = time.perf_counter() - t
            if ref_t is not None:
                res.reference_s.append(ref_t)
                res.reference_pair_s.append((res.parse_s[-1], ref_t))
        # Incremental: the step from the parent screen, when under a fifth of the screen changed
        # (the previous step's parse is there, as in an agent's run).
        if s.parent is not None and timer is not None:
            before = screens[s.parent].image
            frac = changed_fraction(changed_regions(before, s.image), w, h)
            if 0.0 < frac < 0.2:
                timer.clear_cache()
                timer.parse(before)
                t, c = time.perf_counter(), time.process_time()
                r2 = timer.parse(s.image)
                if r2.incremental:
                    res.incremental_s.append(time.perf_counter() - t)
                    res.incremental_cpu_s.append(time.process_time() - c)
                    res.incremental_fraction.append(frac)
        res_full = p.parse(s.image, icons=icons)
        icon_boxes = res_full.icons or []
        # Text grounding: every visible text node (status bar clock included) that a tap can reach.
        # The table's Click Text rows count the nodes a user could ask for by their text alone;
        # the others (text_target_reason) are grounded too and counted apart.
        for n in s.nodes:
            if not n.text or len(n.text) > 80 or n.clipped or not _text_is_drawn(n):
                continue
            if n.covered:
                res.text_covered += 1
                continue
            reason = text_target_reason(n, s.nodes)

            def oracle(marked: Image.Image, cands: Sequence[Candidate], question: str, box: Box = n.box) -> int | None:
                for k, c in enumerate(cands):
                    if _inside(c, box):
                        return k
                return None

            g_alone = p.ground_text(s.image, n.text)
            first_ok = _inside(_first_point(g_alone), n.box)
            alone_ok = g_alone.status == "found" and _inside(g_alone.chosen, n.box)
            if alone_ok:
                chosen_ok = True
            else:
                g = p.ground_text(s.image, n.text, choose=oracle)
                chosen_ok = g.status == "found" and _inside(g.chosen, n.box)
            if reason:
                counts = res.text_left_out.setdefault(reason, [0, 0, 0])
                counts[0] += 1
                counts[1] += first_ok
                counts[2] += chosen_ok
                continue
            res.text_total += 1
            orig = original_line_matches(n.text, res_full.lines)
            res.original_first_hit += bool(orig) and n.box.contains_point(orig[0].center)
            res.original_any_hit += any(n.box.contains_point(b.center) for b in orig)
            res.text_first_hit += first_ok
            res.text_hit_alone += alone_ok
            res.text_hit += chosen_ok
            fp = _first_point(g_alone)
            if not first_ok:
                res.text_first_misses.append(f"{s.name}: {n.text!r} {g_alone.status} -> {fp and fp.point.as_tuple()} "
                                             f"node {n.box.as_tuple()}")
            if not chosen_ok:
                res.text_misses.append(f"{s.name}: {n.text!r} {g.status} {g.point and g.point.as_tuple()} "
                                       f"node {n.box.as_tuple()}")
        if icons:
            # Icon recall and matching: clickable nodes with no text in or under them.
            desc_count: dict[str, int] = {}
            for n in s.nodes:
                if n.clickable and not (n.text and _text_is_drawn(n)) and not n.has_text_below and n.desc:
                    desc_count[n.desc] = desc_count.get(n.desc, 0) + 1
            for n in s.nodes:
                if not n.clickable or (n.text and _text_is_drawn(n)) or n.has_text_below:
                    continue
                res.icon_total += 1
                c = n.box.center
                if any(ib.box.contains_point(c) for ib in icon_boxes):
                    res.icon_hit += 1
                else:
                    res.icon_misses.append(f"{s.name}: {n.desc or n.cls} {n.box.as_tuple()}")
                if n.desc:
                    res.match_total += 1
                    known = bool(description_glyphs(n.desc))
                    res.match_known_total += known
                    g = p.ground_icon(s.image, n.desc)
                    ok = g.status == "found" and _inside(g.chosen, n.box)
                    res.match_hit += ok
                    res.match_known_hit += ok and known
                    unique = desc_count.get(n.desc, 0) == 1
                    res.match_unique_total += unique
                    res.match_unique_hit += ok and unique
                    if not ok:
                        res.match_misses.append(f"{s.name}: {n.desc!r} -> {g.point and g.point.as_tuple()} "
                                                f"node {n.box.as_tuple()}")
                    res.icon_target_detected += any(ib.box.contains_point(c) for ib in icon_boxes)
                    hint = position_hint(n.box, w, h)
                    gh = p.ground_icon(s.image, n.desc, hint)
                    ok_h = gh.status == "found" and _inside(gh.chosen, n.box)
                    res.icon_hint_hit += ok_h
                    res.icon_hint_any += any(_inside(cd, n.box) for cd in gh.candidates)
                    if not ok_h:
                        res.icon_hint_misses.append(f"{s.name}: {n.desc!r} {' '.join(hint)} -> "
                                                    f"{gh.point and gh.point.as_tuple()} node {n.box.as_tuple()}")
            # Open App: every app label on the launcher.
            if s.name == "home":
                apps: dict[str, list[Box]] = {}
                for n in s.nodes:
                    if n.clickable and (n.text or n.desc) and n.package.endswith("launcher"):
                        apps.setdefault(n.text or n.desc, []).append(n.box)
                for label, boxes in apps.items():
                    # A hit: the tap lands on one of the app's launcher entries (grid or dock).
                    res.app_total += 1
                    g = p.ground_app(s.image, label)
                    res.app_hit += g.status == "found" and any(_inside(g.chosen, b) for b in boxes)
        if log:
            log(f"[{i + 1}/{len(screens)}] {s.name}" + (f": parse {res.parse_s[-1]:.2f} s" if res.parse_s else ""))
    return res


def format_report(d: dict[str, Any]) -> Iterable[str]:
    """Human-readable lines for :meth:`BenchResult.to_dict`."""

    def t(name: str, v: dict[str, float] | None) -> str:
        if not v:
            return f"{name}: n/a"
        return (f"{name}: median {v['median'] * 1000:.0f} ms (p10 {v['p10'] * 1000:.0f}, p90 {v['p90'] * 1000:.0f}, "
                f"min {v['min'] * 1000:.0f}, max {v['max'] * 1000:.0f}; n={v['n']})")

    def pct(v: float | None) -> str:
        return "n/a" if v is None else f"{v * 100:.1f}%"

    yield f"screens: {d['screens']} (load average at the end: {d.get('load_average_1min')})"
    tb = d.get("table")
    if tb:
        def row(name: str, key: str) -> str:
            v = tb[key]
            return f"  {name}: {pct(v['share'])} ({v['hit']}/{v['total']})"

        yield "the issue's table:"
        yield row("Click Text, first point inside the target's node", "click_text_first_point")
        yield row("Click Text, with the planner choosing among marks", "click_text_with_choice")
        left = tb.get("click_text_left_out") or {}
        if left:
            yield "  text nodes left out of the Click Text rows (grounded and counted apart):"
            for reason, v in left.items():
                yield (f"    {reason}: {v['nodes']} nodes; first point {v['first_point_hit']}/{v['nodes']}, "
                       f"with choice {v['with_choice_hit']}/{v['nodes']}")
        yield row("original Mobile-Agent exact/contains line matching, first point", "original_line_matching_first_point")
        yield row("original Mobile-Agent line matching, any matching line (with choice)",
                  "original_line_matching_with_choice")
        yield row("Click Icon, top-1, no position hint", "click_icon_top1_no_hint")
        yield row("Click Icon, top-1, with the position hint", "click_icon_top1_with_hint")
        yield row("Click Icon, any candidate inside (with hint)", "click_icon_any_candidate_with_hint")
        yield row("icon detected at all (Click Icon targets)", "icon_detected_at_all")
        for size, v in (d.get("parse_s_by_size") or {}).items():
            yield t(f"  full parse at {size}", v)
        rr = d.get("reference_ratio")
        if rr:
            yield t("  RapidOCR defaults (OCR only), same screens", d.get("reference_parse_s"))
            yield (f"  full-parse ratio against RapidOCR defaults: {rr['ratio_of_medians']:.3f} (ratio of medians), "
                   f"{rr['median_of_ratios']:.3f} (median of per-screen ratios; n={rr['n']})")
    yield t("full parse (OCR + icons, cold), wall", d["parse_s"])
    yield t("full parse, process CPU time (all threads)", d.get("parse_cpu_s"))
    yield t("  of which OCR", d["ocr_s"])
    yield t("  of which icon detection", d["icons_s"])
    yield t("incremental parse (<1/5 of the screen changed), wall", d["incremental_s"])
    yield t("incremental parse, process CPU time", d.get("incremental_cpu_s"))
    tg = d["text_grounding"]
    yield (f"text grounding: {pct(tg['share'])} ({tg['hit']}/{tg['total']}); without a choice asked: "
           f"{pct(tg['share_without_choice'])}; left out: {tg.get('covered_left_out', 0)} text nodes under an "
           f"overlay a tap would reach instead (scrim, drawer, menu, sheet)")
    ir = d["icon_recall"]
    yield f"icon detection recall: {pct(ir['share'])} ({ir['hit']}/{ir['total']})"
    im = d["icon_matching_top1"]
    yield (f"offline icon matching top-1: {pct(im['share'])} ({im['hit']}/{im['total']}); on descriptions with a "
           f"known shape word: {pct(im['share_known_words'])} (of {im['known_total']}); descriptions that occur once "
           f"on their screen: {pct(im.get('share_unique'))} (of {im.get('unique_total')})")
    ag = d["app_grounding"]
    yield f"Open App grounding: {pct(ag['share'])} ({ag['hit']}/{ag['total']})"
