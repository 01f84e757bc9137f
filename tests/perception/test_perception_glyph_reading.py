"""The glyph under a box, read once for both confirm gates (agent/risk.glyph_at and the MCP
server's gates.glyph_names): the scores ``perception.icons.reading.glyph_scores``, the reading
(status bar, least score, rivals, margin) ``perception.glyphs.read_glyph``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

import mobile_agent.perception.icons.offline as offline
from mobile_agent.agent import risk
from mobile_agent.agent.risk import glyph_at
from mobile_agent.mcpserver import gates
from mobile_agent.mcpserver.gates import glyph_readings
from mobile_agent.perception import Perception
from mobile_agent.perception.glyphs import read_glyph
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


def test_one_reading_with_each_gates_bounds():
    img, box = _trash_screen()
    rgb = np.asarray(img)
    p = Perception()
    words = ("search", "trash can", "heart")
    r = read_glyph(p, rgb, box, words, min_score=0.75)
    assert r is not None and r.word == "trash can" and r.words == ("trash can",) and r.score >= 0.75
    # every word within the margin of the best, best first
    wide = read_glyph(p, rgb, box, words, min_score=0.75, margin=1.0)
    assert wide is not None and wide.words[0] == "trash can" and set(wide.words) == set(words)
    # a least score it does not reach, a rival that outscores the best word, the status bar
    assert read_glyph(p, rgb, box, words, min_score=1.01) is None
    assert read_glyph(p, rgb, box, ("search",), min_score=0.0, rivals=("trash can",)) is None
    assert read_glyph(p, rgb, box, words, min_score=0.75, rivals=("search",)) == r
    assert read_glyph(p, rgb, box, words, min_score=0.75, status_bar=box.y2) is None
    top = Box(box.x1, 0, box.x2, 60)  # the default bound: the perception's status bar (84 rows of 2400)
    top_img = img.copy()
    top_img.paste(img.crop(box.as_tuple()).resize((top.width, top.height)), (top.x1, top.y1))
    assert read_glyph(p, np.asarray(top_img), top, words, min_score=0.0) is None
    assert read_glyph(p, np.asarray(top_img), top, words, min_score=0.0, status_bar=0) is not None
    # the gates are that reading with their own words and bounds
    rr = read_glyph(p, rgb, box, tuple(risk.RISKY_GLYPHS), min_score=risk.GLYPH_MIN_SCORE, rivals=risk.OTHER_GLYPHS)
    assert rr is not None and glyph_at(p, img, box.as_tuple()) == (rr.word, rr.score) == ("trash can", rr.score)
    assert gates.glyph_names(p, rgb, box, img.size[0]) == list(
        read_glyph(p, rgb, box, gates.GLYPH_WORDS, min_score=gates.GLYPH_MIN_SCORE, margin=gates.GLYPH_MARGIN,
                   status_bar=gates.STATUS_BAR * rgb.shape[0]).words)
    assert gates.glyph_names(p, rgb, box, img.size[0])[0] == "trash"
