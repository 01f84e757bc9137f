"""The recogniser's batches are planned by what padding costs, and the steps of rapidocr the engine
does itself (word boxes, the detector's normalisation, the screenshot's downscale) give exactly
what rapidocr's own steps give."""

from __future__ import annotations

import copy
import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from mobile_agent.device.sim import SimPhone
from mobile_agent.errors import ConfigError
from mobile_agent.perception.ocr.rapid import RapidOcrEngine, plan_batches
from mobile_agent.types import Box


def _cost(widths: list[int], batches: list[tuple[int, int]], overhead: float) -> float:
    return sum((b - a) * widths[b - 1] + overhead for a, b in batches)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=320, max_value=2000), max_size=40), st.integers(1, 8),
       st.sampled_from([0.0, 64.0, 500.0]))
def test_batches_cover_every_input_once_and_cost_no_more_than_runs(widths: list[int], size: int,
                                                                   overhead: float) -> None:
    widths = sorted(widths)
    batches = plan_batches(widths, size, overhead)
    assert [i for a, b in batches for i in range(a, b)] == list(range(len(widths)))
    assert all(0 < b - a <= size for a, b in batches)
    runs = plan_batches(widths, size, math.inf)
    assert runs == [(k, min(len(widths), k + size)) for k in range(0, len(widths), size)]
    assert _cost(widths, batches, overhead) <= _cost(widths, runs, overhead)


def test_a_long_line_does_not_pad_a_batch_of_short_inputs() -> None:
    widths = [320] * 9 + [900]
    # runs of eight (the default): the ninth 320 px input is padded to 900 beside the long line
    assert plan_batches(widths, 8, math.inf) == [(0, 8), (8, 10)]
    assert plan_batches(widths, 8, 64) == [(0, 8), (8, 9), (9, 10)]
    # where another batch costs more than the padding, they share one
    assert plan_batches([320, 330], 8, 64) == [(0, 2)]


@pytest.fixture(scope="module")
def screens() -> list[np.ndarray]:
    out = []
    for app in ("Settings", "Mail", "Calendar"):
        phone = SimPhone(seed=5)
        phone.launch(app)
        out.append(np.asarray(phone.screenshot().convert("RGB")))
    return out


class _Shapes:
    """Stands in for the recogniser's session: notes each batch's shape, then runs it."""

    def __init__(self, session) -> None:
        self.session, self.shapes = session, []

    def __call__(self, x, *args, **kwargs):
        self.shapes.append(x.shape)
        return self.session(x, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.session, name)


def _shapes(engine: RapidOcrEngine) -> _Shapes:
    det, rec = engine._models()
    # the models are shared by every engine of the same options (rapid._SHARED_MODELS): this
    # engine gets its own copy of the recogniser, whose session alone is watched
    engine._rec = copy.copy(rec)
    engine._rec.session = _Shapes(rec.session)
    return engine._rec.session


def test_planned_batches_compute_fewer_columns_and_ground_texts_alike(screens: list[np.ndarray]) -> None:
    """Planned batches (the default, ``batch_overhead=64``) compute fewer columns than runs of
    eight inputs, each padded to its batch's widest (the former default,
    ``ocr_options={"batch_overhead": inf}``), and Click Text lands where it landed with runs of
    eight, short targets included."""
    from mobile_agent.perception import Perception

    now = Perception(incremental=False)
    before = Perception(ocr_options={"batch_overhead": math.inf}, incremental=False)
    assert now.ocr.batch_overhead == 64 and math.isinf(before.ocr.batch_overhead)
    s_now, s_before = _shapes(now.ocr), _shapes(before.ocr)
    targets = short = 0
    for rgb in screens:
        img = Image.fromarray(rgb)
        # words, and the calendar's one- and two-digit days (short targets read alone again)
        texts = {line.text for line in before.parse(img).lines
                 if sum(ch.isalnum() for ch in line.text) >= 2 or line.text.isdigit()}
        now.parse(img)
        for text in sorted(texts):
            g_now, g_before = now.ground_text(img, text), before.ground_text(img, text)
            assert g_now.status == g_before.status, text
            for c_now, c_before in zip(g_now.candidates, g_before.candidates):
                assert c_before.box.contains_point(c_now.point) and c_now.box.contains_point(c_before.point), text
            targets += 1
            short += len(text) <= 2
    assert targets >= 50 and short >= 5, (targets, short)
    # runs of eight: every batch but each call's last holds eight inputs
    assert sum(s[0] == 8 for s in s_before.shapes) >= len(s_before.shapes) // 2
    cols_now = sum(s[0] * s[3] for s in s_now.shapes)
    cols_before = sum(s[0] * s[3] for s in s_before.shapes)
    assert sum(s[0] for s in s_now.shapes) == sum(s[0] for s in s_before.shapes)  # the same inputs
    assert cols_now < cols_before, (cols_now, cols_before)


