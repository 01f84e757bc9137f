"""The OCR engine's faster steps give exactly what the former steps gave: word boxes computed in
plain arithmetic (``RapidOcrEngine._word_boxes``) against the former step-by-step computation
(``_word_boxes_stepwise``, itself held equal to rapidocr's ``CalRecBoxes`` in
test_perception_rapid_batches.py), on the crops of rendered sim, wide and held-out screens and on
random readings."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from mobile_agent.perception.ocr import rapid
from mobile_agent.perception.ocr.rapid import RapidOcrEngine
from tests.fakes import system


@pytest.fixture(scope="module")
def screens() -> list[np.ndarray]:
    system.require("dejavu", "noto-cjk", "entypo", "glyphicons")  # the wide set's looks, the held-out icon fonts
    from mobile_agent.screensets import icon_heldout
    from mobile_agent.screensets.measure import collect_sim_screens
    from mobile_agent.screensets.wide import collect_wide_screens

    shots = (collect_sim_screens(seed=0, max_screens=2) + collect_wide_screens(seed=0, max_screens=4)
             + icon_heldout.heldout_screens(seed=0, count=2))
    return [np.asarray(s.image.convert("RGB")) for s in shots]


def _captured_word_boxes(screens: list[np.ndarray], monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """(crops, recogniser output) of every word-box computation of a parse, its glyphs read alone
    and its glyph pass, on each screen."""
    seen: list[tuple] = []
    fast = RapidOcrEngine._word_boxes

    def keep(crops, out):
        seen.append((crops, copy.deepcopy(out)))
        return fast(crops, out)

    monkeypatch.setattr(RapidOcrEngine, "_word_boxes", staticmethod(keep))
    eng = RapidOcrEngine()
    for rgb in screens:
        lines = eng.read(rgb)
        eng.read_alone(rgb, eng.last_packed_glyphs())
        eng.read_glyphs(rgb, [line.box for line in lines])
    monkeypatch.undo()
    return seen


def test_word_boxes_equal_the_stepwise_computation_on_rendered_screens(screens, monkeypatch) -> None:
    seen = _captured_word_boxes(screens, monkeypatch)
    calls = {"stepwise": 0}
    stepwise = RapidOcrEngine._word_boxes_stepwise

    def counted(crops, out):
        calls["stepwise"] += len(crops)
        return stepwise(crops, out)

    lines = words = 0
    for crops, out in seen:
        want = stepwise(crops, copy.deepcopy(out))
        monkeypatch.setattr(RapidOcrEngine, "_word_boxes_stepwise", staticmethod(counted))
        got = RapidOcrEngine._word_boxes(crops, copy.deepcopy(out))
        monkeypatch.undo()
        assert got == want
        lines += len(crops)
        words += sum(len(w) for w in got)
    assert lines >= 300 and words >= 400
    # most crops take the plain arithmetic; the rest (tall crops, sizes whose mapping is not the
    # identity) the former steps
    assert 0 < calls["stepwise"] < lines / 2


def _random_reading(rng: random.Random, engine_rec) -> tuple[str, object]:
    """A reading as the engine's CTC decoding gives it: characters at increasing columns (Latin,
    digits, spaces, Chinese, punctuation), the columns counted from the crop's left edge."""
    alphabet = "abcdefgXYZ0123456789 .,:%-" + "设置时间网络" + "  "
    n = rng.randint(0, 24)
    text = "".join(rng.choice(alphabet) for _ in range(n)).strip() if rng.random() < 0.9 else ""
    cols = rng.randint(max(1, len(text)), max(2, len(text) * 6))
    keep = np.zeros(cols, dtype=bool)
    if text:
        keep[sorted(rng.sample(range(cols), len(text)))] = True
    from rapidocr.ch_ppocr_rec.utils import CTCLabelDecode

    info = CTCLabelDecode.get_word_info(text, keep)
    offset = rng.choice([0.0, rng.uniform(-3, 3), rng.uniform(0, 40)])
    info.word_cols = [[c - offset for c in cs] for cs in info.word_cols]
    info.line_txt_len = rng.choice([float(cols), rng.uniform(0.5, 2.0) * cols])
    info.confs = [round(rng.random(), 5) for _ in text] or [0.0]
    return text, info


@pytest.mark.parametrize("seed", range(3))
def test_word_boxes_equal_the_stepwise_computation_on_random_readings(seed) -> None:
    rng = random.Random(seed)
    crops, txts, infos = [], [], []
    for _ in range(400):
        w = rng.choice([rng.randint(1, 60), rng.randint(40, 1500), rng.randint(4000, 4200)])
        h = rng.choice([rng.randint(8, 120), rng.randint(1, 4)])
        crops.append(np.zeros((h, w, 3), np.uint8))
        t, info = _random_reading(rng, None)
        txts.append(t if rng.random() > 0.02 else None)
        infos.append(info)
    out = type("Out", (), {})()
    out.txts, out.word_results = txts, infos
    want = RapidOcrEngine._word_boxes_stepwise(crops, copy.deepcopy(out))
    got = RapidOcrEngine._word_boxes(crops, copy.deepcopy(out))
    assert got == want
    assert sum(len(w) for w in got) > 1000


