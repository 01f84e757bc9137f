"""Text matching on lines OCR joins: fields across separators, glyphs inside words, wrapped targets."""

from mobile_agent.perception.results import TextLine, Word
from mobile_agent.perception.textmatch import match_lines
from mobile_agent.types import Box


def _line(text: str, box: Box, words: list[tuple[str, int, int]]) -> TextLine:
    return TextLine(text, box, 0.95, tuple(Word(t, Box(x1, box.y1, x2, box.y2), 0.95) for t, x1, x2 in words))


def test_a_field_of_a_line_joined_at_a_middle_dot_is_an_exact_match_on_its_own_part() -> None:
    top = _line("4.3\u2605", Box(357, 597, 457, 652), [("4.3\u2605", 370, 444)])
    joined = _line("4.3\u2605\u00b738 MB", Box(276, 987, 493, 1030), [("4.3\u2605\u00b738", 283, 425), ("MB", 439, 482)])
    found = match_lines("4.3", [top, joined])
    assert [m.kind for m in found] == ["exact", "exact"]
    part = [m for m in found if m.line is joined][0].box
    assert 283 <= part.center.x <= 331 and part.x2 < 425


def test_an_exact_match_is_narrowed_to_its_words_when_a_glyph_stands_before_the_count() -> None:
    line = _line("1K", Box(138, 1524, 277, 1597), [("1K", 217, 265)])
    (m,) = match_lines("1K", [line])
    assert m.box.x1 == 217 and m.box.x2 == 265


def test_a_number_after_star_glyphs_in_the_same_word_gets_its_share_of_the_word() -> None:
    line = _line("4.0 \u2605\u2605\u2605\u2605\u2606(275)", Box(27, 1851, 388, 1921),
                 [("4.0", 44, 102), ("\u2605\u2605\u2605\u2605\u2606(275)", 114, 388)])
    (m,) = match_lines("(275)", [line])
    assert 294 <= m.box.center.x <= 382


def test_a_target_that_wraps_is_found_by_its_first_line_and_not_by_an_unrelated_line() -> None:
    first = _line("Stephen Curry's Best Threes of", Box(504, 1932, 1036, 1984), [])
    other = _line("How Stephen Curry Trains: Inside His Shooting", Box(24, 690, 1030, 763), [])
    found = match_lines("Stephen Curry's Best Threes of the 2023-24 Season", [other, first])
    assert found and found[0].line is first
    assert all(m.line is not other for m in found)
