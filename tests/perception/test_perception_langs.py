"""Lists of languages and countries, each named in its own script: Click Text on drawn language
and country pickers (the languages set's screens) in the scripts whose packs were added (Gurmukhi,
Odia, Cyrillic beyond Russian), on "native (English)" names that mix a right-to-left script with
Latin, and on short native names the default recogniser reads, surely, as Latin ("ไทย" as "Ing");
vowel signs kept by ``compact`` (a name is no other name without them); a name read without its
diacritics found, and the line with the very letters winning where both are on the screen."""

from __future__ import annotations

import random

import pytest

from mobile_agent.perception import Perception
from mobile_agent.perception.core import _best_tier
from mobile_agent.perception.ocr.scripts import script_language, script_languages
from mobile_agent.perception.results import TextLine, Word
from mobile_agent.perception.textmatch import compact, fold_marks, match_lines
from mobile_agent.screensets import text_langs as tl
from mobile_agent.types import Box
from tests.fakes import system

needs_fonts = system.needs("noto-core", "noto-cjk", other="; ".join(f"{k}: {v}" for k, v in tl.missing_fonts().items()))


def _line(text: str, y: int, x: int = 40) -> TextLine:
    box = Box(x, y, x + 20 * len(text), y + 48)
    return TextLine(text, box, 0.9, (Word(text, box, 0.9),))


def _lang(native: str) -> tl.Lang:
    return next(l for l in tl.LANGS if l.native == native)


def _missing(*langs: str) -> str | None:
    """What of Tesseract's packs ``langs`` is missing, with how to install it; None when all are here."""
    gone = system.missing(*(f"tesseract-{lang}" for lang in langs))
    return system.reason(*gone) if gone else None


def _screen(natives: list[str], style: str, dark: bool = False):
    return tl.make_screen(random.Random(f"test:{style}:{dark}"), [_lang(n) for n in natives], style, 0, dark)


# ---------------------------------------------------------------------------------------------
# compact and the marks


def test_compact_keeps_vowel_signs_so_one_name_is_not_another():
    # Devanagari "हाँ" (yes) is "ह" with the sign of a long a and a candrabindu; Tamil's name ends
    # in a virama; Thai writes tone marks above: without them each was another word
    for word, bare in (("हाँ", "ह"), ("தமிழ்", "தமிழ"), ("ไม่", "ไม"), ("বাংলা", "বল"), ("ଓଡ଼ିଆ", "ଓଡଆ")):
        assert compact(word) != compact(bare), word
        assert compact(word) == compact(f" {word}. ")
        assert not match_lines(word, [_line(bare, 100)]), word
        assert [m.kind for m in match_lines(word, [_line(word, 100)])] == ["exact"], word
    # the candrabindu alone, which Tesseract's packs leave out ("হ্যাঁ" read "হ্যা"), may be missing
    found = match_lines("হ্যাঁ", [_line("হ্যা", 100)])
    assert found and found[0].kind == "exact" and found[0].score < 1.0
    assert not match_lines("हाँ", [_line("ह", 100)])
    # the line with the signs is found, the bare one is not, where both are on the screen
    found = match_lines("हाँ", [_line("ह", 100), _line("हाँ", 300)])
    assert [m.line.text for m in found] == ["हाँ"]


def test_a_long_name_in_a_script_with_vowel_signs_is_no_easier_to_match_fuzzily():
    # a drawn label with one word changed is no OCR slip of it, however many signs the rest holds
    assert not match_lines("बाद यात्रा की तस्वीरें", [_line("गोवा यात्रा की तस्\u200dवीरें", 100)])
    assert not match_lines("ভাষা ছবি অঞ্চল", [_line("ভাষা ও অঞ্চল", 100)])
    # an OCR slip in one sign of a long name is still found (fuzzily)
    assert match_lines("नेटवर्क और इंटरनेट", [_line("नेटवर्क और इंटरनैट", 100)])


def test_a_name_read_without_its_diacritics_is_found_and_the_very_letters_win():
    assert fold_marks(compact("Čeština")) == "cestina" and fold_marks(compact("Tiếng Việt")) == "tiengviet"
    assert fold_marks(compact("Қазақ тілі")) == compact("Казак тілі")
    for target, read in (("Čeština", "Cestina"), ("Tiếng Việt", "Tieng Viet"), ("Ελληνικά", "Ελληνικα"),
                         ("Azərbaycan", "Azerbaycan"), ("Қазақ тілі", "Казак тілі")):
        found = match_lines(target, [_line(read, 100)])
        assert found and found[0].kind == "exact" and found[0].score < 1.0, (target, found)
    # both on one screen (a keyboard's layouts "Română" and "Romana"): each is the line that holds
    # it with its own letters, not ambiguous between the two
    lines = [_line("Romana", 100), _line("Română", 300)]
    for target, y in (("Română", 300), ("Romana", 100)):
        best = _best_tier(match_lines(target, lines), target)
        assert [m.line.box.y1 for m in best] == [y], target


