"""Click Text on what real apps do to text (the text stress set's screens, read by the real OCR):
texts cut short by an ellipsis or a faded edge, previews cut after two lines, a number and its
unit in two sizes, and texts that are NOT on the screen, which must come back "none" with the
closest texts named. Each screen here is one the matching before these rules got wrong."""

from __future__ import annotations

import pytest

from mobile_agent.screensets import text_stress as ts
from mobile_agent.perception.results import TextLine, Word
from mobile_agent.perception.textmatch import joined_lines, match_lines, seen_share
from mobile_agent.types import Box
from tests.fakes import system

needs_fonts = system.needs_set(ts, "dejavu", "noto-cjk")


@pytest.fixture(scope="module")
def screens():
    return {s.name: s for s in ts.collect_stress_screens(count=58)}


@pytest.fixture(scope="module")
def perception():
    from mobile_agent.perception import Perception

    return Perception(ocr="rapidocr")


def _target(screen, text):
    (t,) = [t for t in screen.targets if t.text == text]
    return t


def _grounds_inside(perception, screen, text):
    t = _target(screen, text)
    g = perception.ground_text(screen.image, text, t.position)
    assert g.status == "found", (text, g.status, g.message)
    assert t.box.contains_point(g.chosen.point), (text, g.chosen, t.box)


@needs_fonts
@pytest.mark.slow
@pytest.mark.parametrize("name, text", [
    # a three-line preview cut after two lines: no line alone holds enough of it
    ("textstress-07", "The quarterly report is ready for review. I added comments on pages four and seven for you"),
    ("textstress-31", "Your package has shipped and should arrive by Thursday. Track it any time from your orders page"),
    # a number in large type and its unit in small type, read as two boxes / merged with the next tile
    ("textstress-03", "8,432 steps"),
    ("textstress-08", "6.2 km"),
    # a stat tile's "98%" on a screen whose status bar shows the battery at 98% too
    ("textstress-54", "98%"),
])
def test_a_text_drawn_otherwise_than_its_node_holds_it_grounds_inside_the_node(screens, perception, name, text):
    _grounds_inside(perception, screens[name], text)


@needs_fonts
@pytest.mark.slow
@pytest.mark.parametrize("name, absent, near", [
    # a number one digit off: a fuzzy match must not take it
    ("textstress-29", "Until 8:00 AM", "Until 7:00 AM"),
    # a shorter label that ends where a word of the target ends, with no ellipsis, is another label
    ("textstress-27", "Top rated near you", "Top rated"),
])
def test_a_text_not_on_the_screen_is_none_with_the_closest_texts(screens, perception, name, absent, near):
    s = screens[name]
    assert (absent, "number one digit off") in s.absent or (absent, "near miss") in s.absent
    g = perception.ground_text(s.image, absent)
    assert g.status == "none", (absent, g.status, g.chosen)
    assert f'"{near}"' in g.message
    _grounds_inside(perception, s, near)


def _line(text: str, box: Box, words: list[tuple[str, int, int]] = ()) -> TextLine:
    return TextLine(text, box, 0.9, tuple(Word(t, Box(a, box.y1, b, box.y2), 0.9) for t, a, b in words))


def test_how_much_of_a_cut_text_must_be_seen():
    # OCR's readings of the stress set's first draft: the last letter before the ellipsis and the
    # last fragment at a faded edge misread
    assert seen_share("Photos from the lake house trip", "Photos from the I...")
    assert seen_share("Recommended for you based on your listening history", "Recommended for you based on yc")
    t = "Settings and privacy"
    assert seen_share(t, "Settings and priv\u2026") and seen_share(t, "Settings and priv...")
    assert seen_share(t, "Sett\u2026") is None  # under a quarter of it
    assert seen_share(t, "Settings and priv") is not None  # cut inside a word: a faded edge
    assert seen_share("Top rated near you", "Top rated") is None  # ends where a word ends
    assert seen_share("Notification history", "Notifications") is None  # a misread last letter needs an ellipsis
    assert seen_share("Stephen Curry's Best Threes of the 2023-24 Season", "Stephen Curry's Best Threes of")


def test_lines_of_a_paragraph_and_a_number_beside_its_unit_are_joined_but_not_distant_labels():
    top = _line("Welcome to the community! Here", Box(33, 1611, 634, 1663))
    second = _line("are a few tips to get started with y...", Box(36, 1665, 670, 1714))
    far = _line("Welcome", Box(33, 1900, 200, 1950))
    num, unit = _line("8,432", Box(30, 387, 346, 493)), _line("steps", Box(303, 414, 448, 490))
    value = _line("On", Box(950, 1611, 1040, 1663))
    texts = {l.text for l in joined_lines([top, second, far, num, unit, value])}
    assert "Welcome to the community! Here are a few tips to get started with y..." in texts
    assert "8,432 steps" in texts
    assert not any("On" in x.split() or x.startswith("Welcome Welcome") for x in texts)
    (m,) = match_lines("Welcome to the community! Here are a few tips to get started with your new account settings",
                       [top, second, far])
    assert m.line.box == Box(33, 1611, 670, 1714)


def test_numbers_one_digit_off_are_not_fuzzy_matches_but_the_same_numbers_are():
    line = _line("12:05 PM", Box(900, 700, 1040, 740), [("12:05", 900, 990), ("PM", 1000, 1040)])
    assert match_lines("12:15 PM", [line]) == []
    assert match_lines("12:05PM", [line])
    assert match_lines("2,480 steps", [_line("12,480 steps", Box(0, 0, 300, 40))]) == []


def test_a_target_inside_a_line_read_without_its_spaces_is_tapped_on_its_own_part():
    line = _line("$19.99/mo 6.2km", Box(22, 290, 519, 379), [("$19.99/mo", 43, 325), ("6.2km", 368, 517)])
    (m,) = match_lines("6.2 km", [line])
    assert 368 <= m.box.center.x <= 517
