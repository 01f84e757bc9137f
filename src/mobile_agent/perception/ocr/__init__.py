"""OCR engines: an image in, text lines (text, box, score, word boxes) out.

Two engines: ``rapidocr`` (default; PP-OCR detection and recognition models on onnxruntime, shipped
in the rapidocr wheel) and ``tesseract`` (Debian's ``tesseract-ocr`` through pytesseract).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from mobile_agent.errors import ConfigError
from mobile_agent.perception.results import TextLine

OCR_ENGINES = ("rapidocr", "tesseract")


class OcrEngine(Protocol):
    """Reads text lines off an RGB image (``numpy`` array, height x width x 3, uint8)."""

    name: str

    def read(self, rgb: np.ndarray, det_scale: float | None = None) -> list[TextLine]:
        """Every text line of ``rgb``, boxes in ``rgb``'s pixel coordinates.

        ``det_scale`` fixes the scale at which text is detected (so that a crop of a screen is read
        as the whole screen would be); ``None`` lets the engine choose from the image size.
        """
        ...


def make_ocr(name: str = "rapidocr", **options: Any) -> OcrEngine:
    """Create the OCR engine called ``name`` (``rapidocr`` or ``tesseract``)."""
    key = (name or "rapidocr").strip().lower()
    if key in ("rapidocr", "rapid", "paddle", "ppocr"):
        from mobile_agent.perception.ocr.rapid import RapidOcrEngine

        return RapidOcrEngine(**options)
    if key in ("tesseract", "tess", "pytesseract"):
        from mobile_agent.perception.ocr.tess import TesseractEngine

        return TesseractEngine(**options)
    raise ConfigError(f"unknown OCR engine {name!r}: use one of {', '.join(OCR_ENGINES)}")
