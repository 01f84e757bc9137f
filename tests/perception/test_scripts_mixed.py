"""Click Text on lines that mix a script the default recogniser does not read with digits or Latin
words, and on a word of a right-to-left line: screens drawn in the fonts Android draws these scripts with (the scripts set's canvas), read by the
real recognisers (RapidOCR and Tesseract's language packs)."""

from __future__ import annotations

import random

from mobile_agent.perception import Perception
from mobile_agent.perception.ocr import scripts
from mobile_agent.perception.results import TextLine, Word
from mobile_agent.screensets import text_scripts as ts
from mobile_agent.types import Box
from tests.fakes import system


def needs(script: ts.Script, lang: str):
    """The script's fonts (Noto Sans CJK for Korean and Japanese; Noto Sans, and its faces for the
    others) and Tesseract's pack ``lang``."""
    fonts = ("noto-cjk", "noto-core") if script.name in ("Korean", "Japanese") else ("noto-core",)
    missing = ts.missing_scripts().get(script.name)
    return system.needs(*fonts, f"tesseract-{lang}", other=f"{script.name}: {missing}" if missing else None)


def _screen(script: ts.Script, rows: list[tuple[str, float, bool]], dark: bool = False):
    """A 1080x2340 screen of ``script`` with one line per row (text, sp, grey) from the top, laid out
    from the start side; returns the image and each line's box."""
    cv = ts._Canvas(random.Random(0), script, 1080, 2340, 2.625, dark)
    y, boxes = cv.px(120), []
    for text, sp, grey in rows:
        x = cv.place(cv.px(72), cv.length(text, sp))
        boxes.append(cv.text(x, y, text, sp, cv.grey if grey else cv.fg))
        y += cv.line_h(sp) + cv.px(40)
    return cv.img, boxes, cv


def _hit(img, text: str, box: Box) -> bool:
    g = Perception().ground_text(img, text)
    return g.found and box.contains_point(g.point)


@needs(ts.HINDI, "hin")
def test_digits_in_a_devanagari_line_are_taken_from_the_default_recogniser():
    # Tesseract's Hindi pack reads the line's letters but its digits badly ("21:40" as "2:40");
    # the default recogniser reads the digits surely and drops the letters ("f Ch 21:40")
    img, boxes, _ = _screen(ts.HINDI, [("अगला भुगतान 15 मई", 14, True), ("पिछला कल 21:40", 14, True),
                                       ("प्रीमियम सदस्यता", 16, False)])
    assert _hit(img, "पिछला कल 21:40", boxes[1])


@needs(ts.KOREAN, "kor")
def test_a_latin_word_before_hangul_and_a_digit_tesseract_drops_are_put_in_where_they_lie():
    # the scripts set's Korean screens: Tesseract reads "KBS" as "(685" and leaves out the "1"
    # (between its words), the default recogniser reads "KBS 1" and nothing of the Hangul
    for s in ts.collect_scripts_screens(count=4)[::3]:
        t = next(t for t in s.targets if t.text == "KBS 1라디오 주말 특집")
        assert _hit(s.image, t.text, t.box), s.name


@needs(ts.ARABIC, "ara")
def test_a_word_of_a_right_to_left_line_is_found_where_it_is_drawn():
    line = "النسخ الاحتياطي"
    img, boxes, cv = _screen(ts.ARABIC, [(line, 16, False), ("آخر نسخ أمس 21:40", 14, True)])
    for word in ("النسخ", "الاحتياطي"):
        box = cv.word_box(line, boxes[0], word, 16)
        assert _hit(img, word, box), word
    # the first word read is the rightmost
    assert cv.word_box(line, boxes[0], "النسخ", 16).x1 > cv.word_box(line, boxes[0], "الاحتياطي", 16).x2 - 4


