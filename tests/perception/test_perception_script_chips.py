"""Text in another script on chips (white on a coloured pill), read by Tesseract's packs: the page
around a chip is no frame round its text, and a chip whose text the line detector boxed only in part
is read whole. On drawn chips in a real font, and on the development set's screens where it is
beside the clone (``../shared/realscreens``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.perception import Perception
from mobile_agent.perception.ocr import scripts
from mobile_agent.perception.ocr.scripts import chip_box, read_script_lines
from mobile_agent.types import Box
from manifest_targets import target_box
from tests.fakes import system
from tests.devscreens import COMMITTED

CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
DEV = COMMITTED

needs_kor = system.needs_pack("kor")
needs_font = system.needs("noto-cjk")


def _chip(text: str, colour: tuple[int, int, int], size: int = 44) -> tuple[np.ndarray, Box, Box]:
    """A chip drawn as a podcast app's "Popular Searches" draws it; the screen, the chip's box and
    the box of its first word (what a line detector boxes of it on a light chip)."""
    img = Image.new("RGB", (1080, 300), (250, 250, 250))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(CJK_FONT), size)
    x, y = 44, 100
    w = int(d.textlength(text, font=font)) + 60
    d.rounded_rectangle((x, y, x + w, y + 78), radius=39, fill=colour)
    d.text((x + 30, y + 10), text, font=font, fill=(255, 255, 255))
    first = text.split()[0]
    fw = int(d.textlength(first, font=font))
    return np.asarray(img), Box(x, y, x + w, y + 78), Box(x + 24, y + 4, x + 36 + fw, y + 74)


@needs_kor
@needs_font
def test_the_page_around_a_chip_is_no_frame_round_its_text():
    # The detector's box reaches past the chip's top, bottom and rounded ends: turned to black
    # text on white, the page around the chip became a black frame, and Tesseract read nothing.
    rgb, chip, _ = _chip("김어준", (255, 70, 85))
    box = Box(chip.x1 - 4, chip.y1 - 6, chip.x2 + 4, chip.y2 + 6)
    lines = read_script_lines(rgb, [box], "kor")
    # read as a line, then (a short label) as a word too: the line's reading first
    assert [l.text for l in lines][0] == "김어준" and len(lines) <= 2


def test_the_frame_is_cleared_and_the_text_kept():
    bw = np.full((60, 200), 255, np.uint8)
    bw[:, :6] = 0  # the page beyond the chip's end, touching the crop's edge
    bw[0:3, :] = 0
    bw[20:40, 50:60] = 0  # a stroke of text
    out = scripts._without_frame(bw)
    assert (out[:, :6] == 255).all() and (out[0:3] == 255).all()
    assert (out[20:40, 50:60] == 0).all()
    only_edge = np.full((60, 200), 255, np.uint8)
    only_edge[:, :6] = 0
    assert (scripts._without_frame(only_edge) == only_edge).all()  # nothing but the edge: kept


@needs_font
def test_a_chip_boxed_in_part_is_read_whole():
    rgb, chip, first = _chip("법륜스님의 즉문즉설", (145, 175, 50))
    found = chip_box(rgb, first)
    assert found is not None and abs(found.x1 - chip.x1) <= 4 and abs(found.x2 - chip.x2) <= 4
    # the whole chip boxed: nothing more to read
    assert chip_box(rgb, Box(chip.x1 + 8, chip.y1 + 4, chip.x2 - 8, chip.y2 - 4)) is None
    # a line on the page: its ground runs to the screen's edges, no chip
    img = Image.new("RGB", (1080, 300), (250, 250, 250))
    ImageDraw.Draw(img).text((44, 100), "Popular Searches", font=ImageFont.truetype(str(CJK_FONT), 44),
                             fill=(20, 20, 20))
    assert chip_box(np.asarray(img), Box(40, 96, 420, 160)) is None
    # a dialog's row (a card with margins, its fill running on above and below the text): no chip
    card = Image.new("RGB", (1080, 600), (90, 90, 90))
    d = ImageDraw.Draw(card)
    d.rectangle((60, 100, 1020, 500), fill=(250, 250, 250))
    d.text((100, 260), "Русский", font=ImageFont.truetype(str(CJK_FONT), 44), fill=(20, 20, 20))
    assert chip_box(np.asarray(card), Box(96, 256, 290, 326)) is None


def _dev_target(name: str, text: str) -> Box:
    return target_box(DEV, name, text)


@system.needs_pack("kor", "ara")
@pytest.mark.parametrize("name,text", [
    ("Podcast_Player_v7.0.0-220308033.rd0a0ae8__1405221607", "김어준"),  # the frame round a red chip
    ("Podcast_Player_v7.0.0-220308033.rd0a0ae8__1882408957", "법륜스님의 즉문즉설"),  # half boxed
    ("BOTIM_Video_and_Voice_Call_v2.7.9__354963744", "مصر"),  # a short Arabic word, read larger
])
def test_real_screens_other_scripts(name, text):
    img = Image.open(DEV / "img" / f"{name}.png").convert("RGB")
    g = Perception().ground_text(img, text)
    assert g.found and _dev_target(name, text).contains_point(g.point), (g.status, g.message)


ARABIC_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@system.needs("dejavu", "tesseract-ara")
@pytest.mark.parametrize("size", [40, 56])
def test_a_short_arabic_name_over_its_english_one(size):
    # A country list draws each name in its own script over the English one. A short Arabic word's
    # body is a small part of its line's box; read at 52 px of box height it was two letters
    # ("مصر" as "مه") and not found.
    img = Image.new("RGB", (1080, 600), (255, 255, 255))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(ARABIC_FONT), size)
    d.text((40, 100), "مصر", font=font, fill=(20, 20, 20))
    d.text((40, 180), "Egypt", font=ImageFont.truetype(str(ARABIC_FONT), 40), fill=(110, 110, 110))
    d.text((40, 300), "عُمان", font=font, fill=(20, 20, 20))
    d.text((40, 380), "Oman", font=ImageFont.truetype(str(ARABIC_FONT), 40), fill=(110, 110, 110))
    p = Perception()
    for text, y in (("مصر", 100), ("عُمان", 300)):
        box = Box(*d.textbbox((40, y), text, font=font)).expand(8)
        g = p.ground_text(img, text)
        assert g.found and box.contains_point(g.point), (text, g.status, g.message)
    assert not p.ground_text(img, "لبنان").found
