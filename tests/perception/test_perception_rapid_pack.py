"""Packed recognition: several short crops read in one recogniser input give the readings (and
word boxes) that reading each crop alone gives."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from mobile_agent.device.sim import SimPhone
from mobile_agent.perception.ocr.rapid import RapidOcrEngine, _segments, pack_widths


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=900), max_size=40))
def test_packing_places_every_item_once_without_overlap(widths: list[int]) -> None:
    canvases = pack_widths(widths, 320, 16, 96)
    placed = sorted(i for _, items in canvases for i, _ in items)
    assert placed == list(range(len(widths)))
    placed = sorted(i for _, items in canvases for i, _ in items)
    assert placed == list(range(len(widths)))
    for used, items in canvases:
        if len(items) == 1:
            assert items[0][1] == 0
            continue
        # only items of two line heights up to the input's least width share an input
        assert all(96 <= widths[i] < 320 for i, _ in items)
        xs = [(x, x + widths[i]) for i, x in items]
        assert all(x % 8 == 0 for x, _ in xs)
        assert all(b1 >= a2 + 16 for (_, a2), (b1, _) in pairwise(xs))
        assert xs[-1][1] == used <= 320


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=900), max_size=40))
def test_glyph_sized_items_share_inputs_only_among_themselves(widths: list[int]) -> None:
    """Packed with ``glyph_below``, items narrower than it share inputs only with each other, and
    the wider items are placed exactly as when the narrow ones are read alone."""
    canvases = pack_widths(widths, 320, 16, 0, 96)
    assert sorted(i for _, items in canvases for i, _ in items) == list(range(len(widths)))
    for _, items in canvases:
        if len(items) > 1:
            kinds = {widths[i] < 96 for i, _ in items}
            assert len(kinds) == 1, [widths[i] for i, _ in items]
    alone = pack_widths(widths, 320, 16, 96)
    shared = [c for c in alone if len(c[1]) > 1 or 96 <= widths[c[1][0][0]] < 320]
    assert shared == canvases[:len(shared)]


def test_packing_fills_inputs_first_fit() -> None:
    # Widest first: 200 opens an input; 150 does not fit after it (216 + 150 > 320) and opens a
    # second; the first 100 fits after the 200 (at 216), the second after the 150 (at 168);
    # 40 px, under two line heights, is read alone.
    canvases = pack_widths([100, 200, 150, 100, 40], 320, 16, 96)
    assert canvases == [(316, [(1, 0), (0, 216)]), (268, [(2, 0), (3, 168)]), (40, [(4, 0)])]


@given(st.lists(st.integers(min_value=96, max_value=200), min_size=1, max_size=3))
def test_segments_split_the_columns_between_placed_items(widths: list[int]) -> None:
    canvases = pack_widths(widths, 320, 16, 96)
    for _, items in canvases:
        segs = _segments(items, widths, 320, 8.0)
        assert segs[0][0] == 0 and segs[-1][1] == 40
        assert all(a[1] == b[0] for a, b in pairwise(segs))  # a partition, in order
        for (i, x), (t1, t2) in zip(items, segs):
            # every column centred on the item belongs to it
            first, last = (x + 4) // 8, (x + widths[i] - 4) // 8
            assert t1 <= first and last < t2


@pytest.fixture(scope="module")
def screens() -> list[np.ndarray]:
    out = []
    for app in ("Settings", "Mail", "Shop", "Calendar"):
        phone = SimPhone(seed=3)
        phone.launch(app)
        out.append(np.asarray(phone.screenshot().convert("RGB")))
    return out


def test_packed_reading_matches_reading_each_crop_alone(screens: list[np.ndarray]) -> None:
    # Crops of two line heights or wider (glyph-sized ones read alone, as read_alone does): packed,
    # they read as alone. Packed glyphs read worse; the tests below are about them.
    packed, alone = RapidOcrEngine(pack_min_ratio=2.0), RapidOcrEngine(pack=False)
    same = total = shared_inputs = 0
    offsets: list[int] = []
    for rgb in screens:
        boxes = packed.detect(rgb)
        a = alone.recognize(rgb, boxes, keep_all=True)
        b = packed.recognize(rgb, boxes, keep_all=True)
        widths = [int(np.ceil(48 * bx.width / bx.height)) for bx in boxes]
        shared_inputs += sum(len(items) > 1 for _, items in pack_widths(widths, 320, 16, 96))
        for la, lb in zip(a, b):
            if la is None:
                continue
            total += 1
            if lb is not None and lb.text.lower() == la.text.lower():
                same += 1
                for wa, wb in zip(la.words, lb.words):
                    if wa.text == wb.text:
                        offsets.append(abs(wa.box.center.x - wb.box.center.x))
    assert shared_inputs >= 10, "the screens should give crops to pack"
    assert total >= 60
    assert same / total >= 0.97, (same, total)
    # a word lands where it does when its crop is read alone, give or take one CTC column
    assert offsets and max(offsets) <= 8, max(offsets)


def _is_word(text: str | None) -> bool:
    return text is not None and sum(ch.isalnum() for ch in text) >= 2


def test_packing_glyph_crops_uses_fewer_inputs_and_grounds_texts_alike(screens: list[np.ndarray]) -> None:
    """The default packs glyph-sized crops (a digit, a short word in a tall box, an icon read as
    text) into shared inputs: fewer recogniser inputs, and Click Text lands where it lands with each
    of them read alone in its own input (``pack_min_ratio=2``, the former default), for every text
    that reads on these screens (the calendar's digits included)."""
    from mobile_agent.perception import Perception

    now, before = RapidOcrEngine(), RapidOcrEngine(pack_min_ratio=2.0)
    assert now.pack_min_ratio == 0.0
    p_now, p_before = Perception(ocr=now), Perception(ocr=before)
    inputs_now = inputs_before = 0
    targets = 0
    for rgb in screens:
        img = Image.fromarray(rgb)
        boxes = now.detect(rgb)
        widths = [int(np.ceil(48 * bx.width / bx.height)) for bx in boxes]
        inputs_now += len(pack_widths(widths, 320, 16, now.pack_min_ratio * 48, 96))
        inputs_before += len(pack_widths(widths, 320, 16, before.pack_min_ratio * 48))
        texts = {line.text for line in p_before.parse(img).lines if _is_word(line.text) or line.text.isdigit()}
        for text in sorted(texts):
            g_now, g_before = p_now.ground_text(img, text), p_before.ground_text(img, text)
            assert g_now.status == g_before.status, text
            assert len(g_now.candidates) == len(g_before.candidates), text
            # the same places (a word's box may move by a CTC column: a pixel or two)
            for c_now, c_before in zip(g_now.candidates, g_before.candidates):
                assert c_before.box.contains_point(c_now.point) and c_now.box.contains_point(c_before.point), text
            targets += 1
    assert targets >= 80
    assert inputs_now <= 0.6 * inputs_before, (inputs_now, inputs_before)


def test_reading_glyphs_alone_gives_the_lines_of_an_engine_reading_them_alone(screens: list[np.ndarray]) -> None:
    """Glyph-sized crops are packed only among themselves, so the longer lines read as they do with
    glyphs alone, and reading the packed glyph crops again alone (``Perception.lines_alone``)
    gives the lines of the engine that reads every glyph alone: the same texts, boxes and words
    (scores, and word edges by a column or two, may differ: the inputs are batched eight at a time with
    other neighbours, and a reading depends a little on its batch's arithmetic)."""
    from mobile_agent.perception import Perception

    now, before = Perception(incremental=False), Perception(ocr=RapidOcrEngine(pack_min_ratio=2.0), incremental=False)
    packed = 0
    for rgb in screens:
        img = Image.fromarray(rgb)
        res = now.parse(img)
        packed += len(res.packed_glyphs)
        want = before.parse(img).lines
        got = now.lines_alone(img)
        assert [(l.text, l.box, [w.text for w in l.words]) for l in got] == \
            [(l.text, l.box, [w.text for w in l.words]) for l in want]
        for a, b in zip(got, want):
            for wa, wb in zip(a.words, b.words):  # a tap on either word lands on the other
                assert wa.box.contains_point(wb.box.center) and wb.box.contains_point(wa.box.center), (wa, wb)
        assert before.parse(img).packed_glyphs == []
    assert packed >= 40, packed


def test_glyphs_are_read_again_only_for_a_short_or_missing_target(screens: list[np.ndarray]) -> None:
    """Click Text reads the screen's packed glyph crops again alone only where it needs them: for a
    one- or two-character target, or a target no packed reading holds (exactly or contained);
    once a screen (the second short target reads nothing new)."""
    from mobile_agent.perception import Perception

    p = Perception(incremental=False)
    img = Image.fromarray(screens[3])  # Calendar: lone digits
    res = p.parse(img)
    assert res.packed_glyphs
    read = p.ocr.stats["crops_read"]
    long_text = next(l.text for l in res.lines if sum(ch.isalpha() for ch in l.text) >= 5)
    assert p.ground_text(img, long_text).status in ("found", "ambiguous")
    assert p.ocr.stats["crops_read"] == read, "a target a packed line holds reads nothing again"
    p.ground_text(img, "15")
    again = p.ocr.stats["crops_read"] - read
    assert again >= len(res.packed_glyphs) // 2, (again, len(res.packed_glyphs))
    p.ground_text(img, "16")
    p.ground_text(img, "Nothing like this is on the screen")
    assert p.ocr.stats["crops_read"] == read + again, "the screen's glyphs are read alone once"
    q = Perception(incremental=False)
    q.parse(img)
    before = q.ocr.stats["crops_read"]
    q.ground_text(img, "Nothing like this is on the screen")
    assert q.ocr.stats["crops_read"] > before, "a target no line holds reads the glyphs alone"


def test_incremental_parse_keeps_the_packed_glyphs_it_took_over(screens: list[np.ndarray]) -> None:
    from mobile_agent.perception import Perception

    p = Perception()
    rgb = screens[3].copy()
    first = p.parse(Image.fromarray(rgb))
    rgb[400:440, 40:400] = 255  # a small change near the top
    res = p.parse(Image.fromarray(rgb))
    assert res.incremental
    kept = [b for b in first.packed_glyphs if b.y2 <= 300 or b.y1 >= 560]
    assert kept and all(b in res.packed_glyphs for b in kept)
    # every glyph-sized line of the result, taken over or read again, can be read alone
    glyph_lines = p.ocr.packed_glyphs(rgb, [l.box for l in res.lines])
    assert glyph_lines and set(glyph_lines) <= set(res.packed_glyphs)
    assert any(440 <= b.y1 for b in glyph_lines) and any(b.y2 <= 400 for b in glyph_lines)


def test_glyph_pass_reads_each_glyph_alone(screens: list[np.ndarray]) -> None:
    """The glyph pass (a one- or two-character Click Text target) reads each glyph in its own
    input, whatever the engine packs: its readings do not depend on ``pack_min_ratio``."""
    a, b = RapidOcrEngine(), RapidOcrEngine(pack_min_ratio=2.0)
    rgb = screens[3]  # Calendar: rows of lone digits
    known = [line.box for line in a.read(rgb)]
    glyphs = a.read_glyphs(rgb, known)
    assert glyphs, "the calendar should have glyphs the line detector misses"
    assert [(g.text, g.box) for g in glyphs] == [(g.text, g.box) for g in b.read_glyphs(rgb, known)]


def test_parse_reports_where_the_ocr_time_goes(screens: list[np.ndarray]) -> None:
    from mobile_agent.perception import Perception

    res = Perception(incremental=False).parse(Image.fromarray(screens[0]), icons=True)
    t = res.timings
    assert t["ocr_detect"] > 0 and t["ocr_recognize"] > 0 and t["icons"] > 0
    assert t["ocr_detect"] + t["ocr_recognize"] <= t["ocr"] <= t["total"]


def test_packed_word_boxes_land_on_their_words(screens: list[np.ndarray]) -> None:
    eng = RapidOcrEngine()
    lines = eng.read(screens[0])  # Settings
    words = {w.text: w for line in lines for w in line.words}
    assert "Network" in words and "internet" in words, sorted(words)
    net = next(line for line in lines if "Network" in line.text)
    a, b = words["Network"].box, words["internet"].box
    # "Network & internet": the first word on the left of the line, the last on the right
    assert net.box.x1 <= a.x1 < a.x2 <= b.x1 < b.x2 <= net.box.x2 + 2


def test_flushing_denormals_keeps_boxes_and_readings(screens: list[np.ndarray]) -> None:
    flushed, kept = RapidOcrEngine(), RapidOcrEngine(flush_denormals=False)
    det, _ = flushed._models()
    opts = det.session.session.get_session_options()  # rapidocr wrapper -> onnxruntime session
    assert opts.get_session_config_entry("session.set_denormal_as_zero") == "1"
    rgb = screens[2]  # Shop: pictures and flat areas
    boxes = flushed.detect(rgb)
    assert len(boxes) >= 10
    assert boxes == kept.detect(rgb)
    assert [(l.text, l.box) for l in flushed.recognize(rgb, boxes)] == \
        [(l.text, l.box) for l in kept.recognize(rgb, boxes)]


def test_cached_lines_keep_their_packed_glyphs(screens: list[np.ndarray], tmp_path) -> None:
    """The benchmark's OCR cache keeps each screen's packed glyph boxes with its lines, so that
    Click Text over cached lines reads the same glyphs alone as over a fresh parse."""
    from mobile_agent.screensets.measure import CachedOcr
    from mobile_agent.perception import Perception

    fresh = Perception(incremental=False)
    want = [fresh.parse(Image.fromarray(rgb)).packed_glyphs for rgb in screens[2:]]
    first = Perception(ocr=CachedOcr(RapidOcrEngine(), tmp_path), incremental=False)
    for rgb in screens[2:]:
        first.parse(Image.fromarray(rgb))
    again = Perception(ocr=CachedOcr(RapidOcrEngine(), tmp_path), incremental=False)
    for k in (1, 0):  # read from the folder, in another order
        res = again.parse(Image.fromarray(screens[2 + k]))
        assert res.packed_glyphs and res.packed_glyphs == want[k]
    assert again.ocr.inner.stats["crops_read"] == 0
    g = again.ground_text(Image.fromarray(screens[3]), "15")
    assert g.status in ("found", "ambiguous"), g.message
