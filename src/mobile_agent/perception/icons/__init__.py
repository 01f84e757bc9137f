"""Icon detectors (image -> boxes with scores) and icon matchers (image, boxes, description -> scores).

Detectors: ``cv`` (default, classical computer vision, no weights), ``yolo:PATH`` (a YOLO-style UI
element detector exported to ONNX, e.g. OmniParser's icon_detect), ``gdino:PATH`` (Grounding DINO
through transformers, prompt "icon"). Matchers: ``learned`` (default: the project's trained icon
recogniser, ``recogniser.py``, blended with the shape matcher; ``learned:PATH`` another model file),
``offline`` (the shape matcher alone: reference glyphs compared by shape, plus colour words),
``marks`` (numbered boxes, the planner picks), ``clip:PATH`` (CLIP through open_clip or transformers).
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence

import numpy as np

from mobile_agent.errors import ConfigError
from mobile_agent.perception.results import IconBox
from mobile_agent.types import Box


class IconDetector(Protocol):
    name: str

    def detect(self, rgb: np.ndarray, text_boxes: Sequence[Box] = ()) -> list[IconBox]:
        """Icon-like regions of ``rgb``; ``text_boxes`` are areas known to hold text."""
        ...


class IconMatcher(Protocol):
    name: str

    def score(self, rgb: np.ndarray, boxes: Sequence[Box], description: str) -> list[float]:
        """A score in [0, 1] per box for how well it fits ``description``."""
        ...


def _split(spec: str) -> tuple[str, str | None]:
    kind, _, arg = (spec or "").partition(":")
    return kind.strip().lower(), (arg.strip() or None)


def make_detector(spec: str = "cv", **options: Any) -> IconDetector:
    """``cv`` | ``yolo:PATH`` | ``gdino:PATH_OR_MODEL_DIR``."""
    kind, arg = _split(spec)
    if kind in ("", "cv", "classic", "classical"):
        from mobile_agent.perception.icons.cv import CvIconDetector

        return CvIconDetector(**options)
    if kind == "yolo":
        from mobile_agent.perception.icons.models import YoloIconDetector

        if not arg:
            raise ConfigError("the yolo detector needs a weights path: --detector yolo:/path/to/icon_detect.onnx")
        return YoloIconDetector(arg, **options)
    if kind in ("gdino", "groundingdino", "grounding-dino"):
        from mobile_agent.perception.icons.models import GroundingDinoDetector

        if not arg:
            raise ConfigError("the gdino detector needs a model folder: --detector gdino:/path/to/grounding-dino-tiny")
        return GroundingDinoDetector(arg, **options)
    raise ConfigError(f"unknown icon detector {spec!r}: use cv, yolo:PATH or gdino:PATH")


def make_matcher(spec: str = "learned", **options: Any) -> IconMatcher | None:
    """``learned`` (the trained recogniser beside the shape matcher; ``learned:PATH`` another model
    file) | ``offline`` (the shape matcher alone) | ``marks`` (returns None: the planner picks from
    numbered boxes) | ``clip:PATH``."""
    kind, arg = _split(spec)
    if kind in ("", "offline", "glyph", "glyphs"):
        from mobile_agent.perception.icons.offline import OfflineIconMatcher

        return OfflineIconMatcher(**options)
    if kind in ("learned", "recogniser", "recognizer"):
        from mobile_agent.perception.icons.learned import LearnedIconMatcher

        return LearnedIconMatcher(arg, **options)
    if kind in ("marks", "som", "set-of-marks"):
        return None
    if kind == "clip":
        from mobile_agent.perception.icons.models import ClipIconMatcher

        if not arg:
            raise ConfigError("the clip matcher needs a model: --matcher clip:/path/to/clip-model-folder")
        return ClipIconMatcher(arg, **options)
    raise ConfigError(f"unknown icon matcher {spec!r}: use learned, learned:PATH, offline, marks or clip:PATH")
