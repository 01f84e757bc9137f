"""The icon passes at one density.

The classical detector's and the offline matcher's sizes are in pixels (a 20 px smallest icon, a
3 px gap closed, a ring's inside of 18-88 px, a margin of a box's eighth), measured on 1080 px-wide
phones (about 2.75 px a dp). A phone at another density draws the same 24 dp glyph in other
pixels: 48 px on a 720 px-wide screen, 88 px on a 1440 px one, and strokes, gaps and holes with
it. Rather than carry a density through every size, the screenshot is brought to the reference
width first (1080 px across its short side, the same dp scale as
:func:`~mobile_agent.perception.icons.layout.dp_scale` infers) and the boxes found on it are
brought back to the screen's pixels. Screens within 5% of the reference are used as they are.
"""

from __future__ import annotations

import cv2
import numpy as np

from mobile_agent.types import Box

#: The short side, in pixels, that the icon passes' sizes are measured at.
REFERENCE_SIDE = 1080


def density_factor(width: int, height: int) -> float:
    """How much a ``width`` x ``height`` screenshot is scaled to the reference density (1.0 where
    it is within 5% of it)."""
    f = REFERENCE_SIDE / max(1, min(width, height))
    return 1.0 if abs(f - 1.0) <= 0.05 else f


# The last screenshot brought to the reference density, as (source, factor, scaled): a grounding
# scores the same picture several times. One tuple, replaced whole (threads may share it).
_last: tuple[np.ndarray, float, np.ndarray] | None = None


def at_reference(rgb: np.ndarray) -> tuple[np.ndarray, float]:
    """``rgb`` at the reference density and the factor it was scaled by (``rgb`` itself and 1.0
    where it is there already)."""
    global _last
    h, w = rgb.shape[:2]
    f = density_factor(w, h)
    if f == 1.0:
        return rgb, 1.0
    last = _last
    if last is not None and last[0] is rgb:
        return last[2], last[1]
    size = (max(1, round(w * f)), max(1, round(h * f)))
    # Downscaling averages (a 1440 px screen's strokes), upscaling interpolates smoothly.
    scaled = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC)
    _last = (rgb, f, scaled)
    return scaled, f


def to_reference(box: Box, f: float) -> Box:
    """``box`` (screen pixels) on the picture scaled by ``f``."""
    if f == 1.0:
        return box
    return Box(int(box.x1 * f), int(box.y1 * f), int(np.ceil(box.x2 * f)), int(np.ceil(box.y2 * f)))


def from_reference(box: Box, f: float, width: int, height: int) -> Box:
    """``box`` found on the picture scaled by ``f``, in the ``width`` x ``height`` screen's pixels."""
    if f == 1.0:
        return box
    return Box(max(0, int(box.x1 / f)), max(0, int(box.y1 / f)), min(width, int(np.ceil(box.x2 / f))),
               min(height, int(np.ceil(box.y2 / f))))
