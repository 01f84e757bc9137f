"""Screen change: whether two screenshots differ in content, and which regions changed.

The status bar (top ~3.5% of a portrait screen: clock, battery, signal) is ignored, as are small
differences (JPEG noise, antialiasing, a blinking cursor): pixels count as changed only when they
differ by more than ``pixel_threshold`` in some channel, and the screen counts as changed only when
a changed blob is larger than ``min_area`` pixels (at full resolution).
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

from mobile_agent.types import Box

STATUS_BAR_FRACTION = 0.035


def _arr(image: Image.Image | np.ndarray) -> np.ndarray:
    if isinstance(image, np.ndarray):
        return image
    from mobile_agent.types import to_rgb

    return np.asarray(to_rgb(image))


def status_bar_height(height: int, width: int) -> int:
    """Rows taken by the status bar: a fixed share of the long side on portrait screens."""
    return int(round(max(height, width) * STATUS_BAR_FRACTION)) if height >= width else int(round(height * 0.05))


def diff_mask(before: np.ndarray, after: np.ndarray, pixel_threshold: int = 24) -> np.ndarray:
    """A uint8 mask (255 where changed) of two RGB arrays of the same shape."""
    d = cv2.absdiff(np.ascontiguousarray(before), np.ascontiguousarray(after))
    if d.ndim == 3:
        c = cv2.split(d)
        d = cv2.max(cv2.max(c[0], c[1]), c[2]) if len(c) == 3 else d.max(axis=2)
    _, mask = cv2.threshold(d, pixel_threshold, 255, cv2.THRESH_BINARY)
    return mask


def changed_regions(before: Image.Image | np.ndarray, after: Image.Image | np.ndarray, *,
                    ignore_status_bar: bool = True, pixel_threshold: int = 24, min_area: int = 40,
                    merge_gap: int = 24) -> list[Box]:
    """Boxes (full-resolution coordinates) around the parts of the screen that changed.

    Sizes that differ mean everything changed (one box over the whole of ``after``).
    """
    a, b = _arr(before), _arr(after)
    h, w = b.shape[:2]
    if a.shape != b.shape:
        return [Box(0, 0, w, h)]
    top = status_bar_height(h, w) if ignore_status_bar else 0
    # Work at half resolution: 4x fewer pixels, and a changed glyph still spans several pixels.
    step = 2 if min(h, w) >= 400 else 1
    mask = diff_mask(a[top::step, ::step], b[top::step, ::step], pixel_threshold)
    if not mask.any():
        return []
    k = max(1, merge_gap // step)
    grown = cv2.dilate(mask, np.ones((k, k), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    out: list[Box] = []
    for i in range(1, n):
        x, y, bw, bh, _ = (int(v) for v in stats[i])
        sub = mask[y:y + bh, x:x + bw]
        if int(np.count_nonzero(sub)) * step * step < min_area:
            continue
        # Undo the dilation's growth (half a kernel on each side).
        g = k // 2
        box = Box(max(0, (x + g) * step - step), max(0, (y + g) * step + top - step),
                  min(w, (x + bw - g) * step + step), min(h, (y + bh - g) * step + top + step))
        if not box.is_empty():
            out.append(box)
    return out


def screen_changed(before: Image.Image | np.ndarray, after: Image.Image | np.ndarray, *,
                   ignore_status_bar: bool = True, pixel_threshold: int = 24, min_area: int = 40) -> bool:
    """Whether ``after`` shows different content from ``before`` (status bar and small noise ignored)."""
    return bool(changed_regions(before, after, ignore_status_bar=ignore_status_bar,
                                pixel_threshold=pixel_threshold, min_area=min_area))


def changed_fraction(regions: list[Box], width: int, height: int) -> float:
    """Share of the screen area that ``regions`` cover (overlaps counted once)."""
    if not regions:
        return 0.0
    mask = np.zeros((height, width), dtype=bool)
    for r in regions:
        mask[max(0, r.y1):r.y2, max(0, r.x1):r.x2] = True
    return float(mask.mean())
