"""The text stress set: screens drawn with what real apps do to text and the simulated phone never
does, each Click Text target with its node's box and the text the node holds.

The sim and wide sets draw every label whole, in one weight, on flat colours. Real apps' nodes
hold text that is drawn otherwise, and Click Text is asked for by the node's text (or what a model
reads off the screen). Each screen here stacks blocks of such cases, in one font, at one density,
light or dark, sometimes JPEG-compressed. The phenomena (a target's ``phenomenon``):

- ``ellipsised``: a title cut short by the app ("Settings and priv…"); the node holds it whole;
- ``cut after 2 lines``: a three-line message preview cut after two lines, ending in "…";
- ``faded at the edge``: a single line that runs out of its view and fades out (no ellipsis);
- ``all caps``: buttons drawn in capitals with letter spacing (node "Sign in", drawn "SIGN IN");
- ``letter-spaced``: an overline drawn in spaced capitals (node "Featured stories");
- ``light display``, ``black condensed``: a light heading at display size, a condensed black label;
- ``on photo``, ``on gradient``, ``tinted chip``: white text over a photograph under a scrim, over
  a two-colour gradient, accent text on a chip tinted with the accent;
- ``small grey``: 11-12 sp secondary text in a faint grey;
- ``label of a row``, ``value of a row``: a settings row's label and its right-aligned value, on
  one line ("Ringtone      Pixel Sounds"), which OCR may read as one;
- ``icon + text``: a button with an icon drawn before its text (the node holds the text alone);
- ``timestamp``: "2h", "12:05 PM", "Yesterday" at the end of a list row;
- ``symbols``: curly apostrophes, "&", bullets, "·" separators, numbers with units and thousands
  separators, no-break spaces, a non-breaking hyphen, accents, an emoji drawn as a picture;
- ``Chinese``, ``mixed Latin/CJK``: Noto Sans CJK (Debian ``fonts-noto-cjk``);
- ``identical texts``: the same text twice on a screen (a text button near the top and one in the
  bottom bar); each is a target with the position words a planner would write for it
  (:func:`~mobile_agent.screensets.measure.position_hint`), counted as found when the first point
  lies inside that one;
- ``mixed sizes``: a number in large type and its unit in small type, one node ("8,432 steps");
- ``struck-out price``, ``struck-out price beside``: an old price struck through beside the sale price;
- ``letter avatar beside``: a name right after a round letter avatar ("A" then "Alex Chen");
- ``field hint``: a search field's faint hint after a magnifier, on a grey pill;
- ``on photo, no scrim``: bold white text straight on a photograph;
- ``plain``: the app bar's title, a list row's name, a control.

Each screen also names texts that are NOT on it (``absent``: near misses of its labels, numbers one
digit off, unrelated labels); grounding them must answer ``none`` (a false positive otherwise).

Fonts: Roboto, Noto Sans, Open Sans, Inter (pip ``fontpkg-*``, SIL OFL 1.1, variable: weights 100-900
and narrower widths) and DejaVu Sans (Debian ``fonts-dejavu-core``, Bitstream Vera licence). Photos:
scikit-image's bundled pictures (astronaut and rocket: NASA, public domain; coffee and chelsea: CC0).
The seed fixes the set; :data:`FROZEN_SHA256` is the digest of seed 0's screens and targets, and the
benchmark says whether the set it measured is that one. Measured with ``mobile-agent bench
perception --set textstress`` (see docs/perception.md, "The text stress set").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.screensets import drawing
from mobile_agent.errors import ConfigError
from mobile_agent.types import Box

SEED = 0
SCREENS = 60
# sha256 over seed 0's 60 screens (pixels, size), targets and absent texts, as :func:`set_digest` computes it.
FROZEN_SHA256 = "a9fb3a2225dcf58fee7fa250222b9bfe8db92972a7cb4911c4cc7bd595513fa2"
INSTALL = "pip install -e '.[test]' (fontpkg-* fonts, scikit-image) and apt-get install fonts-dejavu-core fonts-noto-cjk"

SIZES = ((720, 1600, 2.0), (1080, 2400, 2.625), (1440, 3200, 3.5))
FAMILIES = ("roboto", "noto-sans", "open-sans", "inter", "dejavu")
_VARIABLE = {"roboto": ("fontpkg_roboto", "Roboto[wdth,wght].ttf"),
             "noto-sans": ("fontpkg_noto_sans", "NotoSans[wdth,wght].ttf"),
             "open-sans": ("fontpkg_open_sans", "OpenSans[wdth,wght].ttf"),
             "inter": ("fontpkg_inter", "Inter[opsz,wght].ttf")}
_DEJAVU = "/usr/share/fonts/truetype/dejavu/"
_CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-{}.ttc"
PHOTOS = ("astronaut.png", "coffee.png", "chelsea.png", "rocket.jpg")
ACCENTS = ((26, 115, 232), (0, 121, 107), (103, 80, 164), (211, 47, 47), (230, 81, 0), (46, 125, 50))


@dataclass(frozen=True)
class StressTarget:
    """A text node: what it holds, its bounds, which phenomenon it shows and, for a text that is on
    the screen twice, the position words that say which one is meant."""

    text: str
    box: Box
    phenomenon: str
    position: tuple[str, ...] = ()


@dataclass
class StressScreen:
    name: str
    image: Image.Image
    targets: list[StressTarget]
    absent: list[tuple[str, str]]  # (text, kind): texts that are not on the screen
    look: str = ""
    drawn: list[str] = field(default_factory=list)  # every text drawn (for choosing absent texts)


def _pkg_file(module: str, name: str) -> Path | None:
    """A font file of the pip font package ``module`` (``fontpkg-*``: its ``files`` folder), or None."""
    d = drawing.package_dir(module)
    p = d / "files" / name if d is not None else None
    return p if p is not None and p.exists() else None


@lru_cache(maxsize=1024)
def _font(family: str, px: int, weight: int = 400, width: int = 100) -> ImageFont.FreeTypeFont:
    """``family`` at ``px`` pixels, weight and width (per cent) as close as the font allows."""
    if family == "cjk":
        path = _CJK.format("Bold" if weight >= 600 else "Regular")
        if not Path(path).exists():
            raise ConfigError(f"the text stress set needs Noto Sans CJK: {INSTALL}")
        return ImageFont.truetype(path, px, index=2)
    if family == "dejavu":
        cond = "Condensed" if width < 90 else ""
        name = ("DejaVuSans-ExtraLight.ttf" if weight < 350 and not cond
                else f"DejaVuSans{cond}{'-Bold' if weight >= 600 else ''}.ttf")
        if not Path(_DEJAVU + name).exists():
            raise ConfigError(f"the text stress set needs DejaVu Sans: {INSTALL}")
        return ImageFont.truetype(_DEJAVU + name, px)
    module, name = _VARIABLE[family]
    path = _pkg_file(module, name)
    if path is None:
        raise ConfigError(f"the text stress set needs the font {family}: {INSTALL}")
    f = ImageFont.truetype(str(path), px)
    set_axes(f, {"weight": weight, "width": width, "optical size": px / 2.6})
    return f


def _photo(name: str) -> Image.Image:
    return drawing.skimage_picture(name, "the text stress set", INSTALL)


def available() -> bool:
    """Whether the fonts and pictures the set draws with are installed."""
    try:
        for fam in FAMILIES + ("cjk",):
            _font(fam, 20)
        _photo(PHOTOS[0])
    except (ConfigError, OSError):
        return False
    return True


# ---------------------------------------------------------------------------------------------
# Texts. Each pool is a tuple drawn from by the seeded generator (their order is part of the set).

TITLES = ("Inbox", "Settings", "Library", "Discover", "Account", "Downloads", "Orders", "Messages")
LONG_TITLES = ("Settings and privacy", "Notifications and sounds", "Battery and device care",
               "Connected devices and sharing", "Weekend getaway packing list", "Quarterly budget review notes",
               "Photos from the lake house trip", "Introduction to machine learning", "Subscription and billing history",
               "Accessibility and display size", "Morning run along the river", "Grandma's apple pie recipe")
PREVIEWS = (
    "Hey! Are we still on for dinner on Friday? I booked a table for six at the new place downtown",
    "Your package has shipped and should arrive by Thursday. Track it any time from your orders page",
    "Reminder: the team meeting moved to 3 PM tomorrow, same room. Please bring the latest figures",
    "Thanks for the photos from the weekend, they came out great. Can you send the one by the lake too",
    "The quarterly report is ready for review. I added comments on pages four and seven for you",
    "Welcome to the community! Here are a few tips to get started with your new account settings",
)
SENDERS = ("Maria Lopez", "Alex Chen", "Priya Natarajan", "Jordan Smith", "Team Updates", "Sam O'Brien")
FADED = ("Bohemian Rhapsody (Remastered 2011) · Queen", "Recommended for you based on your listening history",
         "Breaking: city council approves the new riverside park plan", "Lo-fi beats to study and relax to, all night",
         "Top stories from the people and topics you follow")
CAPS_BUTTONS = (("Sign in", "Create account"), ("Continue", "Not now"), ("Accept all", "Manage options"),
                ("Install", "Learn more"), ("Save changes", "Discard"), ("Get started", "Skip"))
OVERLINES = ("Featured stories", "New this week", "Recently played", "Top picks for you", "Trending now")
HEADINGS = ("Good morning, Alex", "Your weekly summary", "Welcome back", "Let's get started", "All caught up")
BLACK = ("Flash sale", "Limited offer", "Live now", "Best seller", "Breaking news")
PHOTO_TITLES = (("Sunset over the bay", "12 photos · Shared album"), ("Coffee tasting notes", "By Lena Fischer"),
                ("Mission highlights", "Watch the replay"), ("Meet the cats of Rome", "Travel · 8 min read"))
GRADIENT = (("Upgrade to Premium", "Try free"), ("Get 3 months free", "Claim offer"),
            ("Back up your photos", "Turn on"), ("Invite your friends", "Share link"))
CHIPS = ("Nearby", "Open now", "Top rated", "Delivery", "Vegetarian", "Under 30 min", "Pet friendly", "Free Wi-Fi")
SMALL = (("Storage", "Updated 3 days ago"), ("Backup", "Last synced 12:05 PM"), ("About phone", "Version 4.12.0 (41200)"),
         ("Security", "Tap to review 2 alerts"), ("Offline maps", "Expires in 14 days"), ("Payments", "Visa ending in 4242"))
ROWS = (("Ringtone", "Pixel Sounds"), ("Wi-Fi", "On"), ("Storage", "12.4 GB used"), ("Language", "English (UK)"),
        ("Default notification sound", "Chime"), ("Screen timeout", "30 seconds"), ("Bluetooth", "Off"),
        ("Font size", "Default"), ("Data saver", "Off"), ("Time zone", "GMT+01:00"), ("Mobile data", "3.2 GB"),
        ("Do not disturb", "Until 7:00 AM"))
ICON_BUTTONS = (("refresh", "Retry"), ("plus", "Add"), ("check", "Done"), ("download", "Download"),
                ("plus", "New playlist"), ("refresh", "Sync now"), ("check", "Following"), ("download", "Save offline"))
TIMES = ("2h", "12:05 PM", "Yesterday", "5m", "Mon", "3d", "9:41 AM", "Now")
SYMBOLS = ("Don\u2019t show again", "Tom & Jerry", "\u2022 Free delivery on orders over $35", "4.8 \u00b7 2,314 reviews",
           "12,480 steps", "1.5 GB of 15 GB used", "Price\u00a0$1,299.00", "Party tonight \U0001F389", "Caf\u00e9 Ol\u00e9",
           "Wi\u2011Fi Direct", "\u22125 \u00b0C feels like \u22129 \u00b0C", "50% off today", "#1 in Music", "Rock & Roll Hall",
           "You\u2019re all set", "3.2 km \u00b7 12 min", "Q&A with the team", "Sat, 14 Dec \u00b7 8:00 PM",
           "1,024 followers", "Let\u2019s go \U0001F680")
CHINESE = ("设置", "蓝牙", "通知和状态栏", "微信支付", "我的收藏", "显示与亮度", "最近删除")
MIXED = ("下载 App", "Wi-Fi 网络", "打开 Bluetooth", "iPhone 用户指南", "使用 WLAN 助理", "Google 账号")
MIXED_SIZES = (("8,432", " steps"), ("72", "°F"), ("$19.99", "/mo"), ("12.4", " GB"), ("1h 32m", " today"),
               ("98", "%"), ("6.2", " km"), ("140", " kcal"))
PRICES = (("$49.99", "$29.99"), ("$120.00", "$89.00"), ("\u20ac35", "\u20ac24.50"), ("$15.99", "$9.99"))
FIELD_HINTS = ("Search settings", "Search contacts", "Type a message", "Search in mail", "Enter promo code")
HERO = ("Summer collection", "New arrivals", "Weekend escapes", "Shop the look")
DUPLICATES = ("Reply", "Follow", "Share", "Details", "Edit", "View all")
ABSENT = (("Sign out", "near miss"), ("Wi-Fi calling", "near miss"), ("Notification history", "near miss"),
          ("Privacy policy", "unrelated"), ("Delete account", "unrelated"), ("Battery saver", "unrelated"),
          ("Add to cart", "unrelated"), ("Order history", "unrelated"), ("Dark mode", "unrelated"),
          ("Clear cache", "unrelated"), ("2,480 steps", "number one digit off"), ("1.2 GB of 15 GB used", "number one digit off"),
          ("12:15 PM", "number one digit off"), ("Version 4.12.1 (41201)", "number one digit off"),
          ("Until 8:00 AM", "number one digit off"), ("4 minutes", "unrelated"), ("蓝牙设置", "near miss"),
          ("Settings and security", "near miss"), ("Sign in with Google", "near miss"), ("Top rated near you", "near miss"),
          ("Storage settings", "near miss"))


# ---------------------------------------------------------------------------------------------
# Drawing.


class _Canvas(drawing.TextCanvas):
    """One screen being drawn: :class:`~mobile_agent.screensets.drawing.TextCanvas` (the same random draws)
    with this set's font family, greys and a faint colour."""

    def __init__(self, rng: random.Random, width: int, height: int, density: float, family: str, dark: bool) -> None:
        super().__init__(rng, width, height, density, dark, ACCENTS)
        self.family = family
        self.grey = (160, 160, 166) if dark else (95, 99, 104)
        self.faint = (128, 128, 134) if dark else (150, 154, 160)
        self.targets: list[StressTarget] = []

    def font(self, sp: float, weight: int = 400, width: int = 100, family: str | None = None) -> ImageFont.FreeTypeFont:
        return _font(family or self.family, max(8, self.px(sp)), weight, width)

    def text(self, xy: tuple[float, float], s: str, f: ImageFont.FreeTypeFont, fill: Any,
             spacing: float = 0.0, layer: ImageDraw.ImageDraw | None = None) -> int:
        """Draws ``s`` with its top at ``xy`` (``spacing``: extra pixels between characters);
        returns the drawn width."""
        dr = layer or self.draw
        x, y = xy
        if not spacing:
            dr.text((x, y), s, font=f, fill=fill, anchor="la")
            return int(round(f.getlength(s)))
        x0 = x
        for ch in s:
            dr.text((x, y), ch, font=f, fill=fill, anchor="la")
            x += f.getlength(ch) + spacing
        return int(round(x - spacing - x0))

    @staticmethod
    def line_h(f: ImageFont.FreeTypeFont) -> int:
        a, d = f.getmetrics()
        return a + d

    def pick(self, pool: Sequence[Any], k: int | None = None) -> Any:
        """One item of ``pool`` (``k``: a list of ``k``) whose texts are not on the screen yet: a
        text is on a screen twice only where the set means it (``identical texts``)."""
        taken = {_key(t) for t in self.drawn}
        out: list[Any] = []
        for _ in range(1 if k is None else k):
            free = [it for it in pool if it not in out
                    and not any(_key(t) in taken for t in ((it,) if isinstance(it, str) else it))]
            it = self.rng.choice(free)
            out.append(it)
            taken |= {_key(t) for t in ((it,) if isinstance(it, str) else it)}
        return out[0] if k is None else out

    def target(self, text: str, box: Box, phenomenon: str, position: tuple[str, ...] = ()) -> None:
        self.targets.append(StressTarget(text, box.intersect(Box(0, 0, self.w, self.h)), phenomenon, position))
        self.drawn.append(text)


