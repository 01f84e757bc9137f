"""Click Text on what real apps draw (issue 25), each test named by the phenomenon: on committed
screens of an open-source app (fixtures/realtext, see its SOURCE.md), on OCR readings, and on the
development set of real screens (``../shared/realscreens``), which a user's clone does not have."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from mobile_agent.perception import Perception
from mobile_agent.perception.results import TextLine
from mobile_agent.perception.textmatch import edge_cut_matches, match_lines
from mobile_agent.types import Box
from tests.fakes import system
from tests.devscreens import COMMITTED

FIXTURES = Path(__file__).parent / "fixtures" / "realtext"
DEV_SET = COMMITTED


def _targets(folder: Path) -> list[dict]:
    return [json.loads(ln) for ln in (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines() if ln.strip()]


def _hits(folder: Path, name: str, texts: list[str]) -> dict[str, bool]:
    """Whether Click Text's first point lies in each text's node on the screen ``name``."""
    img = Image.open(folder / "img" / f"{name}.png").convert("RGB")
    rows = {d["target"]: Box(*d["bbox"]) for d in _targets(folder)
            if d["image"] == f"img/{name}.png" and d["kind"] == "text"}
    p = Perception()
    out = {}
    for text in texts:
        g = p.ground_text(img, text)
        point = g.point if g.found else (g.candidates[0].point if g.candidates else None)
        out[text] = point is not None and rows[text].contains_point(point)
    return out


def test_a_label_broken_inside_its_word_in_a_narrow_column():
    # An expense app's account editor: "Synchronization" in a narrow label column, wrapped as
    # "Synchronizati" over "on", beside the value "No synchronization". The two lines joined are
    # the label; the value only holds it.
    hits = _hits(FIXTURES, "org.totschnig.myexpenses__14726600", ["Synchronization", "No synchronization"])
    assert all(hits.values()), hits


def test_a_symbol_before_a_value_tells_apart_fields_of_the_same_value():
    # The same app's account summary: "⊕ $0.00", "⊖ $100.00" and "⇄ $0.00" (income, expenses,
    # transfers) above a row whose amount is "-$100.00"; OCR reads the "⊖" as "Θ".
    hits = _hits(FIXTURES, "org.totschnig.myexpenses__2135363771", ["⊕ $0.00", "⊖ $100.00", "⇄ $0.00", "-$100.00"])
    assert all(hits.values()), hits


def _line(text: str, y: int) -> TextLine:
    return TextLine(text, Box(30, y, 300, y + 60), 0.8)


def test_arabic_script_compared_on_the_letters_skeletons():
    # Tesseract's Arabic pack misreads dots ("غمان" for "عُمان", the vowel mark dropped) and reads
    # Persian and Urdu letters as the Arabic ones ("ياكستان" for "پاکستان"): a country list.
    lines = [_line("غمان", 100), _line("ياكستان", 200), _line("قطر", 300), _line("الكويت", 400)]
    for target, y in (("عُمان", 100), ("پاکستان", 200), ("قطر", 300), ("الكويت", 400)):
        found = match_lines(target, lines)
        assert found and found[0].kind == "exact" and found[0].line.box.y1 == y, (target, found)
    assert not match_lines("مصر", lines)  # another country's name




@system.needs_pack("kor")
def test_korean_chip_titles_on_a_podcast_app():
    # Chips whose titles the detector splits at word gaps, or that mix a Latin word in.
    name = "Podcast_Player_v7.0.0-220308033.rd0a0ae8__1882408957"
    hits = _hits(DEV_SET, name, ["이진우의 손에 잡히는 경제", "cbs 김현정의 뉴스쇼", "jtbc 뉴스룸", "김영하의 책 읽는 시간"])
    assert all(hits.values()), hits
    # a podcast's schedule line whose Korean word the default recogniser drops
    hits = _hits(DEV_SET, "Podcast_Player_v7.0.0-220308033.rd0a0ae8__1912413048", ["SBS 파워FM 14:00 ~ 16:00"])
    assert all(hits.values()), hits


@system.needs_pack("ara")
def test_arabic_country_names_on_a_messenger():
    name = "BOTIM_Video_and_Voice_Call_v2.7.9__354963744"
    hits = _hits(DEV_SET, name, ["پاکستان", "عُمان"])
    assert all(hits.values()), hits


def _chip_row(width: int = 1080, start: int = -60) -> tuple[Image.Image, dict[str, Box]]:
    """A news app's topic chips in a row that scrolls sideways: the last chip runs past the
    screen's right edge ("Middle E..."), the first past its left edge ("...orld")."""
    import fontpkg_roboto
    from PIL import ImageDraw, ImageFont

    font = ImageFont.truetype(str(Path(fontpkg_roboto.__file__).parent / "files" / "Roboto[wdth,wght].ttf"), 44)
    img = Image.new("RGB", (width, 900), (245, 245, 245))
    d = ImageDraw.Draw(img)
    boxes = {}
    x = start
    for text in ("World", "Africa", "Europe", "Middle East"):
        w = int(d.textlength(text, font=font)) + 64
        d.rounded_rectangle((x, 300, x + w, 388), radius=44, fill=(225, 225, 225))
        d.text((x + 32, 318), text, font=font, fill=(40, 40, 40))
        boxes[text] = Box(max(0, x), 300, min(width, x + w), 388)
        x += w + 60
    d.text((40, 120), "In The News Now", font=font, fill=(20, 20, 20))
    return img, boxes