def test_cyrillic_beyond_russian_is_read_with_the_ukrainian_pack_beside_it():
    system.require_pack("ukr")
    assert script_languages("Українська") == "rus+ukr"
    assert script_languages("Қазақ тілі (Kazakh)") == "rus+ukr+eng"
    assert script_languages("Русский") == "rus"  # Russian alone reads as before


# ---------------------------------------------------------------------------------------------
# drawn pickers


@needs_fonts
@pytest.mark.parametrize("natives, style, packs", [
    (["ਪੰਜਾਬੀ", "ଓଡ଼ିଆ", "Қазақ тілі", "Español"], "check list", ("pan", "ori", "rus", "ukr")),
    (["ਪੰਜਾਬੀ", "ଓଡ଼ିଆ", "Ελληνικά", "Deutsch"], "two-line", ("pan", "ori", "ell")),
])
def test_native_names_in_the_added_packs_are_found_on_a_drawn_picker(natives, style, packs):
    why = _missing(*packs)
    if why:
        pytest.skip(why)
    for dark in (False, True):
        s = _screen(natives, style, dark)
        p = Perception()
        for t in s.targets:
            g = p.ground_text(s.image, t.text)
            assert g.found and t.box.contains_point(g.point), (style, dark, t.text, g.status, g.message)
        for text, _ in s.absent:
            assert not p.ground_text(s.image, text).found, (style, text)


@needs_fonts
def test_a_native_name_with_its_english_name_in_brackets_is_found_right_to_left_too():
    why = _missing("heb", "ara", "tha", "eng")
    if why:
        pytest.skip(why)
    s = _screen(["עברית", "فارسی", "ไทย", "Български", "Polski"], "one line, mixed")
    p = Perception()
    for t in s.targets:
        g = p.ground_text(s.image, t.text)
        assert g.found and t.box.contains_point(g.point), (t.text, g.status, g.message)
    # the English name alone, or with another native name, is no such line
    assert not p.ground_text(s.image, "עברית (Persian)").found


def test_vietnamese_letters_with_two_marks_are_read_by_the_vietnamese_pack():
    # the default recogniser leaves those letters out ("Tiếng Việt" as "Ting Vit"), which a
    # fuzzy match found only by luck; other Latin with diacritics stays with it
    assert script_language("Tiếng Việt") == "vie" and script_language("Việt Nam") == "vie"
    for latin in ("Čeština", "Türkçe", "Română", "Español"):
        assert script_language(latin) is None
    system.require_pack("vie")
    assert script_languages("Tiếng Việt (Vietnamese)") == "vie"  # the pack reads the plain letters


@needs_fonts
def test_vietnamese_is_found_exactly_on_a_drawn_picker():
    why = _missing("vie")
    if why:
        pytest.skip(why)
    s = _screen(["Tiếng Việt", "Türkçe", "Ελληνικά"], "two-line")
    p = Perception()
    t = next(t for t in s.targets if t.text == "Tiếng Việt")
    g = p.ground_text(s.image, t.text)
    assert g.found and t.box.contains_point(g.point), (g.status, g.message)
    # read exactly by the pack, not found by a fuzzy match of the default reading
    read = p._script_lines(s.image, p.parse(s.image), "vie")
    assert any(l.text == "Tiếng Việt" and l.box.iou(t.box) > 0.3 for l in read)
    assert not p.ground_text(s.image, "Tiếng Anh").found


@needs_fonts
def test_a_short_word_read_packed_beside_others_is_read_again_alone():
    # A crop of 2 to 6.7 line heights shares one recogniser input with others, which reads a short
    # word less surely: the languages set's "Israel" and "Bangla" read as nothing or a part of
    # themselves; the lines likest the target are read again each alone (core._nearest_read_alone).
    screens = tl.collect_langs_screens(count=7)
    p = Perception()
    for index, word in ((1, "Israel"), (6, "Bangla"), (6, "Čeština")):
        s = screens[index]
        t = next(t for t in s.targets if t.text == word)
        packed = match_lines(word, list(p.parse(s.image).lines))
        assert all(m.kind == "fuzzy" for m in packed), (word, [m.line.text for m in packed])  # the premise
        g = p.ground_text(s.image, word)
        assert g.found and t.box.contains_point(g.point), (word, g.status, g.message)
    # a name that is not on the screen is not made up by the second reading
    assert "Ireland" not in screens[1].drawn and not p.ground_text(screens[1].image, "Ireland").found