def _ellipsise(s: str, f: ImageFont.FreeTypeFont, width: float) -> str:
    if f.getlength(s) <= width:
        return s
    for k in range(len(s), 0, -1):
        t = s[:k].rstrip() + "\u2026"
        if f.getlength(t) <= width:
            return t
    return "\u2026"


def _wrap(s: str, f: ImageFont.FreeTypeFont, width: float, max_lines: int) -> list[str]:
    """``s`` wrapped at spaces into at most ``max_lines`` lines, the last ellipsised if cut."""
    words = s.split(" ")
    lines: list[str] = []
    cur = ""
    i = 0
    while i < len(words) and len(lines) < max_lines:
        t = (cur + " " + words[i]).strip()
        if f.getlength(t) <= width or not cur:
            cur = t
            i += 1
        else:
            lines.append(cur)
            cur = ""
    if len(lines) < max_lines and cur:
        lines.append(cur)
        cur = ""
    if i < len(words) or cur:
        rest = " ".join([lines[-1]] + ([cur] if cur else []) + words[i:])
        lines[-1] = _ellipsise(rest, f, width)
    return lines


def _icon(cv: _Canvas, kind: str, box: Box, colour: Any) -> None:
    """A simple vector icon (as apps draw their drawables) inside ``box``."""
    dr = cv.draw
    s = box.width
    lw = max(2, int(s * 0.12))
    x, y = box.x1, box.y1
    if kind == "plus":
        dr.line((x + s * 0.5, y + s * 0.15, x + s * 0.5, y + s * 0.85), fill=colour, width=lw)
        dr.line((x + s * 0.15, y + s * 0.5, x + s * 0.85, y + s * 0.5), fill=colour, width=lw)
    elif kind == "check":
        dr.line((x + s * 0.12, y + s * 0.52, x + s * 0.4, y + s * 0.8, x + s * 0.9, y + s * 0.25), fill=colour, width=lw)
    elif kind == "download":
        dr.line((x + s * 0.5, y + s * 0.1, x + s * 0.5, y + s * 0.65), fill=colour, width=lw)
        dr.polygon([(x + s * 0.25, y + s * 0.45), (x + s * 0.75, y + s * 0.45), (x + s * 0.5, y + s * 0.75)], fill=colour)
        dr.line((x + s * 0.15, y + s * 0.9, x + s * 0.85, y + s * 0.9), fill=colour, width=lw)
    else:  # refresh
        dr.arc((x + s * 0.15, y + s * 0.15, x + s * 0.85, y + s * 0.85), 40, 330, fill=colour, width=lw)
        dr.polygon([(x + s * 0.62, y + s * 0.05), (x + s * 0.95, y + s * 0.3), (x + s * 0.6, y + s * 0.42)], fill=colour)


