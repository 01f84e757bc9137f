"""Lone thin glyphs (keyboard keys, punctuation) that the line detector misses are still grounded."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pytest
from PIL import Image, ImageDraw

from mobile_agent.perception import Candidate, Perception
from mobile_agent.types import Box
from perception_synth import roboto


def _keyboard() -> tuple[Image.Image, dict[str, Box]]:
    """A phone-sized screen with a keyboard of white keys, each holding one glyph."""
    img = Image.new("RGB", (1080, 2400), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.text((60, 300), "Search results", font=roboto(48), fill=(33, 33, 33))
    d.rectangle((0, 1680, 1080, 2260), fill=(226, 228, 234))
    keys: dict[str, Box] = {}
    rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm", ",."]
    for r, row in enumerate(rows):
        x0 = 8 + (54 if r == 1 else 162 if r == 2 else 162 if r == 3 else 0)
        for k, ch in enumerate(row):
            x1 = x0 + k * (108 if r < 3 else 648)
            y1 = 1712 + r * 139
            box = Box(x1, y1, x1 + 92, y1 + 107)
            d.rounded_rectangle((box.x1, box.y1, box.x2 - 1, box.y2 - 1), radius=12, fill=(255, 255, 255))
            font = roboto(50)
            l, t, rr, b = d.textbbox((0, 0), ch, font=font)
            d.text((box.center.x - (l + rr) / 2, box.center.y - (t + b) / 2), ch, font=font, fill=(30, 30, 30))
            keys[ch] = box
    return img, keys


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception(detector="cv", matcher="marks")


@pytest.mark.parametrize("key", ["r", ","])
def test_a_thin_key_is_found_on_its_key(perception: Perception, key: str) -> None:
    img, keys = _keyboard()

    def oracle(marked: Image.Image, cands: Sequence[Candidate], question: str) -> int | None:
        return next((k for k, c in enumerate(cands) if keys[key].contains_point(c.point)), None)

    g = perception.ground_text(img, key, choose=oracle)
    assert g.status == "found", g.message
    assert keys[key].contains_point(g.point)


def test_glyph_reading_leaves_known_text_alone(perception: Perception) -> None:
    img, _ = _keyboard()
    res = perception.parse(img)
    glyphs = perception.ocr.read_glyphs(np.asarray(img), [l.box for l in res.lines])
    assert all(len(g.text) <= 2 for g in glyphs)
    assert not any(g.box.center.y < 400 for g in glyphs)  # "Search results" was read as a line
