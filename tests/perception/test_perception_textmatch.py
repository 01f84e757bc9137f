"""Text normalisation and matching, on OCR-like lines (no OCR run)."""

from mobile_agent.perception.results import TextLine, Word
from mobile_agent.perception.textmatch import closest_texts, fuzzy_threshold, match_lines, normalize_text
from mobile_agent.types import Box


def line(text: str, x: int = 100, y: int = 100, char_w: int = 20, h: int = 40, words: bool = True) -> TextLine:
    ws = []
    pos = x
    for w in text.split(" "):
        ws.append(Word(w, Box(pos, y, pos + char_w * len(w), y + h)))
        pos += char_w * (len(w) + 1)
    return TextLine(text, Box(x, y, x + char_w * len(text), y + h), 0.99, tuple(ws) if words else ())


def test_normalize_folds_case_width_quotes_and_spaces():
    assert normalize_text("  Ｄａｒｋ　ＴＨＥＭＥ ") == "dark theme"
    assert normalize_text("Don\u2019t  allow") == "don't allow"
    assert normalize_text("“Wi-Fi”:") == "wi-fi"
    assert normalize_text("Save…") == "save"


def test_exact_beats_contained_and_fuzzy():
    lines = [line("Wi-Fi, mobile data", y=300), line("Wi-Fi", y=100), line("Wi-Fl", y=500)]
    ms = match_lines("wi-fi", lines)
    assert ms[0].kind == "exact" and ms[0].line.box.y1 == 100
    kinds = {m.line.box.y1: m.kind for m in ms}
    assert kinds[300] == "contained"


def test_contained_target_gets_its_own_part_of_the_line():
    ln = line("Wi-Fi On", x=100)
    (m,) = match_lines("On", [ln])
    # "On" starts after "Wi-Fi " (6 chars of 20 px): its box must not cover "Wi-Fi".
    assert m.box.x1 >= 100 + 6 * 20 - 1
    assert m.box.x2 <= ln.box.x2
    # Without word boxes the part is found by character share.
    (m2,) = match_lines("On", [line("Wi-Fi On", x=100, words=False)])
    assert m2.box.x1 > 100 + 5 * 20


def test_fuzzy_thresholds_depend_on_length():
    assert fuzzy_threshold("OK") == 100.0
    assert fuzzy_threshold("Network & internet") < fuzzy_threshold("Apps")
    assert match_lines("Netwrk & internet", [line("Network & internet")])[0].kind == "fuzzy"
    assert match_lines("Apps", [line("Maps")]) == []
    assert match_lines("OK", [line("OR")]) == []


def test_word_boundaries_for_contained_matches():
    assert match_lines("on", [line("Notifications")]) == []
    assert match_lines("on", [line("Turn on")])[0].kind == "contained"


def test_closest_texts_name_similar_lines():
    lines = [line("Battery"), line("Display"), line("Network & internet")]
    assert closest_texts("Batery saver", lines, k=1) == ["Battery"]


def test_a_number_is_no_word_of_a_longer_number():
    # "1" (a rank) must not be found inside "4.1" (a rating), nor "30" inside a time
    assert match_lines("1", [line("4.1·52 MB")]) == []
    assert match_lines("30", [line("12:30 PM")]) == []
    assert match_lines("5", [line("4.5★ 10K+")]) == []
    (m,) = match_lines("52 MB", [line("4.1·52 MB")])
    assert m.box.x1 > 100 + 4 * 20 - 1
    (m,) = match_lines("4", [line("Page 4 of 9")])
    assert m.kind == "contained"


def test_a_line_merging_two_labels_at_an_ellipsis_is_matched_by_its_labels():
    # OCR reads two cards' titles as one line; the first title is cut short by the app
    merged = line("Blue and White Por... Run the Morning", x=40)
    (m,) = match_lines("Blue and White Porcelain", [merged])
    assert m.kind == "contained"
    assert m.box.x2 <= 40 + 20 * len("Blue and White Por...")  # the first title, not the line's middle
    (m,) = match_lines("Run the Morning", [merged])
    assert m.box.x1 >= 40 + 20 * len("Blue and White Por... ") - 1
    # a label holding an ellipsis itself still matches whole
    (m,) = match_lines("Loading... please wait", [line("Loading... please wait")])
    assert m.kind == "exact" and m.box.width == 20 * len("Loading... please wait")