def _emoji(cv: _Canvas, x: int, y: int, size: int, ch: str) -> None:
    """An emoji drawn as a small colour picture (apps draw them from a colour font)."""
    dr = cv.draw
    col = (255, 196, 0) if ch == "\U0001F389" else (230, 74, 25)
    dr.ellipse((x, y, x + size, y + size), fill=col)
    dr.polygon([(x + size * 0.3, y + size * 0.2), (x + size * 0.7, y + size * 0.5), (x + size * 0.3, y + size * 0.8)],
               fill=(120, 60, 200))


# Blocks: each draws at ``y`` and returns the height it used (0: did not fit).

def bar_title(cv: _Canvas, y: int, titles: Sequence[str], weight: int) -> int:
    """An app bar's title from ``titles`` (a target) at ``y``; returns the bar's height (64 dp)."""
    h = cv.px(64)
    title = cv.pick(titles)
    f = cv.font(22, weight)
    ty = y + (h - cv.line_h(f)) // 2
    wdt = cv.text((cv.m, ty), title, f, cv.fg)
    cv.target(title, Box(cv.m, ty, cv.m + wdt, ty + cv.line_h(f)), "plain")
    return h


def _app_bar(cv: _Canvas, y: int) -> int:
    h = bar_title(cv, y, TITLES, 500)
    action = cv.pick(("Save", "Done", "Edit", "Next"))
    fa = cv.font(14, 500)
    shown = action.upper()
    sp = 0.09 * fa.size
    aw = int(fa.getlength(shown) + sp * (len(shown) - 1))
    ax = cv.w - cv.m - aw
    ay = y + (h - cv.line_h(fa)) // 2
    cv.text((ax, ay), shown, fa, cv.accent, spacing=sp)
    pad = cv.px(12)
    cv.target(action, Box(ax - pad, y + cv.px(8), ax + aw + pad, y + h - cv.px(8)), "all caps")
    return h


