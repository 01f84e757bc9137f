"""Synthetic screens of icons drawn from icon sets the offline matcher does NOT use as references
(its references are Font Awesome, Codicons and a few Elusive Icons; the simulated phone draws
Material Design Icons):
Phosphor (regular and bold weights) from the qtawesome wheel's font files."""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from mobile_agent.types import Box

# vocabulary phrase -> Phosphor glyph drawn for it (names of Phosphor 1.3)
PHOSPHOR: dict[str, str] = {
    "Navigate up": "arrow-left", "back arrow": "arrow-left",
    "More options": "dots-three-vertical", "kebab": "dots-three-vertical", "three dots": "dots-three-vertical",
    "hamburger": "list", "Open navigation drawer": "list",
    "Search": "magnifying-glass", "magnifier": "magnifying-glass",
    "gear": "gear-six", "Settings": "gear-six",
    "bin": "trash", "trash": "trash", "delete": "trash",
    "paper plane": "paper-plane-tilt", "send": "paper-plane-tilt",
    "Share": "share-network", "Close": "x",
    "plus": "plus", "add": "plus",
    "heart": "heart", "like": "heart", "favourite": "heart",
    "bell": "bell", "notifications": "bell",
    "cart": "shopping-cart", "person": "user", "profile picture": "user-circle", "account": "user-circle",
    "microphone": "microphone", "camera": "camera", "edit": "pencil-simple", "pencil": "pencil-simple",
    "filter": "funnel", "download": "download-simple", "home": "house", "star": "star",
    "refresh": "arrow-clockwise",
}


@lru_cache(maxsize=1)
def _phosphor() -> tuple[str, dict[str, int]]:
    spec = importlib.util.find_spec("qtawesome")
    assert spec is not None and spec.submodule_search_locations, "qtawesome (its font files) is needed"
    fonts = Path(list(spec.submodule_search_locations)[0]) / "fonts"
    ttf = sorted(fonts.glob("phosphor-*.ttf"))[-1]
    cmap = json.loads(sorted(fonts.glob("phosphor-charmap-*.json"))[-1].read_text(encoding="utf-8"))
    return str(ttf), {k: int(v, 16) if isinstance(v, str) else int(v) for k, v in cmap.items()}


def draw_icon(draw: ImageDraw.ImageDraw, name: str, box: Box, color: tuple[int, int, int]) -> None:
    """Phosphor glyph ``name`` centred in ``box``."""
    path, cmap = _phosphor()
    font = ImageFont.truetype(path, box.height)
    ch = chr(cmap[name])
    l, t, r, b = draw.textbbox((0, 0), ch, font=font)
    x = box.x1 + (box.width - (r - l)) // 2 - l
    y = box.y1 + (box.height - (b - t)) // 2 - t
    draw.text((x, y), ch, font=font, fill=color)


def icon_grid(names: list[str], width: int = 1080, height: int = 2400, dark: bool = False,
              cols: int = 4) -> tuple[Image.Image, dict[str, Box]]:
    """A screen with each named glyph in a grid cell (tap targets 48 dp at this density), light or
    dark; returns the image and each glyph's tap box."""
    bg, fg = ((18, 20, 30), (230, 232, 240)) if dark else ((250, 250, 250), (40, 40, 48))
    img = Image.new("RGB", (width, height), bg)
    draw = ImageDraw.Draw(img)
    dp = width / 360.0
    target = round(48 * dp)
    glyph = round(24 * dp)
    cell_w = width // cols
    top = round(80 * dp)
    boxes: dict[str, Box] = {}
    for k, name in enumerate(names):
        cx = cell_w * (k % cols) + cell_w // 2
        cy = top + (k // cols) * round(72 * dp) + target // 2
        tap = Box(cx - target // 2, cy - target // 2, cx + target // 2, cy + target // 2)
        draw_icon(draw, name, Box(cx - glyph // 2, cy - glyph // 2, cx + glyph // 2, cy + glyph // 2), fg)
        boxes[name] = tap
    return img, boxes
