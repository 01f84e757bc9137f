"""Synthetic phone screens for the perception tests: Roboto text and Material Design icons drawn with Pillow.

Every screen comes with its ground truth (the box of each text and icon), so tests can check where
perception points without any hard-coded result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

import fontpkg_roboto
from fonticon_mdi7.mdi7 import MDI7

from mobile_agent.types import Box

ROBOTO = fontpkg_roboto.ROOT / "files" / "Roboto[wdth,wght].ttf"


@lru_cache(maxsize=32)
def roboto(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(ROBOTO), size)


@lru_cache(maxsize=32)
def mdi(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(MDI7.__font_file__, size)


def glyph_char(name: str) -> str:
    """The character of a Material Design icon (fonticon stores ``"mdi7.<glyph>"``)."""
    return getattr(MDI7, name).split(".", 1)[1]


@dataclass
class Screen:
    image: Image.Image
    texts: dict[str, Box] = field(default_factory=dict)
    icons: dict[str, Box] = field(default_factory=dict)


class Painter:
    """Draws texts and icons on a phone-sized canvas and records their boxes."""

    def __init__(self, width: int = 1080, height: int = 2400, dark: bool = False) -> None:
        self.dark = dark
        self.bg = (18, 18, 18) if dark else (250, 250, 250)
        self.fg = (230, 230, 230) if dark else (33, 33, 33)
        self.image = Image.new("RGB", (width, height), self.bg)
        self.draw = ImageDraw.Draw(self.image)
        self.screen = Screen(self.image)

    def text(self, x: int, y: int, s: str, size: int = 44, fill: tuple[int, int, int] | None = None) -> Box:
        font = roboto(size)
        self.draw.text((x, y), s, font=font, fill=fill or self.fg)
        l, t, r, b = self.draw.textbbox((x, y), s, font=font)
        box = Box(int(l), int(t), int(r) + 1, int(b) + 1)
        self.screen.texts[s] = box
        return box

    def icon(self, x: int, y: int, name: str, size: int = 72, fill: tuple[int, int, int] | None = None,
             key: str | None = None) -> Box:
        glyph = glyph_char(name)
        font = mdi(size)
        self.draw.text((x, y), glyph, font=font, fill=fill or self.fg)
        l, t, r, b = self.draw.textbbox((x, y), glyph, font=font)
        box = Box(int(l), int(t), int(r) + 1, int(b) + 1)
        self.screen.icons[key or name] = box
        return box

    def status_bar(self, clock: str = "12:30") -> None:
        self.draw.text((40, 20), clock, font=roboto(36), fill=self.fg)
        self.draw.text((930, 14), glyph_char('wifi'), font=mdi(44), fill=self.fg)
        self.draw.text((990, 14), glyph_char('battery'), font=mdi(44), fill=self.fg)


def settings_screen(dark: bool = False, clock: str = "12:30") -> Screen:
    """A Settings-like list: a title, a search icon, rows of icon + title + summary."""
    p = Painter(dark=dark)
    p.status_bar(clock)
    p.text(48, 150, "Settings", size=72)
    p.icon(960, 160, "magnify", key="search")
    rows = [
        ("wifi", "Network & internet", "Wi-Fi, mobile, data usage"),
        ("bluetooth", "Connected devices", "Bluetooth, pairing"),
        ("apps", "Apps", "Recent apps, default apps"),
        ("bell", "Notifications", "Notification history"),
        ("battery", "Battery", "85% - Should last until 10 PM"),
        ("theme_light_dark", "Dark theme", "Off"),
        ("volume_high", "Sound & vibration", "Volume, haptics, Do Not Disturb"),
        ("cellphone", "Display", "Brightness level"),
        ("lock", "Security & privacy", "App security, device lock"),
    ]
    y = 330
    for icon, title, summary in rows:
        p.icon(60, y + 20, icon, size=64, key=f"row:{icon}")
        p.text(180, y, title, size=46)
        p.text(180, y + 66, summary, size=36, fill=(120, 120, 120) if not dark else (160, 160, 160))
        y += 200
    return p.screen


def toolbar_screen(dark: bool = False) -> Screen:
    """An app screen with a top bar of icons and a bottom navigation row of icons, little text."""
    p = Painter(dark=dark)
    p.status_bar()
    p.icon(40, 140, "arrow_left", key="back")
    p.text(150, 150, "Messages", size=56)
    p.icon(840, 140, "magnify", key="search")
    p.icon(960, 140, "dots_vertical", key="more")
    p.text(60, 400, "Alice: see you at noon", size=40)
    p.text(60, 500, "Bob: the photos are up", size=40)
    p.icon(100, 2230, "home", key="home")
    p.icon(330, 2230, "heart", key="heart")
    p.icon(560, 2230, "cart", key="cart")
    p.icon(790, 2230, "cog", key="settings")
    p.icon(960, 2000, "plus", size=96, fill=(30, 100, 220), key="plus")
    return p.screen


def duplicates_screen(likes: int = 10) -> Screen:
    """A feed where "Reply" appears twice (top and bottom) and "Like" ``likes`` times."""
    p = Painter()
    p.status_bar()
    p.text(48, 150, "Feed", size=64)
    top = p.text(60, 320, "Reply", size=44)
    bottom = p.text(60, 2050, "Reply", size=44)
    likes_boxes = []
    for i in range(likes):
        likes_boxes.append(p.text(600, 420 + i * 150, "Like", size=44))
    p.screen.texts["Reply@top"] = top
    p.screen.texts["Reply@bottom"] = bottom
    for i, b in enumerate(likes_boxes):
        p.screen.texts[f"Like@{i}"] = b
    return p.screen
