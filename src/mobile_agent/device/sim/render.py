"""Drawing for the simulated phone: fonts (Roboto), icon glyphs (Material Design Icons), themes,
and a canvas with a translation so that scrolled content can be drawn into a clipped layer.

Another look (fonts, icon set: see :mod:`mobile_agent.device.sim.look`) is drawn while
:func:`active_look` is in force; without one, everything is drawn in the default look.
"""

from __future__ import annotations

import hashlib
import math
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

import fontpkg_roboto
import fonticon_mdi7
from fonticon_mdi7.mdi7 import MDI7

from mobile_agent.device.sim.fonts import load_font, load_icon_font
from mobile_agent.types import Box

RGB = tuple[int, int, int]

ROBOTO = fontpkg_roboto.ROOT / "files" / "Roboto[wdth,wght].ttf"
MDI_FONT = Path(fonticon_mdi7.__file__).parent / "fonts" / "materialdesignicons-webfont.ttf"


@dataclass(frozen=True)
class Theme:
    """Colours of one theme. ``dark`` tells widgets which variant of their own colours to use."""

    dark: bool
    bg: RGB
    surface: RGB
    surface2: RGB
    on_bg: RGB
    on_bg2: RGB
    divider: RGB
    primary: RGB
    on_primary: RGB
    field: RGB
    scrim: RGB
    keyboard: RGB
    key: RGB
    statusbar_fg: RGB


LIGHT = Theme(
    dark=False, bg=(255, 255, 255), surface=(243, 244, 248), surface2=(230, 233, 240),
    on_bg=(28, 28, 32), on_bg2=(96, 98, 108), divider=(222, 224, 230), primary=(26, 115, 232),
    on_primary=(255, 255, 255), field=(238, 240, 245), scrim=(0, 0, 0), keyboard=(226, 228, 234),
    key=(255, 255, 255), statusbar_fg=(28, 28, 32),
)
DARK = Theme(
    dark=True, bg=(18, 18, 20), surface=(32, 33, 38), surface2=(44, 46, 52),
    on_bg=(232, 232, 236), on_bg2=(160, 162, 172), divider=(56, 58, 66), primary=(138, 180, 248),
    on_primary=(12, 30, 60), field=(40, 42, 48), scrim=(0, 0, 0), keyboard=(30, 31, 35),
    key=(62, 64, 72), statusbar_fg=(232, 232, 236),
)


# The look being drawn (None: the default look). Set by the phone while it lays out and paints.
_look: ContextVar[Any] = ContextVar("sim_look", default=None)


@contextmanager
def active_look(look: Any) -> Iterator[None]:
    """Lay out and draw in ``look`` (a :class:`~mobile_agent.device.sim.look.Look`) inside the block."""
    token = _look.set(None if look is None or look.is_default else look)
    try:
        yield
    finally:
        _look.reset(token)


def _font_key() -> str:
    lk = _look.get()
    return "" if lk is None or lk.font == "roboto" else lk.font


@lru_cache(maxsize=256)
def _roboto(size: int, weight: int) -> ImageFont.FreeTypeFont:
    f = ImageFont.truetype(str(ROBOTO), size)
    f.set_variation_by_axes([weight, 100])
    return f


def _font_for(key: str, size: int, weight: int) -> ImageFont.FreeTypeFont:
    if not key:
        return _roboto(size, weight)
    if key == "icon:mdi":
        return icon_font(size)
    if key.startswith("icons:"):
        return load_icon_font(key[6:], size)
    return load_font(key, size, weight)


def font(size: int, weight: int = 400) -> ImageFont.FreeTypeFont:
    """The look's text font (Roboto by default) at ``size`` px and ``weight`` (100..900)."""
    return _font_for(_font_key(), size, weight)


@lru_cache(maxsize=128)
def icon_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(MDI_FONT), size)


def glyph(name: str) -> str:
    """The MDI codepoint for an icon name such as ``"magnify"`` or ``"cog-outline"``."""
    attr = name.replace("-", "_")
    try:
        return getattr(MDI7, attr)
    except AttributeError:
        raise KeyError(f"no Material Design icon named {name!r}") from None


