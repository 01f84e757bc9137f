"""The int8 text detector shipped in the package: it loads offline, with its provenance beside it,
and finds the same text on a screen as the float detector; a missing file is a clear error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mobile_agent.errors import ConfigError
from mobile_agent.perception.ocr import rapid
from mobile_agent.perception.ocr.rapid import INT8_DET, RapidOcrEngine
from perception_synth import settings_screen


def test_int8_detector_ships_with_its_provenance_and_licence():
    assert INT8_DET.exists() and INT8_DET.stat().st_size > 500_000
    prov = INT8_DET.with_suffix(".txt").read_text(encoding="utf-8")
    assert "Apache-2.0" in prov and "sha256" in prov and "calibration" in prov and "wide" in prov


def test_int8_detector_reads_what_the_float_one_reads():
    rgb = np.asarray(settings_screen().image.crop((0, 0, 1080, 1200)).convert("RGB"))
    fp = {l.text for l in RapidOcrEngine().read(rgb)}
    q = {l.text for l in RapidOcrEngine(det_int8=True).read(rgb)}
    assert len(fp) >= 8
    assert len(fp & q) >= 0.9 * len(fp)


def test_missing_int8_file_is_a_config_error(monkeypatch, tmp_path):
    monkeypatch.setattr(rapid, "INT8_DET", Path(tmp_path) / "none.onnx")
    with pytest.raises(ConfigError, match="quantize_det.py"):
        RapidOcrEngine(det_int8=True)
