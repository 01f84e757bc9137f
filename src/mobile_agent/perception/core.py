"""The :class:`Perception` facade: parse a screenshot, ground Click Text / Open App / Click Icon.

Perception never calls an LLM. Where several candidates fit, it draws them numbered on the
screenshot and asks through the ``choose`` callback it is given; without one it picks by the
position hint, or reports the ambiguity.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np
from PIL import Image

from mobile_agent.errors import ConfigError
from mobile_agent.perception.change import changed_fraction, changed_regions, screen_changed, status_bar_height
from mobile_agent.perception.hybrid import ScreenTree, TreeNode
from mobile_agent.perception.icons import IconDetector, IconMatcher, make_detector, make_matcher
from mobile_agent.perception.marks import draw_marks
from mobile_agent.perception.ocr import OcrEngine, make_ocr
from mobile_agent.perception.ocr.scripts import installed_languages, read_detected_lines, script_languages
from mobile_agent.perception.positions import in_region, parse_position, position_order, position_score
from mobile_agent.perception.results import Candidate, ChooseFn, Grounding, IconBox, ParseResult, TextLine
from mobile_agent.perception.missed_text import badge_boxes, display_boxes, mark_rows
from mobile_agent.perception.scrim import modal_card
from mobile_agent.perception.textmatch import (TextMatch, closest_texts, compact, edge_cut_matches, is_glyph_target,
                                                 mask_query, match_lines, normalize_text)
from mobile_agent.types import Box, load_image, quote_screen_text

if TYPE_CHECKING:
    from mobile_agent.perception.icons.lexicon import IconQuery


@dataclass
class _Memo:
    key: bytes
    rgb: np.ndarray
    result: ParseResult
    missed: list[TextLine] | None = None  # texts the line detector missed (Perception._missed_lines)
    scripts: dict[str, list[TextLine]] = field(default_factory=dict)  # lines read again by language (_script_lines)
    dialog: tuple[Box | None] | None = None  # the dialog over a scrim, once looked for (Perception._dialog)


def _image_key(rgb: np.ndarray) -> bytes:
    # SHA-256 runs on the CPU's SHA instructions where there are some: twice blake2b's speed on a
    # screenshot (4 ms against 9 at 1080x2400), without copying the pixels.
    h = hashlib.sha256(b"%dx%dx%d:" % (rgb.shape[1], rgb.shape[0], rgb.shape[2] if rgb.ndim == 3 else 1))
    h.update(memoryview(np.ascontiguousarray(rgb)).cast("B"))
    return h.digest()[:16]


#: A crop narrower than this many line heights shares a recogniser input with others (rapid.py).
_SHARED_INPUT_RATIO = 320 / 48


def _only_fuzzy(found: list[TextMatch] | None) -> bool:
    """Whether text matching found nothing surer than a fuzzy match (no match at all included):
    where Click Text reads the screen again another way (glyphs alone, a script's pack, missed
    lines, an edge's cut)."""
    return not any(m.kind != "fuzzy" for m in found or ())


def learned_spec(matcher: Any, icon_model: str | Path) -> str:
    """The learned matcher's spec on the recogniser ``icon_model`` (a ``.onnx`` file, or a folder
    holding ``icon_recogniser.onnx``: what ``mobile-agent perception learn`` writes)."""
    kind = matcher.partition(":")[0].strip().lower() if isinstance(matcher, str) else ""
    if kind not in ("learned", "recogniser", "recognizer") or ":" in str(matcher):
        what = matcher if isinstance(matcher, str) else type(matcher).__name__
        raise ConfigError(f"an icon model is the learned matcher's recogniser: the matcher {what!r} does not "
                          "use one (leave the matcher as learned, or drop the icon model)")
    return f"learned:{model_path_of(icon_model)}"


def model_path_of(icon_model: str | Path) -> Path:
    """A model the user names: the ``.onnx`` file, or a folder holding ``icon_recogniser.onnx``."""
    from mobile_agent.perception.icons.recogniser import MODEL_FILE

    p = Path(icon_model).expanduser()
    return p / MODEL_FILE if p.is_dir() else p


class Perception:
    """OCR, icon detection and grounding over screenshots.

    ``ocr``: ``rapidocr`` (default) or ``tesseract``. ``detector``: ``cv`` (default, no weights),
    ``yolo:PATH`` or ``gdino:PATH``. ``matcher``: ``learned`` (default: the trained icon recogniser
    shipped in the package, beside the shape matcher), ``offline`` (the shape matcher alone),
    ``marks`` (the planner picks numbered boxes through ``choose``) or ``clip:PATH``. ``icon_model``:
    the learned matcher's recogniser, a model file or the folder ``mobile-agent perception learn``
    wrote (a missing, corrupt or incompatible one is refused naming the file).

    ``incremental`` (default on): a parse reuses the previous parse's lines for the parts of the
    screen that did not change, when less than ``incremental_max_change`` of it changed.
    ``max_candidates``: more matches than this is ``too_many``.
    """

    def __init__(self, ocr: str | OcrEngine = "rapidocr", detector: str | IconDetector = "cv",
                 matcher: str | IconMatcher | None = "learned", *, incremental: bool = True,
                 incremental_max_change: float = 0.5, max_candidates: int = 9,
                 ocr_options: dict[str, Any] | None = None, icon_model: str | Path | None = None) -> None:
        self.ocr: OcrEngine = make_ocr(ocr, **(ocr_options or {})) if isinstance(ocr, str) else ocr
        self.detector: IconDetector = make_detector(detector) if isinstance(detector, str) else detector
        if icon_model is not None:
            matcher = learned_spec(matcher, icon_model)
        if isinstance(matcher, str):
            self.matcher: IconMatcher | None = make_matcher(matcher)
        else:
            self.matcher = matcher
        self.incremental = incremental
        self.incremental_max_change = incremental_max_change
        self.max_candidates = max_candidates
        # Weight of the layout prior in Click Icon (icons/layout.py); 0 turns it off.
        self.layout_weight = 0.06
        # Weight of the framework's place prior ("Navigate up" at the top bar's start, "More
        # options" at its end; icons/layout.py framework_prior); 0 turns it off.
        self.framework_weight = 0.25
        self.memo_size = 4
        self._memos: list[_Memo] = []  # most recent last

    def use_icon_model(self, icon_model: str | Path) -> None:
        """Click Icon from now on with the recogniser ``icon_model`` (as ``icon_model=`` at construction;
        refused for a matcher other than the learned one, and for a missing, corrupt or incompatible
        model, naming the file)."""
        current = getattr(self.matcher, "name", None)
        recogniser = getattr(self.matcher, "recogniser", None)
        if recogniser is not None and Path(recogniser.path).resolve() == model_path_of(icon_model).resolve():
            return
        self.matcher = make_matcher(learned_spec(current if current is not None else "marks", icon_model))
        self._memos.clear()

    def clear_cache(self) -> None:
        """Forget earlier parses and recognised crops (the next parse reads everything)."""
        self._memos.clear()
        clear = getattr(self.ocr, "clear_cache", None)
        if clear is not None:
            clear()

    # ------------------------------------------------------------------------------------------
    # parsing
    # ------------------------------------------------------------------------------------------
    def checkpoint(self) -> Any:
        """What a parse changes in this object (the memo of parses, the OCR engine's recognised
        crops), to put back with :meth:`restore`: a parse made ahead of time that nothing used is
        undone, so that the next parse is what it would have been without it."""
        state = getattr(self.ocr, "cache_state", None)
        return list(self._memos), (state() if callable(state) else None)

    def restore(self, checkpoint: Any) -> None:
        """Put back what :meth:`checkpoint` took."""
        memos, crops = checkpoint
        self._memos[:] = memos
        if crops is not None:
            self.ocr.restore_cache(crops)  # type: ignore[attr-defined]

    def parse(self, image: Image.Image | str | bytes | Any, icons: bool = False,
              incremental: bool | None = None) -> ParseResult:
        """Text lines (and, with ``icons=True``, icon boxes) of ``image``, with timings in seconds.

        The same screenshot parsed twice is read once. With ``incremental`` (default: the setting
        given at construction), lines of unchanged screen parts are taken from the previous parse.
        """
        t0 = time.perf_counter()
        rgb = np.asarray(load_image(image))
        key = _image_key(rgb)
        for m in self._memos:
            if m.key == key:
                self._memos.remove(m)
                self._memos.append(m)
                if icons and m.result.icons is None:
                    self._add_icons(rgb, m.result)
                return m.result
        memo = self._memos[-1] if self._memos else None
        use_inc = self.incremental if incremental is None else incremental
        h, w = rgb.shape[:2]
        result: ParseResult | None = None
        if use_inc and memo is not None and memo.rgb.shape == rgb.shape:
            result = self._parse_incremental(memo, rgb)
        if result is None:
            t1 = time.perf_counter()
            lines = self.ocr.read(rgb)
            result = ParseResult(w, h, lines, None, {"ocr": time.perf_counter() - t1}, self.ocr.name,
                                 packed_glyphs=self._last_packed())
            stages = getattr(self.ocr, "stage_timings", None)
            if stages is not None:
                result.timings.update(stages())
        set_aside_glyphs(result)
        if icons:
            self._add_icons(rgb, result)
        result.timings["total"] = time.perf_counter() - t0
        self._memos.append(_Memo(key, rgb, result))
        del self._memos[:-self.memo_size]
        return result

    def remember(self, image: Image.Image | str | bytes | Any, result: ParseResult) -> None:
        """Take ``result`` as the parse of ``image``, made before (a recorded run's, kept in its
        ``parses.json``): a parse of the same screen then reads nothing, and one of a screen that
        differs a little reads only what changed (the incremental parse, against it)."""
        rgb = np.asarray(load_image(image))
        if (result.width, result.height) != (rgb.shape[1], rgb.shape[0]):
            return
        key = _image_key(rgb)
        self._memos = [m for m in self._memos if m.key != key] + [_Memo(key, rgb, result)]
        del self._memos[:-self.memo_size]

    def _parse_incremental(self, memo: _Memo, rgb: np.ndarray) -> ParseResult | None:
        t1 = time.perf_counter()
        h, w = rgb.shape[:2]
        regions = changed_regions(memo.rgb, rgb, ignore_status_bar=False, min_area=1, pixel_threshold=8)
        if changed_fraction([Box(0, r.y1, w, r.y2) for r in regions], w, h) > self.incremental_max_change:
            return None
        prev = memo.result.lines
        # Rows to re-read: each changed region grown to whole rows, plus any line it touches.
        bands: list[tuple[int, int]] = []
        for r in regions:
            y1, y2 = r.y1 - 8, r.y2 + 8
            grew = True
            while grew:
                grew = False
                for line in prev:
                    if line.box.y2 > y1 and line.box.y1 < y2 and (line.box.y1 < y1 or line.box.y2 > y2):
                        y1, y2 = min(y1, line.box.y1 - 4), max(y2, line.box.y2 + 4)
                        grew = True
            bands.append((max(0, y1), min(h, y2)))
        bands.sort()
        merged: list[list[int]] = []
        for y1, y2 in bands:
            if merged and y1 <= merged[-1][1] + 16:
                merged[-1][1] = max(merged[-1][1], y2)
            else:
                merged.append([y1, y2])
        def untouched(b: Box) -> bool:
            return not any(b.y2 > y1 and b.y1 < y2 for y1, y2 in merged)

        kept = [line for line in list(prev) + memo.result.glyphs if untouched(line.box)]
        packed = [b for b in memo.result.packed_glyphs if untouched(b)]
        fresh: list[TextLine] = []
        margin = 48  # context around each band, so that text near its edges reads as in a full parse
        bands = [(y1, y2) for y1, y2 in merged if y2 - y1 >= 8]
        read_bands = getattr(self.ocr, "read_bands", None)
        if read_bands is not None:
            fresh = list(read_bands(rgb, bands, margin=margin))
            packed += self._last_packed()
        else:
            for y1, y2 in bands:
                top, bottom = max(0, y1 - margin), min(h, y2 + margin)
                for line in self.ocr.read(rgb[top:bottom]):
                    line = _offset_line(line, 0, top)
                    # Lines centred in the margins are unchanged lines, already kept.
                    if y1 <= (line.box.y1 + line.box.y2) / 2.0 < y2:
                        fresh.append(line)
        lines = kept + fresh
        lines.sort(key=lambda l: (l.box.y1 // 10, l.box.x1))
        return ParseResult(w, h, lines, None, {"ocr": time.perf_counter() - t1}, self.ocr.name,
                           incremental=True, reused_lines=len(kept), changed_regions=regions, packed_glyphs=packed)

    def _last_packed(self) -> list[Box]:
        last = getattr(self.ocr, "last_packed_glyphs", None)
        return list(last()) if last is not None else []

    def lines_alone(self, image: Image.Image | str | bytes | Any) -> list[TextLine]:
        """The parse's text lines with every glyph-sized crop the engine read packed read again
        alone (``ParseResult.packed_glyphs``): the readings Click Text matches a short target
        against. The same as the parse's lines where nothing was packed; a screen's glyphs are read
        alone once (the engine caches the readings)."""
        img = load_image(image)
        res = self.parse(img)
        return self._lines_alone(np.asarray(img.convert("RGB")), res)

    def _lines_alone(self, rgb: np.ndarray, res: ParseResult) -> list[TextLine]:
        read_alone = getattr(self.ocr, "read_alone", None)
        if not res.packed_glyphs or read_alone is None:
            return list(res.lines)
        packed = set(res.packed_glyphs)
        lines = [l for l in res.lines if l.box not in packed] + list(read_alone(rgb, res.packed_glyphs))
        lines.sort(key=lambda l: (l.box.y1 // 10, l.box.x1))
        return split_glyphs(lines)[0]

    def _nearest_read_alone(self, img: Image.Image, text: str, lines: list[TextLine], most: int = 6) -> list[TextLine]:
        """The ``most`` lines likest ``text`` (a rapidfuzz ratio of 50 or more) among those the engine
        reads packed with others (a crop between 2 and 320/48 line heights wide goes into a shared
        320-column input), each read again in an input of its own; only readings that differ."""
        recognize = getattr(self.ocr, "recognize", None)
        if recognize is None or not getattr(self.ocr, "pack", False):
            return []
        from rapidfuzz import fuzz

        t = normalize_text(text)
        scored = [(fuzz.ratio(t, normalize_text(l.text)), l) for l in lines
                  if 2 * l.box.height <= l.box.width < _SHARED_INPUT_RATIO * l.box.height]
        near = [l for r, l in sorted(scored, key=lambda p: -p[0]) if r >= 50][:most]
        if not near:
            return []
        rgb = np.asarray(img.convert("RGB"))
        read = recognize(rgb, [l.box for l in near], keep_all=True, pack_min_ratio=math.inf)
        return [r for r, l in zip(read, near) if r is not None and r.text != l.text]

    def _missed_lines(self, img: Image.Image, res: ParseResult, lines: list[TextLine]) -> list[TextLine]:
        """Texts the line detector does not find (:mod:`perception.missed_text`): on the screen's
        badges (small filled discs and pills) and in display type (a temperature or a clock's time
        in large light digits), where no line read covers them, each crop read alone; what reads
        with a score under 0.7 is left out. Found and read once a screen (kept with its parse)."""
        memo = next((m for m in self._memos if m.result is res), None)
        if memo is not None and memo.missed is not None:
            return memo.missed
        read_alone = getattr(self.ocr, "read_alone", None)
        found: list[TextLine] = []
        if read_alone is not None:
            rgb = memo.rgb if memo is not None else np.asarray(img.convert("RGB"))
            known = [l.box for l in lines]
            boxes = badge_boxes(rgb, known) + display_boxes(rgb, known)
            found = [l for l in read_alone(rgb, boxes) if l.score >= 0.7] if boxes else []
        if memo is not None:
            memo.missed = found
        return found

    def dialog(self, image: Image.Image | str | bytes | Any) -> Box | None:
        """The box of a dialog drawn over a page its scrim dims (:func:`perception.scrim.modal_card`),
        or ``None``: what lies outside it is the page behind the dialog, where a tap does not land
        (Click Text and Click Icon answer none there; element lists mark it). Uses the screen's
        parse (read once a screen)."""
        img = load_image(image)
        return self._dialog(img, self.parse(img))

    def _dialog(self, img: Image.Image, res: ParseResult) -> Box | None:
        """The dialog over a page its scrim dims (:func:`perception.scrim.modal_card`), or ``None``;
        looked for once a screen (kept with its parse)."""
        memo = next((m for m in self._memos if m.result is res), None)
        if memo is not None and memo.dialog is not None:
            return memo.dialog[0]
        rgb = memo.rgb if memo is not None else np.asarray(img.convert("RGB"))
        card = modal_card(rgb, status_bar_height(img.size[1], img.size[0]))
        if memo is not None:
            memo.dialog = (card,)
        return card

    def _script_lines(self, img: Image.Image, res: ParseResult, lang: str) -> list[TextLine]:
        """The line detector's boxes read by Tesseract in ``lang`` (``kor``, ``kor+eng``; see
        :mod:`perception.ocr.scripts`), leaving out boxes the recogniser read surely (score 0.95 or more); read once a screen and
        language (kept with its parse). Empty where the engine has no detector or the pack is
        not installed."""
        memo = next((m for m in self._memos if m.result is res), None)
        if memo is not None and lang in memo.scripts:
            return memo.scripts[lang]
        detect = getattr(self.ocr, "detect", None)
        found: list[TextLine] = []
        if detect is not None and set(lang.split("+")) <= installed_languages():
            rgb = memo.rgb if memo is not None else np.asarray(img.convert("RGB"))
            found = read_detected_lines(rgb, detect(rgb), res.lines, lang)
        if memo is not None:
            memo.scripts[lang] = found
        return found

    def _add_icons(self, rgb: np.ndarray, result: ParseResult) -> None:
        t = time.perf_counter()
        icons = self.detector.detect(rgb, _text_areas(result.lines))
        # OCR reads some icons as a character or two ("Q" for a magnifier, ":" for three dots):
        # such lines are icon candidates too, unless a detected box already covers them or they
        # are punctuation within a line of text.
        for line in result.lines + result.glyphs:
            if (not _is_text_line(line) and all(line.box.iou(i.box) < 0.5 for i in icons)
                    and not _punctuation_in_text(line, result.lines)):
                icons.append(IconBox(_squarish(line.box), 0.6, "ocr"))
        result.icons = icons
        result.timings["icons"] = time.perf_counter() - t

    # ------------------------------------------------------------------------------------------
    # grounding
    # ------------------------------------------------------------------------------------------
    def ground_text(self, image: Image.Image | str | bytes | Any, text: str, position: Sequence[str] | str = (),
                    choose: ChooseFn | None = None, tree: str | bytes | None = None) -> Grounding:
        """Where to tap for Click Text (``text``): exact, then contained, then fuzzy matches.

        ``tree``: the screen's uiautomator XML (hybrid grounding). Where it agrees with the picture,
        nodes whose text (or content-desc) matches are the candidates, tapped at the node's centre;
        otherwise, and when no node matches, the text is found on the picture."""
        img = load_image(image)
        res = self.parse(img)
        pos = parse_position(position)
        fallback = ""
        tree_behind = 0
        hidden: list[Box] = []  # the tree's nodes of this text that a dialog or an overlay hides
        window: Box | None = None  # the dump's window where it is a dialog's or a popup menu's
        if tree is not None:
            st, fallback = self._screen_tree(img, res, tree)
            if st is not None:
                window = st.window
                pairs = st.label_lines("text") + st.label_lines("desc")
                decided = self._tree_decide(img, text, pairs, pos, res.lines, f'the text "{text}"', choose, "text")
                if decided is not None:
                    return decided
                fallback = "no node of the accessibility tree has this text, or the picture has a closer match"
                # nodes of this text behind a dialog or under an overlay (the simulated phone's popup
                # menu over its page, not dimmed): the picture's reading of them is no answer either
                hidden = [m.line.box for m in match_lines(text, [l for _, l in st.label_lines("text", behind=True)
                                                                 + st.label_lines("desc", behind=True)])]
                tree_behind = len(hidden)
        lines = list(res.lines)
        masked = _mask_matches(img, text, lines)
        if masked:
            # A password's mask or a code field's placeholder: marks OCR reads as nothing.
            cands, behind = _before_dialog(lambda: self._dialog(img, res) or window, [Candidate(m.box, m.box.center, m.score, text) for m in masked], hidden)
            g = self._decide(img, cands, pos, res.lines, f'the text "{text}"', choose, what="text",
                             dialog=lambda: self._dialog(img, res) or window)
            return _noted(_behind_dialog(g, behind + tree_behind, text), fallback)
        glyph = is_glyph_target(text)
        found = None if glyph else match_lines(text, lines)
        read_glyphs = getattr(self.ocr, "read_glyphs", None)
        if glyph or (res.packed_glyphs and _only_fuzzy(found)):
            rgb = np.asarray(img.convert("RGB"))
            if res.packed_glyphs:
                # Glyph-sized crops were read packed, which reads a lone glyph less surely: a short
                # target, or one no line holds, is matched against them read alone.
                lines = self._lines_alone(rgb, res)
            if read_glyphs is not None and glyph:
                # A one- or two-character target may be a lone thin glyph the line detector misses.
                lines += read_glyphs(rgb, [l.box for l in lines])
            found = match_lines(text, lines)
        lang = script_languages(text)
        if lang is not None and _only_fuzzy(found):
            # A text in a script the recogniser does not read (Korean, Arabic, Bengali, Sinhala,
            # Cyrillic...): the detected lines read again by Tesseract in that script's pack.
            extra = self._script_lines(img, res, lang)
            if extra:
                found = match_lines(text, lines + extra)
            if "+" in lang and _only_fuzzy(found):
                # English beside the script's pack reads some of the script's words as Latin
                # noise ("뉴스룸" as "FAS"): the script's pack alone, its Latin words taken from
                # the default recogniser's reading (see read_detected_lines).
                extra = extra + self._script_lines(img, res, lang.split("+")[0])
                found = match_lines(text, lines + extra)
        if lang is None and _only_fuzzy(found):
            # A line the recogniser read packed beside others in one input reads a short word less
            # surely ("Israel" as "Isl", "Bangla" as "ngl"): the lines nearest the target read again
            # each alone.
            alone = self._nearest_read_alone(img, text, lines)
            if alone:
                found = match_lines(text, lines + alone)
        if _short_target(text) and _only_fuzzy(found):
            # A short text found nowhere may be one the line detector does not find: on a badge (a
            # count on a red disc, "+3" on an avatar stack, "x10" on a pill) or in display type (a
            # temperature in large light digits). Those are read and matched too.
            missed = self._missed_lines(img, res, lines)
            if missed:
                found = match_lines(text, lines + missed)
        if _only_fuzzy(found):
            # A chip or tab of a row that scrolls sideways, cut by the screen's edge ("Middle").
            found = (found or []) + edge_cut_matches(text, lines, img.size[0], _glyph_cut_at_edge(img, lines))
        if not any(m.kind == "exact" for m in found or []):
            # A search field's query with the cursor at its end: the letter against the cursor
            # lost or a stroke added ("lof" for "lofi", "koreal" for "korea").
            cursor = _cursor_matches(img, text, lines)
            if cursor:
                found = (found or []) + cursor
        matches = _best_tier(found or [], text)
        if len(matches) > 1 and all(m.kind == "contained" for m in matches):
            # A word that is a span of its own inside a sentence (the grey "and" between two white
            # links, "Terms of Use and Privacy Policy"): its own colour sets it apart from the
            # words beside it, where the same word inside a line of one colour is only a part.
            rgb = np.asarray(img.convert("RGB"))
            own = [m for m in matches if _own_span(rgb, m.box, m.line.box)]
            if own:
                matches = own
        cands = [Candidate(m.box, m.box.center, round(m.score, 4), m.line.text) for m in matches]
        # The same text in the status bar and on the app's screen (the clock and a timestamp, the
        # battery level and a figure): the app's; a status-bar text found alone is still found.
        top = status_bar_height(img.size[1], img.size[0])
        cands = ([c for c in cands if c.point.y >= top]
                 or [c for c, m in zip(cands, matches) if not _clock_for_no_time(m, text, top)])
        cands, behind = _before_dialog(lambda: self._dialog(img, res) or window, cands, hidden)
        g = self._decide(img, cands, pos, res.lines, f'the text "{text}"', choose, what="text",
                         dialog=lambda: self._dialog(img, res) or window)
        return _noted(_behind_dialog(g, behind + tree_behind, text), fallback)

    def ground_app(self, image: Image.Image | str | bytes | Any, name: str,
                   choose: ChooseFn | None = None, tree: str | bytes | None = None) -> Grounding:
        """Where to tap for Open App (``name``): the icon above the app's label on the home screen
        (with ``tree``, where it agrees with the picture: the launcher node of that name)."""
        img = load_image(image)
        rgb = np.asarray(img)
        res = self.parse(img)
        fallback = ""
        if tree is not None:
            st, fallback = self._screen_tree(img, res, tree)
            if st is not None:
                pairs = [(n, l) for n, l in st.label_lines("text") + st.label_lines("desc") if n.clickable]
                found = self._tree_decide(img, name, pairs, (), res.lines, f'the app "{name}"', choose, "app")
                if found is not None:
                    return found
                fallback = "no node of the accessibility tree has this name, or the picture has a closer match"
        matches = _best_tier(match_lines(name, res.lines))
        cands: list[Candidate] = []
        for m in matches:
            icon = icon_above_label(rgb, m.line.box, [l.box for l in res.lines if l is not m.line])
            if icon is None:
                cands.append(Candidate(m.line.box, m.line.box.center, round(m.score * 0.8, 4), m.line.text))
            else:
                cands.append(Candidate(icon, icon.center, round(m.score, 4), m.line.text))
        cands.sort(key=lambda c: -c.score)
        return _noted(self._decide(img, cands, (), res.lines, f'the app "{name}"', choose, what="app"), fallback)

    def ground_icon(self, image: Image.Image | str | bytes | Any, description: str | IconQuery,
                    position: Sequence[str] | str = (), choose: ChooseFn | None = None,
                    tree: str | bytes | None = None) -> Grounding:
        """Where to tap for Click Icon (``description``, ``position``).

        ``description``: the words, or the :class:`~mobile_agent.perception.icons.lexicon.IconQuery`
        read from them. It is read once, here: every stage after (the tree's nodes, the picture's
        candidates, the scores, the messages) takes that query.

        ``tree``: the screen's uiautomator XML (hybrid grounding). Where it agrees with the picture,
        nodes whose content-desc, resource id or glyph family fits the description are the
        candidates; otherwise the icon is found on the picture, with the tree's clickable
        icon-sized nodes added to the detected boxes."""
        from mobile_agent.perception.icons.lexicon import IconQuery

        query = description if isinstance(description, IconQuery) else IconQuery.parse(description)
        img = load_image(image)
        rgb = np.asarray(img)
        res = self.parse(img, icons=True)
        pos = parse_position(position)
        if not pos:  # a position written in the description in another language ("右上角的设置")
            from mobile_agent.perception.icons.languages import description_position

            pos = description_position(query.description)
        icons = list(res.icons or [])
        fallback = ""
        window: Box | None = None  # the dump's window where it is a dialog's or a popup menu's
        if tree is not None:
            st, fallback = self._screen_tree(img, res, tree)
            if st is not None:
                window = st.window
                found = self._tree_icon(img, rgb, st, query, pos, res, choose)
                if found is not None:
                    return found
                fallback = "no node of the accessibility tree fits this description"
                icons += [IconBox(b, 0.7, "tree") for b in st.icon_boxes()
                          if all(b.iou(i.box) < 0.5 for i in icons)]
        g = self._ground_icon_vision(img, rgb, res, icons, query, pos, choose, window)
        # a matcher that could not load its model (the learned recogniser's file) says so
        return _noted(_noted(g, fallback), getattr(self.matcher, "problem", ""), prefix=True)

    def _ground_icon_vision(self, img: Image.Image, rgb: np.ndarray, res: ParseResult, icons: list[IconBox],
                            query: IconQuery, pos: tuple[str, ...], choose: ChooseFn | None,
                            window: Box | None = None) -> Grounding:
        """Click Icon on the picture, stage by stage: the candidates, those a dialog leaves, the
        answers without a glyph match, the scores, the ranking by the hint, the decision."""
        cs = self._icon_candidates(img, rgb, res, icons, query, pos)
        if self._keep_dialog_candidates(img, res, cs, window):
            return Grounding("none", [], None, _icon_behind_dialog(query.description))
        early = self._answer_without_icons(img, res, cs, query, pos, window)
        if early is None:
            early = self._answer_without_matcher(img, rgb, res, cs, query, pos, choose)
        if early is not None:
            return early
        scores = self._icon_scores(rgb, res, cs.icons, query)
        ranked = _ranked_by_hint(rgb, cs.icons, scores, pos)
        return self._icon_decision(img, cs, ranked, max(scores), query, choose)

    def _icon_candidates(self, img: Image.Image, rgb: np.ndarray, res: ParseResult, icons: list[IconBox],
                         query: IconQuery, pos: tuple[str, ...]) -> _IconCandidates:
        """The candidates: controls drawn as their words, controls named by their label, and the
        detected icons in the hint's region, less the status bar's glyphs."""
        from mobile_agent.perception.icons import priors
        from mobile_agent.perception.icons.grounding import TEXT_CONTROL_SCORE, labelled_controls, text_controls
        from mobile_agent.perception.icons.screen import status_bar_excluded

        w, h = img.size
        description = query.description  # the words a control's text or its label reads
        # A control drawn as its words (a link in a sentence, a toolkit's text button): its words.
        texts = [l for l in res.lines if _is_text_line(l)]
        words = [b for b in text_controls(description, texts, [i.box for i in icons], _labelled)
                 if not pos or in_region(b, pos, w, h)] if priors.on("text_controls") else []
        worded = [Candidate(b, b.center, TEXT_CONTROL_SCORE, None) for b in words]
        # A control named by the text that labels it (a setting's radio or switch, a form row's
        # "FIELD : ROLE"): found by its label, put before every glyph match.
        labelled = [Candidate(b, b.center, 1.0, None)
                    for b in labelled_controls(description, texts, [i.box for i in icons], rgb,
                                               lambda boxes, words: self._glyph_scores(rgb, boxes, words))
                    if not pos or in_region(b, pos, w, h)] if priors.on("labelled_controls") else []
        if pos:
            icons = [i for i in icons if in_region(i.box, pos, w, h)]
        if priors.on("status_bar"):
            icons = [i for i in icons if not status_bar_excluded(i.box, query, w, h)] or icons
        return _IconCandidates(icons, worded, labelled)

    def _keep_dialog_candidates(self, img: Image.Image, res: ParseResult, cs: _IconCandidates,
                                window: Box | None) -> bool:
        """Leaves out of ``cs`` the candidates behind a dialog over the page; True where all were."""
        from mobile_agent.perception.icons import priors

        if not (cs.icons or cs.worded or cs.labelled):
            return False
        # A dialog over a page its scrim dims: the page's icons and controls (its top bar's
        # actions, a list's hearts) are not where a tap lands; the dialog's own are.
        card = (self._dialog(img, res) or window) if priors.on("dialog") else None
        if card is None:
            return False
        n = len(cs.icons) + len(cs.worded) + len(cs.labelled)
        cs.icons = [i for i in cs.icons if card.contains_point(i.box.center)]
        cs.worded = [c for c in cs.worded if card.contains_point(c.point)]
        cs.labelled = [c for c in cs.labelled if card.contains_point(c.point)]
        cs.behind = n - len(cs.icons) - len(cs.worded) - len(cs.labelled)
        cs.floating = card.y2 < SHEET_BOTTOM * img.height
        return bool(n and not (cs.icons or cs.worded or cs.labelled))

    def _answer_without_icons(self, img: Image.Image, res: ParseResult, cs: _IconCandidates, query: IconQuery,
                              pos: tuple[str, ...], window: Box | None) -> Grounding | None:
        """Where no icon is left: the controls drawn as the words, else none, naming the texts."""
        if cs.icons:
            return None
        if cs.worded:
            return Grounding("found", cs.worded[: self.max_candidates], cs.worded[0], "")
        return Grounding("none", [], None, self._no_icon_message(img, res, query, pos, window))

    def _no_icon_message(self, img: Image.Image, res: ParseResult, query: IconQuery, pos: tuple[str, ...],
                         window: Box | None) -> str:
        """The answer's message where no icon is found: the texts on the dialog or on the screen."""
        w, h = img.size
        where = f" in the {' '.join(pos)} part of the screen" if pos else ""
        card = self._dialog(img, res) or window
        texts = _on_dialog(res.lines, card) if card is not None else res.lines
        return (f'no icon found{where} for "{query.description}"; texts on '
                + ("the dialog: " if card is not None else "screen: ")
                + _quote_list([l.text for l in texts][:8]) + _keyboard_note(res.lines, w, h))

    def _answer_without_matcher(self, img: Image.Image, rgb: np.ndarray, res: ParseResult, cs: _IconCandidates,
                                query: IconQuery, pos: tuple[str, ...], choose: ChooseFn | None) -> Grounding | None:
        """Where no matcher knows the description's glyph: the labelled or worded controls, else
        the icons as numbered marks (by the open vocabulary where it is sure); None where one knows."""
        matcher = self.matcher
        usable = matcher is not None and (not hasattr(matcher, "knows") or matcher.knows(query.description))
        if usable:
            return None
        if cs.labelled or cs.worded:
            both = cs.labelled + cs.worded
            return Grounding("found", both[: self.max_candidates], both[0], "")
        cands = self._unmatched_candidates(img, rgb, cs.icons, query, pos)
        return self._decide(img, cands, pos, res.lines, f'the icon "{query.description}"', choose, what="icon",
                            allow_many=True)

    def _unmatched_candidates(self, img: Image.Image, rgb: np.ndarray, icons: list[IconBox], query: IconQuery,
                              pos: tuple[str, ...]) -> list[Candidate]:
        """Set-of-marks: the icons by the detector's score and the hint, or by the open vocabulary."""
        from mobile_agent.perception.icons import priors

        w, h = img.size
        matcher = self.matcher
        # Set-of-marks: the planner picks; without a planner only a single candidate can be taken.
        icons.sort(key=lambda i: -(i.score * (0.5 + 0.5 * position_score(i.box, pos, w, h))))
        # No glyph is named: a score here is the detector's (how sure it is of a box), not a
        # match; less UNMATCHED it stays under any match's (a word's control 0.75, a glyph's
        # 0.8), and differences, which decide found or ambiguous, are kept.
        cands = [Candidate(i.box, i.box.center, round(max(0.0, i.score - UNMATCHED), 4), None) for i in icons]
        if matcher is not None and hasattr(matcher, "open_scores") and priors.on("open_vocabulary"):
            # a description the lexicon does not know ("Anchor"): the glyphs its words name,
            # by the recogniser's embedding (icons.learned), where one is close enough
            from mobile_agent.perception.icons.learned import OPEN_SURE

            opens = matcher.open_scores(rgb, [i.box for i in icons], query.description)
            if opens and max(opens) >= OPEN_SURE:
                order: list[int] = []
                for k in sorted(range(len(icons)), key=lambda k: -opens[k]):
                    # a part of a glyph a better box holds whole is no candidate of its own
                    if not any(icons[j].box.contains_point(icons[k].box.center)
                               and icons[j].box.area > icons[k].box.area for j in order):
                        order.append(k)
                cands = [Candidate(icons[k].box, icons[k].box.center, round(opens[k], 4), None) for k in order]
        return cands

    def _icon_scores(self, rgb: np.ndarray, res: ParseResult, icons: list[IconBox], query: IconQuery) -> list[float]:
        """Each icon's glyph score, moved by the priors: the context text's bonus, the system bars'
        and the keyboard's factors, the layout's and the framework's bonuses."""
        from mobile_agent.perception.icons import priors
        from mobile_agent.perception.icons.screen import ScreenLayout

        assert self.matcher is not None
        h, w = rgb.shape[:2]
        shapes = self.matcher.score(rgb, [i.box for i in icons], query.description)
        scores = list(shapes)
        if priors.on("nearby_label"):
            scores = _context_bonus(icons, scores, query, res.lines, w)
        layout = ScreenLayout.read([i.box for i in res.icons or []], res.lines, w, h)
        if priors.on("status_bar"):
            scores = [sc * layout.system_bar_factor(i.box, query) for i, sc in zip(icons, scores)]
        if priors.on("keyboard"):
            scores = _keyboard_factors(icons, scores, query, layout)
        scores = self._layout_bonus(rgb, res, icons, scores, query)
        return self._framework_bonus(res, icons, scores, shapes, query, w, h)

    def _layout_bonus(self, rgb: np.ndarray, res: ParseResult, icons: list[IconBox], scores: list[float],
                      query: IconQuery) -> list[float]:
        """``scores`` plus the layout prior: where apps put icons of the query's families (toolbar
        ends, bottom navigation, FAB)."""
        from mobile_agent.perception.icons import priors
        from mobile_agent.perception.icons.layout import layout_priors

        h, w = rgb.shape[:2]
        fams = set(query.families)
        if not (fams and self.layout_weight and priors.on("layout_priors")):
            return scores
        # a line of a letter or a digit in a disc makes it a date or an avatar; OCR reading
        # the FAB's plus as "+" does not
        worded_lines = [l.box for l in res.lines if any(ch.isalnum() for ch in l.text)]
        usual = layout_priors(fams, [i.box for i in icons], w, h, rgb, worded_lines)
        return [sc + self.layout_weight * p for p, sc in zip(usual, scores)]

    def _framework_bonus(self, res: ParseResult, icons: list[IconBox], scores: list[float], shapes: Sequence[float],
                         query: IconQuery, w: int, h: int) -> list[float]:
        """``scores`` plus the framework prior: the framework's own names ("Navigate up", "More
        options") put the widget at a fixed place, a strong prior."""
        from mobile_agent.perception.icons import priors
        from mobile_agent.perception.icons.layout import framework_end, framework_prior

        # a strong prior, for a candidate whose shape is not clearly worse than the best
        place = (framework_prior(query.description, [i.box for i in icons], [l.box for l in res.lines], w, h)
                 if priors.on("framework_prior") else [0.0] * len(icons))
        if not (any(place) and self.framework_weight):
            return scores
        # The framework's phrases name a place, not a shape: real apps draw their up button as
        # an arrow, a cross, a chevron or a hamburger ("Navigate up" as a cross on an editor,
        # "Collapse" as a down arrow on a player), so the bar's end icon wins whatever its
        # shape (it is put above the best by the weight), where a text on its row makes the row
        # a bar (the screen's title, a search field's query; a grid of icons is no bar). Else,
        # and for the user's own picture, the shape must not be clearly worse than the best.
        top = max(shapes)
        if framework_end(query.description) and _titled_bar(icons[place.index(1.0)].box, res.lines):
            best = max(scores)
            return [max(sc, best + self.framework_weight) if p else sc for sc, p in zip(scores, place)]
        return [sc + self.framework_weight * p * (shape >= 0.75 * top) for sc, p, shape in zip(scores, place, shapes)]

    def _icon_decision(self, img: Image.Image, cs: _IconCandidates, ranked: list[tuple[IconBox, float]],
                       matched: float, query: IconQuery, choose: ChooseFn | None) -> Grounding:
        """The decision: found (the labelled control, a strictly best match), asked of the planner
        (close matches), or none (the icon named is the page's, behind a dialog)."""
        from mobile_agent.perception.icons.grounding import TEXT_CONTROL_SCORE

        cands = [Candidate(i.box, i.box.center, round(float(s), 4), None) for i, s in ranked]
        if cs.worded and matched < TEXT_CONTROL_SCORE:
            cands = cs.worded + cands  # no glyph matches as well as the control's own words
        if cs.labelled:
            return Grounding("found", (cs.labelled + [c for c in cands if all(c.box.iou(l.box) < 0.5
                                                                              for l in cs.labelled)])
                             [: self.max_candidates], cs.labelled[0], "")
        best = cands[0]
        if cs.behind and cs.floating and best.score < DIALOG_SURE:
            # Icons were left out behind a dialog and nothing on the dialog matches surely (a
            # letter of its button, its title's glyph): the icon named is the page's, not tapped.
            return Grounding("none", cands[: self.max_candidates], None, _icon_behind_dialog(query.description))
        close = [c for c in cands[:5] if best.score - c.score <= 0.02]
        if len(close) > 1 and choose is not None:
            return self._ask(img, close, f'Which numbered box is the icon "{query.description}"?', choose)
        return Grounding("found", cands[: self.max_candidates], best, "")

    def _glyph_scores(self, rgb: np.ndarray, boxes: list[Box], words: str) -> list[float] | None:
        """The glyph matcher's scores of ``boxes`` for ``words``; None where it reads no glyph in them."""
        m = self.matcher
        if m is None or (hasattr(m, "knows") and not m.knows(words)):
            return None
        return [float(s) for s in m.score(rgb, boxes, words)] if boxes else []

    # ------------------------------------------------------------------------------------------
    # hybrid grounding: the accessibility tree beside the picture
    # ------------------------------------------------------------------------------------------
    def _screen_tree(self, img: Image.Image, res: ParseResult, tree: str | bytes) -> tuple[ScreenTree | None, str]:
        """The tree when it agrees with the picture, else ``None`` and why vision grounds instead."""
        st = ScreenTree(tree, img.width, img.height)
        why = st.check_against(res.lines)
        if why is not None:
            return None, why
        # the page behind a dialog (the picture's, or the dump's own window: a dialog's or a popup
        # menu's) is no candidate (hybrid.ScreenTree.visible)
        st.set_dialog(self._dialog(img, res) or st.window)
        return st, ""

    def _tree_decide(self, img: Image.Image, target: str, pairs: list[tuple[TreeNode, TextLine]],
                     pos: tuple[str, ...], lines: list[TextLine], what_target: str, choose: ChooseFn | None,
                     what: str) -> Grounding | None:
        """Ground ``target`` among tree nodes' labels; ``None`` when no node matches, or when the
        picture holds a closer match than any node (an exact text in a WebView the tree does not
        describe, where the tree only has a longer text that contains it)."""
        matches = _best_tier(match_lines(target, [l for _, l in pairs]))
        if not matches:
            return None
        seen = _best_tier(match_lines(target, list(lines)))
        if seen and _TIERS[seen[0].kind] < _TIERS[matches[0].kind]:
            return None
        cands = _tree_candidates([(m.line.box, m.score, m.line.text) for m in matches])
        g = self._decide(img, cands, pos, lines, what_target, choose, what=what)
        return _noted(g, "from the accessibility tree", prefix=True)

    def _tree_icon(self, img: Image.Image, rgb: np.ndarray, st: ScreenTree, query: IconQuery,
                   pos: tuple[str, ...], res: ParseResult, choose: ChooseFn | None) -> Grounding | None:
        """Tree nodes that fit an icon description: its content-desc word for word, then its
        resource id, then the same glyph family ("back arrow" and "Navigate up"). Several nodes
        that fit equally well (a launcher's icon and its dock copy, an app's Home tab and the
        navigation bar's) are ranked by the picture, as vision ranks icons, when no planner is there
        to choose and no position tells them apart."""
        from mobile_agent.perception.icons.lexicon import IconQuery, description_families
        from mobile_agent.perception.icons.screen import system_bar_factor

        lines = res.lines
        description = query.description  # the words a node's content-desc or resource id reads

        found: list[tuple[Box, float, str]] = []
        for attr, weight in (("desc", 1.0), ("rid_words", 0.85)):
            ms = [m for m in match_lines(description, [l for _, l in st.label_lines(attr)])
                  if m.kind in ("exact", "contained")]
            found += [(m.line.box, weight * m.score, m.line.text) for m in _best_tier(ms)]
            if found:
                break
        if not found:
            fams = query.families
            if fams:
                for attr in ("desc", "rid_words"):
                    for node, line in st.label_lines(attr):
                        if fams & description_families(line.text):
                            # Named by family only: the system bars' glyphs lose to the app's
                            # ("back arrow" is the toolbar's Navigate up, not the Back triangle).
                            factor = system_bar_factor(line.box, IconQuery.parse(""), img.width, img.height)
                            found.append((line.box, 0.7 * factor, line.text))
                    if found:
                        break
        if not found:
            return None
        near = _context_boxes(query, lines)
        if near and len(found) > 1:
            found = [(b, sc + 0.3 * _nearness(b, near, img.width), t) for b, sc, t in found]
        cands = _tree_candidates(found)
        top = cands[0].score
        tied = [c for c in cands if c.score >= top - 0.02]
        if len(tied) > 1 and choose is None and not pos:
            g = self._ground_icon_vision(img, rgb, res, [IconBox(c.box, 1.0, "tree") for c in tied],
                                         query, pos, None)
            if g.status == "found" and g.chosen is not None:
                return _noted(g, "from the accessibility tree, ranked by the picture", prefix=True)
        g = self._decide(img, tied, pos, lines, f'the icon "{description}"', choose, what="icon", allow_many=True)
        return _noted(g, "from the accessibility tree", prefix=True)

    def screen_changed(self, before: Image.Image | Any, after: Image.Image | Any) -> bool:
        """Whether the content differs (status bar and small noise ignored)."""
        return screen_changed(load_image(before), load_image(after))

    # ------------------------------------------------------------------------------------------
    def _decide(self, img: Image.Image, cands: list[Candidate], pos: tuple[str, ...], lines: list[TextLine],
                target: str, choose: ChooseFn | None, what: str, allow_many: bool = False,
                dialog: Callable[[], Box | None] | None = None) -> Grounding:
        """``dialog``: where nothing is found, the dialog up over the page (``_dialog``), whose texts
        alone are named as the closest (the page's, behind its scrim, are not to be tapped)."""
        w, h = img.size
        if pos and cands:
            inside = [c for c in cands if in_region(c.box, pos, w, h)]
            if inside:
                cands = inside
        if not cands:
            where = "on the screen"
            hidden = _keyboard_note(lines, w, h)
            card = dialog() if dialog is not None else None
            if card is not None:
                lines, where = _on_dialog(lines, card), "on the dialog"
            near = closest_texts(target.split('"')[1] if '"' in target else target, lines)
            msg = f"{target} is not on the screen"
            if near:
                msg += f"; the closest texts {where} are " + _quote_list(near)
            return Grounding("none", [], None, msg + hidden)
        if len(cands) == 1:
            return Grounding("found", cands, cands[0], "")
        if len(cands) > self.max_candidates and not allow_many:
            return Grounding("too_many", cands, None,
                             f"{target} matches {len(cands)} places on the screen; give a more specific target "
                             f"(more of the text, or a position such as top or bottom)")
        shown = cands[: self.max_candidates]
        question = f"Several places match {target}. Which numbered box is meant?"
        if choose is not None:
            return self._ask(img, shown, question, choose)
        if pos:
            best = max(shown, key=lambda c: position_score(c.box, pos, w, h))
            return Grounding("found", shown, best, "")
        # Without a planner: a single strictly best match wins, else report the ambiguity.
        if shown[0].score > shown[1].score + 0.05:
            return Grounding("found", shown, shown[0], "")
        marked = draw_marks(img, [c.box for c in shown])
        return Grounding("ambiguous", shown, None,
                         f"{target} matches {len(shown)} places: "
                         + "; ".join(f"{i}: {c.text or 'icon'} at ({c.point.x}, {c.point.y})" for i, c in enumerate(shown)),
                         marked)

    def _ask(self, img: Image.Image, cands: list[Candidate], question: str, choose: ChooseFn) -> Grounding:
        marked = draw_marks(img, [c.box for c in cands])
        idx = choose(marked, list(cands), question)
        if idx is None:
            return Grounding("none", list(cands), None, "the planner chose none of the numbered candidates", marked)
        if not (0 <= int(idx) < len(cands)):
            return Grounding("ambiguous", list(cands), None,
                             f"choice {idx} is not one of the numbered candidates 0..{len(cands) - 1}", marked)
        return Grounding("found", list(cands), cands[int(idx)], "", marked)


_TIERS = {"exact": 0, "contained": 1, "fuzzy": 2}

# What a Click Icon candidate's score loses where the description names no glyph (the set of
# marks, the top bar's own actions): a detector's score of 0.95 is then 0.6, a guess by place.
UNMATCHED = 0.35


def _keyboard_note(lines: Sequence[TextLine], width: int, height: int) -> str:
    """Where nothing is found and the on-screen keyboard is up (its letter keys read as rows of
    single letters: :func:`icons.layout.keyboard_top`): what it covers is not on the picture (a
    search's results, a form's next field, a FAB under it), which the planner is told, with the way
    to see it; empty otherwise."""
    from mobile_agent.perception.icons.layout import keyboard_top

    top = keyboard_top([(l.box, l.text) for l in lines], width, height)
    if top is None:
        return ""
    return (f"; the on-screen keyboard covers the screen below y={top}: what lies under it is not seen "
            "(Back closes the keyboard)")


def _tree_candidates(found: Sequence[tuple[Box, float, str]]) -> list[Candidate]:
    """Candidates at tree nodes' centres, best first; one per node (a node's text and its
    content-desc, or a node and its same-sized parent, are one place)."""
    out: list[Candidate] = []
    for box, score, text in sorted(found, key=lambda f: -f[1]):
        if any(c.box.iou(box) > 0.8 for c in out):
            continue
        out.append(Candidate(box, box.center, round(float(score), 4), text))
    return out


def _noted(g: Grounding, note: str, prefix: bool = False) -> Grounding:
    """``g`` with ``note`` (where the grounding came from, or why the tree was not used) added to
    its message."""
    if not note:
        return g
    if prefix:
        g.message = note + (f": {g.message}" if g.message else "")
    else:
        g.message = (g.message + "; " if g.message else "") + f"vision grounding ({note})"
    return g


def _offset_line(line: TextLine, dx: int, dy: int) -> TextLine:
    from mobile_agent.perception.results import Word

    return TextLine(line.text, line.box.offset(dx, dy), line.score,
                    tuple(Word(wd.text, wd.box.offset(dx, dy), wd.score) for wd in line.words))


def _is_text_line(line: TextLine) -> bool:
    """OCR sometimes reads an icon as one or two characters; such lines stay icon candidates."""
    t = line.text.strip()
    if len(t) <= 2 and line.box.width < 1.6 * line.box.height:
        return False
    return line.score >= 0.6


def _punctuation_in_text(line: TextLine, lines: Sequence[TextLine]) -> bool:
    """A short OCR line without letters or digits (",", ".", "-") right next to a text line of
    the same row: punctuation of that text, not an icon."""
    if any(ch.isalnum() for ch in line.text):
        return False
    b = line.box
    for other in lines:
        if other is line or not _is_text_line(other):
            continue
        o = other.box
        overlap = min(b.y2, o.y2) - max(b.y1, o.y1)
        gap = max(o.x1 - b.x2, b.x1 - o.x2, 0)
        if overlap > 0.3 * min(b.height, o.height) and gap < 0.8 * o.height:
            return True
    return False


def _text_areas(lines: Sequence[TextLine]) -> list[Box]:
    """Areas that hold text, to take out before icon detection: the words made of letters or
    digits (an arrow or a pictogram read as part of a line stays in), or whole text-like lines.

    Two words of a line side by side are taken out with the gap between them: a word's box comes
    from the recogniser's column positions, which may start or end a few pixels inside its first
    or last letter (and move by a pixel or two with what the crop was read beside), and the letter's
    cut-off part would otherwise be an icon candidate (the "a" of "at" matched as a comment glyph).
    An icon between two words of one line is at least a line height wide, so a gap of less than
    that holds none."""
    out: list[Box] = []
    for line in lines:
        if not _is_text_line(line):
            continue
        if not line.words:
            out.append(line.box)
            continue
        run: Box | None = None
        for w in line.words:
            if not _is_word(w):
                if run is not None:
                    out.append(run)
                run = None
            elif run is not None and 0 <= w.box.x1 - run.x2 < line.box.height:
                run = run.union(w.box)
            else:
                if run is not None:
                    out.append(run)
                run = w.box
        if run is not None:
            out.append(run)
    return out


def _is_word(word: Any) -> bool:
    """A word of two or more letters/digits, or a wide character of a wide script (a Chinese or
    Japanese character is as wide as its line is tall); a lone glyph ("Q", "+") may be an icon, and
    so may a lone Latin letter or digit read wider than tall (a back arrow read as "1": no Latin
    letter or digit is 1.2 times as wide as its line is tall)."""
    n = sum(ch.isalnum() for ch in word.text)
    if n >= 2:
        return True
    return n == 1 and word.box.width >= 1.2 * word.box.height and any(
        ch.isalnum() and unicodedata.east_asian_width(ch) in ("W", "F") for ch in word.text)


@dataclass
class _IconCandidates:
    """Click Icon's candidates on the picture: the detected icons, the controls drawn as their
    words (``worded``) and those named by their label (``labelled``); ``behind``: how many a dialog
    over the page left out, ``floating``: whether that dialog floats (not a sheet up from the
    bottom edge)."""

    icons: list[IconBox]
    worded: list[Candidate]
    labelled: list[Candidate]
    behind: int = 0
    floating: bool = False


def _context_bonus(icons: Sequence[IconBox], scores: list[float], query: IconQuery, lines: Sequence[TextLine],
                   width: int) -> list[float]:
    """``scores`` plus the context text's bonus: an icon beside a text the description names
    ("Play Calm Evening") gains."""
    near = _context_boxes(query, lines)
    if not near:
        return scores
    return [sc + 0.3 * _nearness(i.box, near, width) for i, sc in zip(icons, scores)]


def _keyboard_factors(icons: Sequence[IconBox], scores: list[float], query: IconQuery, layout: Any) -> list[float]:
    """``scores`` less the open keyboard's icons, unless the query names a key."""
    from mobile_agent.perception.icons.layout import KEYBOARD_FACTOR

    # The open keyboard's toolbar and keys are the input method's, not the app's (a search
    # field's microphone beside the keyboard's own): they lose unless a key is named. The
    # system's three-button bar under the keyboard is not the keyboard's.
    if query.keyboard:
        return scores
    return [sc * (KEYBOARD_FACTOR if layout.on_keyboard(i.box) else 1.0) for i, sc in zip(icons, scores)]


def _ranked_by_hint(rgb: np.ndarray, icons: Sequence[IconBox], scores: Sequence[float],
                    pos: tuple[str, ...]) -> list[tuple[IconBox, float]]:
    """The icons best first, by score, then the detector's score and the hint; equals (the same
    glyph drawn the same way) told apart by the hint's place."""
    from mobile_agent.perception.icons.offline import same_glyph

    h, w = rgb.shape[:2]
    ranked = sorted(zip(icons, scores), key=lambda p: -(p[1] + 0.05 * p[0].score
                                                         + (0.05 * position_score(p[0].box, pos, w, h) if pos
                                                            else 0.0)))
    if pos and len(ranked) > 1:
        # Equals (the same heart on every post: the same glyph drawn the same way, scored within
        # 0.05, the margin by which _decide calls a match strictly best) are told apart by the
        # hint as a user means it: "top" the topmost of them, "right" alone the rightmost nearest
        # the middle (positions.position_order); the rest keep their rank. Other glyphs close
        # in score (a composer's gallery beside its camera) are no equals.
        near = [p for p in ranked if p[1] >= ranked[0][1] - 0.05]
        # the best's place, and other boxes of it (a glyph's box inside a larger one)
        here = [p for p in near if p[0].box.contains_point(ranked[0][0].box.center)
                or ranked[0][0].box.contains_point(p[0].box.center)]
        equal = [p for p in near if any(p is q or same_glyph(rgb, q[0].box, p[0].box) for q in here)]
        if len(equal) > 1:
            order = position_order([i.box for i, _ in equal], pos, w, h)
            ranked = [equal[order[0]]] + [p for p in ranked if p is not equal[order[0]]]
    return ranked


def _context_boxes(query: IconQuery, lines: Sequence[TextLine]) -> list[Box]:
    """Boxes of screen texts named in an icon's description ("Play Calm Evening", "Dark theme
    switch"): the query's context text, else the longest run of the description's words that is a
    text on the screen."""
    from mobile_agent.perception.icons.offline import description_glyphs

    words = query.description.split()[:8]
    phrase = query.context
    spans = [phrase] if len(phrase) >= 3 else []
    for n in range(len(words), 0, -1):
        for i in range(0, len(words) - n + 1):
            span = " ".join(words[i:i + n])
            if len(span) < 3 or span in spans:
                continue
            if n == 1 and description_glyphs(span):
                continue  # a lone shape word ("Home") names the icon, not a text beside it
            spans.append(span)
    for span in spans:
        ms = [m for m in match_lines(span, list(lines)) if m.kind in ("exact", "contained") and m.score >= 0.75]
        if ms:
            return [m.box for m in _best_tier(ms)][:3]
    return []


def _nearness(box: Box, texts: Sequence[Box], width: int) -> float:
    """1 for an icon on the same row as one of ``texts`` and close to it, falling off with distance."""
    best = 0.0
    c = box.center
    for t in texts:
        if t.contains_point(c):
            continue
        band = max(t.height, 40)
        dy = max(0, abs(c.y - t.center.y) - band // 2)
        dx = max(0, t.x1 - c.x, c.x - t.x2)
        best = max(best, max(0.0, 1.0 - dy / (2.0 * band)) * (1.0 - 0.5 * dx / max(1, width)))
    return best


def _labelled(icon: Box, labels: Sequence[Box]) -> bool:
    """Whether one of ``labels`` is the icon's own caption: right below it, or right beside it on
    its row."""
    side = max(icon.width, icon.height)
    for t in labels:
        below = 0 <= t.y1 - icon.y2 + side // 5 <= side and t.x1 - side // 2 <= icon.center.x <= t.x2 + side // 2
        overlap = min(t.y2, icon.y2) - max(t.y1, icon.y1)
        beside = overlap > 0.5 * min(t.height, icon.height) and 0 <= t.x1 - icon.x2 <= side * 0.6
        if below or beside:
            return True
    return False


def _squarish(box: Box) -> Box:
    """A box grown to at least a square around its centre (a thin glyph's tap target)."""
    side = max(box.width, box.height)
    c = box.center
    return Box(c.x - side // 2, c.y - side // 2, c.x - side // 2 + side, c.y - side // 2 + side)


_TIME = re.compile(r"\d{1,2}\s*:\s*\d{2}")


def _clock_for_no_time(match: TextMatch, target: str, top: int) -> bool:
    """Whether ``match`` is the status bar's clock found for a ``target`` that is no time of day:
    a slider's value "0.0" that the app does not draw was found in the clock and the glyph read
    beside it ("2:000"). The match is over the clock's time (a word of the line that reads as a
    time, or the whole line); the battery's "78%" beside the clock is still found."""
    if match.box.center.y >= top or _TIME.search(target) is not None:
        return False
    words = [w for w in match.line.words if _TIME.match(w.text.strip())]
    if not match.line.words:
        return _TIME.match(match.line.text.strip()) is not None
    return any(min(w.box.x2, match.box.x2) > max(w.box.x1, match.box.x1) for w in words)


def _ink_colour(crop: np.ndarray, ground: np.ndarray) -> np.ndarray | None:
    """The median colour of what differs from ``ground`` by more than 60 in ``crop``; None where
    too little does."""
    if crop.size == 0:
        return None
    ink = np.abs(crop.astype(np.int16) - ground).max(axis=2) > 60
    if int(ink.sum()) < 12:
        return None
    return np.median(crop[ink].astype(np.int16), axis=0)


def _own_span(rgb: np.ndarray, part: Box, line: Box) -> bool:
    """Whether the words in ``part`` of the text line ``line`` are drawn in another colour than the
    words on both sides of them in that line (by more than 60 in a channel): a span of its own
    inside a sentence, a link or the plain word between two links. A part at a line's start or
    end is none (a grey address before a page's title is one text in two colours, and the same
    address elsewhere on the screen is as much the request)."""
    h, w = rgb.shape[:2]
    y1, y2 = max(0, line.y1), min(h, line.y2)
    if part.x1 <= line.x1 and part.x2 >= line.x2:
        return False
    crop = rgb[y1:y2, max(0, line.x1):min(w, line.x2)]
    if crop.size == 0:
        return False
    rim = np.concatenate([crop[:2], crop[-2:]]).reshape(-1, 3).astype(np.int16)
    ground = np.median(rim, axis=0)
    mine = _ink_colour(rgb[y1:y2, max(0, part.x1):min(w, part.x2)], ground)
    if mine is None:
        return False
    sides = [_ink_colour(rgb[y1:y2, max(0, line.x1):max(0, part.x1 - 2)], ground),
             _ink_colour(rgb[y1:y2, min(w, part.x2 + 2):min(w, line.x2)], ground)]
    return all(c is not None and float(np.abs(c - mine).max()) > 60 for c in sides)


_CURSOR_STROKES = "l1i|!I"


def _glyph_cut_at_edge(img: Image.Image, lines: Sequence[TextLine]) -> list[tuple[TextLine, bool]]:
    """Lines that stop short of the screen's right edge, by at most 3% of its width, where the gap
    to the edge holds the glyph the edge cuts (OCR leaves out a letter of which a sliver shows:
    "Middle" of a chip "Middle E|"): some column of the gap inked over a third of the line's
    height or more, against the line's background (the median of its box's rim). With each,
    whether the sliver is an upright stem (a column inked over half the line's height: the E's, not
    the A's diagonal). A line that ends before the edge in a layout leaves a margin of plain
    background (16 dp)."""
    width, height = img.size
    gap = max(6, int(0.03 * width))
    margin = max(4, int(0.01 * width))
    gray: np.ndarray | None = None
    out: list[tuple[TextLine, bool]] = []
    for line in lines:
        b = line.box
        if b.height < 8 or not margin < width - 1 - b.x2 <= gap:
            continue
        if gray is None:
            gray = np.asarray(img.convert("L"), dtype=np.int16)
        y1, y2 = max(0, b.y1), min(height, b.y2)
        box = gray[y1:y2, max(0, b.x1):b.x2]
        if box.shape[0] < 8 or box.shape[1] < 4:
            continue
        rim = np.concatenate([box[:2].ravel(), box[-2:].ravel()])
        inked = (np.abs(gray[y1:y2, b.x2 + 1:width] - np.median(rim)) > 60).sum(axis=0)
        if inked.size and inked.max() >= (y2 - y1) / 3:
            out.append((line, bool(inked.max() >= (y2 - y1) / 2)))
    return out


def _cursor_matches(img: Image.Image, target: str, lines: Sequence[TextLine]) -> list[TextMatch]:
    """Lines that are ``target`` (three characters or more) in a text field with its cursor at the
    end (:func:`cursor_at_end`): read with the last letter lost against the cursor ("lof" for a
    query "lofi", while a row below holds "Lofi Study") or with the cursor read as a stroke
    ("koreal"), after a search glyph read as a letter or not ("Q koreal"). An exact match."""
    tc = compact(target)
    if len(tc) < 3:
        return []
    out: list[TextMatch] = []
    rgb: np.ndarray | None = None
    for line in lines:
        words = line.text.split()
        for reading in {compact(line.text), compact(" ".join(words[1:]))}:
            if not reading:
                continue
            lost = reading == tc[:-1]
            stroke = reading[:-1] == tc and reading[-1] in _CURSOR_STROKES
            if not (lost or stroke):
                continue
            if rgb is None:
                rgb = np.asarray(img.convert("RGB"))
            if cursor_at_end(rgb, line.box):
                out.append(TextMatch(line.box, 0.97, "exact", line))
                break
    return out


def cursor_at_end(rgb: np.ndarray, box: Box) -> bool:
    """Whether a text field's cursor stands at the end of the text in ``box``: its last ink is a
    stroke at most an eighth of the line high wide (8 px at least), inked over the whole height of
    the text's letters, in another colour than the letters (the theme's accent: a black cursor
    after a white query on a blue bar, a blue or green one after black text). A letter such as "l"
    or a closing bracket is the text's colour."""
    h, w = rgb.shape[:2]
    crop = rgb[max(0, box.y1):min(h, box.y2), max(0, box.x1):min(w, box.x2 + 6)].astype(np.int16)
    if crop.shape[0] < 12 or crop.shape[1] < 8:
        return False
    rim = np.concatenate([crop[:2], crop[-2:]]).reshape(-1, 3)
    ink = np.abs(crop - np.median(rim, axis=0)).max(axis=2) > 60
    cols = np.flatnonzero(ink.any(axis=0))
    rows = np.flatnonzero(ink.any(axis=1))
    if cols.size == 0 or rows[-1] - rows[0] + 1 < 0.6 * box.height:
        return False
    full = ink[rows[0]:rows[-1] + 1].mean(axis=0) >= 0.9
    last = int(cols[-1])
    first = last
    while first > 0 and full[first - 1]:
        first -= 1
    if not full[last] or last - first + 1 > max(8, box.height // 8) or not ink[:, :first].any():
        return False
    stroke = np.median(crop[:, first:last + 1][ink[:, first:last + 1]], axis=0)
    letters = np.median(crop[:, :first][ink[:, :first]], axis=0)
    return float(np.abs(stroke - letters).max()) > 60


def _before_dialog(dialog: Callable[[], Box | None], cands: list[Candidate],
                   hidden: Sequence[Box] = ()) -> tuple[list[Candidate], int]:
    """Click Text's candidates less those on the page behind a dialog (``dialog()``, asked only
    where there are candidates: ``scrim.modal_card``, a dialog over a page its scrim dims; a tap
    there closes the dialog, or does nothing) and those inside ``hidden`` (the tree's nodes of the
    text that a dialog or an overlay hides), and how many were left out. All of them where the
    screen shows no dialog and the tree hides nothing."""
    if hidden and cands:
        kept = [c for c in cands if not any(b.contains_point(c.point) for b in hidden)]
        rest, dropped = _before_dialog(dialog, kept)
        return rest, dropped + len(cands) - len(kept)
    if not cands:
        return cands, 0
    card = dialog()
    if card is None:
        return cands, 0
    kept = [c for c in cands if card.contains_point(c.point)]
    return kept, len(cands) - len(kept)


#: Click Icon with a dialog up: a glyph on the dialog matched under this score, where icons behind
#: it were left out, is no answer (a sure glyph match is 0.8 or more; a letter scores far under).
DIALOG_SURE = 0.75
#: ... but only on a dialog that floats over the page: a sheet up from the bottom edge (its lower edge
#: past this share of the screen's height) is a panel of actions drawn in the app's own icons, which
#: the glyph matcher scores lower (an other artist's link, 0.48, was answered none).
SHEET_BOTTOM = 0.9


def _on_dialog(lines: Sequence[TextLine], card: Box) -> list[TextLine]:
    """The lines on the dialog ``card`` (their centre inside it)."""
    return [l for l in lines if card.contains_point(l.box.center)]


def _icon_behind_dialog(description: str) -> str:
    return (f'no icon on the dialog fits "{description}": icons on the page behind a dialog (or a popup menu) '
            "are left out, as a tap does not reach them: answer or close the dialog first")


def _behind_dialog(g: Grounding, behind: int, text: str) -> Grounding:
    """``g``, where nothing was found and texts were left out behind a dialog, saying that the text
    is on the page under the dialog (the planner answers or closes the dialog first)."""
    if behind and g.status == "none":
        g.message = (f'the text "{text}" is on the page behind a dialog (or a popup menu), where a tap '
                     f"does not reach it: answer or close the dialog first")
    return g


def _mask_matches(img: Image.Image, target: str, lines: Sequence[TextLine]) -> list[TextMatch]:
    """Where a target made only of mask or placeholder marks (``textmatch.mask_query``: a password's
    "••••••••", a code field's "––– –––") is drawn: rows of like marks of its shape and about its
    count (``missed_text.mark_rows``), those whose count is closest. Nothing for any other target."""
    query = mask_query(target)
    if query is None:
        return []
    # Lines of letters or digits hold no mask; a line of one or two characters repeated is OCR's
    # reading of the marks themselves ("oooooooo", "********", "0 0 0"), not a text over them.
    text = [l.box for l in lines if any(ch.isalnum() for ch in l.text) and len(set("".join(l.text.split()))) > 2]
    rows = mark_rows(np.asarray(img.convert("RGB")), query.shape, query.groups, text)
    best = max((s for _, s in rows), default=None)
    return [TextMatch(b, s, "exact", TextLine(target, b, s)) for b, s in rows if s == best]


def _short_target(text: str) -> bool:
    """Whether ``text`` is short enough to be a badge's or a display number's (one to six letters,
    digits or signs: "3", "99+", "+3", "x10", "NEW", "LIVE", "8°C", "12:45", "8,432")."""
    return 1 <= len(compact(text)) <= 6


def _best_tier(matches: list[TextMatch], target: str | None = None) -> list[TextMatch]:
    """Exact matches if any, else contained ones, else fuzzy ones close to the best.

    With ``target``: within a tier, the lines that hold the target with its own letter case win
    over those that hold it only case-folded (an "EMAIL" label above an "Email" field, "ALBUMS"
    as a section header and "Albums" as a row: real apps draw one word in both cases on one
    screen, and the request names one of them)."""
    for kind in ("exact", "contained"):
        tier = [m for m in matches if m.kind == kind]
        if tier:
            if target is not None and len(tier) > 1:
                same = [m for m in tier if _same_case(target, m.line.text)]
                if same:
                    return same
            return tier
    if not matches:
        return []
    best = matches[0].score
    return [m for m in matches if m.score >= best - 0.08]


def _han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or "\uf900" <= ch <= "\ufaff"


def _kana(ch: str) -> bool:
    return "\u3040" <= ch <= "\u30ff"


def split_glyphs(lines: Sequence[TextLine]) -> tuple[list[TextLine], list[TextLine]]:
    """``lines`` parted into text and readings that are no text: a line of at most three characters
    with one or two Chinese characters and no other letter, on a screen where no other line holds a
    Chinese character or kana. The recogniser reads Chinese, so it reads icons as the Chinese
    characters they look like (a battery as "白", a grid as "田", "日", "口", "囲") and Korean words
    as Chinese noise ("김어준" as "歪"); on a screen that shows no Chinese or Japanese text they
    would fill the model's list of screen texts and "did you mean" suggestions."""
    def lone(line: TextLine) -> bool:
        t = "".join(line.text.split())
        han = sum(_han(ch) for ch in t)
        return 1 <= han <= 2 and len(t) <= 3 and not any(ch.isalpha() and not _han(ch) for ch in t)

    glyphs = [l for l in lines if lone(l)]
    if not glyphs or any(_han(ch) or _kana(ch) for l in lines if not lone(l) for ch in l.text):
        return list(lines), []
    return [l for l in lines if not lone(l)], glyphs


def set_aside_glyphs(result: ParseResult) -> None:
    """Move the readings that are no text (:func:`split_glyphs`) from ``result.lines`` to
    ``result.glyphs`` (and back, where Chinese or Japanese text came on the screen)."""
    pool = result.lines + result.glyphs
    if result.glyphs:
        pool.sort(key=lambda l: (l.box.y1 // 10, l.box.x1))
    result.lines, result.glyphs = split_glyphs(pool)


def _titled_bar(icon: Box, lines: Sequence[TextLine]) -> bool:
    """Whether a text of three letters or more stands on ``icon``'s row (its centre within half
    the icon's height): a top app bar's title or a search field's query beside its end icon."""
    cy = icon.center.y
    return any(abs(l.box.center.y - cy) <= max(icon.height, 24) // 2 + 8 and not l.box.contains_point(icon.center)
               and sum(ch.isalpha() for ch in l.text) >= 3 for l in lines)


def _same_case(target: str, text: str) -> bool:
    """Whether ``text`` holds ``target`` with the same letters in the same case (spaces aside)."""
    t = " ".join(target.split())
    return bool(t) and t in " ".join(text.split()) and any(ch.isalpha() for ch in t)


def _quote_list(items: Sequence[str]) -> str:
    """Screen texts for a message the model reads: each a JSON string (it cannot close its quote)."""
    return ", ".join(quote_screen_text(t) for t in items) if items else "(none)"


def icon_above_label(rgb: np.ndarray, label: Box, other_text: Sequence[Box] = ()) -> Box | None:
    """The icon drawn above an app label on a launcher: the largest ink blob in a column above it."""
    import cv2

    h, w = rgb.shape[:2]
    side = int(max(label.height * 4.5, w * 0.16))
    cx = label.center.x
    x1, x2 = max(0, cx - side // 2), min(w, cx + side // 2)
    y2 = label.y1 - 1
    y1 = max(0, y2 - int(side * 1.1))
    if y2 - y1 < 8 or x2 - x1 < 8:
        return None
    region = rgb[y1:y2, x1:x2]
    border = np.concatenate([region[0], region[:, 0], region[:, -1]]).astype(np.int16)
    bg = np.median(border, axis=0)
    mask = (np.abs(region.astype(np.int16) - bg).max(axis=2) > 30).astype(np.uint8)
    for b in other_text:
        ix = b.intersect(Box(x1, y1, x2, y2))
        if not ix.is_empty():
            mask[ix.y1 - y1:ix.y2 - y1, ix.x1 - x1:ix.x2 - x1] = 0
    mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    best: tuple[float, Box] | None = None
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if bw < label.height or bh < label.height:
            continue
        box = Box(int(x1 + x), int(y1 + y), int(x1 + x + bw), int(y1 + y + bh))
        off = abs(box.center.x - cx) / float(side)
        gap = (label.y1 - box.y2) / float(side)
        score = area / float(side * side) - off - 0.5 * max(0.0, gap)
        if best is None or score > best[0]:
            best = (score, box)
    return None if best is None else best[1]
