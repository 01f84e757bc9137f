"""Tesseract engine through pytesseract (needs the ``tesseract`` program, Debian's ``tesseract-ocr``).

Reads the screenshot in sparse-text mode (phone screens are scattered labels, not paragraphs),
on a grayscale copy inverted when the screen is dark (Tesseract reads dark text on light best).
Words come with their own boxes; words of the same Tesseract line that sit close together become
one line.
"""

from __future__ import annotations

import shutil

import cv2
import numpy as np

from mobile_agent.errors import ConfigError
from mobile_agent.perception.results import TextLine, Word
from mobile_agent.types import Box


class TesseractEngine:
    """OCR with Tesseract 4/5."""

    name = "tesseract"

    def __init__(self, lang: str = "eng", psm: int = 11, min_conf: float = 0.4, upscale_below: int = 900,
                 timeout_s: float = 30.0, binary: str | None = None) -> None:
        try:
            import pytesseract
        except ImportError as exc:  # pragma: no cover - a pinned dependency
            raise ConfigError("the pytesseract package is not installed: pip install pytesseract") from exc
        exe = shutil.which(binary) if binary else shutil.which("tesseract")
        if exe is None:
            raise ConfigError("the tesseract program is not installed: apt-get install tesseract-ocr "
                              "(or choose --ocr rapidocr)")
        self._pt = pytesseract
        self._exe = exe
        self.lang, self.psm, self.min_conf = lang, psm, min_conf
        self.upscale_below = upscale_below
        self.timeout_s = timeout_s

    def read(self, rgb: np.ndarray, det_scale: float | None = None) -> list[TextLine]:
        h, w = rgb.shape[:2]
        gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        if float(gray.mean()) < 110:
            gray = 255 - gray
        scale = 1.0
        if max(h, w) < self.upscale_below:
            scale = 2.0
            gray = cv2.resize(gray, (w * 2, h * 2), interpolation=cv2.INTER_CUBIC)
        self._pt.pytesseract.tesseract_cmd = self._exe
        try:
            data = self._pt.image_to_data(gray, lang=self.lang, config=f"--psm {self.psm}",
                                          output_type=self._pt.Output.DICT, timeout=self.timeout_s)
        except self._pt.TesseractNotFoundError as exc:
            raise ConfigError(f"tesseract could not be run ({exc}): apt-get install tesseract-ocr") from exc
        except self._pt.TesseractError as exc:
            raise ConfigError(f"tesseract failed: {exc}; is the language pack for {self.lang!r} installed "
                              f"(apt-get install tesseract-ocr-{self.lang})?") from exc
        groups: dict[tuple[int, int, int], list[Word]] = {}
        for i, text in enumerate(data["text"]):
            text = (text or "").strip()
            conf = float(data["conf"][i])
            if not text or conf < 0:
                continue
            x, y, bw, bh = (int(data[k][i] / scale) for k in ("left", "top", "width", "height"))
            key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
            groups.setdefault(key, []).append(Word(text, Box(x, y, x + max(1, bw), y + max(1, bh)), conf / 100.0))
        lines: list[TextLine] = []
        for words in groups.values():
            words.sort(key=lambda wd: wd.box.x1)
            # Split a Tesseract line where words are far apart (two labels on one row).
            run: list[Word] = [words[0]]
            for wd in words[1:]:
                gap = wd.box.x1 - run[-1].box.x2
                if gap > 1.5 * max(wd.box.height, run[-1].box.height):
                    lines.extend(self._line(run))
                    run = [wd]
                else:
                    run.append(wd)
            lines.extend(self._line(run))
        lines.sort(key=lambda l: (l.box.y1 // 10, l.box.x1))
        return lines

    def _line(self, words: list[Word]) -> list[TextLine]:
        score = float(np.mean([wd.score for wd in words]))
        text = " ".join(wd.text for wd in words)
        if score < self.min_conf or not any(ch.isalnum() for ch in text):
            return []
        return [TextLine(text, Box.enclosing(wd.box for wd in words), score, tuple(words))]