@pytest.mark.parametrize("value", [-1, "many", None])
def test_a_bad_batch_overhead_is_a_clear_error(value) -> None:
    from mobile_agent.perception import Perception

    with pytest.raises(ConfigError, match="batch_overhead"):
        Perception(ocr_options={"batch_overhead": value})


def test_word_boxes_are_rapidocrs(screens: list[np.ndarray], monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine computes word boxes with rapidocr's own steps, less the corner ordering and
    copies it needs not: the very boxes ``CalRecBoxes`` gives, upright and tall crops alike."""
    from rapidocr.cal_rec_boxes import CalRecBoxes

    ours = RapidOcrEngine._word_boxes
    compared: list[tuple[np.ndarray, list, list]] = []

    def both(crops, out):
        got = ours(crops, out)
        quads = np.array([[[0, 0], [c.shape[1], 0], [c.shape[1], c.shape[0]], [0, c.shape[0]]] for c in crops],
                         dtype=np.float32)
        res = CalRecBoxes()(crops, quads, copy.deepcopy(out), False)
        for crop, words, want in zip(crops, got, res.word_results):
            boxes = []
            for txt, conf, quad in want:
                q = np.asarray(quad, dtype=np.float32)
                boxes.append((str(txt), float(conf), (int(q[:, 0].min()), int(q[:, 1].min()),
                                                      int(np.ceil(q[:, 0].max())), int(np.ceil(q[:, 1].max())))))
            compared.append((crop, words, boxes))
        return got

    monkeypatch.setattr(RapidOcrEngine, "_word_boxes", staticmethod(both))
    eng = RapidOcrEngine()
    for rgb in screens:
        eng.read(rgb)
        eng.read_alone(rgb, eng.last_packed_glyphs())
    eng.read_glyphs(screens[2], [line.box for line in eng.read(screens[2])])
    # crops 1.5 times taller than wide, whose boxes rapidocr turns: the calendar's digits with
    # rows above and below
    rgb = screens[2]
    tall = []
    for b in eng.last_packed_glyphs():
        pad = max(0, int(1.6 * b.width) - b.height) // 2 + 1
        tall.append(Box(b.x1, max(0, b.y1 - pad), b.x2, min(rgb.shape[0], b.y2 + pad)))
    eng.recognize(rgb, tall, keep_all=True)
    assert len(compared) >= 150
    assert all(words == want for _, words, want in compared)
    # rapidocr turns the boxes of a crop 1.5 times taller than wide: such crops are among them
    assert any(c.shape[0] >= 1.5 * c.shape[1] and words for c, words, _ in compared)
    assert sum(len(words) for _, words, _ in compared) >= 200


def test_detection_is_rapidocrs(screens: list[np.ndarray]) -> None:
    """The detector's input is normalised through a table computed as rapidocr computes it: the
    same boxes as rapidocr's detector on the same image; the screenshot is scaled down before its
    channels are swapped: the same pixels."""
    eng = RapidOcrEngine()
    det, _ = eng._models()
    for rgb in screens:
        scale = eng.scale_for(rgb.shape[1], rgb.shape[0])
        small = eng._downscale(rgb, scale)
        rw, rh = small.shape[1], small.shape[0]
        assert np.array_equal(small, cv2.resize(rgb[:, :, ::-1], (rw, rh), interpolation=cv2.INTER_AREA))
        part = cv2.copyMakeBorder(small, 0, -(-rh // 32) * 32 - rh, 0, -(-rw // 32) * 32 - rw, cv2.BORDER_REPLICATE)
        want = det(np.ascontiguousarray(part)).boxes
        got = eng._det_quads(det, part)
        assert want is not None and len(want) >= 10
        assert np.array_equal(np.asarray(got), np.asarray(want))
