"""Click Icon rules for classes of what real apps draw (issue 25), on screens drawn in other styles
than the development set's: each rule that won on one real app only is checked here on the class
it names (other sizes, colours and places), with Material Symbols' fonts and a text font."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.perception import Perception
from mobile_agent.perception.icons import lexicon, offline
from mobile_agent.perception.icons.layout import keyboard_top, names_keyboard
from mobile_agent.screensets import drawing
from mobile_agent.types import Box
from tests.fakes import system

from test_perception_icon_realscreens import _dev, _hits, _target

W, H = 1080, 2280
REFS = Path(offline.__file__).with_name("refs")
FONTS = Path(drawing.__file__).with_name("fonts")
TEXT_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def _text_font(size: int) -> ImageFont.FreeTypeFont:
    system.require("dejavu")
    return ImageFont.truetype(TEXT_FONT, size)


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


# ------------------------------------------------------------------------------------------------
# Floating action buttons of other sizes, colours and places (the FAB rule won on one real app)
# ------------------------------------------------------------------------------------------------

def _fab_screen(glyph: str = "add", size_dp: int = 56, shape: str = "disc", fill=(0, 150, 136), ink=(255, 255, 255),
                dark: bool = False, where: str = "end", label: str | None = None, style: str = "Rounded") -> tuple[Image.Image, Box]:
    """A list screen (a top bar with the drawer, a title, search and the overflow; rows with a
    leading glyph, two lines and a trailing star or check) with a FAB: a disc or Material 3's
    rounded square, ``size_dp`` across, at the end above the system bar (``end``), above a bottom
    navigation (``above_nav``), docked in the middle of a bottom app bar (``bar_center``), or
    extended with a ``label``. Returns the picture and the FAB's box."""
    dp = 2.75
    bg = (28, 27, 31) if dark else (250, 250, 250)
    fg = (230, 225, 229) if dark else (28, 27, 31)
    img = Image.new("RGB", (W, H), bg)
    d = ImageDraw.Draw(img)
    _symbol(d, "menu", (77, 170), 66, fg, style)
    d.text((180, 170), "Notes", font=_text_font(58), fill=fg, anchor="lm")
    _symbol(d, "search", (870, 170), 66, fg, style)
    _symbol(d, "more_vert", (1003, 170), 66, fg, style)
    for k in range(11):
        y = 330 + k * 170
        _symbol(d, ("person", "mail", "event", "folder")[k % 4], (90, y), 66, fg, style)
        d.text((180, y - 30), f"Item number {k + 1}", font=_text_font(44), fill=fg, anchor="lm")
        d.text((180, y + 30), "Some detail line", font=_text_font(36), fill=(120, 120, 120), anchor="lm")
        _symbol(d, "star" if k % 2 else "check", (990, y), 60, fg, style)
    bar_top = H - 66 - 220
    if where in ("above_nav", "bar_center"):
        d.rectangle((0, bar_top, W, H - 66), fill=(40, 40, 46) if dark else (238, 234, 244))
        xs = (135, 405, 675, 945) if where == "above_nav" else (90, 230, 370)
        for x, n in zip(xs, ("home", "search", "notifications", "person")):
            _symbol(d, n, (x, bar_top + 110), 66, fg, style)
    s = size_dp * dp
    cx, cy = W - 16 * dp - s / 2, H - 66 - 16 * dp - s / 2
    if where == "above_nav":
        cy = bar_top - 16 * dp - s / 2
    elif where == "bar_center":
        cx, cy = W / 2, bar_top
    radius = int(s / 2) if shape == "disc" else int(16 * dp * size_dp / 56)
    if label:
        x1 = W - 16 * dp - 300 - s
        d.rounded_rectangle((x1, cy - s / 2, W - 16 * dp, cy + s / 2), radius=radius, fill=fill)
        _symbol(d, glyph, (int(x1 + s / 2 + 10), int(cy)), 66, ink, style)
        d.text((x1 + s + 10, cy), label, font=_text_font(46), fill=ink, anchor="lm")
        return img, Box(int(x1), int(cy - s / 2), int(W - 16 * dp), int(cy + s / 2))
    if shape == "disc":
        d.ellipse((cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2), fill=fill)
    else:
        d.rounded_rectangle((cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2), radius=radius, fill=fill)
    _symbol(d, glyph, (int(cx), int(cy)), int(24 * dp * max(1.0, size_dp / 56)), ink, style)
    return img, Box(int(cx - s / 2), int(cy - s / 2), int(cx + s / 2), int(cy + s / 2))


