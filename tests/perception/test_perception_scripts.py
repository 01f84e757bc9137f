"""Click Text in scripts the default recogniser does not read (Korean, Cyrillic, Arabic...): the
detected lines read again by Tesseract with the script's Debian language pack. On a real screen of
an open-source app (Cyrillic language names) and on a drawn one (Korean chips, white on colour)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from mobile_agent.perception import Perception
from mobile_agent.perception.ocr import scripts
from mobile_agent.perception.ocr.scripts import script_language
from mobile_agent.types import Box
from manifest_targets import target_box
from tests.fakes import system

REAL = Path(__file__).resolve().parents[1] / "bench" / "fixtures" / "realscreens"
CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


needs_pack = system.needs_pack


def test_script_language_names_the_pack_of_scripts_the_default_does_not_read():
    assert script_language("김어준") == "kor"
    assert script_language("cbs 김현정의 뉴스쇼") == "kor"
    assert script_language("Русский") == "rus"
    assert script_language("المملكة العربية السعودية") == "ara"
    assert script_language("বাংলাদেশ") == "ben"
    assert script_language("ශ්\u200dරී ලංකාව") == "sin"
    assert script_language("カタカナ") == "jpn"
    for covered in ("Settings", "Español", "设置", "12:30", ""):
        assert script_language(covered) is None


def _target(name: str, text: str) -> Box:
    return target_box(REAL, name, text)


@needs_pack("rus")
def test_cyrillic_language_names_on_a_real_screen(monkeypatch):
    name = "org.koitharu.kotatsu__107684743"
    img = Image.open(REAL / "img" / f"{name}.png").convert("RGB")
    p = Perception()
    for text in ("Русский", "Беларуская"):
        g = p.ground_text(img, text)
        assert g.found and _target(name, text).contains_point(g.point), (text, g.status, g.message)
    # without the pack the default recogniser alone does not find them
    monkeypatch.setattr(scripts, "installed_languages", lambda: frozenset())
    monkeypatch.setattr("mobile_agent.perception.core.installed_languages", lambda: frozenset())
    g = Perception().ground_text(img, "Русский")
    assert not (g.found and _target(name, "Русский").contains_point(g.point))


def _korean_chips() -> tuple[Image.Image, dict[str, Box]]:
    img = Image.new("RGB", (1080, 1200), (250, 250, 250))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(CJK_FONT), 44)
    chips = {"김영하의 책 읽는 시간": (60, 120, (140, 190, 210)), "두시탈출 컬투쇼": (60, 300, (100, 180, 140)),
             "비밀보장": (60, 480, (50, 120, 230)), "클래식": (420, 480, (120, 40, 40))}
    boxes = {}
    for text, (x, y, colour) in chips.items():
        w = int(d.textlength(text, font=font)) + 60
        d.rounded_rectangle((x, y, x + w, y + 78), radius=39, fill=colour)
        d.text((x + 30, y + 10), text, font=font, fill=(255, 255, 255))
        boxes[text] = Box(x, y, x + w, y + 78)
    d.text((60, 700), "Popular Searches", font=font, fill=(20, 20, 20))
    return img, boxes


@needs_pack("kor")
@system.needs("noto-cjk")
def test_korean_chips_white_on_colour():
    img, boxes = _korean_chips()
    p = Perception()
    for text, box in boxes.items():
        g = p.ground_text(img, text)
        assert g.found and box.contains_point(g.point), (text, g.status, g.message)
    assert not p.ground_text(img, "여성시대").found  # a Korean text that is not there


def _mixed_chips() -> tuple[Image.Image, dict[str, Box]]:
    """A podcast app's "Popular Searches": chips, white on colour, whose titles mix a Latin word
    with Korean ones and run over several words, as real apps draw them."""
    img = Image.new("RGB", (1080, 1000), (250, 250, 250))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(CJK_FONT), 40)
    chips = {"cbs 김현정의 뉴스쇼": (44, 110, (100, 180, 140)), "이진우의 손에 잡히는 경제": (44, 250, (140, 190, 210)),
             "jtbc 뉴스룸": (600, 390, (220, 30, 40)), "tbs 김어준의 뉴스공장": (44, 530, (40, 110, 230)),
             "유시민의 알릴레오": (44, 670, (0, 180, 210))}
    boxes = {}
    for text, (x, y, colour) in chips.items():
        w = int(d.textlength(text, font=font)) + 60
        d.rounded_rectangle((x, y, x + w, y + 77), radius=38, fill=colour)
        d.text((x + 30, y + 12), text, font=font, fill=(255, 255, 255))
        boxes[text] = Box(x, y, x + w, y + 77)
    d.text((44, 20), "Popular Searches", font=font, fill=(20, 20, 20))
    return img, boxes


@needs_pack("kor")
@system.needs("noto-cjk")
def test_korean_chip_titles_split_into_words_or_mixed_with_latin():
    # The detector splits such a title at its word gaps, and reads its Latin word ("cbs", "jtbc")
    # with the default recogniser, Tesseract in the Korean pack misreading it ("166"): the title is
    # read whole and spelled from both.
    img, boxes = _mixed_chips()
    p = Perception()
    for text, box in boxes.items():
        g = p.ground_text(img, text)
        assert g.found and box.contains_point(g.point), (text, g.status, g.message)
    assert not p.ground_text(img, "cbs 김어준의 뉴스쇼").found  # words of two chips


@needs_pack("kor")
@system.needs("noto-cjk")
def test_readings_kept_with_the_parse_are_not_grown_by_later_targets():
    # The readings of a screen in one language are kept with its parse: asking again for texts
    # that need the script's pack alone too must not add to the kept readings of "kor+eng".
    img, _ = _mixed_chips()
    p = Perception()
    res = p.parse(img)
    for _ in range(2):
        p.ground_text(img, "jtbc 뉴스룸")
        p.ground_text(img, "tbs 김어준의 뉴스공장")
    kept = p._script_lines(img, res, "kor+eng")
    assert len(kept) == len({(l.text, l.box) for l in kept}) and len(kept) <= 40


def test_latin_words_of_a_mixed_title_are_taken_from_the_default_reading():
    # Tesseract in the Korean pack misreads a title's Latin words ("165" for "tbs"), or runs them
    # into the Korean ones (".165김어준의", "파워[4|"); the default recogniser reads them and drops
    # or garbles the Korean ("SBS FM 14:00 ～ 16:00", "jtbc二喜").
    from mobile_agent.perception.ocr.scripts import _latin_lead
    from mobile_agent.perception.results import TextLine

    def lead(tess: str, default: str) -> str | None:
        return _latin_lead(tess, TextLine(default, Box(0, 0, 400, 60), 0.9))

    assert lead(".165김어준의 뉴스공장", "tbs") == "tbs 김어준의 뉴스공장"
    assert lead("1060 뉴스룸", "jtbc二喜") == "jtbc 뉴스룸"
    assert lead("6868 파워[4| 14:00 ~ 16:00", "SBS FM 14:00 ～ 16:00") == "SBS 파워 FM 14:00 ~ 16:00"
    assert lead("김어준", "歪") is None  # nothing Latin to take over
    assert lead("cbs 김현정의", "cbs") is None  # already the same
