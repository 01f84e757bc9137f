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
    packed, alone = RapidOcrEngine(), RapidOcrEngine(pack=False)
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
    """``pack_min_ratio=0`` packs glyph-sized crops (a digit, a short word in a tall box, an icon
    read as text) with the others: fewer recogniser inputs, and Click Text lands where it lands with
    each of them read alone in its own input (the default), for every text the default reads on
    these screens (the calendar's digits included)."""
    from mobile_agent.perception import Perception

    now, before = RapidOcrEngine(pack_min_ratio=0.0), RapidOcrEngine()
    assert before.pack_min_ratio == 2.0
    p_now, p_before = Perception(ocr=now), Perception(ocr=before)
    inputs_now = inputs_before = 0
    targets = 0
    for rgb in screens:
        img = Image.fromarray(rgb)
        boxes = now.detect(rgb)
        widths = [int(np.ceil(48 * bx.width / bx.height)) for bx in boxes]
        inputs_now += len(pack_widths(widths, 320, 16, now.pack_min_ratio * 48))
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


def test_glyph_pass_reads_each_glyph_alone(screens: list[np.ndarray]) -> None:
    """The glyph pass (a one- or two-character Click Text target) reads each glyph in its own
    input, whatever the engine packs: its readings do not depend on ``pack_min_ratio``."""
    a, b = RapidOcrEngine(pack_min_ratio=0.0), RapidOcrEngine()
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