def test_a_word_box_that_runs_over_the_next_words_is_cut_at_the_next_word():
    tsv = ("level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
           "5\t1\t1\t1\t1\t1\t15\t5\t270\t30\t90\tভাষা\n"
           "5\t1\t1\t1\t1\t2\t125\t5\t27\t30\t90\tও\n"
           "5\t1\t1\t1\t1\t3\t172\t5\t114\t30\t90\tঅঞ্চল\n"
           "5\t2\t1\t1\t1\t1\t300\t5\t60\t30\t90\tالنسخ\n"
           "5\t2\t1\t1\t1\t2\t100\t5\t260\t30\t90\tالاحتياطي\n"
           "5\t3\t1\t1\t1\t1\t10\t5\t30\t30\t90\t\u318d\n")
    words = scripts._tsv_words(tsv)
    assert words[1] == [("ভাষা", (15, 125)), ("ও", (125, 152)), ("অঞ্চল", (172, 286))]
    assert words[2] == [("النسخ", (300, 360)), ("الاحتياطي", (100, 300))]  # right to left: cut at its end
    assert words[3] == [("\u00b7", (10, 40))]  # Korean's pack reads a middle dot as araea


def test_tesseracts_digit_words_are_replaced_by_the_default_recognisers_in_place():
    box = Box(200, 100, 700, 160)

    def line(words):
        return TextLine(" ".join(t for t, _, _ in words), box, 0.8,
                        tuple(Word(t, Box(a, 100, b, 160), 0.8) for t, a, b in words))

    tess = line([("565", 218, 291), ("파워", 304, 433), ("매일", 482, 565), ("14:00", 570, 669)])
    default = line([("SBS", 220, 294), ("F", 382, 405), ("14:00", 564, 668)])
    fused = scripts._latin_in_place(tess, [default])
    assert fused is not None and fused.text == "SBS 파워 매일 14:00"  # "F" lies inside a word of the script
    tess = line([("(685", 221, 305), ("라", 348, 387), ("디오", 394, 468)])
    default = line([("KBS", 218, 305), ("1", 321, 341)])
    assert scripts._latin_in_place(tess, [default]).text == "KBS 1 라 디오"
    # the default recogniser gives some Latin words letter by letter: joined where they touch
    tess = line([("드라마", 796, 897), ("057", 907, 978)])
    default = line([("三", 806, 827), ("O", 916, 934), ("S", 934, 954), ("T", 958, 979)])
    assert scripts._latin_in_place(tess, [default]).text == "드라마 OST"
    tess = line([("क्रेडिट", 216, 318), ("कार्ड", 329, 407), ("V", 424, 447), ("५58", 450, 506)])
    default = line([("市", 234, 256), ("V", 424, 447), ("i", 452, 469), ("s", 469, 488), ("a", 492, 515)])
    assert scripts._latin_in_place(tess, [default]).text == "क्रेडिट कार्ड Visa"  # two words over one: one
    same = line([("3", 218, 240), ("দিন", 250, 330)])
    assert scripts._latin_in_place(same, [line([("3", 219, 239)])]) is None  # nothing to change


