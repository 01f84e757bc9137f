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
