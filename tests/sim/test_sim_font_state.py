"""The simulated phone's text is the same whatever its fonts drew before.

raqm (HarfBuzz) may lay a variable font's glyphs out a pixel apart the first time a font object
draws and every time after (Montserrat's "9:41" does, at some sizes: the held-out text set's digest
once depended on test order for it). The phone keeps its font objects for the process and its text
masks in a cache, so a font that did so would make a screen's pixels depend on which screens were
drawn before, and on what the cache dropped: OCR caches keyed by the image and benchmark figures
would not repeat. Every text font the phone draws with (Roboto and the looks' fonts) is held here
to drawing a text the first time as it draws it the second.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from mobile_agent.device.sim import look, render
from tests.fakes import system

# clocks, times and counts (digits beside colons and commas), kerning pairs, labels the apps draw
TEXTS = ("9:41", "12:05", "Today, 9:41 AM", "1,204 reviews", "Wi-Fi & AV Ta We Yo", "\u8bbe\u7f6e 9:41")
SIZES = (30, 36, 42, 48)
WEIGHTS = (400, 500, 700)


def _fresh(family: str, size: int, weight: int):
    if family == "roboto":
        return render._roboto.__wrapped__(size, weight)
    return look.load_font.__wrapped__(family, size, weight)


def _draw(font, text: str) -> np.ndarray:
    img = Image.new("L", (40 * len(text) + 80, 120), 0)
    ImageDraw.Draw(img).text((10, 10), text, font=font, fill=255, anchor="la")
    return np.asarray(img)


@pytest.mark.parametrize("family", ["roboto", *look.FONTS])
def test_a_font_draws_a_text_the_first_time_as_it_does_after(family):
    if family in system.PARTS:  # a system font (dejavu, noto-cjk): skipped with how to install it
        system.require(family)
    if family != "roboto" and not look.font_available(family):
        pytest.skip(look.FONTS[family][1])
    apart = []
    for size in SIZES:
        for weight in WEIGHTS:
            for text in TEXTS if family == "noto-cjk" else TEXTS[:-1]:
                f = _fresh(family, size, weight)
                if not np.array_equal(_draw(f, text), _draw(f, text)):
                    apart.append((size, weight, text))
    assert not apart, apart
