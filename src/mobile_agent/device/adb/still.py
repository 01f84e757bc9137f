"""Deciding that the screen has stopped changing: two captures alike, the status bar aside."""

from __future__ import annotations

import time
from typing import Callable

import numpy as np
from PIL import Image

__all__ = ["frame_signature", "frames_alike", "still_frame"]


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


def still_frame(capture: Callable[[], Image.Image], status_bar_px: int, timeout_s: float,
                pause_s: float = 0.0) -> Image.Image | None:
    """Capture until two successive captures are alike (:func:`frames_alike`, the top ``status_bar_px``
    rows aside) and return the last; None once ``timeout_s`` has passed without. ``pause_s`` between
    captures. The wait of a device that captures by screenshot alone (an iPhone's WebDriverAgent,
    HarmonyOS's hdc)."""
    deadline = time.monotonic() + max(0.0, timeout_s)
    previous = frame_signature(capture(), status_bar_px)
    while True:
        frame = capture()
        current = frame_signature(frame, status_bar_px)
        if frames_alike(previous, current):
            return frame
        if time.monotonic() >= deadline:
            return None
        previous = current
        if pause_s:
            time.sleep(pause_s)
