"""Self-reflection helpers: did the screen change, is the agent looping?

The reflection *call* (before/after screenshots to the model) is a planner method
(:meth:`mobile_agent.agent.planner.Planner.reflect`); this module holds the checks that need no model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from mobile_agent.agent.operations import Operation

THUMB_SIZE = (90, 200)


def thumbnail(image: Image.Image, status_bar: float = 0.04) -> np.ndarray:
    """A small grayscale copy without the status bar (whose clock changes), for comparisons."""
    w, h = image.size
    top = int(round(h * status_bar))
    small = image.crop((0, top, w, h)).convert("L").resize(THUMB_SIZE, Image.Resampling.BILINEAR)
    return np.asarray(small, dtype=np.int16)


def thumbs_differ(a: np.ndarray, b: np.ndarray, pixel_threshold: int = 24, min_fraction: float = 0.0015) -> bool:
    """True when more than ``min_fraction`` of the thumbnail pixels differ by more than ``pixel_threshold``."""
    if a.shape != b.shape:
        return True
    return float(np.mean(np.abs(a - b) > pixel_threshold)) > min_fraction


def pixels_changed(before: Image.Image, after: Image.Image) -> bool:
    """A model-free, perception-free screen-change test (the fallback when perception has none)."""
    if before.size != after.size:
        return True
    return thumbs_differ(thumbnail(before), thumbnail(after))


def screen_changed(perception: Any, before: Image.Image, after: Image.Image) -> bool:
    """``perception.screen_changed`` where perception offers it, else :func:`pixels_changed`."""
    fn = getattr(perception, "screen_changed", None)
    if callable(fn):
        return bool(fn(before, after))
    return pixels_changed(before, after)


@dataclass
class LoopDetector:
    """Spots the same operation planned on the same screen ``threshold`` times."""

    threshold: int = 3
    _seen: list[tuple[Operation, np.ndarray]] = field(default_factory=list)

    def repeats(self, op: Operation, screen: Image.Image) -> int:
        """How many earlier steps planned ``op`` on a screen like ``screen``."""
        t = thumbnail(screen)
        return sum(1 for o, s in self._seen if o == op and not thumbs_differ(s, t))

    def is_loop(self, op: Operation, screen: Image.Image) -> bool:
        """True when planning ``op`` now would make ``threshold`` times on this screen."""
        return self.repeats(op, screen) + 1 >= self.threshold

    def record(self, op: Operation, screen: Image.Image) -> None:
        self._seen.append((op, thumbnail(screen)))
