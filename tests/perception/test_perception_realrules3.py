"""Click Text rules for what real apps draw, third round (issue 25): each named by the phenomenon
it handles. Screens drawn in a real font, or a real screen's OCR readings given to the grounding;
the development set's screens (``../shared/realscreens``) where they are beside the clone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import fontpkg_roboto

from mobile_agent.perception import Perception
from mobile_agent.perception.core import cursor_at_end
from mobile_agent.perception.results import TextLine, Word
from mobile_agent.types import Box
from manifest_targets import target_box
from tests.devscreens import COMMITTED

DEV = COMMITTED


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
    return target_box(DEV, name, text)


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


def test_real_slider_value_not_in_the_clock():
    name = "org.totschnig.myexpenses__1234201261"
    img = Image.open(DEV / "img" / f"{name}.png").convert("RGB")
    g = Perception().ground_text(img, "0.0")
    assert g.status == "none", (g.status, g.message)


def _search_bar(query: str, gap: int) -> tuple[Image.Image, Box, Box]:
    """A music player's search screen: the query typed white on the blue bar with the cursor (black,
    the theme's accent) ``gap`` px after it, and a result row below that holds it capitalised."""
    from PIL import ImageDraw, ImageFont

    font_path = Path(fontpkg_roboto.__file__).parent / "files" / "Roboto[wdth,wght].ttf"
    img = Image.new("RGB", (1080, 1200), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 1080, 220), fill=(63, 81, 181))
    font = ImageFont.truetype(str(font_path), 50)
    d.text((240, 110), query, font=font, fill=(255, 255, 255), anchor="lm")
    x2 = d.textbbox((240, 110), query, font=font, anchor="lm")[2]
    d.rectangle((x2 + gap, 78, x2 + gap + 4, 144), fill=(0, 0, 0))
    row = query.capitalize() + " Study"
    d.text((200, 400), row, font=ImageFont.truetype(str(font_path), 44), fill=(30, 30, 30))
    return img, Box(0, 0, 1080, 220), Box(*d.textbbox((200, 400), row, font=ImageFont.truetype(str(font_path), 44)))


def test_a_query_with_the_cursor_against_its_last_letter():
    # The cursor drawn against the query's last letter: OCR reads "lof" for "lofi", and the row
    # "Lofi Study" below held the request (a contained, case-folded match). The cursor, a stroke in
    # the accent colour over the letters' whole height, says the field holds the query.
    img, bar, row = _search_bar("lofi", -2)
    g = Perception().ground_text(img, "lofi")
    assert g.found and bar.contains_point(g.point), (g.status, g.message)
    # the row is still found for its own text
    g = Perception().ground_text(img, "Lofi Study")
    assert g.found and row.expand(8).contains_point(g.point)
    # a letter that is the text's own colour is no cursor: "Lof" of "Lofi Study" is no "Lofi"
    assert not cursor_at_end(np.asarray(img), Box(196, 392, 330, 460))


def test_real_search_query_with_its_cursor():
    name = "com.poupa.vinylmusicplayer__26861387"
    img = Image.open(DEV / "img" / f"{name}.png").convert("RGB")
    g = Perception().ground_text(img, "lofi")
    assert g.found and _dev_target(name, "lofi").contains_point(g.point), (g.status, g.message)


def test_a_word_in_a_colour_of_its_own_between_two_links():
    # A sign-up screen's consent line: "Terms of Use" and "Privacy Policy" are white links, the
    # "and" between them grey, its own node; a tab above reads "Shows and More" in one colour.
    # The same word in both lines was a contained match of about the same score (ambiguous).
    from PIL import ImageDraw, ImageFont

    font = ImageFont.truetype(str(Path(fontpkg_roboto.__file__).parent / "files" / "Roboto[wdth,wght].ttf"), 40)
    img = Image.new("RGB", (1080, 1400), (17, 20, 31))
    d = ImageDraw.Draw(img)
    d.text((380, 300), "Shows and More", font=font, fill=(255, 255, 255))
    d.text((150, 1000), "By registering, you agree to our", font=font, fill=(140, 140, 150))
    x = 200
    boxes = {}
    for word, colour in (("Terms of Use", (255, 255, 255)), ("and", (140, 140, 150)), ("Privacy Policy", (255, 255, 255))):
        d.text((x, 1060), word, font=font, fill=colour)
        boxes[word] = Box(*d.textbbox((x, 1060), word, font=font))
        x = boxes[word].x2 + 16
    p = Perception()
    g = p.ground_text(img, "and")
    assert g.found and boxes["and"].expand(6).contains_point(g.point), (g.status, g.message)
    for link in ("Terms of Use", "Privacy Policy"):
        g = p.ground_text(img, link)
        assert g.found and boxes[link].expand(6).contains_point(g.point)


def test_a_word_inside_a_line_of_one_colour_is_no_span_of_its_own():
    from PIL import ImageDraw, ImageFont

    font = ImageFont.truetype(str(Path(fontpkg_roboto.__file__).parent / "files" / "Roboto[wdth,wght].ttf"), 40)
    img = Image.new("RGB", (1080, 400), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.text((100, 100), "Shows and More", font=font, fill=(30, 30, 30))
    line = Box(*d.textbbox((100, 100), "Shows and More", font=font)).expand(6)
    part = Box(*d.textbbox((100 + int(d.textlength("Shows ", font=font)), 100), "and", font=font))
    from mobile_agent.perception.core import _own_span

    assert not _own_span(np.asarray(img), part, line)


def test_real_word_between_two_links():
    name = "Tubi_Movies__1738806443"
    img = Image.open(DEV / "img" / f"{name}.png").convert("RGB")
    g = Perception().ground_text(img, "and")
    assert g.found and _dev_target(name, "and").contains_point(g.point), (g.status, g.message)


def test_the_battery_level_beside_the_clock_is_still_found():
    bar = _line("12:30 78%", (20, 0, 300, 60), [("12:30", (20, 0, 130, 60)), ("78%", (200, 0, 290, 60))])
    img = Image.new("RGB", (1080, 2280), (250, 250, 250))
    g = Perception(ocr=_LinesOcr([bar])).ground_text(img, "78%")
    assert g.found and g.point.x >= 200
