"""Click Text on masked and placeholder text (issue 25): a password field's text is its mask
("••••••••"), a one-time-code field shows a dash for each digit still to type ("––– –––"). OCR
reads neither as text; the marks are found as a row of like marks of the target's shape and count.
Screens drawn in Roboto with Pillow, a committed screen of an open-source app (fixtures/realtext),
and the development set of real screens (``../shared/realscreens``) where it is present."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from mobile_agent.perception import Perception
from mobile_agent.perception.textmatch import MaskQuery, mask_query
from mobile_agent.types import Box
from perception_synth import Painter
from tests.devscreens import COMMITTED

FIXTURES = Path(__file__).parent / "fixtures" / "realtext"
DEV_SET = COMMITTED


def _first_point(g):
    return g.point if g.found else (g.candidates[0].point if g.candidates else None)


def _login_form() -> tuple[Image.Image, dict[str, Box]]:
    """A login form: an e-mail field, a password field holding ten masked characters with the
    eye glyph (Show password) at its right, a button; underlines under both fields."""
    p = Painter(1080, 2280)
    p.status_bar()
    p.text(60, 300, "Sign in", size=64)
    p.text(60, 520, "Email", size=36, fill=(110, 110, 110))
    p.text(60, 580, "reader@example.org", size=48)
    p.draw.line((60, 660, 1020, 660), fill=(150, 150, 150), width=3)
    p.text(60, 720, "Password", size=36, fill=(110, 110, 110))
    mask = p.text(60, 770, "\u2022" * 10, size=48)
    eye = p.icon(900, 760, "eye", size=80, fill=(120, 120, 120))
    p.draw.line((60, 870, 1020, 870), fill=(150, 150, 150), width=3)
    p.draw.rounded_rectangle((60, 960, 1020, 1090), 60, fill=(25, 118, 210))
    p.text(440, 995, "LOG IN", size=48, fill=(255, 255, 255))
    return p.image, {"mask": mask, "eye": eye}


def _code_field() -> tuple[Image.Image, Box]:
    """A verification screen: a six-digit code field drawn as two groups of three dashes, the text
    cursor against the first dash, under a line of text and over an underline."""
    p = Painter(1080, 2280)
    p.status_bar()
    p.text(180, 300, "Verify your number", size=56)
    p.text(120, 420, "Enter the code we sent to +1 555-0100.", size=38)
    x, y, boxes = 360, 600, []
    for k in range(6):
        boxes.append(Box(x, y, x + 33, y + 5))
        p.draw.rectangle((x, y, x + 32, y + 4), fill=(110, 120, 128))
        x += 55 + (37 if k == 2 else 0)
    p.draw.rectangle((352, 560, 357, 640), fill=(0, 150, 136))  # the cursor
    p.draw.rectangle((320, 650, 760, 654), fill=(0, 150, 136))
    p.text(370, 700, "Enter 6-digit code", size=40, fill=(100, 110, 120))
    return p.image, Box.enclosing(boxes)


def test_a_mask_target_is_parsed_into_its_marks_shape_and_groups():
    assert mask_query("\u2022" * 16) == MaskQuery("dot", (16,))
    assert mask_query("\u2013\u2013\u2013\u00a0\u2013\u2013\u2013") == MaskQuery("dash", (3, 3))
    assert mask_query("____") == MaskQuery("dash", (4,))
    assert mask_query("*****") == MaskQuery("star", (5,))
    assert mask_query("\u25cf \u25cf \u25cf \u25cf") == MaskQuery("dot", (4,))
    # Anything with a letter or a digit, a mix of shapes, or fewer than three marks is text.
    for text in ("ab", "--", "1-2-3", "\u2022\u2022\u2022a", "**--", "- 5 -", "Sign in", "", "   "):
        assert mask_query(text) is None, text


def test_a_password_mask_beside_the_show_password_eye_is_the_text_not_the_eye():
    img, boxes = _login_form()
    p = Perception()
    g = p.ground_text(img, "\u2022" * 10)
    assert g.found and boxes["mask"].contains_point(g.point), (g.point, boxes)
    assert not boxes["eye"].contains_point(g.point)
    # A count that differs by more than a fifth, another shape: no such text on the screen.
    for other in ("\u2022" * 4, "\u2022" * 16, "*" * 10, "\u2013" * 10):
        assert _first_point(p.ground_text(img, other)) is None, other
    # The form's texts are still found as text.
    g = p.ground_text(img, "Password")
    assert g.found and g.point.y < boxes["mask"].y1


def test_a_code_fields_dashes_are_found_by_their_groups():
    img, box = _code_field()
    p = Perception()
    g = p.ground_text(img, "\u2013\u2013\u2013\u00a0\u2013\u2013\u2013")
    assert g.found and box.contains_point(g.point), (g.point, box)
    assert p.ground_text(img, "___ ___").found  # an underscore placeholder is drawn as a flat mark too
    # Other groupings, or dots, are not this field.
    for other in ("\u2013\u2013\u2013\u2013\u2013\u2013", "\u2013\u2013 \u2013\u2013", "\u2022\u2022\u2022 \u2022\u2022\u2022"):
        assert _first_point(p.ground_text(img, other)) is None, other


def test_dots_inside_text_are_no_mask():
    # Separators between words, an ellipsis, a bulleted list: dots that belong to text.
    p = Painter(1080, 2280)
    p.status_bar()
    p.text(60, 300, "Music \u2022 Podcasts \u2022 News \u2022 Radio", size=44)
    p.text(60, 420, "Loading\u2026", size=44)
    p.text(60, 540, "Wait....", size=44)
    for k, row in enumerate(("First item", "Second item", "Third item", "Fourth item")):
        p.text(60, 700 + 70 * k, f"\u2022 {row}", size=40)
    q = Perception()
    for target in ("\u2022\u2022\u2022", "\u2022\u2022\u2022\u2022", "....", "\u2022 \u2022 \u2022"):
        assert _first_point(q.ground_text(p.image, target)) is None, target


def _node_box(xml: Path, pattern: str) -> Box:
    m = re.search(r'text="' + pattern + r'"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml.read_text(encoding="utf-8"))
    assert m is not None
    return Box(*(int(v) for v in m.groups()))


def test_a_real_login_forms_password_mask_beside_its_eye():
    # An invoicing app's login (open source): the password field's dump text is its mask, ten
    # dots, with the Show Password eye at the field's right end.
    name = "com.invoiceninja.app__191044171"
    field = _node_box(FIXTURES / "xml" / f"{name}.xml", "\u2022+, Password")
    eye = Box(860, 1121, 992, 1253)  # the "Show Password" button's node in the same dump
    g = Perception().ground_text(Image.open(FIXTURES / "img" / f"{name}.png"), "\u2022" * 10)
    assert g.found and field.contains_point(g.point) and not eye.contains_point(g.point), g.point


@pytest.mark.parametrize("name, target, bbox", [
    ("Messenger__1369021468", "\u2022" * 16, (55, 825, 1025, 968)),
    ("WhatsApp__1526074451", "\u2013\u2013\u2013\u00a0\u2013\u2013\u2013", (320, 392, 760, 474)),
    # light dots on a dark photo, the eye crossed out at the field's end (the dump holds the
    # password itself, so the set asks for that text, which the picture does not show)
    ("Tubi_Movies__1322664381", "\u2022" * 16, (53, 1047, 1027, 1179)),
])
def test_real_masks_on_the_development_set(name, target, bbox):
    g = Perception().ground_text(Image.open(DEV_SET / "img" / f"{name}.png"), target)
    assert g.found and Box(*bbox).contains_point(g.point), g.point


@pytest.mark.parametrize("dark", [False, True])
@pytest.mark.parametrize("mark, count, size", [("\u2022", 8, 32), ("\u25cf", 6, 48), ("*", 6, 64)])
def test_masks_of_dots_and_stars_on_light_and_dark_themes(dark, mark, count, size):
    # Light marks on a dark field are found as dark ones on a light field; a star is told from a dot.
    p = Painter(1080, 2280, dark=dark)
    p.status_bar()
    p.text(60, 700, "PIN", size=36)
    box = p.text(60, 760, mark * count, size=size)
    p.icon(900, 750, "eye_off", size=80)
    q = Perception()
    g = q.ground_text(p.image, mark * count)
    assert g.found and box.contains_point(g.point), (g.point, box)
    other = "*" if mark != "*" else "\u2022"
    assert _first_point(q.ground_text(p.image, other * count)) is None


def test_letters_alike_in_size_are_no_row_of_marks():
    # A tab's title in capitals ("SONGS": S, O, N, G, S of one size, in light ink on a colour) and
    # a row of like digits are letters, whatever a mask target of as many marks asks.
    p = Painter(1080, 2280)
    p.status_bar()
    p.draw.rectangle((0, 200, 1080, 340), fill=(63, 81, 181))
    p.text(200, 240, "SONGS", size=48, fill=(255, 255, 255))
    p.text(60, 500, "Code 0000 0000", size=44)
    q = Perception()
    for target in ("*****", "\u2022\u2022\u2022\u2022\u2022", "\u2022\u2022\u2022\u2022 \u2022\u2022\u2022\u2022"):
        assert _first_point(q.ground_text(p.image, target)) is None, target


def test_a_mask_that_ocr_reads_as_repeated_letters_is_still_the_mask():
    # A recogniser may read a row of dots as "oooooooooo" or stars as "xxxxxx": such a reading is
    # of the marks themselves, not a text drawn over them; a line of real text there is.
    from mobile_agent.perception.core import _mask_matches
    from mobile_agent.perception.results import TextLine

    img, boxes = _login_form()
    mask = boxes["mask"]
    for reading in ("oooooooooo", "o o o o o o o o o o", "\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022"):
        found = _mask_matches(img, "\u2022" * 10, [TextLine(reading, mask, 0.6)])
        assert len(found) == 1 and mask.contains_point(found[0].box.center), reading
    assert _mask_matches(img, "\u2022" * 10, [TextLine("Sign in now", mask, 0.9)]) == []
