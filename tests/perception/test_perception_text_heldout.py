"""Click Text on the held-out text set's screens (fonts, font scales and layouts no matching rule
was written against), read by the real OCR: each case failed before the rule it names, and the
near misses (a sibling label, a word added) must come back "none" with the closest texts named."""

from __future__ import annotations

import pytest

from mobile_agent.screensets import text_heldout as th
from mobile_agent.perception.results import TextLine, Word
from mobile_agent.perception.textmatch import joined_lines, match_lines
from mobile_agent.types import Box
from tests.fakes import system

needs_fonts = system.needs_set(th, "noto-cjk")


@pytest.fixture(scope="module")
def screens():
    return {s.name: s for s in th.collect_heldout_screens(count=45)}


@pytest.fixture(scope="module")
def perception():
    from mobile_agent.perception import Perception

    return Perception(ocr="rapidocr")


@needs_fonts
@pytest.mark.slow
@pytest.mark.parametrize("name, text", [
    # a grid's two-line label whose boxes overlap (tight line spacing under a launcher icon)
    ("textheldout-07", "Files by Google"),
    # ... and whose second line OCR read together with the next cell's ("Authenticator Google")
    ("textheldout-27", "Files by Google"),
    ("textheldout-44", "Google Play Store"),
    # a tracking number read with a letter for a digit ("lz999" for "1Z999")
    ("textheldout-43", "Track your package with number 1Z999"),
])
def test_a_held_out_text_grounds_inside_its_node(screens, perception, name, text):
    s = screens[name]
    (t,) = [t for t in s.targets if t.text == text]
    g = perception.ground_text(s.image, text, t.position)
    assert g.status == "found", (text, g.status, g.message)
    assert t.box.contains_point(g.chosen.point), (text, g.chosen, t.box)


@needs_fonts
@pytest.mark.slow
@pytest.mark.parametrize("name, absent, near", [
    ("textheldout-07", "Days", "Day"),  # a segmented button's sibling label
    ("textheldout-20", "Deleted", "Delete"),
    ("textheldout-14", "Battery Saver history", "Battery Saver"),  # a tile's label over its state "On"
])
def test_a_near_miss_of_a_label_on_the_screen_is_none(screens, perception, name, absent, near):
    s = screens[name]
    assert absent in [a for a, _ in s.absent]
    g = perception.ground_text(s.image, absent)
    assert g.status == "none", (absent, g.status, g.chosen)
    assert f'"{near}"' in g.message


def _line(text: str, box: Box, words: list[tuple[str, int, int]] = ()) -> TextLine:
    return TextLine(text, box, 0.9, tuple(Word(t, Box(a, box.y1, b, box.y2), 0.9) for t, a, b in words))


def test_a_sibling_word_or_a_missing_word_is_no_fuzzy_match_but_an_ocr_slip_is():
    day = _line("Day", Box(100, 300, 200, 340))
    assert match_lines("Days", [day]) == []
    assert match_lines("Deleted", [_line("Delete", Box(100, 300, 260, 340))]) == []
    assert match_lines("Delete", [_line("Deleted", Box(100, 300, 260, 340))]) == []
    assert match_lines("Battery Saver history", [_line("Battery Saver On", Box(100, 300, 400, 380))]) == []
    # a row's text whose end a FAB covers, the glyph at the edge cut in half, still matches
    assert match_lines("Weekend hiking plans with everyone", [_line("Weekend hiking plans wit\u0142", Box(33, 2127, 478, 2188))])
    # a chevron or a cursor after a label read as "l" is no other word
    assert match_lines("Notifications", [_line("Notificationsl", Box(40, 400, 400, 440))])
    # a misread letter inside a word is still the text
    (m,) = match_lines("Adaptive brightness", [_line("Adaptive brightnes5", Box(40, 500, 600, 540))])
    assert m.kind == "fuzzy"
    # a digit read as a look-alike letter is the same number; another digit is not
    assert match_lines("Order 1Z999", [_line("Order lz999", Box(40, 600, 400, 640))])
    assert match_lines("Order 1Z998", [_line("Order lz999", Box(40, 600, 400, 640))]) == []


def test_a_grid_label_joins_the_words_under_it_of_a_line_ocr_ran_across_two_cells():
    first = _line("Files by", Box(429, 943, 677, 1031), [("Files", 429, 560), ("by", 580, 677)])
    merged = _line("Authenticator Google", Box(19, 1014, 661, 1097), [("Authenticator", 38, 415), ("Google", 469, 651)])
    texts = {l.text for l in joined_lines([first, merged])}
    assert "Files by Google" in texts
    assert "Files by Authenticator" not in texts
    (m,) = match_lines("Files by Google", [first, merged])
    assert m.box.x1 >= 429 - 20 and m.box.x2 <= 677 + 20
