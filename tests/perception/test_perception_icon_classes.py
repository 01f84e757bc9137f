"""Click Icon rules for classes of what real apps draw (issue 25), on screens drawn in other styles
than the development set's: each rule that won on one real app only is checked here on the class
it names (other sizes, colours and places), with Material Symbols' fonts and a text font."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.perception import Perception
from mobile_agent.perception.icons import offline
from mobile_agent.perception.icons.layout import keyboard_top, names_keyboard
from mobile_agent.screensets import drawing
from mobile_agent.types import Box

from test_perception_icon_realscreens import _dev, _hits, _target

W, H = 1080, 2280
REFS = Path(offline.__file__).with_name("refs")
FONTS = Path(drawing.__file__).with_name("fonts")
TEXT_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def _text_font(size: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(TEXT_FONT, size)
    except OSError:
        pytest.skip("DejaVu Sans is not installed")


def _symbol(d: ImageDraw.ImageDraw, name: str, centre: tuple[int, int], size: int, fill, style: str = "Rounded") -> None:
    """Material Symbols' glyph ``name`` (``style``: Rounded or Sharp from the screen sets' fonts,
    Outlined or ``Icons`` (Material Icons, filled) from the matcher's) centred on ``centre``."""
    import json

    if style == "Icons":
        font, cp = REFS / "MaterialIcons-Regular.ttf", offline._MATERIAL_CODEPOINTS[name]
    else:
        folder = REFS if style == "Outlined" else FONTS
        stem = f"MaterialSymbols{style}-subset"
        cp = int(json.loads((folder / f"{stem}.json").read_text())[name])
        font = folder / f"{stem}.ttf"
    f = ImageFont.truetype(str(font), size)
    d.text(centre, chr(cp), font=f, fill=fill, anchor="mm")


# ------------------------------------------------------------------------------------------------
# The on-screen keyboard is the input method's, not the app's
# ------------------------------------------------------------------------------------------------

def _keyboard_screen(mic_style: str = "Rounded", keys: bool = True) -> tuple[Image.Image, Box]:
    """A browser's start page with its search field (an outlined microphone at its end) over an
    open keyboard whose toolbar holds a filled microphone, a gear, a palette and the clipboard."""
    img = Image.new("RGB", (W, H), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.text((60, 150), "Browser", font=_text_font(60), fill=(20, 20, 20))
    d.rounded_rectangle((30, 1300, 1050, 1420), radius=40, fill=(236, 236, 242))
    d.text((90, 1335), "Search or enter address", font=_text_font(44), fill=(90, 90, 96))
    field_mic = (980, 1360)
    _symbol(d, "mic", field_mic, 64, (40, 40, 44), mic_style)
    d.rectangle((0, 1460, W, H), fill=(228, 231, 238))
    for x, name in ((70, "chevron_left"), (290, "settings"), (510, "palette"), (730, "content_copy"), (990, "mic")):
        _symbol(d, name, (x, 1530), 72, (50, 50, 56), "Icons")
    if keys:
        f = _text_font(54)
        for row, y, x0 in (("qwertyuiop", 1660, 8), ("asdfghjkl", 1800, 62), ("zxcvbnm", 1940, 170)):
            for k, ch in enumerate(row):
                x = x0 + k * 107
                d.rounded_rectangle((x, y - 60, x + 96, y + 60), radius=14, fill=(255, 255, 255))
                d.text((x + 48, y), ch, font=f, fill=(20, 20, 20), anchor="mm")
    return img, Box(field_mic[0] - 55, field_mic[1] - 55, field_mic[0] + 55, field_mic[1] + 55)


@pytest.mark.parametrize("style", ["Rounded", "Sharp", "Outlined"])
def test_voice_search_is_the_fields_microphone_not_the_keyboards(perception, style):
    img, box = _keyboard_screen(style)
    assert _hits(perception, img, box, "Voice search") == [True, True]


def test_keyboard_is_told_by_its_letter_keys(perception):
    img, _ = _keyboard_screen()
    top = keyboard_top([(l.box, l.text) for l in perception.parse(img).lines], W, H)
    assert top is not None and 1380 < top <= 1500
    # no letter keys (a toolbar of glyphs over a photo grid): no keyboard
    img, _ = _keyboard_screen(keys=False)
    assert keyboard_top([(l.box, l.text) for l in perception.parse(img).lines], W, H) is None
    # a real finance app's form with Gboard open (its toolbar at 1478 px)
    img, _ = _target("org.totschnig.myexpenses__14726600", "Save the data and close the form.")
    top = keyboard_top([(l.box, l.text) for l in perception.parse(img).lines], *img.size)
    assert top is not None and 1400 < top < 1478


def test_a_key_named_is_looked_for_on_the_keyboard(perception):
    assert names_keyboard("Emoji") and names_keyboard("Hide keyboard") and not names_keyboard("Voice search")
    img, _ = _keyboard_screen()
    g = perception.ground_icon(img, "Emoji keyboard settings")  # names a key: the keyboard's gear
    assert g.status == "found" and g.point.y > 1460


def test_voice_search_on_a_real_browser(perception):
    img, box = _dev("Firefox_Fast_Private_Browser_v101.1.1__1018090987", "Voice search")
    assert _hits(perception, img, box, "Voice search") == [True, True]
