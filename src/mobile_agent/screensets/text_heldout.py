"""The held-out text set: Click Text on screens drawn with fonts, layouts and text kinds that
neither the simulated phone, the wide set nor the text stress set draws, and that no matching rule
was written against.

The text stress set (:mod:`mobile_agent.screensets.text_stress`) and the matching rules were made by the
same people, so its figure says little about screens nobody here has drawn. This set is drawn apart
from it: other fonts, other system font scales, and other things real apps do with text. Its
screens are measured before the rules they lead to are written; a rule kept must hold on every set
(this one, the stress set, sim and wide) and name the real-app reason it exists.

Each screen stacks blocks in one family at one density and one system font scale (0.85, 1.0 or 1.3
times the sp sizes), light or dark, sometimes JPEG-compressed, and may end under an overlay. The
phenomena (a target's ``phenomenon``):

- ``tab, selected`` / ``tab, unselected``: a tab bar with an underline or a pill under the selected
  tab, drawn bold in the accent, the others grey; the node is the tab's cell;
- ``segmented button``: two to four segments in one outlined control, the selected one tinted;
- ``covered by a FAB``: a row's text whose end lies under a floating action button; ``extended FAB``:
  the button's own label beside its icon;
- ``snackbar message``, ``snackbar action``: a snackbar at the bottom, its action in the accent;
- ``toast``: a grey pill with white text near the bottom;
- ``bottom sheet item``: items of a modal bottom sheet whose rounded top edge covers the screen,
  everything behind it under a dim scrim;
- ``dialog button``, ``dialog title``: an alert over a dim scrim;
- ``row with icon, switch``, ``trailing value``: list rows with a leading icon, their label, and a
  trailing switch or value ("64 GB");
- ``link in a paragraph``: an underlined accent phrase inside a wrapped paragraph (the node is the
  phrase's span);
- ``highlighted word``: a search result whose matching word is bold inside the line;
- ``hashtag, mention, URL``: "#sunset", "@maria.l", "example.com/help", an e-mail, a phone number;
- ``price, other locale``: "1.234,56 €", "¥1,280", "R$ 49,90", "₹499";
- ``date or time, other format``: "03.12.2026", "2026-12-03", "3 déc. 2026", "下午3:15", "15:45";
- ``counter``: "2nd" with a raised suffix, "x2", a "99+" badge, "1/12";
- ``camel case``: "iPhone", "WiFi", "YouTube", "PayPal";
- ``grid label``, ``grid label, two lines``, ``grid label, cut``: labels under icons in an app
  grid, on one line, wrapped into two centred lines, or cut with an ellipsis after two (the node is
  the cell, icon and label);
- ``settings title``, ``settings summary``: a preference's title and its grey summary below;
- ``notification``, ``quick settings tile``: cards of the notification shade (app name and time,
  bold title, text) and the quick settings tiles (a label and its state);
- ``italic``: a quote or caption in italic;
- ``display number``: a very large number (48-64 sp: "72°", "$1,284.50");
- ``code (mono)``: a code or order number in a monospaced face ("A7K-29QX", "482 913");
- ``Chinese (serif)``, ``Japanese``: Noto Serif CJK, Simplified Chinese and Japanese kana/kanji;
- ``plain``: the app bar's title.

Each screen also names texts that are NOT on it (``absent``): near misses made from its own labels
(a number one digit off, a word changed, a word added: "Turn off Wi-Fi" beside "Turn on Wi-Fi",
"iPhone 15" beside "iPhone"), and unrelated labels; grounding them must answer ``none``.

Fonts (all SIL OFL 1.1): Montserrat, Poppins, Nunito, Source Sans 3, Work Sans, IBM Plex Sans, Noto
Serif, Roboto Condensed (a condensed vendor-like face) and IBM Plex Mono for codes (pip
``fontpkg-*``); Noto Serif CJK (Debian ``fonts-noto-cjk``). The seed fixes the set;
:data:`FROZEN_SHA256` is seed 0's digest. Measured with ``mobile-agent bench perception --set
textheldout`` (docs/perception.md, "The held-out text set").
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.screensets import drawing
from mobile_agent.screensets.text_stress import (
    ACCENTS,
    StressResult,
    StressScreen,
    _Canvas,
    _ellipsise,
    _key,
    set_axes,
    _on_screen,
    _pkg_file,
    _wrap,
    bar_title,
    format_stress,
    run_stress,
    set_digest,
    status_texts,
)
from mobile_agent.errors import ConfigError
from mobile_agent.types import Box

SEED = 0
SCREENS = 60
# sha256 over seed 0's 60 screens (pixels, size), targets and absent texts (:func:`set_digest`).
FROZEN_SHA256 = "48ed26385cbcf143efb868e9f896ac7f42a45df5fbb1a1fddaf7a24d9a1f314f"
INSTALL = ("pip install -e '.[test]' (fontpkg-montserrat, -poppins, -nunito, -source-sans-3, -work-sans, "
           "-ibm-plex-sans, -noto-serif, -roboto-condensed, -ibm-plex-mono) and apt-get install fonts-noto-cjk")

SIZES = ((720, 1600, 2.0), (1080, 2400, 2.625), (1080, 2340, 3.0), (1440, 3120, 3.5))
SCALES = (0.85, 1.0, 1.0, 1.3)
FAMILIES = ("montserrat", "poppins", "nunito", "source-sans-3", "work-sans", "ibm-plex-sans", "noto-serif",
            "roboto-condensed")
# family -> (module, upright file, italic file); files with [wght] are variable fonts
_FILES = {"montserrat": ("fontpkg_montserrat", "Montserrat[wght].ttf", "Montserrat-Italic[wght].ttf"),
          "nunito": ("fontpkg_nunito", "Nunito[wght].ttf", "Nunito-Italic[wght].ttf"),
          "source-sans-3": ("fontpkg_source_sans_3", "SourceSans3[wght].ttf", "SourceSans3-Italic[wght].ttf"),
          "work-sans": ("fontpkg_work_sans", "WorkSans[wght].ttf", "WorkSans-Italic[wght].ttf"),
          "ibm-plex-sans": ("fontpkg_ibm_plex_sans", "IBMPlexSans[wdth,wght].ttf", "IBMPlexSans-Italic[wdth,wght].ttf"),
          "noto-serif": ("fontpkg_noto_serif", "NotoSerif[wdth,wght].ttf", "NotoSerif-Italic[wdth,wght].ttf"),
          "roboto-condensed": ("fontpkg_roboto_condensed", "RobotoCondensed[wght].ttf",
                               "RobotoCondensed-Italic[wght].ttf")}
_STATIC_WEIGHTS = ((250, "ExtraLight"), (350, "Light"), (450, "Regular"), (550, "Medium"), (650, "SemiBold"),
                   (750, "Bold"), (850, "ExtraBold"), (1000, "Black"))
_SERIF_CJK = "/usr/share/fonts/opentype/noto/NotoSerifCJK-{}.ttc"


def _static_name(prefix: str, weight: int, italic: bool) -> str:
    style = next(n for w, n in _STATIC_WEIGHTS if weight < w)
    if italic:
        return f"{prefix}-{'Italic' if style == 'Regular' else style + 'Italic'}.ttf"
    return f"{prefix}-{style}.ttf"


@lru_cache(maxsize=1024)
def _font(family: str, px: int, weight: int = 400, italic: bool = False, face: int = 2) -> ImageFont.FreeTypeFont:
    """``family`` at ``px`` pixels and ``weight`` (``face``: the CJK collection's face, 0 Japanese,
    2 Simplified Chinese)."""
    if family == "serif-cjk":
        path = _SERIF_CJK.format("Bold" if weight >= 600 else "Regular")
        if not Path(path).exists():
            raise ConfigError(f"the held-out text set needs Noto Serif CJK: {INSTALL}")
        return ImageFont.truetype(path, px, index=face)
    if family in ("poppins", "ibm-plex-mono"):
        module, prefix = ("fontpkg_poppins", "Poppins") if family == "poppins" else ("fontpkg_ibm_plex_mono", "IBMPlexMono")
        if family == "ibm-plex-mono":
            weight = min(weight, 700)
        path = _pkg_file(module, _static_name(prefix, weight, italic))
        if path is None:
            raise ConfigError(f"the held-out text set needs the font {family}: {INSTALL}")
        return ImageFont.truetype(str(path), px)
    module, upright, slanted = _FILES[family]
    path = _pkg_file(module, slanted if italic else upright)
    if path is None:
        raise ConfigError(f"the held-out text set needs the font {family}: {INSTALL}")
    f = ImageFont.truetype(str(path), px)
    set_axes(f, {"weight": weight, "width": 100})
    return f


def available() -> bool:
    """Whether the fonts the set draws with are installed."""
    try:
        for fam in FAMILIES + ("ibm-plex-mono",):
            _font(fam, 20)
            _font(fam, 20, 400, italic=True)
        _font("serif-cjk", 20)
    except (ConfigError, OSError):
        return False
    return True


# ---------------------------------------------------------------------------------------------
# Texts. Each pool is a tuple drawn from by the seeded generator (their order is part of the set).

TITLES = ("Explore", "Wallet", "Photos", "Contacts", "Activity", "Saved", "Bookings", "Podcasts")
TABS = (("For you", "Following", "Live"), ("Chats", "Status", "Calls"), ("All", "Unread", "Mentions", "Archived"),
        ("Overview", "Reviews", "Related"), ("Songs", "Albums", "Artists"), ("Today", "Week", "Month", "Year"))
SEGMENTS = (("Day", "Week", "Month"), ("Buy", "Rent"), ("Walking", "Transit", "Driving"), ("List", "Map"),
            ("Standard", "Express", "Same day"))
ICON_ROWS = (("Wi-Fi", "switch"), ("Bluetooth", "switch"), ("Airplane mode", "switch"), ("Hotspot", "switch"),
             ("Location", "switch"), ("Storage", "64 GB"), ("Battery", "82%"), ("Memory", "3.1 GB avg"),
             ("Apps", "146"), ("Screen time", "2 hr 14 min"), ("Data usage", "4.7 GB"), ("Sound", "Vibrate"))
LINK_PARAS = (("By continuing, you agree to our ", "Terms of Service", " and acknowledge that you have read the rest."),
              ("Having trouble signing in? Visit our ", "Help Center", " or contact support for assistance."),
              ("Your data is handled as described in the ", "Privacy Notice", " which was updated last month."),
              ("Not you? ", "Switch account", " to continue with a different profile on this device."),
              ("To change how we contact you, open ", "Email preferences", " at any time from your profile."))
SEARCH = (("Best ", "pizza", " places near Central Park"), ("How to reset ", "password", " on a new phone"),
          ("Cheap ", "flights", " to Lisbon in March"), ("Easy vegan ", "recipes", " for busy weeknights"),
          ("Top rated ", "headphones", " under 100 dollars"))
SOCIAL = ("#sunset", "#tbt", "@maria.l", "@dev_team", "example.com/help", "shop.example.org", "help@example.org",
          "jo.smith@mail.example", "+1 (555) 010-2345", "+44 20 7946 0958", "#NoFilter", "@alex_chen")
PRICES = ("1.234,56 \u20ac", "\u00a51,280", "\u00a39.99", "R$ 49,90", "CHF 12.50", "\u20b9499", "12,99 \u20ac",
          "US$ 5.00", "\u20a91,500")
DATES = ("03.12.2026", "2026-12-03", "3 d\u00e9c. 2026", "\u4e0b\u53483:15", "15:45", "Dec 3, 2026", "12/03/26",
         "Thu 3 Dec", "3:15 p.m.", "\u661f\u671f\u56db")
COUNTERS = (("2", "nd"), ("x2", ""), ("99+", ""), ("1/12", ""), ("3", "rd"), ("+3", ""), ("x10", ""), ("21", "st"))
CAMEL = ("iPhone", "WiFi", "YouTube", "PayPal", "eBay", "LinkedIn", "macOS", "AirDrop", "WhatsApp", "iCloud",
         "GitHub", "TikTok")
GRID = ("Google Play Store", "Calculator", "Voice Recorder", "Files by Google", "Camera", "Digital Wellbeing",
        "Clock", "Weather Forecast", "Samsung Health", "Maps", "Microsoft Authenticator", "Notes", "Contacts",
        "Music Player", "Sound Amplifier", "Gallery")
SETTINGS = (("Adaptive brightness", "Optimise brightness for available light"),
            ("Screen timeout", "After 30 seconds of inactivity"), ("Night Light", "Will turn on at sunset"),
            ("Default apps", "Assistant, browser and SMS"), ("Backup", "On \u2022 Last backup 2 hours ago"),
            ("Lock screen", "Show all notification content"), ("Digital assistant app", "Long press power button"),
            ("System updates", "Updated to Android 16"))
NOTIFS = (("Messages", "now", "Maria", "Running 10 minutes late, sorry!"),
          ("Gmail", "5m", "Your order has shipped", "Track your package with number 1Z999"),
          ("Calendar", "14:00", "Team sync", "Room 4B \u00b7 in 15 minutes"),
          ("Photos", "1h", "New memories", "Take a look back at this week"),
          ("Bank", "2m", "Payment received", "\u20ac42.00 from Jonas Weber"))
TILES = (("Internet", "HomeNet_5G"), ("Bluetooth", "Off"), ("Flashlight", "On"), ("Do Not Disturb", "Off"),
         ("Battery Saver", "On"), ("Auto-rotate", "Portrait"), ("Dark theme", "Off at 7:00"), ("Hotspot", "Off"))
ITALIC = ("\u201cThe best trip we've ever taken\u201d", "Edited 2 minutes ago", "Photo by Lena Fischer",
          "Draft saved", "This message was deleted", "Sent from my phone")
DISPLAY = ("72\u00b0", "$1,284.50", "10,000", "4:32", "98.6", "1,204")
CODES = ("A7K-29QX", "482 913", "Order #4521-8830", "ZX-2049-LT", "Ref 77F3A1")
CHINESE = ("\u6d88\u606f\u901a\u77e5", "\u7535\u6c60\u5065\u5eb7", "\u9690\u79c1\u4fdd\u62a4",
           "\u5e94\u7528\u7ba1\u7406", "\u5b89\u5168\u4e2d\u5fc3", "\u6e05\u7406\u7f13\u5b58")
JAPANESE = ("\u8a2d\u5b9a", "\u30ed\u30b0\u30a4\u30f3", "\u304a\u6c17\u306b\u5165\u308a",
            "\u901a\u77e5\u3092\u30aa\u30f3\u306b\u3059\u308b", "\u30de\u30a4\u30da\u30fc\u30b8",
            "\u30ab\u30fc\u30c8\u306b\u8ffd\u52a0")
FAB_ROWS = ("Weekend hiking plans with everyone", "Invoice for the kitchen renovation", "Notes from the design review",
            "Shopping list for the barbecue party", "Flight details and hotel booking")
FAB_LABELS = ("Compose", "New chat", "Create", "Add task")
SNACKS = (("Message archived", "Undo"), ("Connection lost", "Retry"), ("Photo deleted", "Undo"),
          ("Added to favourites", "View"), ("Link copied", "Share"))
TOASTS = ("Saved to gallery", "Copied to clipboard", "Download started", "Settings updated")
SHEET = (("Share", "Copy link", "Add to playlist", "Report"), ("Edit", "Duplicate", "Move to folder", "Delete"),
         ("Reply", "Forward", "Mark as unread", "Block sender"))
DIALOGS = (("Delete 3 photos?", "Cancel", "Delete"), ("Turn on location?", "No thanks", "Turn on"),
           ("Discard draft?", "Keep editing", "Discard"), ("Allow notifications?", "Don\u2019t allow", "Allow"))
# words a near miss changes: on screen left, absent right (a toggle's other state, a sibling label)
SWAPS = (("on", "off"), ("off", "on"), ("Undo", "Redo"), ("Allow", "Deny"), ("Day", "Days"), ("Week", "Weekly"),
         ("Buy", "Sell"), ("Edit", "Exit"), ("Live", "Like"), ("Unread", "Read"), ("Following", "Followers"),
         ("Cancel", "Cancelled"), ("Delete", "Deleted"), ("Standard", "Standby"))
UNRELATED = ("Sign out", "Payment methods", "Clear history", "Add to cart", "Language & input", "Rate this app",
             "Open in browser", "Manage storage")


# ---------------------------------------------------------------------------------------------
# Drawing.


class _Held(_Canvas):
    """A stress-set canvas with this set's fonts, a system font scale and the near misses its
    blocks name."""

    def __init__(self, rng: random.Random, width: int, height: int, density: float, family: str, dark: bool,
                 scale: float) -> None:
        super().__init__(rng, width, height, density, family, dark)
        self.scale = scale
        self.near: list[tuple[str, str]] = []

    def font(self, sp: float, weight: int = 400, width: int = 100, family: str | None = None,  # type: ignore[override]
             italic: bool = False, face: int = 2) -> ImageFont.FreeTypeFont:
        return _font(family or self.family, max(8, self.px(sp * self.scale)), weight, italic, face)

    def miss(self, text: str, kind: str) -> None:
        """A text near one on this screen that is not on it (a candidate absent text)."""
        self.near.append((text, kind))


def _one_digit_off(s: str, rng: random.Random) -> str | None:
    idx = [i for i, ch in enumerate(s) if ch.isdigit()]
    if not idx:
        return None
    i = rng.choice(idx)
    d = (int(s[i]) + rng.choice((1, 2, 7))) % 10
    if d == 0 and (i == 0 or not s[i - 1].isdigit()) and i + 1 < len(s) and s[i + 1].isdigit():
        d = 5  # no leading zero
    return s[:i] + str(d) + s[i + 1:]


def _near_misses(cv: _Held, text: str) -> None:
    """Near misses of ``text``: one digit off, a word swapped for its sibling, a word added."""
    off = _one_digit_off(text, cv.rng)
    if off and off != text:
        cv.miss(off, "number one digit off")
    words = text.split(" ")
    for a, b in SWAPS:
        if a in words:
            cv.miss(" ".join(b if w == a else w for w in words), "a word changed")
            break
    if len(text) <= 14 and text[:1].isalpha() and all(ch.isalpha() or ch in " -" for ch in text):
        cv.miss(text + cv.rng.choice((" settings", " history", " options")), "a word added")


def _tabs(cv: _Held, y: int) -> int:
    tabs = cv.pick(TABS)
    pill = cv.rng.random() < 0.4
    h = cv.px(48)
    cw = cv.w // len(tabs)
    sel = cv.rng.randrange(len(tabs))
    for i, t in enumerate(tabs):
        f = cv.font(14, 700 if i == sel else 500)
        tw = int(f.getlength(t))
        tx = i * cw + (cw - tw) // 2
        ty = y + (h - cv.line_h(f)) // 2
        if i == sel and pill:
            pad = cv.px(12)
            cv.draw.rounded_rectangle((tx - pad, ty - cv.px(4), tx + tw + pad, ty + cv.line_h(f) + cv.px(4)),
                                      cv.px(16), fill=tuple(int(c * 0.25 + b * 0.75) for c, b in zip(cv.accent, cv.bg)))
        cv.text((tx, ty), t, f, cv.accent if i == sel else cv.grey)
        if i == sel and not pill:
            cv.draw.rectangle((tx, y + h - cv.px(3), tx + tw, y + h), fill=cv.accent)
        cv.target(t, Box(i * cw, y, (i + 1) * cw, y + h), "tab, selected" if i == sel else "tab, unselected")
        _near_misses(cv, t)
    cv.draw.line((0, y + h, cv.w, y + h), fill=cv.faint, width=1)
    return h + cv.px(8)


def _segmented(cv: _Held, y: int) -> int:
    segs = cv.pick(SEGMENTS)
    h = cv.px(40)
    x0, x1 = cv.m, cv.w - cv.m
    sw = (x1 - x0) // len(segs)
    sel = cv.rng.randrange(len(segs))
    yy = y + cv.px(8)
    tint = tuple(int(c * 0.3 + b * 0.7) for c, b in zip(cv.accent, cv.bg))
    # the selected segment's tint, clipped to the control's rounded outline
    mask = Image.new("L", (cv.w, cv.h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((x0, yy, x0 + sw * len(segs), yy + h), h // 2, fill=255)
    sx = x0 + sel * sw
    ImageDraw.Draw(mask).rectangle((0, 0, sx, cv.h), fill=0)
    ImageDraw.Draw(mask).rectangle((sx + sw, 0, cv.w, cv.h), fill=0)
    cv.img.paste(Image.new("RGB", (cv.w, cv.h), tint), (0, 0), mask)
    cv.draw.rounded_rectangle((x0, yy, x0 + sw * len(segs), yy + h), h // 2, outline=cv.grey, width=max(1, cv.px(1)))
    for i, s in enumerate(segs):
        bx = x0 + i * sw
        if i:
            cv.draw.line((bx, yy, bx, yy + h), fill=cv.grey, width=max(1, cv.px(1)))
        f = cv.font(14, 500)
        label = ("\u2713 " + s) if i == sel else s
        tw = int(f.getlength(label))
        cv.text((bx + (sw - tw) // 2, yy + (h - cv.line_h(f)) // 2), label, f, cv.fg)
        cv.target(s, Box(bx, yy, bx + sw, yy + h), "segmented button")
        _near_misses(cv, s)
    return h + cv.px(16)


def _switch(cv: _Held, x2: int, cy: int, on: bool) -> None:
    w, h = cv.px(36), cv.px(20)
    col = cv.accent if on else cv.faint
    cv.draw.rounded_rectangle((x2 - w, cy - h // 2, x2, cy + h // 2), h // 2, fill=col)
    r = h // 2 - cv.px(3)
    kx = x2 - h // 2 if on else x2 - w + h // 2
    cv.draw.ellipse((kx - r, cy - r, kx + r, cy + r), fill=(255, 255, 255))


def _icon_rows(cv: _Held, y: int) -> int:
    used = 0
    rh = cv.px(56)
    for label, trail in cv.pick(ICON_ROWS, 3):
        cy = y + used + rh // 2
        isz = cv.px(24)
        shape = cv.rng.choice(("circle", "square", "ring"))
        box = (cv.m, cy - isz // 2, cv.m + isz, cy + isz // 2)
        if shape == "circle":
            cv.draw.ellipse(box, fill=cv.grey)
        elif shape == "square":
            cv.draw.rounded_rectangle(box, cv.px(4), fill=cv.grey)
        else:
            cv.draw.ellipse(box, outline=cv.grey, width=max(2, cv.px(2)))
        f = cv.font(16)
        tx = cv.m + isz + cv.px(32)
        ty = cy - cv.line_h(f) // 2
        tw = cv.text((tx, ty), label, f, cv.fg)
        if trail == "switch":
            _switch(cv, cv.w - cv.m, cy, cv.rng.random() < 0.5)
            cv.target(label, Box(0, y + used, cv.w, y + used + rh), "row with icon, switch")
        else:
            fv = cv.font(14)
            vw = int(fv.getlength(trail))
            vx = cv.w - cv.m - vw
            vy = cy - cv.line_h(fv) // 2
            cv.text((vx, vy), trail, fv, cv.grey)
            cv.target(label, Box(tx, ty, tx + tw, ty + cv.line_h(f)), "row with icon, switch")
            cv.target(trail, Box(vx, vy, vx + vw, vy + cv.line_h(fv)), "trailing value")
            _near_misses(cv, trail)
        _near_misses(cv, label)
        used += rh
    return used


def _runs(cv: _Held, x: int, y: int, runs: Sequence[tuple[str, ImageFont.FreeTypeFont, Any, bool]]) -> list[Box]:
    """Draws text runs one after another on one line (``underline`` flag each); their boxes."""
    out = []
    for s, f, col, underline in runs:
        w = cv.text((x, y), s, f, col)
        if underline:
            uy = y + f.getmetrics()[0] + max(1, cv.px(1.5))
            cv.draw.line((x, uy, x + w, uy), fill=col, width=max(1, cv.px(1)))
        out.append(Box(x, y, x + max(1, w), y + cv.line_h(f)))
        x += w
    return out


def _link_paragraph(cv: _Held, y: int) -> int:
    before, link, after = cv.pick(LINK_PARAS)
    f = cv.font(14)
    width = cv.w - 2 * cv.m
    # words laid out greedily; the link's words drawn underlined in the accent
    words = [(w, False) for w in before.split()] + [(w, True) for w in link.split()] + [(w, False) for w in after.split()]
    x, yy = cv.m, y + cv.px(8)
    lh = cv.line_h(f) + cv.px(4)
    link_boxes: list[Box] = []
    for i, (w, is_link) in enumerate(words):
        piece = w + (" " if i + 1 < len(words) else "")
        if x + f.getlength(w) > cv.m + width and x > cv.m:
            x, yy = cv.m, yy + lh
        under_space = is_link and i + 1 < len(words) and words[i + 1][1]
        drawn = piece if under_space or not is_link else w
        (b,) = _runs(cv, int(x), yy, [(drawn, f, cv.accent if is_link else cv.fg, is_link)])
        if is_link:
            link_boxes.append(b)
        x += f.getlength(piece)
    rows = {b.y1 for b in link_boxes}
    if len(rows) == 1:  # a link split over two lines has no one box to tap
        cv.target(link, Box.enclosing(link_boxes), "link in a paragraph")
        _near_misses(cv, link)
    cv.drawn.append(before + link + after)
    return yy + lh - y + cv.px(8)


def _search_results(cv: _Held, y: int) -> int:
    used = cv.px(8)
    for before, word, after in cv.pick(SEARCH, 2):
        f, fb = cv.font(16), cv.font(16, 800)
        yy = y + used
        # a result too long for the screen is cut with an ellipsis, as a one-line TextView does
        rest = _ellipsise(after, f, cv.w - 2 * cv.m - f.getlength(before) - fb.getlength(word))
        boxes = _runs(cv, cv.m, yy, [(before, f, cv.fg, False), (word, fb, cv.fg, False), (rest, f, cv.fg, False)])
        text = before + word + after
        cv.target(text, Box.enclosing(boxes), "highlighted word")
        _near_misses(cv, text)
        used += cv.line_h(f) + cv.px(20)
    return used


def _social(cv: _Held, y: int) -> int:
    f = cv.font(15)
    used = cv.px(8)
    for tok in cv.pick(SOCIAL, 3):
        yy = y + used
        lead = cv.rng.choice(("", "Follow ", "Contact: ", "More at "))
        boxes = _runs(cv, cv.m, yy, [(lead, f, cv.fg, False), (tok, f, cv.accent, tok[0] not in "#@")])
        cv.target(tok, boxes[-1], "hashtag, mention, URL")
        _near_misses(cv, tok)
        cv.drawn.append(lead + tok)
        used += cv.line_h(f) + cv.px(16)
    return used


def _prices_dates(cv: _Held, y: int) -> int:
    """A product row with a price in another locale and a line with a date or time in another
    format, each beside its label."""
    used = cv.px(8)
    for pool, phen, label in ((PRICES, "price, other locale", cv.rng.choice(("Total", "Subtotal", "Price"))),
                              (DATES, "date or time, other format", cv.rng.choice(("Updated", "Due", "Departs")))):
        val = cv.pick(pool)
        fl = cv.font(16)
        fv = cv.font(16, 600, family="serif-cjk") if any(ord(ch) >= 0x2E80 for ch in val) else cv.font(16, 600)
        yy = y + used
        cv.text((cv.m, yy), label, fl, cv.grey)
        vw = int(fv.getlength(val))
        vx = cv.w - cv.m - vw
        cv.text((vx, yy), val, fv, cv.fg)
        cv.target(val, Box(vx, yy, vx + vw, yy + cv.line_h(fv)), phen)
        cv.drawn.append(label)
        _near_misses(cv, val)
        used += max(cv.line_h(fl), cv.line_h(fv)) + cv.px(16)
    return used


def _counters(cv: _Held, y: int) -> int:
    """A counter with a raised suffix ("2nd"), a multiplier ("x2"), a badge ("99+") beside a label."""
    used = cv.px(8)
    for num, sup in cv.pick(COUNTERS, 2):
        yy = y + used
        label = cv.rng.choice(("Place", "Qty", "Inbox", "Page", "Rank", "Items"))
        fl = cv.font(16)
        lw = cv.text((cv.m, yy), label, fl, cv.fg)
        x = cv.m + lw + cv.px(12)
        if num.endswith("+") or (not sup and cv.rng.random() < 0.4):
            fb = cv.font(11, 700)
            bw = max(int(fb.getlength(num)) + cv.px(10), cv.px(20))
            bh = cv.px(18)
            by = yy + (cv.line_h(fl) - bh) // 2
            cv.draw.rounded_rectangle((x, by, x + bw, by + bh), bh // 2, fill=(211, 47, 47))
            cv.draw.text((x + bw // 2, by + bh // 2), num, font=fb, fill=(255, 255, 255), anchor="mm")
            cv.target(num, Box(x, by, x + bw, by + bh), "counter")
        else:
            fn, fs = cv.font(16, 600), cv.font(10, 600)
            nw = cv.text((x, yy), num, fn, cv.fg)
            sw = cv.text((x + nw, yy - cv.px(1)), sup, fs, cv.fg) if sup else 0
            cv.target(num + sup, Box(x, yy, x + nw + sw, yy + cv.line_h(fn)), "counter")
        cv.drawn.append(label)
        _near_misses(cv, num + sup)
        used += cv.line_h(fl) + cv.px(16)
    return used


def _camel(cv: _Held, y: int) -> int:
    f = cv.font(16, 500)
    x = cv.m
    words = cv.pick(CAMEL, 3)
    h = cv.px(36)
    yy = y + cv.px(8)
    for w in words:
        tw = int(f.getlength(w))
        box = Box(x, yy, x + tw + cv.px(24), yy + h)
        if box.x2 > cv.w - cv.m:
            break
        cv.draw.rounded_rectangle(box.as_tuple(), cv.px(8), outline=cv.faint, width=max(1, cv.px(1)))
        cv.text((x + cv.px(12), yy + (h - cv.line_h(f)) // 2), w, f, cv.fg)
        cv.target(w, box, "camel case")
        _near_misses(cv, w)
        x = box.x2 + cv.px(8)
    return h + cv.px(16)


def _grid(cv: _Held, y: int) -> int:
    """An app grid: icons with labels under them, wrapped into two centred lines or ellipsised."""
    cols = 4
    cw = (cv.w - 2 * cv.m) // cols
    isz = cv.px(48)
    f = cv.font(12)
    lh = cv.line_h(f)
    ch = cv.px(12) + isz + cv.px(6) + 2 * lh + cv.px(8)
    for i, name in enumerate(cv.pick(GRID, cols)):
        x0 = cv.m + i * cw
        ix = x0 + (cw - isz) // 2
        cv.draw.rounded_rectangle((ix, y + cv.px(12), ix + isz, y + cv.px(12) + isz), cv.px(14),
                                  fill=cv.rng.choice(ACCENTS))
        lines = _wrap(name, f, cw - cv.px(8), 2)
        ly = y + cv.px(12) + isz + cv.px(6)
        for k, ln in enumerate(lines):
            lw = int(f.getlength(ln))
            cv.text((x0 + (cw - lw) // 2, ly + k * lh), ln, f, cv.fg)
        phen = "grid label, two lines" if len(lines) > 1 else ("grid label, cut" if lines[0] != name else "grid label")
        cv.target(name, Box(x0, y + cv.px(4), x0 + cw, y + ch), phen)
        _near_misses(cv, name)
    return ch + cv.px(8)


def _settings(cv: _Held, y: int) -> int:
    used = 0
    for title, summary in cv.pick(SETTINGS, 2):
        ft, fs = cv.font(16), cv.font(14)
        ty = y + used + cv.px(14)
        tw = cv.text((cv.m, ty), title, ft, cv.fg)
        sy = ty + cv.line_h(ft) + cv.px(2)
        lines = _wrap(summary, fs, cv.w - 2 * cv.m - cv.px(48), 2)
        sw = 0
        for k, ln in enumerate(lines):
            sw = max(sw, cv.text((cv.m, sy + k * cv.line_h(fs)), ln, fs, cv.grey))
        cv.target(title, Box(cv.m, ty, cv.m + tw, ty + cv.line_h(ft)), "settings title")
        cv.target(summary, Box(cv.m, sy, cv.m + sw, sy + len(lines) * cv.line_h(fs)), "settings summary")
        _near_misses(cv, title)
        _near_misses(cv, summary)
        used += sy + len(lines) * cv.line_h(fs) + cv.px(14) - (y + used)
    return used


def _notification(cv: _Held, y: int) -> int:
    app, when, title, text = cv.pick(NOTIFS)
    card = (44, 46, 52) if cv.dark else (240, 242, 247)
    fa, ft, fx = cv.font(12), cv.font(15, 600), cv.font(14)
    pad = cv.px(16)
    h = pad + cv.line_h(fa) + cv.px(6) + cv.line_h(ft) + cv.line_h(fx) + pad
    x0, x1 = cv.m, cv.w - cv.m
    yy = y + cv.px(8)
    cv.draw.rounded_rectangle((x0, yy, x1, yy + h), cv.px(20), fill=card)
    isz = cv.px(18)
    cv.draw.ellipse((x0 + pad, yy + pad, x0 + pad + isz, yy + pad + isz), fill=cv.accent)
    ax = x0 + pad + isz + cv.px(8)
    aw = cv.text((ax, yy + pad), app, fa, cv.grey)
    cv.text((ax + aw, yy + pad), f" \u2022 {when}", fa, cv.grey)
    ty = yy + pad + cv.line_h(fa) + cv.px(6)
    tw = cv.text((ax, ty), title, ft, cv.fg)
    xy = ty + cv.line_h(ft)
    shown = _ellipsise(text, fx, x1 - pad - ax)
    xw = cv.text((ax, xy), shown, fx, cv.grey)
    cv.target(title, Box(ax, ty, ax + tw, ty + cv.line_h(ft)), "notification")
    cv.target(text, Box(ax, xy, ax + xw, xy + cv.line_h(fx)), "notification")
    cv.drawn += [app, when]
    _near_misses(cv, title)
    return h + cv.px(16)


def _tiles(cv: _Held, y: int) -> int:
    """Quick settings tiles: a label and its state in a rounded tile, two side by side."""
    h = cv.px(64)
    gap = cv.px(8)
    tw = (cv.w - 2 * cv.m - gap) // 2
    yy = y + cv.px(8)
    for i, (label, state) in enumerate(cv.pick(TILES, 2)):
        on = state not in ("Off",) and not state.startswith("Off")
        x0 = cv.m + i * (tw + gap)
        fill = cv.accent if on else ((60, 62, 68) if cv.dark else (225, 227, 232))
        col = (255, 255, 255) if on else cv.fg
        cv.draw.rounded_rectangle((x0, yy, x0 + tw, yy + h), h // 2, fill=fill)
        fl, fs = cv.font(14, 600), cv.font(12)
        lx = x0 + cv.px(52)
        ly = yy + (h - cv.line_h(fl) - cv.line_h(fs)) // 2
        cv.draw.ellipse((x0 + cv.px(16), yy + h // 2 - cv.px(10), x0 + cv.px(36), yy + h // 2 + cv.px(10)), fill=col)
        shown = _ellipsise(label, fl, tw - cv.px(60))
        cv.text((lx, ly), shown, fl, col)
        cv.text((lx, ly + cv.line_h(fl)), _ellipsise(state, fs, tw - cv.px(60)), fs, col)
        cv.target(label, Box(x0, yy, x0 + tw, yy + h), "quick settings tile")
        cv.drawn.append(state)
        _near_misses(cv, label)
    return h + cv.px(16)


def _line(cv: _Held, y: int, text: str, f: ImageFont.FreeTypeFont, fill: Any, phenomenon: str, above: float,
          below: float) -> int:
    """``text`` as one target line at the margin, ``above`` dp under ``y``, with its near misses;
    returns the height used (the line and ``below`` dp)."""
    yy = y + cv.px(above)
    w = cv.text((cv.m, yy), text, f, fill)
    cv.target(text, Box(cv.m, yy, cv.m + w, yy + cv.line_h(f)), phenomenon)
    _near_misses(cv, text)
    return cv.line_h(f) + cv.px(below)


def _italic(cv: _Held, y: int) -> int:
    text = cv.pick(ITALIC)
    return _line(cv, y, text, cv.font(15, 400, italic=True), cv.grey, "italic", 10, 20)


def _display(cv: _Held, y: int) -> int:
    text = cv.pick(DISPLAY)
    f = cv.font(cv.rng.choice((48, 57, 64)), cv.rng.choice((300, 400, 700)))
    return _line(cv, y, text, f, cv.fg, "display number", 8, 16)


def _code(cv: _Held, y: int) -> int:
    text = cv.pick(CODES)
    f = cv.font(18, 500, family="ibm-plex-mono")
    fl = cv.font(13)
    yy = y + cv.px(8)
    label = cv.rng.choice(("Your code", "Booking reference", "Tracking"))
    cv.text((cv.m, yy), label, fl, cv.grey)
    cy = yy + cv.line_h(fl) + cv.px(4)
    w = cv.text((cv.m, cy), text, f, cv.fg)
    cv.target(text, Box(cv.m, cy, cv.m + w, cy + cv.line_h(f)), "code (mono)")
    cv.drawn.append(label)
    _near_misses(cv, text)
    return cy + cv.line_h(f) + cv.px(12) - y


def _cjk(cv: _Held, y: int) -> int:
    used = 0
    for pool, phen, face in ((CHINESE, "Chinese (serif)", 2), (JAPANESE, "Japanese", 0)):
        text = cv.pick(pool)
        f = cv.font(16, cv.rng.choice((400, 700)), family="serif-cjk", face=face)
        ty = y + used + cv.px(14)
        w = cv.text((cv.m, ty), text, f, cv.fg)
        cv.target(text, Box(cv.m, ty, cv.m + w, ty + cv.line_h(f)), phen)
        used += cv.line_h(f) + cv.px(28)
    return used


BLOCKS: tuple[Callable[[_Held, int], int], ...] = (
    _tabs, _segmented, _icon_rows, _link_paragraph, _search_results, _social, _prices_dates, _counters, _camel,
    _grid, _settings, _notification, _tiles, _italic, _display, _code, _cjk)


# Overlays at the bottom of the screen: each draws over what is there and names its own targets.

def _dim(cv: _Held, amount: float) -> None:
    a = np.asarray(cv.img, np.float32) * (1.0 - amount)
    cv.img.paste(Image.fromarray(a.astype(np.uint8)))
    cv.draw = ImageDraw.Draw(cv.img)


def _fab_overlay(cv: _Held, y: int, bottom: int) -> int:
    """A row whose long text runs under an extended FAB at the right."""
    text = cv.pick(FAB_ROWS)
    f = cv.font(16)
    label = cv.pick(FAB_LABELS)
    fl = cv.font(14, 600)
    fh = cv.px(56)
    fw = cv.px(16 + 24 + 12 + 20) + int(fl.getlength(label))
    fy = bottom - cv.px(16) - fh
    ty = fy + (fh - cv.line_h(f)) // 2 + cv.px(cv.rng.choice((-8, 0, 8)))
    if ty < y:
        return 0
    tw = cv.text((cv.m, ty), text, f, cv.fg)
    fx = min(cv.w - cv.m - fw, cv.m + int(tw * cv.rng.uniform(0.6, 0.8)))
    shadow = tuple(max(0, c - 40) for c in cv.bg)
    cv.draw.rounded_rectangle((fx + cv.px(1), fy + cv.px(2), fx + fw + cv.px(1), fy + fh + cv.px(2)), cv.px(16), fill=shadow)
    tint = tuple(int(c * 0.35 + 255 * 0.65) for c in cv.accent) if not cv.dark else tuple(int(c * 0.6) for c in cv.accent)
    cv.draw.rounded_rectangle((fx, fy, fx + fw, fy + fh), cv.px(16), fill=tint)
    ix = fx + cv.px(16)
    cv.draw.line((ix, fy + fh // 2, ix + cv.px(24), fy + fh // 2), fill=cv.fg, width=max(2, cv.px(2)))
    cv.draw.line((ix + cv.px(12), fy + fh // 2 - cv.px(12), ix + cv.px(12), fy + fh // 2 + cv.px(12)),
                 fill=cv.fg, width=max(2, cv.px(2)))
    lx = ix + cv.px(24 + 12)
    ly = fy + (fh - cv.line_h(fl)) // 2
    lw = cv.text((lx, ly), label, fl, cv.fg)
    cv.target(text, Box(cv.m, ty, cv.m + tw, ty + cv.line_h(f)), "covered by a FAB")
    cv.target(label, Box(fx, fy, fx + fw, fy + fh), "extended FAB")
    _near_misses(cv, label)
    return 1


def _snackbar(cv: _Held, y: int, bottom: int) -> int:
    msg, action = cv.pick(SNACKS)
    h = cv.px(48)
    x0, x1 = cv.m, cv.w - cv.m
    sy = bottom - cv.px(12) - h
    if sy < y - cv.px(40):
        return 0
    fill = (230, 225, 229) if cv.dark else (50, 48, 54)
    fg = (32, 33, 36) if cv.dark else (240, 240, 244)
    cv.draw.rounded_rectangle((x0, sy, x1, sy + h), cv.px(6), fill=fill)
    f, fa = cv.font(14), cv.font(14, 600)
    ty = sy + (h - cv.line_h(f)) // 2
    mw = cv.text((x0 + cv.px(16), ty), msg, f, fg)
    aw = int(fa.getlength(action))
    ax = x1 - cv.px(16) - aw
    acol = tuple(min(255, int(c * 0.5 + 140)) for c in cv.accent) if not cv.dark else cv.accent
    cv.text((ax, ty), action, fa, acol)
    cv.target(msg, Box(x0 + cv.px(16), ty, x0 + cv.px(16) + mw, ty + cv.line_h(f)), "snackbar message")
    cv.target(action, Box(ax - cv.px(8), sy, x1, sy + h), "snackbar action")
    _near_misses(cv, action)
    return 1


def _toast(cv: _Held, y: int, bottom: int) -> int:
    text = cv.pick(TOASTS)
    f = cv.font(14)
    tw = int(f.getlength(text))
    h = cv.line_h(f) + cv.px(20)
    x0 = (cv.w - tw) // 2 - cv.px(16)
    ty = bottom - cv.px(64) - h
    cv.draw.rounded_rectangle((x0, ty, x0 + tw + cv.px(32), ty + h), h // 2, fill=(88, 88, 92))
    cv.text((x0 + cv.px(16), ty + cv.px(10)), text, f, (255, 255, 255))
    cv.target(text, Box(x0 + cv.px(16), ty + cv.px(10), x0 + cv.px(16) + tw, ty + cv.px(10) + cv.line_h(f)), "toast")
    _near_misses(cv, text)
    return 1


def _sheet(cv: _Held, y: int, bottom: int) -> int:
    items = cv.pick(SHEET)
    f = cv.font(16)
    rh = cv.px(52)
    h = cv.px(28) + rh * len(items) + cv.px(8)
    top = cv.h - h
    _dim(cv, 0.45)
    fill = (40, 40, 44) if cv.dark else (255, 255, 255)
    cv.draw.rounded_rectangle((0, top, cv.w, cv.h + cv.px(28)), cv.px(28), fill=fill)
    cv.draw.rounded_rectangle((cv.w // 2 - cv.px(16), top + cv.px(10), cv.w // 2 + cv.px(16), top + cv.px(14)),
                              cv.px(2), fill=cv.faint)
    for i, it in enumerate(items):
        ry = top + cv.px(28) + i * rh
        cv.text((cv.m + cv.px(40), ry + (rh - cv.line_h(f)) // 2), it, f, cv.fg)
        cv.draw.rectangle((cv.m, ry + rh // 2 - cv.px(9), cv.m + cv.px(18), ry + rh // 2 + cv.px(9)), outline=cv.grey,
                          width=max(1, cv.px(2)))
        cv.target(it, Box(0, ry, cv.w, ry + rh), "bottom sheet item")
        _near_misses(cv, it)
    return 2


def _dialog(cv: _Held, y: int, bottom: int) -> int:
    title, no, yes = cv.pick(DIALOGS)
    _dim(cv, 0.5)
    ft, fb = cv.font(22, 500), cv.font(14, 600)
    dw = min(cv.w - 2 * cv.px(40), cv.px(320))
    x0 = (cv.w - dw) // 2
    pad = cv.px(24)
    body = _wrap("This can\u2019t be undone once you continue.", cv.font(14), dw - 2 * pad, 3)
    fbody = cv.font(14)
    dh = pad + cv.line_h(ft) + cv.px(16) + len(body) * cv.line_h(fbody) + cv.px(24) + cv.px(40) + pad
    y0 = (cv.h - dh) // 2
    fill = (45, 44, 50) if cv.dark else (246, 242, 250)
    cv.draw.rounded_rectangle((x0, y0, x0 + dw, y0 + dh), cv.px(28), fill=fill)
    tw = cv.text((x0 + pad, y0 + pad), title, ft, cv.fg)
    cv.target(title, Box(x0 + pad, y0 + pad, x0 + pad + tw, y0 + pad + cv.line_h(ft)), "dialog title")
    by = y0 + pad + cv.line_h(ft) + cv.px(16)
    for k, ln in enumerate(body):
        cv.text((x0 + pad, by + k * cv.line_h(fbody)), ln, fbody, cv.grey)
    bby = by + len(body) * cv.line_h(fbody) + cv.px(24)
    x = x0 + dw - pad
    for label in (yes, no):
        bw = int(fb.getlength(label)) + cv.px(24)
        bx = x - bw
        cv.text((bx + cv.px(12), bby + (cv.px(40) - cv.line_h(fb)) // 2), label, fb, cv.accent)
        cv.target(label, Box(bx, bby, x, bby + cv.px(40)), "dialog button")
        _near_misses(cv, label)
        x = bx - cv.px(8)
    cv.drawn.append("This can\u2019t be undone once you continue.")
    return 2


OVERLAYS: tuple[Callable[[_Held, int, int], int] | None, ...] = (None, None, _fab_overlay, _snackbar, _toast, _sheet,
                                                                 _dialog)


def _status_bar(cv: _Held) -> int:
    h = cv.px(32)
    f = cv.font(14 / max(1.0, cv.scale), 500)  # the system bar's clock does not grow past scale 1
    cv.drawn += status_texts(cv, h, f, ("12:05", "9:41", "17:30", "08:02"))
    return h


def make_screen(rng: random.Random, index: int) -> StressScreen:
    """One screen drawn from ``rng`` (the order of draws is part of the set's definition)."""
    width, height, density = rng.choice(SIZES)
    family = rng.choice(FAMILIES)
    scale = rng.choice(SCALES)
    dark = rng.random() < 0.35
    jpeg = rng.choice((None, None, 85, 70))
    overlay = rng.choice(OVERLAYS)
    cv = _Held(rng, width, height, density, family, dark, scale)
    y = _status_bar(cv)
    y += bar_title(cv, y, TITLES, 600)
    bottom = height - cv.px(48)  # the navigation bar's gesture area
    reserve = cv.px(96) if overlay is not None else 0
    blocks = list(BLOCKS)
    rng.shuffle(blocks)
    for block in blocks:
        mark = (len(cv.targets), len(cv.drawn), len(cv.near))
        snapshot = cv.img.copy()
        used = block(cv, y)
        if y + used > bottom - reserve - cv.px(8):
            cv.img.paste(snapshot)
            del cv.targets[mark[0]:], cv.drawn[mark[1]:], cv.near[mark[2]:]
            continue
        y += used
    if overlay is not None:
        mark = len(cv.targets)
        if overlay(cv, y, bottom) == 2:
            # a modal sheet or dialog: what lies behind its scrim is no target any more
            behind = [t for t in cv.targets[:mark]]
            cv.targets = cv.targets[mark:]
            cv.drawn += [t.text for t in behind]
    img = drawing.jpeg(cv.img, jpeg)
    drawn_keys = [_key(t) for t in cv.drawn]
    near = [(t, k) for t, k in dict.fromkeys(cv.near) if _key(t) and not any(_on_screen(_key(t), d) for d in drawn_keys)]
    unrelated = [(t, "unrelated") for t in UNRELATED if not any(_on_screen(_key(t), d) for d in drawn_keys)]
    # one near miss of each kind where the screen has one, then others, and one unrelated label
    absent: list[tuple[str, str]] = []
    for kind in ("number one digit off", "a word changed", "a word added"):
        of_kind = [n for n in near if n[1] == kind]
        if of_kind:
            absent.append(rng.choice(of_kind))
    rest = [n for n in near if n not in absent]
    absent += rng.sample(rest, max(0, min(3 - len(absent), len(rest))))
    absent += rng.sample(unrelated, 1)
    look = (f"{family} {width}x{height} x{scale}{' dark' if dark else ''}{f' jpeg{jpeg}' if jpeg else ''}"
            f"{' ' + overlay.__name__.strip('_') if overlay else ''}")
    return StressScreen(f"textheldout-{index:02d}", img, cv.targets, absent, look, cv.drawn)


def collect_heldout_screens(seed: int = SEED, count: int = SCREENS) -> list[StressScreen]:
    """The set: ``count`` screens drawn from a generator seeded with ``seed``."""
    _font.cache_clear()  # fresh font objects: see collect_stress_screens
    rng = random.Random(f"text-heldout:{seed}")
    return [make_screen(rng, i) for i in range(count)]


def run_heldout(screens: Sequence[StressScreen], perception: Any,
                log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The stress set's measure (:func:`~mobile_agent.screensets.text_stress.run_stress`) on these
    screens, with ``frozen`` telling whether they are seed 0's frozen set."""
    d = run_stress(screens, perception, log=log).to_dict()
    d["frozen"] = d["digest"] == FROZEN_SHA256
    return d


def format_heldout(d: dict[str, Any]) -> list[str]:
    return format_stress(d, title="held-out text set")


__all__ = ["FROZEN_SHA256", "SCREENS", "SEED", "StressResult", "available", "collect_heldout_screens",
           "format_heldout", "make_screen", "run_heldout", "set_digest"]
