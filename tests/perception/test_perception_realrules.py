"""Click Text rules for what real apps draw (issue 25): each named by the phenomenon it handles.
Screens are drawn here with the simulated phone's font; the real screens' figures are in
docs/perception.md (``mobile-agent bench perception --dir``)."""

from __future__ import annotations

from pathlib import Path

import fontpkg_roboto
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.perception import Perception
from mobile_agent.types import Box
from tests.fakes import system

ROBOTO = Path(fontpkg_roboto.__file__).parent / "files" / "Roboto[wdth,wght].ttf"


def _screen(rows: list[tuple[str, int, int, int]]) -> tuple[Image.Image, dict[str, Box]]:
    """Texts at (x, y) in a size each, on a light screen; the box of each."""
    img = Image.new("RGB", (1080, 1600), (250, 250, 250))
    d = ImageDraw.Draw(img)
    boxes = {}
    for text, x, y, size in rows:
        font = ImageFont.truetype(str(ROBOTO), size)
        d.text((x, y), text, font=font, fill=(30, 30, 30))
        boxes[text] = Box(*d.textbbox((x, y), text, font=font)).expand(8)
    return img, boxes


def test_exact_letter_case_wins_over_a_case_folded_match():
    # A section header in capitals above a field labelled in title case, and a button in capitals
    # beside its toolbar action: the request names one of the two.
    img, boxes = _screen([("EMAIL", 60, 200, 36), ("Email", 60, 300, 44), ("ADD SHOW", 60, 700, 40),
                          ("Add show", 600, 900, 44), ("Password", 60, 1100, 44)])
    p = Perception()
    for text in ("EMAIL", "Email", "ADD SHOW", "Add show"):
        g = p.ground_text(img, text)
        assert g.found and boxes[text].contains_point(g.point), (text, g.status, g.message)
    # where neither holds the request's case, both are still offered
    assert p.ground_text(img, "email").status == "ambiguous"


REAL = Path(__file__).resolve().parents[1] / "bench" / "fixtures" / "realscreens" / "img"
CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


def _han(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_icons_read_as_lone_chinese_characters_are_not_screen_text():
    # Two apps whose icons the recogniser reads as "日" / "中" / "米": a music player's album grid
    # and a currency converter's flags. None of it is text; the icons are still found.
    p = Perception()
    for name in ("com.poupa.vinylmusicplayer__741334294", "org.billthefarmer.currency__330216155"):
        img = Image.open(REAL / f"{name}.png").convert("RGB")
        res = p.parse(img, icons=True)
        assert not any(_han(t) for t in res.texts), (name, res.texts)
        assert res.glyphs and all(_han(g.text) for g in res.glyphs)
        # still icon candidates: each glyph's place is an icon box
        for g in res.glyphs:
            assert any(i.box.contains_point(g.box.center) for i in res.icons), (name, g.text)
        # and no "did you mean" suggests them
        miss = p.ground_text(img, "Nothing like this")
        assert miss.status == "none" and not _han(miss.message)


@system.needs("noto-cjk")
def test_lone_chinese_characters_stay_text_on_a_chinese_screen():
    from PIL import ImageDraw, ImageFont

    img = Image.new("RGB", (1080, 1200), (250, 250, 250))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(CJK_FONT), 48)
    d.text((60, 100), "设置", font=font, fill=(20, 20, 20))
    d.text((60, 300), "显示与亮度", font=font, fill=(20, 20, 20))
    d.text((60, 500), "日", font=font, fill=(20, 20, 20))
    res = Perception().parse(img)
    assert "日" in res.texts and not res.glyphs


def _node(name: str, target: str) -> Box:
    import json

    for line in (REAL.parent / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d["image"] == f"img/{name}.png" and d["target"] == target:
            return Box(*d["bbox"])
    raise AssertionError(target)


def test_framework_phrases_name_the_top_bar_end_whatever_the_glyph():
    from mobile_agent.screensets.realscreens import third_hint

    # "Navigate up" drawn as a cross on an expense editor, as an arrow on a music player's and on a
    # loyalty-card app's screens: the framework's up button is the top bar's first icon, whatever
    # it looks like ("More options" its last).
    p = Perception()
    for name, target in (("org.totschnig.myexpenses__1243134374", "Navigate up"),
                         ("com.poupa.vinylmusicplayer__741334294", "Navigate up"),
                         ("me.hackerchick.catima__236981483", "Navigate up"),
                         ("org.totschnig.myexpenses__1243134374", "More options"),
                         ("org.billthefarmer.currency__330216155", "More options")):
        img = Image.open(REAL / f"{name}.png").convert("RGB")
        box = _node(name, target)
        for hint in ((), third_hint(box, *img.size)):
            g = p.ground_icon(img, target, hint)
            assert g.found and box.contains_point(g.point), (name, target, hint, g.status, g.point)


def test_clear_query_is_not_taken_for_the_bar_end():
    # A music player's search bar: the field's "Clear query" cross is followed by the overflow
    # menu, so the bar's last icon is not it (the up button and the overflow are the bar's ends).
    p = Perception()
    name = "de.kromke.andreas.opus1musicplayer__1001575858"
    img = Image.open(REAL / f"{name}.png").convert("RGB")
    box = _node(name, "Clear query")
    g = p.ground_icon(img, "Clear query")
    assert g.found and box.contains_point(g.point), (g.status, g.point)
    g = p.ground_icon(img, "More options")
    assert g.found and _node(name, "More options").contains_point(g.point), (g.status, g.point)


def test_lone_characters_are_no_suggestion_for_a_longer_text():
    # A music player's tab bar and a podcast app's chips: the glyphs read as "A", "P", "t", "y"
    # filled the "did you mean" list of a text not found.
    import re

    p = Perception()
    for name in ("com.poupa.vinylmusicplayer__741334294", "org.totschnig.myexpenses__1482807785"):
        img = Image.open(REAL / f"{name}.png").convert("RGB")
        g = p.ground_text(img, "Nothing like this here")
        assert g.status == "none" and "closest texts" in g.message
        named = re.findall(r'"([^"]*)"', g.message.split("closest texts", 1)[1])
        assert named and all(len(t.strip()) > 1 for t in named), named
    from mobile_agent.perception.results import TextLine
    from mobile_agent.perception.textmatch import closest_texts

    lines = [TextLine(t, Box(0, 10 * i, 100, 10 * i + 9), 0.9) for i, t in enumerate(["A", "P", "Albums", "t"])]
    assert closest_texts("Album", lines) == ["Albums"]
    assert closest_texts("A1", lines)[0] == "A"  # a short target still hears of lone characters
