"""The second OCR engine, Tesseract (CI installs tesseract-ocr)."""

import pytest

from mobile_agent.errors import ConfigError
from mobile_agent.perception import Perception
from mobile_agent.perception.ocr import make_ocr
from perception_synth import settings_screen
from tests.fakes import system


@system.needs("tesseract")
def test_tesseract_reads_and_grounds_text():
    s = settings_screen(dark=True)
    p = Perception(ocr="tesseract")
    res = p.parse(s.image)
    assert res.engine == "tesseract"
    assert "Dark theme" in res.texts and "Network & internet" in res.texts
    line = next(l for l in res.lines if l.text == "Network & internet")
    assert [w.text for w in line.words] == ["Network", "&", "internet"]
    g = p.ground_text(s.image, "Battery")
    assert g.status == "found" and s.texts["Battery"].expand(6).contains_point(g.point)
    g2 = p.ground_text(s.image, "internet")
    assert s.texts["Network & internet"].contains_point(g2.point)
    assert g2.point.x > s.texts["Network & internet"].center.x  # its own word, right of the centre


def test_unknown_engine_and_missing_program_are_config_errors():
    with pytest.raises(ConfigError, match="unknown OCR engine"):
        make_ocr("easyocr")
    with pytest.raises(ConfigError, match="apt-get install tesseract-ocr"):
        make_ocr("tesseract", binary="no-such-tesseract-program")