# 880: the last chip's "Middle E" read as such; 872: the sliver of the E left out by OCR, the
# line ending 17 px before the edge (an upright stem: "East" fits it, "Ages" does not).
@pytest.mark.parametrize("width", [880, 872])
def test_chips_cut_by_the_screens_edge(width):
    img, boxes = _chip_row(width)
    p = Perception()
    for text in ("World", "Middle East"):
        g = p.ground_text(img, text)
        assert g.found and boxes[text].contains_point(g.point), (text, g.status, g.message)
    # a text that only begins like the cut chip's is not it
    assert not p.ground_text(img, "Middle Ages").found


def test_a_cut_glyph_read_as_a_word_of_its_own():
    # RapidOCR's reading of BBC News' topic chips on a 720 px screen (the development set's screen
    # resampled): the chip "Middle East" runs past the right edge and the E's stem is read "I".
    lines = [TextLine("Asia", Box(480, 395, 560, 437), 0.99), TextLine("Middle I", Box(612, 394, 720, 438), 0.93)]
    found = edge_cut_matches("Middle East", lines, 720)
    assert found and found[0].line.text == "Middle I"
    # a stem is no A, and a word the line does not start is not cut there
    assert not edge_cut_matches("Middle Ages", lines, 720)
    assert not edge_cut_matches("Middleware", lines, 720)


def test_a_line_that_ends_before_the_edge_on_plain_background_is_not_cut():
    # The same row, its last chip's "Middle" ending 17 px before the edge with nothing drawn
    # after it: a whole word, not the start of "Middle East".
    img, _ = _chip_row(872)
    img.paste((225, 225, 225), (850, 300, 872, 388))
    assert not Perception().ground_text(img, "Middle East").found


def test_a_longer_word_is_not_found_in_a_line_that_holds_the_shorter():
    # A music player's screen: the tab "ARTISTS" asked for where only "Go to artist" is shown.
    lines = [_line("Go to artist", 100), _line("Lofi Study", 200)]
    assert not match_lines("ARTISTS", lines)
    assert match_lines("Artist", lines)[0].kind == "contained"  # the word itself is still found


def test_a_symbol_read_against_its_value():
    # "★ 4.5" read with no space ("★4.5") is the rating; a bare "4.5" elsewhere is another field.
    lines = [_line("4.5", 100), _line("★4.5", 200)]
    found = match_lines("★ 4.5", lines)
    assert found[0].kind == "exact" and found[0].line.box.y1 == 200
    assert all(m.kind != "exact" for m in found[1:])


def test_a_fields_cursor_against_its_first_or_last_letter():
    # A messenger's sign-in: the phone field's hint "phone number" with the cursor against its
    # "p", read "bhone number", under the title "Enter your phone number" that holds the hint.
    lines = [_line("Enter your phone number", 100), _line("bhone number", 300), _line("Search contactsl", 500)]
    found = match_lines("phone number", lines)
    assert found[0].line.box.y1 == 300 and found[0].kind == "exact"
    assert match_lines("Search contacts", lines)[0].kind == "exact"  # a stroke after the text
    # other words are not cursor readings: a letter that no stroke makes, a short word
    assert all(m.kind == "fuzzy" for m in match_lines("thone number", lines))
    assert match_lines("Bmail", [_line("Email", 100)]) == []
