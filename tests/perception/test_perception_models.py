"""Optional model backends: their errors without packages or weights, and the YOLO output decoder."""

import numpy as np
import pytest

from mobile_agent.errors import ConfigError
from mobile_agent.perception import Perception
from mobile_agent.perception.icons import make_detector, make_matcher
from mobile_agent.perception.icons.models import decode_yolo, letterbox


def test_unknown_and_incomplete_specs(tmp_path):
    with pytest.raises(ConfigError, match="unknown icon detector"):
        make_detector("rcnn")
    with pytest.raises(ConfigError, match="weights path"):
        make_detector("yolo")
    with pytest.raises(ConfigError, match="unknown icon matcher"):
        make_matcher("sift")
    with pytest.raises(ConfigError, match="not found"):
        make_detector(f"yolo:{tmp_path / 'missing.onnx'}")
    (tmp_path / "model.pt").write_bytes(b"\x00")
    with pytest.raises(ConfigError, match="ONNX"):
        make_detector(f"yolo:{tmp_path / 'model.pt'}")
    (tmp_path / "broken.onnx").write_bytes(b"not a model")
    with pytest.raises(ConfigError, match="cannot load the yolo weights"):
        make_detector(f"yolo:{tmp_path / 'broken.onnx'}")


def test_model_backends_name_the_missing_package(tmp_path):
    # torch/transformers/open_clip are not dependencies; where absent, the error says what to install.
    for spec, maker in ((f"gdino:{tmp_path}", make_detector), (f"clip:{tmp_path}", make_matcher)):
        try:
            import torch  # noqa: F401
        except ImportError:
            with pytest.raises(ConfigError, match="pip install"):
                maker(spec)
    with pytest.raises(ConfigError, match="not found"):
        Perception(detector=f"gdino:{tmp_path / 'nothing'}")


def test_marks_matcher_is_none():
    assert make_matcher("marks") is None


def test_yolo_decoder_reads_both_layouts():
    rgb = np.zeros((2400, 1080, 3), np.uint8)
    blob, s, left, top = letterbox(rgb, 640)
    assert blob.shape == (1, 3, 640, 640) and left > 0 and top == 0
    # One box at full-resolution (100, 200)-(300, 400), in letterbox coordinates.
    cx, cy, bw, bh = (200 * s + left), 300 * s, 200 * s, 200 * s
    v8 = np.zeros((1, 5, 50), np.float32)  # [1, 4 + 1 class, anchors]
    v8[0, :, 7] = [cx, cy, bw, bh, 0.9]
    v8[0, :, 8] = [cx + 1, cy, bw, bh, 0.8]  # a duplicate, suppressed
    v8[0, :, 9] = [cx, cy, bw, bh, 0.1]  # under the threshold
    (box,) = decode_yolo(v8, s, left, top, 1080, 2400)
    assert abs(box.box.x1 - 100) <= 2 and abs(box.box.y2 - 400) <= 2 and box.score == pytest.approx(0.9)
    v5 = np.zeros((1, 50, 7), np.float32)  # [1, anchors, 5 + 2 classes]
    v5[0, 3] = [cx, cy, bw, bh, 0.8, 0.1, 0.9]
    (box5,) = decode_yolo(v5, s, left, top, 1080, 2400)
    assert box5.score == pytest.approx(0.72) and abs(box5.box.x2 - 300) <= 2
    with pytest.raises(ConfigError, match="unexpected yolo output"):
        decode_yolo(np.zeros((1, 3, 3)), s, left, top, 1080, 2400)


def test_a_yolo_onnx_detector_runs_end_to_end_on_onnxruntime():
    """``yolo:PATH`` as a user with an exported detector runs it: onnxruntime loads the file, the
    screenshot is letterboxed into its input, its output decoded and suppressed, and Click Icon
    chooses among its boxes. The file is a stand-in whose answer is fixed (the Notes list's icons
    on the simulated phone: ``fixtures/yolo/make_tiny_yolo.py``), shaped as YOLOv8/9 exports are;
    OmniParser's real weights are not something a test can fetch."""
    from pathlib import Path

    from mobile_agent.device.sim import SimPhone

    from tests.perception.fixtures.yolo.make_tiny_yolo import ICONS

    model = Path(__file__).parent / "fixtures" / "yolo" / "tiny_icon_detect.onnx"
    phone = SimPhone(seed=0)
    phone.launch("Notes")
    shot = phone.screenshot()
    p = Perception(detector=f"yolo:{model}")
    assert p.detector.name == "yolo" and p.detector.input_size == 640
    # (glyphs OCR reads as characters join the detector's boxes, as with any detector)
    icons = [i for i in p.parse(shot, icons=True).icons if i.source == "yolo"]
    # the five boxes, each within a letterbox pixel (2.2 screen pixels) of the tree's; the
    # duplicate suppressed and the box under the threshold dropped
    assert len(icons) == len(ICONS)
    for want in ICONS.values():
        assert any(max(abs(a - b) for a, b in zip(i.box.as_tuple(), want)) <= 4 for i in icons), want
    for description in ("Search notes", "New note"):
        g = p.ground_icon(shot, description)
        x1, y1, x2, y2 = ICONS[description]
        assert g.status == "found" and x1 <= g.point.x <= x2 and y1 <= g.point.y <= y2, (description, g.candidates[:3])
