"""Set-of-marks: numbered boxes drawn on a copy of the screenshot, for a planner to pick from."""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont

from mobile_agent.types import Box

_COLORS = [(230, 25, 75), (0, 130, 200), (60, 180, 75), (245, 130, 48), (145, 30, 180),
           (0, 128, 128), (240, 50, 230), (128, 0, 0), (0, 0, 128), (128, 128, 0)]


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.ImageFont:
    try:
        import fontpkg_roboto

        return ImageFont.truetype(str(fontpkg_roboto.ROOT / "files" / "Roboto[wdth,wght].ttf"), size)
    except Exception:  # noqa: BLE001 - any font will do for labels
        return ImageFont.load_default()


def draw_marks(image: Image.Image, boxes: Sequence[Box], start: int = 0, labels: Sequence[str] | None = None,
               width: int | None = None) -> Image.Image:
    """A copy of ``image`` with each box outlined and numbered (``start``, ``start+1``, ...)."""
    out = image.convert("RGB").copy()
    draw = ImageDraw.Draw(out)
    line_w = width or max(2, round(min(out.size) / 300))
    size = max(14, round(min(out.size) / 30))
    font = _font(size)
    for i, box in enumerate(boxes):
        color = _COLORS[i % len(_COLORS)]
        draw.rectangle([box.x1, box.y1, box.x2 - 1, box.y2 - 1], outline=color, width=line_w)
        label = labels[i] if labels is not None else str(start + i)
        l, t, r, b = draw.textbbox((0, 0), label, font=font)
        tw, th = r - l + 8, b - t + 6
        x = max(0, min(box.x1, out.width - tw))
        y = box.y1 - th if box.y1 - th >= 0 else min(box.y2, out.height - th)
        draw.rectangle([x, y, x + tw, y + th], fill=color)
        draw.text((x + 4 - l, y + 3 - t), label, font=font, fill=(255, 255, 255))
    return out