def test_the_mapping_test_finds_sizes_both_ways() -> None:
    sizes = [(w, h) for w in range(10, 400, 13) for h in range(10, 90, 7)]
    identity = [rapid._maps_onto_itself(w, h) for w, h in sizes]
    assert any(identity) and not all(identity)


def _parse_signature(result) -> tuple:
    lines = [(l.text, l.box, l.score, [(w.text, w.box, w.score) for w in l.words]) for l in result.lines]
    icons = [(i.box, i.score, i.source) for i in result.icons]
    return lines, icons, list(result.packed_glyphs)


def test_bounded_spinning_reads_every_screen_as_onnxruntimes_own_spinning(screens) -> None:
    """The engine's sessions spin 50 us before their threads sleep (``spin_us``); with
    ``spin_us=None`` they spin as onnxruntime does by default. The same lines, word boxes,
    scores, packed glyphs and icon boxes, bit for bit, on every screen."""
    from mobile_agent.perception import Perception

    bounded, own = RapidOcrEngine(), RapidOcrEngine(spin_us=None)
    for eng, want in ((bounded, "50"), (own, None)):
        for model in eng._models():
            opts = model.session.session.get_session_options()
            try:
                got = opts.get_session_config_entry("session.intra_op.spin_duration_us")
            except RuntimeError:  # no such entry: onnxruntime's own spinning
                got = None
            assert got == want
    a, b = Perception(ocr=bounded, incremental=False), Perception(ocr=own, incremental=False)
    from PIL import Image

    for rgb in screens:
        img = Image.fromarray(rgb)
        assert _parse_signature(a.parse(img, icons=True)) == _parse_signature(b.parse(img, icons=True))


@pytest.mark.parametrize("value", [-1, float("nan"), float("inf"), "50", True])
def test_a_bad_spin_time_is_a_clear_error(value) -> None:
    from mobile_agent.errors import ConfigError
    from mobile_agent.perception import Perception

    with pytest.raises(ConfigError, match="spin_us"):
        Perception(ocr_options={"spin_us": value})


def _rec_input_bgr_first(bgr: np.ndarray) -> np.ndarray:
    """The recogniser's input as the former code made it: from a crop copied into BGR order."""
    import math

    import cv2

    h, w = bgr.shape[:2]
    width = 48 * w / float(max(1, h))
    rw = max(1, math.ceil(width) if width <= 320 else int(width))
    x = cv2.resize(bgr, (rw, 48)).astype(np.float32)
    x = x.transpose(2, 0, 1) / 127.5
    x -= 1.0
    return x


def test_recogniser_inputs_equal_those_of_crops_swapped_first(screens) -> None:
    """Crops stay in RGB order and the recogniser's input swaps the channels after scaling: the
    very values of the former input, on every line, glyph and odd-sized crop of rendered screens."""
    from mobile_agent.types import Box

    eng = RapidOcrEngine()
    rng = np.random.default_rng(0)
    n = 0
    for rgb in screens:
        boxes = eng.detect(rgb)
        boxes += rapid.glyph_boxes(rgb, boxes)
        h, w = rgb.shape[:2]
        for _ in range(20):  # odd sizes: a pixel wide or tall, wider than the least input
            x, y = int(rng.integers(0, w - 1)), int(rng.integers(0, h - 1))
            boxes.append(Box(x, y, min(w, x + int(rng.choice([1, 2, 900]))), min(h, y + int(rng.choice([1, 3, 60])))))
        for b in boxes:
            crop = rgb[b.y1:b.y2, b.x1:b.x2]
            got = rapid._rec_input(np.ascontiguousarray(crop))
            want = _rec_input_bgr_first(np.ascontiguousarray(crop[:, :, ::-1]))
            assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
            n += 1
    assert n >= 350


def test_recognised_crops_are_cached_by_their_pixels(screens) -> None:
    """A crop read once is taken from the cache by its pixels (and its reading mode): reading the
    same boxes again reads nothing; the same pixels elsewhere on the screen read nothing either."""
    from mobile_agent.types import Box

    eng = RapidOcrEngine()
    rgb = screens[0]
    boxes = eng.detect(rgb)
    first = eng.recognize(rgb, boxes)
    read = eng.stats["crops_read"]
    assert read > 0 and eng.recognize(rgb, boxes) == first and eng.stats["crops_read"] == read
    moved = np.zeros((rgb.shape[0] + 7, rgb.shape[1] + 5, 3), np.uint8)
    moved[7:, 5:] = rgb
    again = eng.recognize(moved, [Box(b.x1 + 5, b.y1 + 7, b.x2 + 5, b.y2 + 7) for b in boxes])
    assert eng.stats["crops_read"] == read
    assert [ln.text for ln in again] == [ln.text for ln in first]
    eng.read_alone(rgb, boxes)  # another reading mode: read again
    assert eng.stats["crops_read"] > read
