"""Click Icon on real apps' screens (issue 25): the glyph itself and where apps put it. Each rule
is named by the real-app phenomenon it handles (docs/perception.md, "Glyphs and where apps put
them"); its screens are the committed F-Droid fixtures and, where the development set is beside
the clone (``../shared/realscreens``), other apps' screens too."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.perception import Perception
from mobile_agent.perception.icons import offline
from mobile_agent.perception.icons.layout import floating_buttons
from mobile_agent.perception.icons.offline import description_glyphs
from mobile_agent.perception.icons.lexicon import description_families
from mobile_agent.types import Box

from tests.perception.test_perception_icon_realscreens import _dev, _hits, _target


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def test_material_names_of_toolbar_glyphs():
    # A scanner's torch, a list's details folded away, a form's image attached with the camera, a
    # map's place: Material's own names for the glyphs.
    assert description_glyphs("Turn flashlight on")[:2] == ["mi:flashlight_on", "mi:flashlight_off"]
    assert description_glyphs("Hide details") == ["mi:unfold_less"]
    assert description_glyphs("Show details") == ["mi:unfold_more"]
    assert description_glyphs("Attach image to transaction")[0] == "camera"
    assert "location_dot" in description_glyphs("Add place")
    assert description_families("Add place") == {"add", "location"}
    # "Show" and "Hide" before other words stay verbs, and an eye where nothing else is named
    assert description_glyphs("Show / Hide played content")[:2] == ["eye", "eye_slash"]
    assert description_glyphs("Show password")[0] == "eye"
    # a browser's tab switcher; "tab" alone names a frame ("Home tab")
    assert description_glyphs("Open tab bar")[0] == "r:square" == description_glyphs("Tabs")[0]
    assert description_glyphs("Home tab") == description_glyphs("Home")
    for spec in ("mi:flashlight_on", "mi:flashlight_off", "mi:unfold_less", "mi:unfold_more"):
        assert offline.reference_mask(spec) is not None, spec


@pytest.mark.parametrize("name,target", [
    # a loyalty-card app's list: the unfold_less chevrons fold the cards' details
    ("me.hackerchick.catima__1021118874", "Hide details"),
    # a finance app's form: its camera attaches a receipt's photo
    ("org.totschnig.myexpenses__1243134374", "Attach image to transaction"),
    # the form's floating Save (a check on a disc) against the toolbar's close cross ("close the form")
    ("org.totschnig.myexpenses__1243134374", "Save the data and close the form."),
    # the same button riding above the keyboard, at 59% of the screen's height
    ("org.totschnig.myexpenses__14726600", "Save the data and close the form."),
    # (catima's "Thumbnail" tile, My Expenses' "New ..." under a drawer's scrim and its "Save and
    # new" check-with-plus were won by rules of one app each, removed by issue 40's house rule)
])
def test_glyphs_and_places_on_fixture_screens(perception, name, target):
    img, box = _target(name, target)
    assert _hits(perception, img, box, target) == [True, True]


@pytest.mark.parametrize("name,target", [
    ("me.hackerchick.catima__79518957", "Hide details"),
    ("me.hackerchick.catima__95078803", "Turn flashlight on"),  # a barcode scanner's torch
    ("org.totschnig.myexpenses__1111865268", "Attach image to transaction"),
])
def test_glyphs_on_other_screens(perception, name, target):
    img, box = _dev(name, target)
    assert _hits(perception, img, box, target) == [True, True]


def test_a_browsers_tab_switcher_is_a_square_holding_the_count(perception):
    # A browser's bottom toolbar: home, search, the tab switcher (a rounded square holding the
    # number of open tabs) and the overflow, drawn with Material glyphs and a digit.
    import fontpkg_roboto

    img = Image.new("RGB", (1080, 2280), (252, 252, 252))
    d = ImageDraw.Draw(img)
    mi = ImageFont.truetype(str(Path(offline.__file__).with_name("refs") / "MaterialIcons-Regular.ttf"), 72)
    digit = ImageFont.truetype(str(Path(fontpkg_roboto.__file__).parent / "files" / "Roboto[wdth,wght].ttf"), 38)
    d.text((50, 120), "Search or type web address", font=digit, fill=(60, 60, 60))
    for cx, glyph in ((135, "home"), (405, "search"), (945, "more_vert")):
        d.text((cx - 36, 2110), chr(offline._MATERIAL_CODEPOINTS[glyph]), font=mi, fill=(60, 60, 60))
    d.rounded_rectangle((645, 2118, 705, 2178), radius=10, outline=(60, 60, 60), width=6)
    d.text((664, 2124), "3", font=digit, fill=(60, 60, 60))
    box = Box(620, 2093, 730, 2203)
    for words in ("Tabs", "Switch or close tabs", "Open tab bar"):
        assert _hits(perception, img, box, words) == [True, True], words


@pytest.mark.parametrize("name,target", [
    ("Opera_Mini_fast_web_browser_v63.0.2254.61942__70984969", "Open tab bar"),
])
def test_a_tab_switcher_on_a_real_browser(perception, name, target):
    img, box = _dev(name, target)
    assert _hits(perception, img, box, target) == [True, True]


def _disc_screen(centres: list[tuple[int, int]], fill=(0, 150, 136)) -> tuple[np.ndarray, list[Box]]:
    """A light 1080x2280 screen with 56 dp discs (154 px) holding a white check, and the boxes a
    detector gives: each disc and its glyph."""
    img = Image.new("RGB", (1080, 2280), (250, 250, 250))
    d = ImageDraw.Draw(img)
    mi = ImageFont.truetype(str(Path(offline.__file__).with_name("refs") / "MaterialIcons-Regular.ttf"), 66)
    boxes = []
    for cx, cy in centres:
        d.ellipse((cx - 77, cy - 77, cx + 77, cy + 77), fill=fill)
        d.text((cx - 33, cy - 33), chr(offline._MATERIAL_CODEPOINTS["check"]), font=mi, fill=(255, 255, 255))
        boxes += [Box(cx - 79, cy - 79, cx + 79, cy + 79), Box(cx - 26, cy - 20, cx + 26, cy + 20)]
    return np.asarray(img), boxes


def test_a_floating_action_button_is_a_lone_disc_at_the_end():
    rgb, boxes = _disc_screen([(959, 2115)])
    assert floating_buttons(rgb, boxes) == [True, True]
    # above the keyboard, higher up the screen: still the FAB
    rgb, boxes = _disc_screen([(959, 1340)])
    assert floating_buttons(rgb, boxes) == [True, True]
    # a row of equal discs is a set of buttons (a grid of shortcuts), not a FAB
    rgb, boxes = _disc_screen([(700, 1340), (959, 1340)])
    assert not any(floating_buttons(rgb, boxes))
    # a disc holding a number (a date picker's chosen day) is no FAB
    rgb, boxes = _disc_screen([(959, 1340)])
    assert not any(floating_buttons(rgb, boxes, lines=[Box(930, 1310, 990, 1370)]))
    # at the start of the screen: no FAB
    rgb, boxes = _disc_screen([(121, 2115)])
    assert not any(floating_buttons(rgb, boxes))