def seeded_color(key: str, saturation: float = 0.55, value: float = 0.85) -> RGB:
    """A stable, pleasant colour for a string (thumbnails, avatars)."""
    h = int(hashlib.sha1(key.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return hsv(h, saturation, value)


def hsv(h: float, s: float, v: float) -> RGB:
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    r, g, b = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
    return (int(r * 255), int(g * 255), int(b * 255))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return tuple(int(a[i] + (b[i] - a[i]) * t) for i in range(3))  # type: ignore[return-value]


def on_color(bg: RGB) -> RGB:
    """Black or white, whichever reads better on ``bg`` (relative luminance)."""
    lum = (0.2126 * bg[0] + 0.7152 * bg[1] + 0.0722 * bg[2]) / 255
    return (20, 20, 24) if lum > 0.62 else (255, 255, 255)


def drawable(s: str) -> str:
    """``s`` as a one-line text view draws it: each control character (a line break, a tab, an
    escape) as a space. Pillow's layout engine fails on some of them (``raqm_layout() failed`` on a
    line break), and a text the phone is given (a URL, a typed word) must never stop it drawing."""
    if s.isprintable():
        return s
    return "".join(" " if unicodedata.category(c) == "Cc" else c for c in s)


def text_width(s: str, size: int, weight: int = 400) -> int:
    return _text_width(_font_key(), s, size, weight)


@lru_cache(maxsize=8192)
def _text_width(key: str, s: str, size: int, weight: int) -> int:
    return int(math.ceil(_font_for(key, size, weight).getlength(drawable(s))))


@lru_cache(maxsize=2048)
def _text_mask(key: str, s: str, size: int, weight: int, anchor: str) -> tuple[Image.Image, int, int]:
    """Coverage mask of a rendered string (in the font named by ``key``) and its offset from the
    anchor point.

    Every frame is drawn afresh from state, so the same strings are drawn again and again;
    rendering each once and pasting its mask is several times faster than drawing text anew.
    """
    f = _font_for(key, size, weight)
    s = drawable(s)
    left, top, right, bottom = f.getbbox(s, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor=anchor)
    return mask, left, top


def ellipsize(s: str, size: int, weight: int, max_width: int) -> str:
    """Cut ``s`` with an ellipsis so that it fits ``max_width`` pixels."""
    if text_width(s, size, weight) <= max_width:
        return s
    lo, hi = 0, len(s)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(s[:mid].rstrip() + "…", size, weight) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return s[:lo].rstrip() + "…"


def wrap(s: str, size: int, weight: int, max_width: int) -> list[str]:
    """Greedy word wrap; explicit newlines are kept."""
    lines: list[str] = []
    for para in s.split("\n"):
        words = para.split(" ")
        cur = ""
        for w in words:
            trial = w if not cur else cur + " " + w
            if text_width(trial, size, weight) <= max_width or not cur:
                cur = trial
            else:
                lines.append(cur)
                cur = w
        lines.append(cur)
    return lines


class Canvas:
    """Drawing primitives in screen coordinates on an image whose top-left is at ``origin``."""

    def __init__(self, image: Image.Image, origin: tuple[int, int] = (0, 0)) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.ox, self.oy = origin

    def _b(self, box: Box) -> tuple[int, int, int, int]:
        return (box.x1 - self.ox, box.y1 - self.oy, box.x2 - 1 - self.ox, box.y2 - 1 - self.oy)

    def rect(self, box: Box, fill: RGB | None = None, outline: RGB | None = None, width: int = 1,
             radius: int = 0) -> None:
        if box.is_empty():
            return
        if radius > 0:
            r = min(radius, box.width // 2, box.height // 2)
            self.draw.rounded_rectangle(self._b(box), radius=r, fill=fill, outline=outline, width=width)
        else:
            self.draw.rectangle(self._b(box), fill=fill, outline=outline, width=width)

    def ellipse(self, box: Box, fill: RGB | None = None, outline: RGB | None = None, width: int = 1) -> None:
        self.draw.ellipse(self._b(box), fill=fill, outline=outline, width=width)

    def line(self, x1: int, y1: int, x2: int, y2: int, fill: RGB, width: int = 1) -> None:
        self.draw.line((x1 - self.ox, y1 - self.oy, x2 - self.ox, y2 - self.oy), fill=fill, width=width)

    def polygon(self, points: list[tuple[int, int]], fill: RGB) -> None:
        self.draw.polygon([(x - self.ox, y - self.oy) for x, y in points], fill=fill)

    def text(self, x: int, y: int, s: str, size: int, fill: RGB, weight: int = 400, anchor: str = "la") -> None:
        """Draw ``s`` with its anchor at (x, y); ``la`` = left/ascender, ``mm`` = centre."""
        if not s:
            return
        mask, left, top = _text_mask(_font_key(), s, size, weight, anchor)
        x0, y0 = x - self.ox + left, y - self.oy + top
        self.image.paste(fill, (x0, y0, x0 + mask.width, y0 + mask.height), mask)

    def icon(self, cx: int, cy: int, name: str, size: int, fill: RGB) -> None:
        """An MDI glyph (or the look's counterpart of it) centred on (cx, cy)."""
        lk = _look.get()
        key, ch = ("icon:mdi", glyph(name)) if lk is None else lk.icon_glyph(name)
        mask, left, top = _text_mask(key, ch, size, 400, "mm")
        x0, y0 = cx - self.ox + left, cy - self.oy + top
        self.image.paste(fill, (x0, y0, x0 + mask.width, y0 + mask.height), mask)

    def paste(self, img: Image.Image, x: int, y: int, mask: Image.Image | None = None) -> None:
        self.image.paste(img, (x - self.ox, y - self.oy), mask)


class _PictureCache:
    """Least-recently-used pictures, bounded by their total size in bytes rather than by count,
    so that a few full-screen pictures cannot take hundreds of megabytes."""

    def __init__(self, max_bytes: int) -> None:
        from collections import OrderedDict

        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: "OrderedDict[tuple, Image.Image]" = OrderedDict()

    def get(self, key: tuple) -> Image.Image | None:
        img = self._items.get(key)
        if img is not None:
            self._items.move_to_end(key)
        return img

    def put(self, key: tuple, img: Image.Image) -> None:
        size = img.width * img.height * 3
        self._items[key] = img
        self.bytes += size
        while self.bytes > self.max_bytes and len(self._items) > 1:
            _, old = self._items.popitem(last=False)
            self.bytes -= old.width * old.height * 3


_pictures = _PictureCache(max_bytes=32 * 1024 * 1024)


def cached_image(key: tuple, make: Callable[[], Image.Image]) -> Image.Image:
    """An image from the phone's one picture cache (bounded in bytes), made by ``make`` on a miss.
    Apps keep their composed pictures (rounded thumbnails, full-screen frames, map tiles) here,
    so that all of them together stay within one memory budget."""
    img = _pictures.get(key)
    if img is None:
        img = make()
        _pictures.put(key, img)
    return img


def picture(key: str, width: int, height: int, kind: str = "scene") -> Image.Image:
    """A procedural picture (thumbnail, cover, photo) that depends only on its arguments; cached.

    ``kind``: ``scene`` (sky, hills, sun), ``cat`` (a cat face on a coloured ground), ``abstract``
    (overlapping discs), ``map`` (streets and a river), ``product`` (an object on a plain ground).
    """
    return cached_image(("picture", key, width, height, kind), lambda: draw_picture(key, width, height, kind))


def draw_picture(key: str, width: int, height: int, kind: str = "scene") -> Image.Image:
    seed = int(hashlib.sha1(f"{key}|{kind}".encode()).hexdigest()[:8], 16)
    base = hsv((seed % 360) / 360.0, 0.45, 0.85)
    img = Image.new("RGB", (width, height), base)
    d = ImageDraw.Draw(img)
    w, h = width, height
    if kind == "cat":
        d.rectangle((0, 0, w, h), fill=mix(base, (255, 255, 255), 0.3))
        fur = [(245, 160, 70), (120, 120, 125), (60, 55, 50), (235, 225, 210)][seed % 4]
        r = int(min(w, h) * 0.32)
        cx, cy = w // 2, int(h * 0.55)
        d.polygon([(cx - r, cy - r // 3), (cx - r + r // 4, cy - r - r // 2), (cx - r // 3, cy - r + r // 8)], fill=fur)
        d.polygon([(cx + r, cy - r // 3), (cx + r - r // 4, cy - r - r // 2), (cx + r // 3, cy - r + r // 8)], fill=fur)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fur)
        e = max(2, r // 6)
        for ex in (cx - r // 2, cx + r // 2):
            d.ellipse((ex - e, cy - r // 4 - e, ex + e, cy - r // 4 + e), fill=(40, 160, 70))
            d.ellipse((ex - e // 3, cy - r // 4 - e, ex + e // 3, cy - r // 4 + e), fill=(10, 10, 10))
        d.polygon([(cx - e, cy + r // 8), (cx + e, cy + r // 8), (cx, cy + r // 8 + e)], fill=(230, 120, 140))
        for s in (-1, 1):
            for k in (-1, 0, 1):
                d.line((cx + s * r // 4, cy + r // 4 + k * e, cx + s * (r + r // 3), cy + r // 5 + k * 2 * e),
                       fill=(250, 250, 250), width=max(1, r // 30))
    elif kind == "map":
        d.rectangle((0, 0, w, h), fill=(232, 236, 226))
        step = max(20, w // 6)
        for i in range(-h, w + h, step):
            d.line((i, 0, i + h // 2, h), fill=(255, 255, 255), width=max(3, w // 80))
        for j in range(0, h, step):
            d.line((0, j, w, j + (seed % 40) - 20), fill=(255, 255, 255), width=max(3, w // 80))
        d.line((0, int(h * 0.7), w, int(h * 0.45)), fill=(160, 200, 240), width=max(8, w // 18))
        d.ellipse((int(w * 0.55), int(h * 0.15), int(w * 0.85), int(h * 0.4)), fill=(200, 230, 190))
    elif kind == "product":
        d.rectangle((0, 0, w, h), fill=(246, 246, 246))
        col = hsv(((seed >> 8) % 360) / 360.0, 0.6, 0.8)
        cx, cy, r = w // 2, int(h * 0.58), int(min(w, h) * 0.3)
        d.pieslice((cx - r, cy - r, cx + r, cy + r), 180, 360, fill=col)
        d.rectangle((cx - r, cy - 2, cx + r + r // 2, cy + r // 6), fill=mix(col, (0, 0, 0), 0.25))
    elif kind == "abstract":
        for i in range(5):
            s2 = (seed >> (i * 3)) & 0xFFFF
            r = int(min(w, h) * (0.15 + (s2 % 30) / 100))
            x, y = s2 % max(1, w), (s2 * 7) % max(1, h)
            d.ellipse((x - r, y - r, x + r, y + r), fill=hsv(((seed + i * 57) % 360) / 360.0, 0.5, 0.95))
    else:
        sky = mix(base, (255, 255, 255), 0.35)
        d.rectangle((0, 0, w, h), fill=sky)
        sr = int(min(w, h) * 0.12)
        sx, sy = int(w * (0.2 + (seed % 60) / 100)), int(h * 0.28)
        d.ellipse((sx - sr, sy - sr, sx + sr, sy + sr), fill=(255, 236, 150))
        for k, shade in enumerate((0.25, 0.45)):
            pts = [(0, h)]
            for i in range(0, 9):
                x = int(w * i / 8)
                y = int(h * (0.55 + 0.12 * k) + math.sin(i + seed % 7 + k) * h * 0.08)
                pts.append((x, y))
            pts.append((w, h))
            d.polygon(pts, fill=mix(base, (0, 0, 0), shade))
    return img


@lru_cache(maxsize=256)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """An L-mode mask of a rounded rectangle, for pasting pictures with rounded corners."""
    m = Image.new("L", (width, height), 0)
    ImageDraw.Draw(m).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    return m
