"""Material-styles icon screens: real-app-like toolbars drawn with Google's Material Symbols Rounded
and Sharp, the styles real Android apps draw that the icon matcher does NOT use as references (it
compares with Material Symbols Outlined, the filled Material Icons, Font Awesome, Codicons, Elusive).

What real phones show and the other sets lack: 24 dp icons with 2 dp strokes in the Rounded and
Sharp styles; status bars of 24 to 52 dp (punch-hole phones); top app bars of 56 or 64 dp; a
three-button navigation bar (48 dp) or a gesture handle (edge-to-edge apps draw their bottom
navigation down to the screen's edge); 1080x2400 (2.625-3 dp) and 720x1600 (2 dp), light and dark.
Descriptions are the framework's and apps' content-desc: "Navigate up", "Open navigation drawer",
"More options", "Search", "Share", "Close", "Settings", "Notifications", "Favorite",
"Shopping cart", "Account".

The layouts are those of the held-out set (``icon_heldout``: list rows, grids, feeds, chats,
products, bottom navigation, FABs); the toolbars, bars and icons are this module's. The fonts ship
in ``mobile_agent/screensets/fonts`` as subsets (bench/build_icon_refs.py; provenance in the .txt beside
each). ``bench/bench_icons.py --set material`` measures the set; the tests draw a few screens of it.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from mobile_agent.screensets.icon_heldout import (DARK_BG, LIGHT_BG, TITLES, HeldoutScreen, _Screen, set_digest)
from mobile_agent.types import Box

SEED = 0
SCREENS = 40
# sha256 over seed 0's 40 screens and targets (:func:`set_digest`): the bench says whether it measured
# this set.
FROZEN_SHA256 = "056ff4d1580fc48ae25865e8ccbb9f5b1ffb2d86a29f1f7a11d8f4ce1eb6c2c5"
STYLES = ("rounded", "sharp")
SIZES = ((1080, 2400, 2.625), (1080, 2400, 3.0), (720, 1600, 2.0))

_FONTS = Path(__file__).with_name("fonts")

# family -> Material name drawn for it
GLYPH: dict[str, str] = {
    "back": "arrow_back", "menu": "menu", "more": "more_vert", "search": "search", "share": "share",
    "close": "close", "settings": "settings", "like": "favorite", "like_outline": "favorite", "cart": "shopping_cart",
    "notifications": "notifications", "account": "account_circle", "add": "add", "edit": "edit", "delete": "delete",
    "home": "home", "star": "star", "refresh": "refresh", "filter": "filter_list", "mic": "mic",
    "camera": "photo_camera", "send": "send", "attach": "attach_file", "comment": "chat_bubble",
    "bookmark": "bookmark", "call": "call", "mail": "mail", "location": "place", "calendar": "calendar_today",
}

# family -> the content-desc apps and the framework give it (the words)
DESCRIPTIONS: dict[str, tuple[str, ...]] = {
    "back": ("Navigate up",), "menu": ("Open navigation drawer",), "more": ("More options",),
    "search": ("Search",), "share": ("Share",), "close": ("Close",), "settings": ("Settings",),
    "notifications": ("Notifications",), "like": ("Favorite",), "like_outline": ("Favorite",),
    "cart": ("Shopping cart",), "account": ("Account",), "avatar": ("Account",),
    "add": ("Add",), "edit": ("Edit",), "delete": ("Delete",), "home": ("Home",), "star": ("star",),
    "refresh": ("Refresh",), "filter": ("Filter",), "mic": ("Voice search",), "camera": ("Camera",),
    "send": ("Send",), "attach": ("Attach file",), "comment": ("Comment",), "bookmark": ("Bookmark",),
    "call": ("Call",), "mail": ("Mail",), "location": ("Location",), "calendar": ("Calendar",),
}
# The vocabulary: what the set's figures are reported by.
VOCABULARY = ("Navigate up", "More options", "Search", "Open navigation drawer", "Share", "Close", "Settings",
              "Notifications", "Favorite", "Shopping cart", "Account")


@lru_cache(maxsize=4)
def _codepoints(style: str) -> dict[str, int]:
    path = _FONTS / f"MaterialSymbols{style.title()}-subset.json"
    return {k: int(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()}


@lru_cache(maxsize=128)
def glyph_mask(style: str, name: str) -> Image.Image:
    """The glyph's mask (L, tight box) drawn at 200 px from the style's subset font."""
    font = ImageFont.truetype(str(_FONTS / f"MaterialSymbols{style.title()}-subset.ttf"), 200)
    img = Image.new("L", (400, 400), 0)
    ImageDraw.Draw(img).text((100, 100), chr(_codepoints(style)[name]), font=font, fill=255)
    box = img.getbbox()
    assert box is not None, (style, name)
    return img.crop(box)


def draw_glyph(img: Image.Image, style: str, name: str, cx: int, cy: int, size: int,
               color: tuple[int, int, int], mirror: bool = False) -> Box:
    """Draws a Material Symbols glyph as the font lays it out: ``size`` is the em (24 dp), the ink is
    the glyph's share of it (a 24 dp arrow's ink is 16 dp). Returns the ink box."""
    m = glyph_mask(style, name)
    scale = size / 200.0
    w, h = max(1, round(m.width * scale)), max(1, round(m.height * scale))
    small = m.resize((w, h), Image.LANCZOS)
    if mirror:
        small = small.transpose(Image.FLIP_LEFT_RIGHT)
    x, y = cx - w // 2, cy - h // 2
    img.paste(Image.new("RGB", (w, h), color), (x, y), small)
    return Box(x, y, x + w, y + h)


class _MaterialScreen(_Screen):
    """A screen drawn with one Material Symbols style, the toolbar and system bars of real phones."""

    descriptions = DESCRIPTIONS
    bar_actions = ("search", "share", "notifications", "cart", "settings", "like_outline")
    bar_avatar_chance, bar_badge_chance = 0.0, 0.3

    def __init__(self, rng: random.Random, index: int) -> None:
        super().__init__(rng, index)
        self.W, self.H, self.dp = rng.choice(SIZES)
        self.style = STYLES[index % 2]
        self.dark = index % 4 >= 2
        self.bg = rng.choice(DARK_BG if self.dark else LIGHT_BG)
        self.fg = (230, 225, 229) if self.dark else rng.choice(((73, 69, 79), (33, 33, 33), (68, 71, 70)))
        self.text = (236, 236, 240) if self.dark else (28, 27, 31)
        self.sub = (160, 160, 170) if self.dark else (100, 100, 110)
        self.icon_dp = 24
        self.status_dp = rng.choice((24, 28, 32, 36, 44, 52))
        self.bar_dp = rng.choice((56, 64))
        self.gesture = rng.random() < 0.6
        self.full_h = self.H
        # The three-button bar is the system's, below the app's window.
        self.H = self.H - (0 if self.gesture else self.px(48))
        self.img = Image.new("RGB", (self.W, self.H), self.bg)
        self.draw = ImageDraw.Draw(self.img)

    def icon(self, family: str, cx: int, cy: int, color: tuple[int, int, int] | None = None,
             size_dp: float | None = None, target: bool = True) -> Box:
        if family not in GLYPH:
            family = "star"
        ink = draw_glyph(self.img, self.style, GLYPH[family], cx, cy, self.px(size_dp or self.icon_dp),
                         color or self.fg)
        self.touch(family, cx, cy, target)
        return ink

    def status_bar(self) -> int:
        h = self.px(self.status_dp)
        self.text_at(self.px(24), h // 2, f"{self.rng.randint(7, 22)}:{self.rng.randint(0, 59):02d}", 14, 500)
        if self.status_dp >= 32:  # a punch-hole camera in the middle
            r = self.px(7)
            self.draw.ellipse((self.W // 2 - r, h // 2 - r, self.W // 2 + r, h // 2 + r), fill=(0, 0, 0))
        x = self.W - self.px(24)
        for name in ("wifi",):  # status glyphs are drawn but are not targets
            draw_glyph(self.img, self.style, name, x - self.px(30), h // 2, self.px(16), self.text)
        self.draw.rounded_rectangle((x - self.px(12), h // 2 - self.px(6), x, h // 2 + self.px(6)),
                                    radius=self.px(2), fill=self.text)
        return h

    def top_bar(self, y0: int, avatar_ok: bool, style: str | None = None) -> int:
        """A Material top app bar: Navigate up, the drawer's hamburger or Close at its start, a title,
        one to three actions, the overflow last; sometimes the account at the end."""
        rng, h = self.rng, self.px(self.bar_dp)
        accent = rng.random() < 0.25
        fg = self.fg
        if accent:
            self.draw.rectangle((0, y0, self.W, y0 + h), fill=self.accent)
            fg = (255, 255, 255)
        cy = y0 + h // 2
        lead = rng.choice(("back", "back", "menu", "close"))
        self.icon(lead, self.px(28), cy, fg)
        title = rng.choice(TITLES)
        self.text_at(self.px(72), cy, title, 22, 400, (255, 255, 255) if accent else self.text)
        title_end = self.px(72) + int(self.draw.textlength(title, font=self.font(22, 400)))
        x = self.W - self.px(28)
        if rng.random() < 0.8:
            self.icon("more", x, cy, fg)
            x -= self.px(48)
        if rng.random() < 0.3:
            self.icon("account", x, cy, fg)
            x -= self.px(48)
        for fam in rng.sample(list(self.bar_actions), rng.choice((1, 2, 3))):
            if x - self.px(24) < title_end + self.px(8):  # apps ellipsize the title, never overlap it
                break
            x = self.bar_action(fam, x, cy, fg)
        return y0 + h

    def finish(self) -> tuple[Image.Image, list, str]:
        full = Image.new("RGB", (self.W, self.full_h), self.bg)
        full.paste(self.img, (0, 0))
        d = ImageDraw.Draw(full)
        if self.gesture:
            w, y = self.px(108), self.full_h - self.px(10)
            d.rounded_rectangle((self.W // 2 - w // 2, y - self.px(2), self.W // 2 + w // 2, y + self.px(2)),
                                radius=self.px(2), fill=self.sub)
        else:
            y = self.H + self.px(24)
            # back triangle, home circle, recents square (system UI, not targets)
            s = self.px(8)
            bx = self.W // 2 - self.px(110)
            d.polygon([(bx + s, y - s), (bx + s, y + s), (bx - s, y)], outline=self.text, width=max(1, self.px(2)))
            d.ellipse((self.W // 2 - s, y - s, self.W // 2 + s, y + s), outline=self.text, width=max(1, self.px(2)))
            rx = self.W // 2 + self.px(110)
            d.rectangle((rx - s + 1, y - s + 1, rx + s - 1, y + s - 1), outline=self.text, width=max(1, self.px(2)))
        self.img, self.H = full, self.full_h
        img, targets, look = super().finish()
        if not self.gesture:
            # the three-button bar's Back and Home carry those very content-desc: not a target there
            targets = [t for t in targets if t.description not in ("Home", "Back")]
        look = (f"material-{self.style} {self.W}x{self.H} {self.dp:g}x status {self.status_dp}dp bar {self.bar_dp}dp "
                f"{'gesture' if self.gesture else '3-button'} " + look.split(" ", 5)[-1])
        return img, targets, look


def _screen(seed: int, index: int) -> HeldoutScreen:
    rng = random.Random(f"material-icons:{seed}:{index}")
    s = _MaterialScreen(rng, index)
    kind = rng.choice(("list", "list", "grid", "feed", "product"))
    top = s.status_bar()
    top = s.top_bar(top, avatar_ok=False)
    s.page(kind, top, nav=0.5, chips=0.3, fab=0.4)
    img, targets, look = s.finish()
    return HeldoutScreen(f"material-{seed}-{index:02d}-{kind}", img, targets, look)


def material_screens(seed: int = SEED, count: int = SCREENS) -> list[HeldoutScreen]:
    """``count`` screens from ``seed``; screen ``i`` is Rounded when ``i`` is even, Sharp when odd,
    light for ``i % 4`` in (0, 1), dark otherwise (each from its own generator)."""
    return [_screen(seed, i) for i in range(count)]


__all__ = ["DESCRIPTIONS", "FROZEN_SHA256", "SCREENS", "SEED", "VOCABULARY", "draw_glyph", "material_screens", "set_digest"]
