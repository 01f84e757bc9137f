"""Set-of-marks: numbered boxes drawn on a copy of the screenshot, for a planner to pick from.

The marks must stay legible where the planner sees them: on dense screens, dark themes, small
icons, at 720p and at 1440p, after the screenshot is scaled down for the model. So the label's
height is a share of the screen (not a pixel size), labels are white on dark colours (contrast
4.5:1 or more, the WCAG level for text), boxes and labels have a thin rim of the opposite
brightness of the screen under them, and labels are placed where they overlap no other label
(and, where there is room, no other candidate's box).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.types import Box

# Dark, saturated colours: white text on each has a contrast ratio of 4.5:1 or more.
COLORS = [(200, 16, 46), (0, 92, 175), (0, 122, 51), (176, 64, 0), (120, 30, 160),
          (0, 110, 110), (170, 0, 130), (110, 70, 0), (30, 30, 140), (90, 90, 90)]
_COLORS = COLORS  # the name earlier code used

LABEL_SHARE = 1 / 26  # label height as a share of the screen's shorter side (about 14 px at 1024 px for the model)


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.ImageFont:
    try:
        import fontpkg_roboto

        font = ImageFont.truetype(str(fontpkg_roboto.ROOT / "files" / "Roboto[wdth,wght].ttf"), size)
        try:
            font.set_variation_by_name("Bold")
        except Exception:  # noqa: BLE001 - a font without named instances stays regular
            pass
        return font
    except Exception:  # noqa: BLE001 - any font will do for labels
        return ImageFont.load_default(size)


def contrast_ratio(a: Sequence[int], b: Sequence[int]) -> float:
    """WCAG contrast ratio of two sRGB colours (1 to 21)."""
    def lum(c: Sequence[int]) -> float:
        v = [x / 255.0 for x in c[:3]]
        v = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in v]
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]

    la, lb = sorted((lum(a), lum(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def label_height(width: int, height: int) -> int:
    """Height of a mark's label on a ``width`` x ``height`` screenshot."""
    return max(16, round(min(width, height) * LABEL_SHARE))


def layout_labels(size: tuple[int, int], boxes: Sequence[Box], labels: Sequence[str]) -> list[Box]:
    """Where each box's label goes: inside the image, overlapping no other label, and where it can,
    covering no other box; beside its own box (above, below, at its sides, or inside it)."""
    w, h = size
    lh = label_height(w, h)
    font = _font(round(lh * 0.78))
    placed: list[Box] = []
    for i, (box, text) in enumerate(zip(boxes, labels)):
        l, _, r, _ = font.getbbox(text)
        lw = (r - l) + round(lh * 0.5)
        others = [b for j, b in enumerate(boxes) if j != i]
        spots = [
            (box.x1, box.y1 - lh), (box.x2 - lw, box.y1 - lh),            # above, left / right
            (box.x1, box.y2), (box.x2 - lw, box.y2),                      # below
            (box.x1 - lw, box.y1), (box.x2, box.y1),                      # at the sides
            (box.x1 - lw, box.y2 - lh), (box.x2, box.y2 - lh),
            (box.x1, box.y1), (box.x2 - lw, box.y2 - lh),                 # inside its own box
            (box.center.x - lw // 2, box.y1 - lh), (box.center.x - lw // 2, box.y2),
        ]
        best: tuple[float, Box] | None = None
        for k, (x, y) in enumerate(spots):
            x = max(0, min(int(x), w - lw))
            y = max(0, min(int(y), h - lh))
            cand = Box(x, y, x + lw, y + lh)
            clash = sum(cand.intersect(p).area for p in placed if not cand.intersect(p).is_empty())
            cover = sum(cand.intersect(o).area for o in others if not cand.intersect(o).is_empty())
            own = 0 if cand.intersect(box).is_empty() else cand.intersect(box).area
            cost = clash * 100.0 + cover * 2.0 + own * 0.5 + k
            if best is None or cost < best[0]:
                best = (cost, cand)
            if clash == 0 and cover == 0 and own == 0:
                break
        assert best is not None
        if any(not best[1].intersect(p).is_empty() for p in placed):
            best = (0.0, _free_spot(best[1], placed, w, h))
        placed.append(best[1])
    return placed


def _free_spot(start: Box, placed: Sequence[Box], w: int, h: int) -> Box:
    """The nearest place for ``start``'s label (moving down, then up, then sideways) that overlaps
    no placed label; ``start`` itself when the screen has no such place."""
    lw, lh = start.width, start.height
    for step in range(1, max(w, h) // max(1, lh) + 1):
        for dx, dy in ((0, step * lh), (0, -step * lh), (step * lw, 0), (-step * lw, 0)):
            x, y = start.x1 + dx, start.y1 + dy
            if not (0 <= x <= w - lw and 0 <= y <= h - lh):
                continue
            cand = Box(x, y, x + lw, y + lh)
            if all(cand.intersect(p).is_empty() for p in placed):
                return cand
    return start


def _rim_colour(rgb: np.ndarray, box: Box) -> tuple[int, int, int]:
    """White on a dark part of the screen, black on a light one."""
    region = rgb[max(0, box.y1):max(0, box.y2), max(0, box.x1):max(0, box.x2)]
    if region.size == 0:
        return (255, 255, 255)
    lum = float((region[..., :3].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)).mean())
    return (0, 0, 0) if lum > 110 else (255, 255, 255)


def draw_marks(image: Image.Image, boxes: Sequence[Box], start: int = 0, labels: Sequence[str] | None = None,
               width: int | None = None) -> Image.Image:
    """A copy of ``image`` with each box outlined and numbered (``start``, ``start+1``, ...)."""
    out = image.convert("RGB").copy()
    rgb = np.asarray(out)
    draw = ImageDraw.Draw(out)
    w, h = out.size
    line_w = width or max(2, round(min(w, h) / 300))
    texts = [labels[i] if labels is not None else str(start + i) for i in range(len(boxes))]
    spots = layout_labels(out.size, boxes, texts)
    lh = label_height(w, h)
    font = _font(round(lh * 0.78))
    rim = max(1, line_w // 2)
    for i, box in enumerate(boxes):
        color = COLORS[i % len(COLORS)]
        edge = _rim_colour(rgb, box.expand(line_w * 2))
        draw.rectangle([box.x1 - rim, box.y1 - rim, box.x2 - 1 + rim, box.y2 - 1 + rim], outline=edge, width=rim)
        draw.rectangle([box.x1, box.y1, box.x2 - 1, box.y2 - 1], outline=color, width=line_w)
    for i, (spot, text) in enumerate(zip(spots, texts)):
        color = COLORS[i % len(COLORS)]
        edge = _rim_colour(rgb, spot)
        draw.rectangle([spot.x1, spot.y1, spot.x2 - 1, spot.y2 - 1], fill=color, outline=edge, width=rim)
        l, t, r, b = draw.textbbox((0, 0), text, font=font)
        x = spot.x1 + (spot.width - (r - l)) // 2 - l
        y = spot.y1 + (spot.height - (b - t)) // 2 - t
        draw.text((x, y), text, font=font, fill=(255, 255, 255))
    return out