TONAL = dict(shape="square", fill=(234, 221, 255), ink=(33, 0, 93))  # Material 3's primary container


@pytest.mark.parametrize("glyph", ["check", "add"])
@pytest.mark.parametrize("kind,kw", [
    ("a FAB", {}),
    ("a mini FAB", dict(size_dp=40)),
    ("Material 3's large FAB", dict(size_dp=96)),
    ("Material 3's tonal square", TONAL),
    ("a dark theme's pink FAB", dict(dark=True, fill=(255, 184, 200), ink=(60, 0, 20))),
    ("a navy FAB, Sharp glyphs", dict(fill=(26, 35, 126), style="Sharp")),
    ("above a bottom navigation", dict(where="above_nav")),
    ("docked in a bottom app bar's middle", dict(where="bar_center")),
])
def test_a_floating_button_in_other_styles(perception, glyph, kind, kw):
    # the list's rows end in checks and stars: "Save" is the FAB's check, "Add" its plus
    img, box = _fab_screen(glyph, **kw)
    perception.clear_cache()
    desc = {"check": "Save", "add": "Add"}[glyph]
    assert _hits(perception, img, box, desc) == [True, True], kind


def test_an_extended_fab_by_its_glyph(perception):
    img, box = _fab_screen("edit", label="Compose", **TONAL)
    perception.clear_cache()
    assert _hits(perception, img, box, "Compose") == [True, True]


# ------------------------------------------------------------------------------------------------
# A glyph under a scrim (an open drawer's shade) of other opacities
# ------------------------------------------------------------------------------------------------

def _under_scrim(alpha: float, **kw) -> tuple[Image.Image, Box]:
    """:func:`_fab_screen` with a navigation drawer open over it: the drawer (white, its rows a
    glyph and a word) over the start two thirds, the rest dimmed by a black scrim of ``alpha``."""
    img, box = _fab_screen("add", **kw)
    img = Image.fromarray((np.asarray(img).astype(float) * (1 - alpha)).astype(np.uint8))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 715, H), fill=(255, 255, 255))
    d.text((50, 140), "Manage accounts", font=_text_font(46), fill=(30, 30, 30))
    for k, (glyph, word) in enumerate((("mail", "Inbox"), ("star", "Starred"), ("send", "Sent"), ("edit", "Drafts"))):
        _symbol(d, glyph, (90, 330 + 150 * k), 66, (60, 60, 60))
        d.text((180, 330 + 150 * k), word, font=_text_font(44), fill=(30, 30, 30), anchor="lm")
    return img, box


# Material's scrim is 32% black; apps dim up to 85%, where the glyph is 20-40 levels off its disc:
# that faint ink was read by a rule of one app (scrim_glyphs), which issue 40's house rule removed
@pytest.mark.parametrize("alpha", [0.32, 0.6])
@pytest.mark.parametrize("kind,kw", [
    ("a teal FAB, a white plus", {}),
    ("Material 3's tonal square", TONAL),
    ("a dark theme's pink FAB", dict(dark=True, fill=(255, 184, 200), ink=(60, 0, 20))),
])
def test_a_floating_button_under_a_scrim(perception, alpha, kind, kw):
    img, box = _under_scrim(alpha, **kw)
    for desc in ("Add", "New item"):
        perception.clear_cache()
        assert _hits(perception, img, box, desc) == [True, True], (kind, desc)


# ------------------------------------------------------------------------------------------------
# A top app bar with actions of the app's own (the framework's up button and overflow beside them)
# ------------------------------------------------------------------------------------------------