def _chip(script: ts.Script, label: str, fill: tuple[int, int, int], dark: bool):
    """A chip with white ``label`` on ``fill`` on a light or dark page; its box and a box taller
    than the chip (the detector's, reaching the page above and below it)."""
    cv = ts._Canvas(random.Random(0), script, 1080, 600, 3.0, dark)
    h, y = cv.px(32), cv.px(60)
    w = cv.length(label, 14, True) + cv.px(32)
    x = cv.px(16)
    cv.draw.rounded_rectangle((x, y, x + w, y + h), radius=h // 2, fill=fill)
    cv.text(x + cv.px(16), y + (h - cv.line_h(14, True)) // 2, label, 14, (255, 255, 255), True)
    chip = Box(x, y, x + w, y + h)
    return cv.img, chip, Box(x + cv.px(2), y - cv.px(3), x + w - cv.px(8), y + h + cv.px(3))


@needs(ts.THAI, "tha")
def test_white_text_on_a_light_chip_on_a_dark_page_is_read_on_the_chips_colour():
    import numpy as np

    # amber and sky blue under white text, a dark page around: a grey threshold splits the page
    # from the chip and loses the text; the ink is what differs from the chip's colour
    for fill in ((255, 193, 7), (100, 181, 246)):
        img, chip, tall = _chip(ts.THAI, "เปิดอยู่", fill, dark=True)
        rgb = np.asarray(img)
        assert np.abs(scripts._ground(rgb, tall) - fill).max() < 30
        # the line's reading (a short label's reading as a word may follow it)
        assert [l.text for l in scripts.read_script_lines(rgb, [tall], "tha")][0] == "เปิดอยู่", fill


def test_only_letters_given_one_by_one_are_joined():
    box = Box(180, 2040, 480, 2108)
    words = [Word("f", Box(191, 2040, 212, 2108), 0.8), Word("Ch1", Box(304, 2040, 371, 2108), 0.8),
             Word("21:40", Box(372, 2040, 472, 2108), 0.8)]
    assert [w.text for w in scripts._joined_plain(words, box.height)] == ["f", "Ch1", "21:40"]
    letters = [Word(c, Box(900 + 20 * i, 0, 918 + 20 * i, 60), 0.8) for i, c in enumerate("OST")]
    assert [w.text for w in scripts._joined_plain(letters, 60)] == ["OST"]


@needs(ts.ARABIC, "ara")
def test_a_buttons_fill_is_found_round_a_word_the_detector_boxed_alone():
    import numpy as np

    # the scripts set's Arabic screen 15: a Material button (40 dp round 14 sp text) whose second
    # word the line detector did not box; the button's fill runs on past the boxed word, and a
    # little more than half a line height above and below it
    s = ts.collect_scripts_screens(count=16)[15]
    t = next(t for t in s.targets if t.text == "تسجيل الدخول")
    rgb = np.asarray(s.image)
    boxed = [b for b in Perception().ocr.detect(rgb) if b.iou(t.box) > 0]
    assert len(boxed) == 1 and boxed[0].width < 0.6 * t.box.width
    chip = scripts.chip_box(rgb, boxed[0])
    assert chip is not None and chip.x1 <= t.box.x1 + t.box.height // 2 and chip.x2 >= t.box.x2 - t.box.height // 2
    assert _hit(s.image, t.text, t.box)


def test_a_latin_reading_of_cyrillic_lookalikes_is_no_sure_one():
    assert scripts._lookalike("OTMEHA", "rus") and scripts._lookalike("OTMEHA", "rus+eng")
    assert not scripts._lookalike("Settings", "rus") and not scripts._lookalike("OTMEHA", "kor")
    assert not scripts._lookalike("Ok 12", "ell") and scripts._lookalike("TAXI", "ell")


@needs(ts.RUSSIAN, "rus")
def test_a_cyrillic_button_in_capitals_read_as_latin_lookalikes_is_found():
    # the scripts set's screen 11: the default recogniser reads "ОТМЕНА" as "OTMEHA", score 1.0
    s = ts.collect_scripts_screens(count=12)[11]
    t = next(t for t in s.targets if t.text == "ОТМЕНА")
    assert _hit(s.image, t.text, t.box)


@needs(ts.ARABIC, "ara")
def test_an_arabic_line_the_pack_breaks_as_a_line_is_read_whole_as_a_word_too():
    # the scripts set's Arabic screen 15: "اللغة والمنطقة" read as a line is "اللفة و 8 لقة", as one
    # word "اللغة والمنطقة"; the search field's grey hint "بحث" as a line is "2"
    s = ts.collect_scripts_screens(count=16)[15]
    for text in ("والمنطقة", "بحث"):
        t = next(t for t in s.targets if t.text == text)
        assert _hit(s.image, t.text, t.box), text


@needs(ts.THAI, "tha")
def test_a_short_label_the_pack_misreads_as_a_line_is_read_as_a_word_too():
    # the scripts set's Thai screen 18: the dialog's button "ตกลง" read as a line is "ตกลจ"
    s = ts.collect_scripts_screens(count=19)[18]
    t = next(t for t in s.targets if t.text == "ตกลง")
    assert _hit(s.image, t.text, t.box)
