"""The glyph under a box, read once for both confirm gates (agent/risk.glyph_at and the MCP
server's gates.glyph_names): ``perception.icons.reading.glyph_scores``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

import mobile_agent.perception.icons.offline as offline
from mobile_agent.agent.risk import glyph_at
from mobile_agent.mcpserver.gates import glyph_readings
from mobile_agent.perception import Perception
from mobile_agent.perception.icons.reading import glyph_scores
from mobile_agent.types import Box


def _trash_screen() -> tuple[Image.Image, Box]:
    img = Image.new("RGB", (1080, 2400), (250, 250, 250))
    font = ImageFont.truetype(str(Path(offline.__file__).with_name("refs") / "MaterialIcons-Regular.ttf"), 96)
    ImageDraw.Draw(img).text((500, 1000), chr(offline._MATERIAL_CODEPOINTS["delete"]), font=font, fill=(40, 40, 40))
    return img, Box(490, 990, 606, 1106)


def test_both_gates_read_the_glyph_with_one_function():
    img, box = _trash_screen()
    rgb = np.asarray(img)
    p = Perception()
    scores = glyph_scores(p, rgb, box, ("search", "trash can", "heart", "paper plane"))
    assert [w for _, w in scores][0] == "trash can" and scores[0][0] >= 0.75
    assert [s for s, _ in scores] == sorted((s for s, _ in scores), reverse=True)
    # words the matcher has no shape for are left out, not scored as a blank
    assert [w for _, w in glyph_scores(p, rgb, box, ("trash can", "zzqx"))] == ["trash can"]
    # the agent's risk rule and the MCP gate say the same of it
    assert glyph_at(p, img, box.as_tuple())[0] == "trash can"
    assert glyph_readings(p, rgb, box)[0][1] == "trash"


def test_no_matcher_or_an_empty_box_reads_nothing():
    img, box = _trash_screen()
    rgb = np.asarray(img)

    class NoMatcher:
        matcher = None

    class Broken:
        class matcher:  # noqa: N801 - a matcher whose scoring fails says nothing about the box
            @staticmethod
            def score(rgb, boxes, word):
                raise RuntimeError("no")

    assert glyph_scores(NoMatcher(), rgb, box, ("trash",)) == []
    assert glyph_scores(Broken(), rgb, box, ("trash",)) == []
    assert glyph_scores(Perception(), rgb, Box(10, 10, 10, 10), ("trash",)) == []
    assert glyph_at(NoMatcher(), img, box.as_tuple()) is None