def _toolbar_screen(glyphs: list[str], style: str = "Rounded", dark: bool = False,
                    up: str = "arrow_back") -> tuple[Image.Image, dict[str, Box]]:
    """A top app bar (Navigate up drawn as ``up``, a title, ``glyphs`` as its actions, the search
    action and the overflow) over a list of amounts. Returns the picture and each action's slot
    (48 dp; ``up`` and ``more_vert`` too)."""
    bg, fg = ((32, 33, 36), (232, 234, 237)) if dark else ((250, 250, 250), (30, 30, 30))
    img = Image.new("RGB", (W, H), bg)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 66), fill=(0, 105, 92) if not dark else (20, 20, 22))
    d.rectangle((0, 66, W, 220), fill=(0, 137, 123) if not dark else (48, 49, 52))
    ink = (255, 255, 255) if not dark else fg
    _symbol(d, up, (77, 143), 66, ink, style)
    # a title that leaves room for four actions, the search and the overflow (48 dp each)
    d.text((180, 143), "Tags", font=_text_font(44), fill=ink, anchor="lm")
    x = W - 77
    _symbol(d, "more_vert", (x, 143), 66, ink, style)
    slots = {"up": Box(0, 77, 154, 209), "more_vert": Box(W - 143, 77, W - 11, 209)}
    for g in reversed(glyphs + ["search"]):
        x -= 132
        _symbol(d, g, (x, 143), 66, ink, style)
        slots[g] = Box(x - 66, 77, x + 66, 209)
    for k in range(8):
        y = 330 + 170 * k
        d.text((60, y), f"Groceries {k}", font=_text_font(44), fill=fg, anchor="lm")
        d.text((W - 60, y), f"-{k + 3}.50", font=_text_font(44), fill=fg, anchor="rm")
    return img, slots


# ------------------------------------------------------------------------------------------------
# A browser's tab switcher in other styles (the rule won on one real browser)
# ------------------------------------------------------------------------------------------------

def _browser_screen(count: str = "3", dark: bool = False, top: bool = True, radius: int = 10,
                    stroke: int = 6) -> tuple[Image.Image, Box]:
    """A browser's bar (home, the address field, the tab switcher holding the count of open tabs,
    the overflow) at the top (Chrome's) or at the bottom, over a list of sites."""
    bg, fg = ((32, 33, 36), (232, 234, 237)) if dark else ((252, 252, 252), (60, 60, 60))
    img = Image.new("RGB", (W, H), bg)
    d = ImageDraw.Draw(img)
    y = 143 if top else 2150
    _symbol(d, "home", (70, y), 66, fg)
    d.rounded_rectangle((140, y - 60, 800, y + 60), radius=60, fill=(60, 64, 67) if dark else (235, 235, 240))
    d.text((190, y), "Search or type web address", font=_text_font(34), fill=fg, anchor="lm")
    cx = 880
    d.rounded_rectangle((cx - 30, y - 30, cx + 30, y + 30), radius=radius, outline=fg, width=stroke)
    d.text((cx, y), count, font=_text_font(30 if len(count) == 1 else 24), fill=fg, anchor="mm")
    _symbol(d, "more_vert", (1010, y), 66, fg)
    for k in range(6):
        d.rounded_rectangle((60, 400 + 260 * k, 1020, 620 + 260 * k), radius=20,
                            fill=(48, 49, 52) if dark else (240, 240, 244))
        d.text((100, 510 + 260 * k), f"Site {k}", font=_text_font(44), fill=fg, anchor="lm")
    return img, Box(cx - 55, y - 55, cx + 55, y + 55)


@pytest.mark.parametrize("kw", [{}, dict(count="12"), dict(dark=True), dict(top=False), dict(radius=4, stroke=4),
                                dict(dark=True, count="12", top=False)])
def test_a_tab_switcher_in_other_styles(perception, kw):
    img, box = _browser_screen(**kw)
    perception.clear_cache()
    for words in ("Tabs", "Switch or close tabs", "Open tab bar"):
        assert _hits(perception, img, box, words) == [True, True], words


@pytest.mark.parametrize("up", ["arrow_back", "close", "arrow_back_ios_new", "chevron_left", "expand_more"])
@pytest.mark.parametrize("style,dark", [("Rounded", False), ("Sharp", True)])
def test_the_frameworks_up_button_whatever_its_glyph(perception, up, style, dark):
    # "Navigate up" is the toolbar's up button, the bar's first icon, however the app draws it (an
    # editor's cross, a chevron, a player's down arrow); "More options" its last (the rule won on
    # one real app: a finance app's forms draw the up button as a cross)
    img, slots = _toolbar_screen(["book", "print"], style, dark, up=up)
    perception.clear_cache()
    assert _hits(perception, img, slots["up"], "Navigate up") == [True, True]
    assert _hits(perception, img, slots["more_vert"], "More options") == [True, True]


