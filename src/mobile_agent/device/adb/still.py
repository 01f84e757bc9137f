"""Deciding that the screen has stopped changing: two captures alike, the status bar aside."""

from __future__ import annotations

import numpy as np
from PIL import Image

__all__ = ["frame_signature", "frames_alike"]


def frame_signature(image: Image.Image, status_bar_px: int, scale: int = 4) -> np.ndarray:
    """A small grey copy of the screen without its top ``status_bar_px`` rows (clock, icons)."""
    w, h = image.size
    top = max(0, min(h - 1, int(status_bar_px)))
    body = image.crop((0, top, w, h)).convert("L")
    small = body.resize((max(1, w // scale), max(1, (h - top) // scale)), Image.Resampling.BOX)
    return np.asarray(small, dtype=np.int16)


def frames_alike(a: np.ndarray, b: np.ndarray, pixel_tol: int = 16, changed_fraction: float = 0.002) -> bool:
    """True when at most ``changed_fraction`` of the pixels differ by more than ``pixel_tol`` grey levels.

    The small allowance lets a blinking text cursor count as still.
    """
    if a.shape != b.shape:
        return False
    changed = np.abs(a - b) > pixel_tol
    return float(changed.mean()) <= changed_fraction
