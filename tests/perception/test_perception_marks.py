"""The numbered-marks image the planner chooses from stays legible on real screens: dense rows of
small icons, dark and light themes, 720p and 1440p. Labels lie inside the image, overlap no other
label, are tall enough for the screen, stand out from the screen, and OCR reads their numbers
back at the size the model is sent."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from mobile_agent.perception import Perception
from mobile_agent.perception.marks import COLORS, contrast_ratio, draw_marks, label_height, layout_labels
from mobile_agent.types import Box
from icon_sets import PHOSPHOR, icon_grid


def dense_row(width: int, height: int, n: int = 9) -> list[Box]:
    """``n`` small icon boxes side by side at the top right of the screen, touching each other,
    as on a dense toolbar, plus a box at each corner (labels cannot go outside the image)."""
    side = round(width * 0.06)
    x0 = width - n * side
    row = [Box(x0 + k * side, round(height * 0.03), x0 + (k + 1) * side, round(height * 0.03) + side) for k in range(n)]
    corners = [Box(0, 0, side, side), Box(width - side, height - side, width, height)]
    return row + corners


@pytest.mark.parametrize("size", [(720, 1600), (1080, 2400), (1440, 3200)])
def test_labels_inside_the_image_never_overlap_and_scale_with_the_screen(size):
    w, h = size
    boxes = dense_row(w, h)
    spots = layout_labels(size, boxes, [str(i) for i in range(len(boxes))])
    assert len(spots) == len(boxes)
    for i, a in enumerate(spots):
        assert 0 <= a.x1 and 0 <= a.y1 and a.x2 <= w and a.y2 <= h, f"label {i} leaves the image: {a}"
        assert a.height >= min(w, h) / 30, f"label {i} is {a.height} px high on a {w}x{h} screen"
        for j, b in enumerate(spots[:i]):
            assert a.intersect(b).is_empty(), f"labels {j} and {i} overlap: {b} {a}"
    # Scaled to the screen: twice the width, about twice the label.
    assert label_height(1440, 3200) >= 1.9 * label_height(720, 1600)


def test_label_colours_have_text_contrast():
    for c in COLORS:
        assert contrast_ratio(c, (255, 255, 255)) >= 4.5, c


@pytest.mark.parametrize("dark", [False, True])
def test_marks_are_drawn_where_laid_out_and_stand_out(dark):
    img, _ = icon_grid(sorted(set(PHOSPHOR.values()))[:12], 720, 1600, dark=dark)
    boxes = dense_row(720, 1600)
    out = np.asarray(draw_marks(img, boxes)).astype(int)
    spots = layout_labels(img.size, boxes, [str(i) for i in range(len(boxes))])
    bg = np.asarray(img)[5, 5].astype(int)
    for i, s in enumerate(spots):
        patch = out[s.y1 + 2:s.y2 - 2, s.x1 + 2:s.x2 - 2].reshape(-1, 3)
        fill = np.array(COLORS[i % len(COLORS)])
        # Mostly the label colour, some white text, none of the screen showing through.
        assert (np.abs(patch - fill).max(axis=1) < 40).mean() > 0.4, f"label {i} is not drawn at {s}"
        assert (patch.min(axis=1) > 200).mean() > 0.05, f"label {i} has no white number"
        assert contrast_ratio(tuple(fill), tuple(bg)) >= 1.5 or dark


@pytest.mark.slow
@pytest.mark.parametrize("size,dark", [((720, 1600), True), ((1440, 3200), False)])
def test_ocr_reads_the_numbers_back_at_the_size_the_model_sees(size, dark):
    """The marked screenshot scaled to 1024 px on its long side (what the planner is sent): each
    label's number is read by OCR."""
    w, h = size
    img, _ = icon_grid(sorted(set(PHOSPHOR.values())), w, h, dark=dark)
    boxes = dense_row(w, h)
    marked = draw_marks(img, boxes)
    scale = 1024 / max(w, h)
    small = marked.resize((round(w * scale), round(h * scale)), Image.LANCZOS)
    spots = layout_labels(img.size, boxes, [str(i) for i in range(len(boxes))])
    # Read as Click Text reads a short target: glyph-sized crops each alone (Perception.lines_alone).
    words = [(wd.text.strip(), wd.box) for line in Perception(incremental=False).lines_alone(small)
             for wd in (line.words or ())]
    read = []
    for i, s in enumerate(spots):
        area = Box(round(s.x1 * scale), round(s.y1 * scale), round(s.x2 * scale), round(s.y2 * scale)).expand(4)
        if any(t == str(i) and area.contains_point(b.center) for t, b in words):
            read.append(i)
    assert len(read) >= len(spots) - 2, f"OCR read only labels {read} of {len(spots)}: {words[:20]}"


@pytest.mark.slow
def test_a_label_whose_packed_reading_is_wrong_is_grounded_on_its_reading_alone():
    """The full parse reads glyph-sized crops packed beside others, and a lone number reads worse
    so (here, a label's "10" or "9"). Click Text on such a short target reads the screen's glyph
    crops again, each alone, and lands where the engine reading every glyph alone lands."""
    from mobile_agent.perception.ocr.rapid import RapidOcrEngine

    w, h = 720, 1600
    img, _ = icon_grid(sorted(set(PHOSPHOR.values())), w, h, dark=True)
    boxes = dense_row(w, h)
    scale = 1024 / max(w, h)
    small = draw_marks(img, boxes).resize((round(w * scale), round(h * scale)), Image.LANCZOS)
    spots = layout_labels(img.size, boxes, [str(i) for i in range(len(boxes))])
    areas = [Box(round(s.x1 * scale), round(s.y1 * scale), round(s.x2 * scale), round(s.y2 * scale)).expand(4)
             for s in spots]
    now = Perception(incremental=False)
    alone = Perception(ocr=RapidOcrEngine(pack_min_ratio=2.0), incremental=False)
    res = now.parse(small)
    assert res.packed_glyphs, "the labels are glyph-sized crops, read packed"
    words = [(wd.text.strip(), wd.box) for line in res.lines for wd in line.words]
    misread = [str(i) for i in (9, 10)
               if not any(t == str(i) and areas[i].contains_point(b.center) for t, b in words)]
    assert misread, "the packed readings should miss a label here (what this test is about)"
    for text in misread:
        g = now.ground_text(small, text)
        assert g.status == "found" and areas[int(text)].contains_point(g.point), (text, g.message)
        assert g.point == alone.ground_text(small, text).point, text
