"""Click Text rules for what real apps draw, third round (issue 25): each named by the phenomenon
it handles. Screens drawn in a real font, or a real screen's OCR readings given to the grounding;
the development set's screens (``../shared/realscreens``) where they are beside the clone."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mobile_agent.perception import Perception
from mobile_agent.perception.results import TextLine, Word
from mobile_agent.types import Box

DEV = Path(__file__).resolve().parents[3] / "shared" / "realscreens"
needs_dev = pytest.mark.skipif(not (DEV / "manifest.jsonl").is_file(),
                               reason="the development set of real screens (../shared/realscreens beside the clone) is absent")


class _LinesOcr:
    """An OCR engine that reports given lines (a real screen's readings: the rule under test is the
    grounding's, not the recogniser's)."""

    name = "given"

    def __init__(self, lines):
        self.lines = lines

    def read(self, rgb, det_scale=None):
        return list(self.lines)


def _line(text: str, box: tuple[int, int, int, int], words: list[tuple[str, tuple[int, int, int, int]]]) -> TextLine:
    return TextLine(text, Box(*box), 0.9, tuple(Word(t, Box(*b), 0.99) for t, b in words))


def _dev_target(name: str, text: str) -> Box:
    for line in (DEV / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d["image"] == f"img/{name}.png" and d["target"] == text:
            return Box(*d["bbox"])
    raise AssertionError(text)


def test_a_value_that_is_no_time_is_not_found_in_the_status_bar_clock():
    # An onboarding screen's slider whose value "0.0" the app does not draw; the status bar's clock
    # "2:00" read together with the gear beside it as "2:000" held it (the digits folded, the
    # decimal point dropped).
    clock = _line("2:000", (5, 0, 343, 64), [("2:00", (20, 0, 106, 64)), ("0", (308, 0, 329, 64))])
    body = _line("Font size", (99, 1040, 260, 1090), [("Font size", (99, 1040, 260, 1090))])
    img = Image.new("RGB", (1080, 2280), (250, 250, 250))
    p = Perception(ocr=_LinesOcr([clock, body]))
    g = p.ground_text(img, "0.0")
    assert g.status == "none", (g.status, g.message)
    g = p.ground_text(img, "Font size")
    assert g.found
    # a clock text of the app's own (a timer) is found as before
    timer = _line("0:00", (400, 1400, 560, 1470), [("0:00", (400, 1400, 560, 1470))])
    p = Perception(ocr=_LinesOcr([clock, body, timer]))
    g = p.ground_text(img, "0:00")
    assert g.found and g.point.y > 1400


@needs_dev
def test_real_slider_value_not_in_the_clock():
    name = "org.totschnig.myexpenses__1234201261"
    img = Image.open(DEV / "img" / f"{name}.png").convert("RGB")
    g = Perception().ground_text(img, "0.0")
    assert g.status == "none", (g.status, g.message)