def _ellipsis_rows(cv: _Canvas, y: int) -> int:
    rh = cv.px(72)
    used = 0
    for _ in range(2):
        ry = y + used
        av = cv.px(40)
        cv.draw.ellipse((cv.m, ry + (rh - av) // 2, cv.m + av, ry + (rh - av) // 2 + av), fill=cv.rng.choice(ACCENTS))
        x0 = cv.m + av + cv.px(16)
        ft, fs, fx = cv.font(16, 500), cv.font(14), cv.font(12)
        title = cv.pick(LONG_TITLES)
        frac = cv.rng.uniform(0.45, 0.8)
        avail = int(ft.getlength(title[: max(6, int(len(title) * frac))].rstrip() + "\u2026")) + 1
        when = cv.pick(TIMES)
        ww = int(fx.getlength(when))
        # the title's view ends where the time's column begins
        tx2 = min(cv.w - cv.m - ww - cv.px(16), x0 + avail)
        shown = _ellipsise(title, ft, tx2 - x0)
        ty = ry + cv.px(12)
        cv.text((x0, ty), shown, ft, cv.fg)
        cv.target(title, Box(x0, ty, tx2, ty + cv.line_h(ft)), "ellipsised" if shown != title else "plain")
        wx = cv.w - cv.m - ww
        cv.text((wx, ty + cv.px(2)), when, fx, cv.grey)
        cv.target(when, Box(wx, ty + cv.px(2), wx + ww, ty + cv.px(2) + cv.line_h(fx)), "timestamp")
        sub = cv.pick(SENDERS)
        sy = ty + cv.line_h(ft) + cv.px(4)
        sw = cv.text((x0, sy), sub, fs, cv.grey)
        cv.target(sub, Box(x0, sy, x0 + sw, sy + cv.line_h(fs)), "plain")
        used += rh
    return used


def _preview(cv: _Canvas, y: int) -> int:
    x0 = cv.m
    fb, fp = cv.font(16, 600), cv.font(14)
    name = cv.pick(SENDERS)
    yy = y + cv.px(8)
    nw = cv.text((x0, yy), name, fb, cv.fg)
    cv.target(name, Box(x0, yy, x0 + nw, yy + cv.line_h(fb)), "plain")
    text = cv.pick(PREVIEWS)
    width = int((cv.w - 2 * cv.m) * cv.rng.uniform(0.55, 0.75))  # a card's column, a thumbnail beside it
    lines = _wrap(text, fp, width, 2)
    py = yy + cv.line_h(fb) + cv.px(4)
    lh = cv.line_h(fp) + cv.px(2)
    for i, ln in enumerate(lines):
        cv.text((x0, py + i * lh), ln, fp, cv.grey)
    cv.target(text, Box(x0, py, x0 + width, py + lh * len(lines)),
              "cut after 2 lines" if "\u2026" in lines[-1] else "plain")
    return py + lh * len(lines) + cv.px(12) - y


def _faded(cv: _Canvas, y: int) -> int:
    f = cv.font(16, 500)
    text = cv.pick(FADED)
    x0 = cv.m + cv.px(56)
    cv.draw.rounded_rectangle((cv.m, y + cv.px(8), cv.m + cv.px(40), y + cv.px(48)), cv.px(4), fill=cv.rng.choice(ACCENTS))
    full = f.getlength(text)
    width = int(full * cv.rng.uniform(0.55, 0.8))
    width = min(width, cv.w - cv.m - cv.px(56) - x0)
    ty = y + cv.px(28) - cv.line_h(f) // 2
    layer = Image.new("L", (int(full) + 4, cv.line_h(f)), 0)
    ImageDraw.Draw(layer).text((0, 0), text, font=f, fill=255, anchor="la")
    layer = layer.crop((0, 0, width, cv.line_h(f)))
    ramp = np.ones(width, np.float32)
    n = max(1, int(width * 0.15))
    ramp[-n:] = np.linspace(1.0, 0.0, n)
    alpha = (np.asarray(layer, np.float32) * ramp[None, :]).astype(np.uint8)
    cv.img.paste(Image.new("RGB", (width, cv.line_h(f)), cv.fg), (x0, ty), Image.fromarray(alpha))
    cv.target(text, Box(x0, ty, x0 + width, ty + cv.line_h(f)), "faded at the edge")
    return cv.px(56)


def _caps_buttons(cv: _Canvas, y: int) -> int:
    a, b = cv.pick(CAPS_BUTTONS)
    f = cv.font(14, 500)
    bh = cv.px(40)
    x = cv.m
    for k, label in enumerate((a, b)):
        shown = label.upper()
        sp = 0.09 * f.size
        tw = int(f.getlength(shown) + sp * (len(shown) - 1))
        bw = tw + cv.px(48)
        box = Box(x, y + cv.px(8), x + bw, y + cv.px(8) + bh)
        if k == 0:
            cv.draw.rounded_rectangle(box.as_tuple(), bh // 2, fill=cv.accent)
            col = (255, 255, 255) if not cv.dark else (20, 20, 20)
        else:
            cv.draw.rounded_rectangle(box.as_tuple(), bh // 2, outline=cv.grey, width=max(1, cv.px(1)))
            col = cv.accent
        cv.text((x + cv.px(24), box.y1 + (bh - cv.line_h(f)) // 2), shown, f, col, spacing=sp)
        cv.target(label, box, "all caps")
        x += bw + cv.px(12)
    return bh + cv.px(16)


def _display(cv: _Canvas, y: int) -> int:
    fo = cv.font(11, 600)
    over = cv.pick(OVERLINES)
    sp = cv.rng.uniform(0.15, 0.3) * fo.size
    yy = y + cv.px(8)
    ow = cv.text((cv.m, yy), over.upper(), fo, cv.accent, spacing=sp)
    cv.target(over, Box(cv.m, yy, cv.m + ow, yy + cv.line_h(fo)), "letter-spaced")
    yy += cv.line_h(fo) + cv.px(6)
    fh = cv.font(cv.rng.choice((28, 32, 36)), cv.rng.choice((200, 300)))
    head = cv.pick(HEADINGS)
    hw = cv.text((cv.m, yy), head, fh, cv.fg)
    cv.target(head, Box(cv.m, yy, cv.m + hw, yy + cv.line_h(fh)), "light display")
    yy += cv.line_h(fh) + cv.px(8)
    fbk = cv.font(20, 900, width=cv.rng.choice((62, 75)))
    lab = cv.pick(BLACK)
    shown = lab.upper() if cv.rng.random() < 0.5 else lab
    bw = cv.text((cv.m, yy), shown, fbk, cv.rng.choice(ACCENTS))
    cv.target(lab, Box(cv.m, yy, cv.m + bw, yy + cv.line_h(fbk)), "black condensed")
    return yy + cv.line_h(fbk) + cv.px(8) - y


def _photo_crop(cv: _Canvas, cw: int, ch: int) -> Image.Image:
    """A ``cw`` x ``ch`` crop, at a random place, of one of the photographs scaled to cover it."""
    photo = _photo(cv.rng.choice(PHOTOS))
    scale = max(cw / photo.width, ch / photo.height)
    p = photo.resize((int(photo.width * scale) + 1, int(photo.height * scale) + 1), Image.BILINEAR)
    ox = cv.rng.randint(0, max(0, p.width - cw))
    oy = cv.rng.randint(0, max(0, p.height - ch))
    return p.crop((ox, oy, ox + cw, oy + ch))


def _photo_card(cv: _Canvas, y: int) -> int:
    ch = cv.px(180)
    cw = cv.w - 2 * cv.m
    p = np.asarray(_photo_crop(cv, cw, ch), np.float32)
    scrim = cv.rng.uniform(0.35, 0.65)
    ramp = np.clip((np.arange(ch) / ch - 0.35) / 0.65, 0, 1)[:, None, None] * scrim
    p = (p * (1 - ramp)).astype(np.uint8)
    cv.img.paste(Image.fromarray(p), (cv.m, y + cv.px(8)))
    title, sub = cv.pick(PHOTO_TITLES)
    ft, fs = cv.font(20, 600), cv.font(13)
    sy = y + cv.px(8) + ch - cv.px(12) - cv.line_h(fs)
    ty = sy - cv.px(4) - cv.line_h(ft)
    tw = cv.text((cv.m + cv.px(16), ty), title, ft, (255, 255, 255))
    cv.target(title, Box(cv.m + cv.px(16), ty, cv.m + cv.px(16) + tw, ty + cv.line_h(ft)), "on photo")
    sw = cv.text((cv.m + cv.px(16), sy), sub, fs, (225, 225, 225))
    cv.target(sub, Box(cv.m + cv.px(16), sy, cv.m + cv.px(16) + sw, sy + cv.line_h(fs)), "on photo")
    return ch + cv.px(16)


def _gradient(cv: _Canvas, y: int) -> int:
    bh = cv.px(96)
    bw = cv.w - 2 * cv.m
    c1, c2 = cv.rng.sample(ACCENTS, 2)
    t = np.linspace(0, 1, bw)[None, :, None]
    g = (np.array(c1)[None, None, :] * (1 - t) + np.array(c2)[None, None, :] * t)
    g = np.repeat(g, bh, axis=0).astype(np.uint8)
    mask = Image.new("L", (bw, bh), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, bw - 1, bh - 1), cv.px(16), fill=255)
    cv.img.paste(Image.fromarray(g), (cv.m, y + cv.px(8)), mask)
    title, action = cv.pick(GRADIENT)
    ft, fa = cv.font(18, 600), cv.font(14, 500)
    tx, ty = cv.m + cv.px(20), y + cv.px(8) + (bh - cv.line_h(ft)) // 2
    tw = cv.text((tx, ty), title, ft, (255, 255, 255))
    cv.target(title, Box(tx, ty, tx + tw, ty + cv.line_h(ft)), "on gradient")
    aw = int(fa.getlength(action)) + cv.px(32)
    ax = cv.w - cv.m - cv.px(16) - aw
    ab = Box(ax, y + cv.px(8) + (bh - cv.px(36)) // 2, ax + aw, y + cv.px(8) + (bh + cv.px(36)) // 2)
    cv.draw.rounded_rectangle(ab.as_tuple(), cv.px(18), outline=(255, 255, 255), width=max(1, cv.px(1)))
    cv.text((ax + cv.px(16), ab.y1 + (ab.height - cv.line_h(fa)) // 2), action, fa, (255, 255, 255))
    cv.target(action, ab, "on gradient")
    return bh + cv.px(16)


def _chips(cv: _Canvas, y: int) -> int:
    f = cv.font(14, 500)
    chh = cv.px(32)
    x = cv.m
    tint = tuple(int(c * 0.18 + b * 0.82) for c, b in zip(cv.accent, cv.bg))
    for label in cv.pick(CHIPS, 4):
        cw = int(f.getlength(label)) + cv.px(24)
        if x + cw > cv.w - cv.m:
            break
        box = Box(x, y + cv.px(8), x + cw, y + cv.px(8) + chh)
        cv.draw.rounded_rectangle(box.as_tuple(), cv.px(8), fill=tint)
        cv.text((x + cv.px(12), box.y1 + (chh - cv.line_h(f)) // 2), label, f, cv.accent)
        cv.target(label, box, "tinted chip")
        x += cw + cv.px(8)
    return chh + cv.px(16)


def _icon_buttons(cv: _Canvas, y: int) -> int:
    f = cv.font(14, 500)
    bh = cv.px(40)
    x = cv.m
    for kind, label in cv.pick(ICON_BUTTONS, 2):
        isz = cv.px(18)
        bw = cv.px(16) + isz + cv.px(8) + int(f.getlength(label)) + cv.px(24)
        box = Box(x, y + cv.px(8), x + bw, y + cv.px(8) + bh)
        filled = cv.rng.random() < 0.5
        if filled:
            cv.draw.rounded_rectangle(box.as_tuple(), bh // 2, fill=cv.accent)
            col = (255, 255, 255) if not cv.dark else (20, 20, 20)
        else:
            cv.draw.rounded_rectangle(box.as_tuple(), bh // 2, outline=cv.grey, width=max(1, cv.px(1)))
            col = cv.accent
        _icon(cv, kind, Box(x + cv.px(16), box.y1 + (bh - isz) // 2, x + cv.px(16) + isz, box.y1 + (bh + isz) // 2), col)
        cv.text((x + cv.px(16) + isz + cv.px(8), box.y1 + (bh - cv.line_h(f)) // 2), label, f, col)
        cv.target(label, box, "icon + text")
        x += bw + cv.px(12)
    return bh + cv.px(16)


def _small_grey(cv: _Canvas, y: int) -> int:
    used = 0
    for title, sub in cv.pick(SMALL, 2):
        ft, fs = cv.font(16), cv.font(cv.rng.choice((11, 12)))
        ty = y + used + cv.px(10)
        tw = cv.text((cv.m, ty), title, ft, cv.fg)
        cv.target(title, Box(cv.m, ty, cv.m + tw, ty + cv.line_h(ft)), "plain")
        sy = ty + cv.line_h(ft) + cv.px(2)
        sw = cv.text((cv.m, sy), sub, fs, cv.faint)
        cv.target(sub, Box(cv.m, sy, cv.m + sw, sy + cv.line_h(fs)), "small grey")
        used = sy + cv.line_h(fs) + cv.px(10) - y
    return used


def _label_rows(cv: _Canvas, y: int) -> int:
    used = 0
    for label, value in cv.pick(ROWS, 3):
        fl, fv = cv.font(16), cv.font(cv.rng.choice((14, 16)))
        rh = cv.px(52)
        ly = y + used + (rh - cv.line_h(fl)) // 2
        lw = cv.text((cv.m, ly), label, fl, cv.fg)
        vw = int(fv.getlength(value))
        vx = cv.w - cv.m - vw
        vy = y + used + (rh - cv.line_h(fv)) // 2
        cv.text((vx, vy), value, fv, cv.grey)
        cv.target(label, Box(cv.m, ly, cv.m + lw, ly + cv.line_h(fl)), "label of a row")
        cv.target(value, Box(vx, vy, vx + vw, vy + cv.line_h(fv)), "value of a row")
        used += rh
    return used


def _symbol_rows(cv: _Canvas, y: int) -> int:
    used = 0
    for text in cv.pick(SYMBOLS, 3):
        f = cv.font(16)
        ty = y + used + cv.px(12)
        emoji = [ch for ch in text if ord(ch) >= 0x1F000]
        drawn = "".join(ch for ch in text if ord(ch) < 0x1F000).rstrip()
        w = cv.text((cv.m, ty), drawn, f, cv.fg)
        if emoji:
            sz = int(f.size * 0.95)
            _emoji(cv, cv.m + w + cv.px(6), ty + (cv.line_h(f) - sz) // 2, sz, emoji[0])
            w += cv.px(6) + sz
        cv.target(text, Box(cv.m, ty, cv.m + w, ty + cv.line_h(f)), "symbols")
        used += cv.line_h(f) + cv.px(24)
    return used


def _cjk_rows(cv: _Canvas, y: int) -> int:
    used = 0
    for pool, phen in ((CHINESE, "Chinese"), (MIXED, "mixed Latin/CJK")):
        text = cv.pick(pool)
        f = cv.font(16, family="cjk")
        ty = y + used + cv.px(14)
        w = cv.text((cv.m, ty), text, f, cv.fg)
        cv.target(text, Box(cv.m, ty, cv.m + w, ty + cv.line_h(f)), phen)
        used += cv.line_h(f) + cv.px(28)
    return used


def _mixed_sizes(cv: _Canvas, y: int) -> int:
    """Stat tiles: a number in large bold type and its unit in small type on one baseline, one node
    ("8,432 steps"), which OCR may read as two boxes."""
    fb, fs = cv.font(cv.rng.choice((28, 34)), 700), cv.font(14)
    base = y + cv.px(8) + fb.getmetrics()[0]
    x = cv.m
    for num, unit in cv.pick(MIXED_SIZES, 2):
        cv.draw.text((x, base), num, font=fb, fill=cv.fg, anchor="ls")
        nw = int(fb.getlength(num))
        cv.draw.text((x + nw, base), unit, font=fs, fill=cv.grey, anchor="ls")
        uw = int(fs.getlength(unit))
        cv.target(num + unit, Box(x, y + cv.px(8), x + nw + uw, base + fb.getmetrics()[1]), "mixed sizes")
        x = cv.w // 2
    return cv.line_h(fb) + cv.px(16)


def _price_row(cv: _Canvas, y: int) -> int:
    """A product's old price struck through beside its sale price, and a letter avatar right before
    a name ("A" then "Alex Chen"), which OCR may read as one word."""
    old, new = cv.pick(PRICES)
    fo, fn = cv.font(14), cv.font(18, 700)
    yy = y + cv.px(12)
    nw = cv.text((cv.m, yy), new, fn, cv.fg)
    cv.target(new, Box(cv.m, yy, cv.m + nw, yy + cv.line_h(fn)), "struck-out price beside")
    ox = cv.m + nw + cv.px(8)
    oy = yy + cv.line_h(fn) - cv.line_h(fo) - cv.px(1)
    ow = cv.text((ox, oy), old, fo, cv.grey)
    mid = oy + int(cv.line_h(fo) * 0.55)
    cv.draw.line((ox, mid, ox + ow, mid), fill=cv.grey, width=max(1, cv.px(1)))
    cv.target(old, Box(ox, oy, ox + ow, oy + cv.line_h(fo)), "struck-out price")
    yy += cv.line_h(fn) + cv.px(16)
    name = cv.pick(SENDERS)
    av = cv.px(32)
    cv.draw.ellipse((cv.m, yy, cv.m + av, yy + av), fill=cv.rng.choice(ACCENTS))
    fa = cv.font(16, 600)
    cv.draw.text((cv.m + av // 2, yy + av // 2), name[0], font=fa, fill=(255, 255, 255), anchor="mm")
    f = cv.font(16)
    tx = cv.m + av + cv.px(cv.rng.choice((4, 8)))
    ty = yy + (av - cv.line_h(f)) // 2
    tw = cv.text((tx, ty), name, f, cv.fg)
    cv.target(name, Box(tx, ty, tx + tw, ty + cv.line_h(f)), "letter avatar beside")
    return yy + av + cv.px(12) - y


def _search_field(cv: _Canvas, y: int) -> int:
    """A search field's hint in faint grey on a grey pill, a magnifier before it."""
    fh = cv.px(48)
    box = Box(cv.m, y + cv.px(8), cv.w - cv.m, y + cv.px(8) + fh)
    fill = (44, 44, 48) if cv.dark else (236, 238, 241)
    cv.draw.rounded_rectangle(box.as_tuple(), fh // 2, fill=fill)
    isz = cv.px(20)
    ix, iy = box.x1 + cv.px(16), box.y1 + (fh - isz) // 2
    lw = max(2, cv.px(2))
    cv.draw.ellipse((ix, iy, ix + int(isz * 0.7), iy + int(isz * 0.7)), outline=cv.grey, width=lw)
    cv.draw.line((ix + int(isz * 0.62), iy + int(isz * 0.62), ix + isz, iy + isz), fill=cv.grey, width=lw)
    hint = cv.pick(FIELD_HINTS)
    f = cv.font(16)
    tx = ix + isz + cv.px(12)
    cv.text((tx, box.y1 + (fh - cv.line_h(f)) // 2), hint, f, cv.faint)
    cv.target(hint, Box(tx, box.y1, box.x2 - cv.px(16), box.y2), "field hint")
    return fh + cv.px(16)


def _hero(cv: _Canvas, y: int) -> int:
    """A hero banner: bold white text straight on a photograph, no scrim."""
    ch = cv.px(150)
    cw = cv.w - 2 * cv.m
    cv.img.paste(_photo_crop(cv, cw, ch), (cv.m, y + cv.px(8)))
    title = cv.pick(HERO)
    f = cv.font(24, 800)
    tx, ty = cv.m + cv.px(16), y + cv.px(8) + cv.px(16)
    tw = cv.text((tx, ty), title, f, (255, 255, 255))
    cv.target(title, Box(tx, ty, tx + tw, ty + cv.line_h(f)), "on photo, no scrim")
    return ch + cv.px(16)


BLOCKS: tuple[Callable[[_Canvas, int], int], ...] = (
    _ellipsis_rows, _preview, _faded, _caps_buttons, _display, _photo_card, _gradient, _chips, _icon_buttons,
    _small_grey, _label_rows, _symbol_rows, _cjk_rows, _mixed_sizes, _price_row, _search_field, _hero)


def _text_button(cv: _Canvas, label: str, x: int, y: int, h: int) -> Box:
    f = cv.font(14, 500)
    tw = int(f.getlength(label))
    box = Box(x, y, x + tw + cv.px(24), y + h)
    cv.text((x + cv.px(12), y + (h - cv.line_h(f)) // 2), label, f, cv.accent)
    return box


def status_texts(cv: _Canvas, h: int, f: ImageFont.FreeTypeFont, clocks: Sequence[str]) -> list[str]:
    """A status bar ``h`` px high: a clock from ``clocks`` at the start, the battery's per cent at the
    end, in ``f``; returns the two texts."""
    clock = cv.rng.choice(clocks)
    cv.text((cv.m, (h - cv.line_h(f)) // 2), clock, f, cv.fg)
    pct = f"{cv.rng.randint(12, 99)}%"
    cv.text((cv.w - cv.m - int(f.getlength(pct)), (h - cv.line_h(f)) // 2), pct, f, cv.fg)
    return [clock, pct]


def _status_bar(cv: _Canvas) -> int:
    h = cv.px(28)
    status_texts(cv, h, cv.font(13, 500), ("12:05", "9:41", "17:30"))
    return h


def make_screen(rng: random.Random, index: int) -> StressScreen:
    """One screen drawn from ``rng`` (the order of draws is part of the set's definition)."""
    width, height, density = rng.choice(SIZES)
    if width == 720:
        density = 2.0
    family = rng.choice(FAMILIES)
    dark = rng.random() < 0.3
    jpeg = rng.choice((None, None, 90, 75))
    cv = _Canvas(rng, width, height, density, family, dark)
    y = _status_bar(cv)
    y += _app_bar(cv, y)
    # the same text twice: a text button under the app bar and one in the bottom bar
    dup = cv.pick(DUPLICATES)
    bar_h = cv.px(64)
    top = _text_button(cv, dup, cv.w - cv.m - cv.px(100), y + cv.px(4), cv.px(40))
    y += cv.px(48)
    bottom_y = height - bar_h
    cv.draw.rectangle((0, bottom_y, width, height), fill=tuple(max(0, c - 10) for c in cv.bg))
    bot = _text_button(cv, dup, cv.m, bottom_y + cv.px(12), cv.px(40))
    from mobile_agent.screensets.measure import position_hint

    cv.target(dup, top, "identical texts", position_hint(top, width, height))
    cv.target(dup, bot, "identical texts", position_hint(bot, width, height))
    blocks = list(BLOCKS)
    rng.shuffle(blocks)
    for block in blocks:
        mark = (len(cv.targets), len(cv.drawn))
        snapshot = cv.img.copy()
        used = block(cv, y)
        if y + used > bottom_y - cv.px(8):
            # did not fit: undo it
            cv.img.paste(snapshot)
            del cv.targets[mark[0]:], cv.drawn[mark[1]:]
            continue
        y += used
    img = drawing.jpeg(cv.img, jpeg)
    drawn_keys = [_key(t) for t in cv.drawn]
    absent = [(t, k) for t, k in ABSENT if not any(_on_screen(_key(t), d) for d in drawn_keys)]
    absent = rng.sample(absent, min(3, len(absent)))
    look = f"{family} {width}x{height}{' dark' if dark else ''}{f' jpeg{jpeg}' if jpeg else ''}"
    # ``cv.draw`` drew on cv.img; a block that did not fit was undone by pasting its snapshot back
    return StressScreen(f"textstress-{index:02d}", img, cv.targets, absent, look, cv.drawn)


def _on_screen(absent: str, drawn: str) -> bool:
    """Whether a text meant to be absent may in fact be on the screen: inside a drawn text, or
    sharing its first 8 characters with one that is not all of its start (a drawn "Settings and
    priv…" could be "Settings and security" cut short). A drawn text that is the whole start of it
    ("Wi-Fi" for "Wi-Fi calling") leaves it absent: that is the near miss to test."""
    if absent in drawn:
        return True
    k = 0
    while k < min(len(absent), len(drawn)) and absent[k] == drawn[k]:
        k += 1
    return k >= 8 and not absent.startswith(drawn)


def _key(s: str) -> str:
    from mobile_agent.perception.textmatch import compact

    return compact(s)


def collect_stress_screens(seed: int = SEED, count: int = SCREENS) -> list[StressScreen]:
    """The set: ``count`` screens drawn from a generator seeded with ``seed``."""
    # A variable font laid out by raqm (HarfBuzz) draws a glyph a pixel apart depending on what the
    # same font object drew before, so each collection starts from fresh font objects: the set is
    # then the same whatever was drawn earlier in the process (its frozen digest holds in any order).
    _font.cache_clear()
    rng = random.Random(f"text-stress:{seed}")
    return [make_screen(rng, i) for i in range(count)]


def set_digest(screens: Sequence[StressScreen]) -> str:
    """The digest of a text set (this one or the held-out text set): pixels, targets, absent texts."""
    def lines(s: StressScreen) -> list[str]:
        return ([f"{t.text}|{t.phenomenon}|{t.box.as_tuple()}|{' '.join(t.position)}" for t in s.targets]
                + [f"absent {text}|{kind}" for text, kind in s.absent])

    return drawing.digest(screens, lines)


# ---------------------------------------------------------------------------------------------
# Measuring.


@dataclass
class PhenomenonFigures:
    targets: int = 0
    first_hit: int = 0
    original_hit: int = 0
    misses: list[str] = field(default_factory=list)


@dataclass
class StressResult:
    screens: int = 0
    digest: str = ""
    by_phenomenon: dict[str, PhenomenonFigures] = field(default_factory=dict)
    absent_total: int = 0
    absent_none: int = 0
    absent_with_closest: int = 0
    absent_by_kind: dict[str, list[int]] = field(default_factory=dict)  # kind -> [total, answered none]
    false_positives: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        def share(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        tot = PhenomenonFigures()
        for f in self.by_phenomenon.values():
            tot.targets += f.targets
            tot.first_hit += f.first_hit
            tot.original_hit += f.original_hit
        return {
            "screens": self.screens, "digest": self.digest, "frozen": self.digest == FROZEN_SHA256,
            "click_text_first_point": {"share": share(tot.first_hit, tot.targets), "hit": tot.first_hit,
                                       "total": tot.targets},
            "original_line_matching_first_point": {"share": share(tot.original_hit, tot.targets),
                                                   "hit": tot.original_hit, "total": tot.targets},
            "by_phenomenon": {k: {"targets": v.targets, "first_point_hit": v.first_hit,
                                  "original_hit": v.original_hit, "misses": v.misses}
                              for k, v in sorted(self.by_phenomenon.items())},
            "absent": {"total": self.absent_total, "answered_none": self.absent_none,
                       "with_closest_texts": self.absent_with_closest,
                       "by_kind": {k: {"total": v[0], "answered_none": v[1]} for k, v in sorted(self.absent_by_kind.items())},
                       "false_positives": self.false_positives},
        }


def run_stress(screens: Sequence[StressScreen], perception: Any,
               log: Callable[[str], None] | None = None) -> StressResult:
    """Click Text on every target (first point inside the node, as ``run_benchmark`` counts it: the
    chosen point, or the best-ranked candidate when grounding reports several), the original
    Mobile-Agent's line matching beside it on the same OCR lines, and every absent text (a hit is
    ``none``)."""
    from mobile_agent.screensets.measure import _first_point, original_line_matches

    res = StressResult(screens=len(screens), digest=set_digest(screens))
    for i, s in enumerate(screens):
        lines = perception.parse(s.image).lines
        for t in s.targets:
            fig = res.by_phenomenon.setdefault(t.phenomenon, PhenomenonFigures())
            g = perception.ground_text(s.image, t.text, t.position)
            fp = _first_point(g)
            ok = fp is not None and t.box.contains_point(fp.point)
            orig = original_line_matches(t.text, lines)
            fig.targets += 1
            fig.first_hit += ok
            fig.original_hit += bool(orig) and t.box.contains_point(orig[0].center)
            if not ok:
                fig.misses.append(f"{s.name} [{s.look}]: {t.text!r}{' ' + ' '.join(t.position) if t.position else ''} "
                                  f"{g.status} -> {fp and fp.point.as_tuple()} node {t.box.as_tuple()}")
        for text, kind in s.absent:
            g = perception.ground_text(s.image, text)
            counts = res.absent_by_kind.setdefault(kind, [0, 0])
            counts[0] += 1
            res.absent_total += 1
            if g.status == "none":
                counts[1] += 1
                res.absent_none += 1
                res.absent_with_closest += "closest texts" in g.message
            else:
                fp = _first_point(g)
                res.false_positives.append(f"{s.name}: {text!r} ({kind}) {g.status} -> "
                                           f"{fp and fp.text!r} at {fp and fp.point.as_tuple()}")
        if log:
            log(f"[{i + 1}/{len(screens)}] {s.name} [{s.look}]")
    return res


def format_stress(d: dict[str, Any], title: str = "text stress set") -> list[str]:
    def pct(a: int, b: int) -> str:
        return f"{100 * a / b:.1f}% ({a}/{b})" if b else "n/a"

    ct, ol = d["click_text_first_point"], d["original_line_matching_first_point"]
    out = [f"{title}: {d['screens']} screens, digest {d['digest'][:16]}... "
           f"({'the frozen set' if d['frozen'] else 'NOT the frozen set'})",
           f"Click Text, first point inside the target's node: {pct(ct['hit'], ct['total'])}",
           f"original Mobile-Agent exact/contains line matching, first point: {pct(ol['hit'], ol['total'])}",
           "by phenomenon (targets: first point / original line matching):"]
    for k, v in d["by_phenomenon"].items():
        out.append(f"  {k}: {v['targets']}: {pct(v['first_point_hit'], v['targets'])} / "
                   f"{pct(v['original_hit'], v['targets'])}")
    a = d["absent"]
    out.append(f"texts not on the screen answered 'none': {pct(a['answered_none'], a['total'])} "
               f"(with the closest texts named: {a['with_closest_texts']})")
    for k, v in a["by_kind"].items():
        out.append(f"  {k}: {pct(v['answered_none'], v['total'])}")
    return out




def format_by_script(d: dict[str, Any], title: str, order: Sequence[str], missing: dict[str, str]) -> list[str]:
    """A text set's figures (:func:`format_stress`), then per script, in ``order`` (a phenomenon's
    script is the part of its name before ":"): Click Text first point and texts not on the screen
    answered none; then the scripts left out (``missing``: script -> why). The scripts set's and
    the languages set's report."""
    def pct(a: int, b: int) -> str:
        return f"{100 * a / b:.1f}% ({a}/{b})" if b else "n/a"

    out = format_stress(d, title=title)
    per: dict[str, list[int]] = {}
    for k, v in d["by_phenomenon"].items():
        p = per.setdefault(k.split(":")[0], [0, 0, 0, 0])
        p[0] += v["targets"]
        p[1] += v["first_point_hit"]
    for k, v in d["absent"]["by_kind"].items():
        p = per.setdefault(k.split(":")[0], [0, 0, 0, 0])
        p[2] += v["total"]
        p[3] += v["answered_none"]
    out.append("by script (Click Text first point / texts not on the screen answered none):")
    for name in order:
        if name in per:
            p = per[name]
            out.append(f"  {name}: {pct(p[1], p[0])} / {pct(p[3], p[2])}")
    for name, why in missing.items():
        out.append(f"  {name}: left out ({why})")
    return out

def set_axes(f: ImageFont.FreeTypeFont, wants: dict[str, float]) -> None:
    """Set a variable font's axes by name ("weight", "width", "optical size"), each clamped to the
    font's range; an axis not named keeps its default."""
    values = []
    for ax in f.get_variation_axes():
        n = ax["name"].decode() if isinstance(ax["name"], bytes) else str(ax["name"])
        want = wants.get(n.lower(), ax.get("default", ax["minimum"]))
        values.append(max(ax["minimum"], min(ax["maximum"], want)))
    f.set_variation_by_axes(values)