def test_the_simulated_phones_keyboard_and_its_system_bar():
    # The simulated phone's video app with its search open: the keyboard's submit and mic keys
    # under the app's voice-search microphone, and the system's three-button bar under the
    # keyboard, which is not the keyboard's (its Back still wins "Back" without a hint).
    from mobile_agent.device.sim import SimPhone
    from mobile_agent.screensets.measure import parse_tree

    phone = SimPhone(seed=0)
    phone.launch("Video")
    phone.tap(1007, 136)
    shot = phone.screenshot()
    nodes = parse_tree(phone.ui_tree(), *phone.size())
    p = Perception()
    top = keyboard_top([(l.box, l.text) for l in p.parse(shot).lines], *phone.size())
    assert top is not None
    for desc in ("Search with your voice", "Back"):
        node = next(n for n in nodes if n.desc == desc)
        g = p.ground_icon(shot, desc)
        assert g.status == "found" and node.box.contains_point(g.point), desc


# ------------------------------------------------------------------------------------------------
# Material's own rendering of every glyph the vocabulary names (most Android apps draw Material's)
# ------------------------------------------------------------------------------------------------

# Font Awesome glyphs of the vocabulary that Material draws no counterpart of (a plain circle, the
# browsers' private-mode masks, a sort order's bars) or that have one through the words themselves:
# Material's tune (three lines with knobs) is named by "tune", "sliders" and "filter" only, not
# where "settings" takes the sliders as a weaker alternative (a thin outlined list won "Settings")
_NO_MATERIAL = {"circle", "circle_up", "cloud_rain", "arrow_down_wide_short", "share", "user_secret", "mask", "glasses",
                "sliders"}

# (what a model or an app calls it, the Material name drawn): families whose Font Awesome glyph
# differs from Material's (a calculator's keys, a wallet, a movie's clapper, an upload into a file)
_TOOLS = [("Calculator", "calculate"), ("RSS feed", "rss_feed"), ("Tune", "tune"), ("Warning", "warning"),
          ("Contacts", "contacts"), ("Wallet", "account_balance_wallet"), ("Power", "power_settings_new"),
          ("Podcasts", "podcasts"), ("News", "newspaper"), ("Timer", "timer"), ("Undo", "undo"),
          ("Paste", "content_paste"), ("Crop", "crop"), ("Cloud", "cloud"), ("Storage", "storage"),
          ("Notes", "sticky_note_2"), ("Export", "upload_file"), ("Document", "description"), ("Movie", "movie"),
          ("Radio", "radio"), ("Flash", "bolt"), ("Today", "today")]


def test_every_vocabulary_glyph_has_materials_rendering():
    glyphs = {g.partition("~")[0].partition("@")[0].partition("|")[0] for gs in lexicon.VOCABULARY.values() for g in gs}
    fa = {g.rpartition(":")[2] for g in glyphs if g.rpartition(":")[0] not in ("mi", "ms")}
    missing = sorted(fa - set(lexicon.MATERIAL_OF) - _NO_MATERIAL)
    assert not missing, missing
    assert "mi:calculate" in offline.family_renderings("calculator")


@pytest.mark.parametrize("style", ["Rounded", "Sharp"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_tools_grid_drawn_in_materials_glyphs(perception, style, dark):
    # Two grids of eleven tools each (a file manager's or an editor's), glyphs only, in Material
    # Symbols styles the matcher has no reference of: each found by its name. Before Material's
    # renderings of these families, 8 of the 22 were answered on another tool in each style.
    bg, ink = ((250, 250, 250), (40, 40, 44)) if not dark else ((20, 20, 24), (230, 230, 235))
    for chunk in (_TOOLS[:11], _TOOLS[11:]):
        img = Image.new("RGB", (W, H), bg)
        d = ImageDraw.Draw(img)
        boxes = {}
        for i, (_, name) in enumerate(chunk):
            cx, cy = 180 + (i % 4) * 240, 500 + (i // 4) * 300
            _symbol(d, name, (cx, cy), 72, ink, style)
            boxes[name] = Box(cx - 60, cy - 60, cx + 60, cy + 60)
        for word, name in chunk:
            g = perception.ground_icon(img, word)
            assert g.status == "found" and boxes[name].contains_point(g.point), (word, g.status, g.point)
