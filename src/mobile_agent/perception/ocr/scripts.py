"""Text in scripts the default recogniser does not read, read by Tesseract's language packs.

RapidOCR's PP-OCR recogniser (the default engine) reads Latin letters, digits and Chinese. Real
phones also show Korean, Japanese kana, Cyrillic, Arabic, Bengali, Devanagari, Sinhala, Thai...:
there it reads nothing (the line is dropped under its score threshold) or noise ("김어준" as "歪").
Where Click Text asks for a text in such a script, the line detector's boxes are read again by
Tesseract with that script's Debian language pack (``tesseract-ocr-kor`` etc.), each box as one
line (``--psm 7``), all boxes of a screen in one Tesseract run (a list of crops). Which scripts are
covered is what :func:`installed_languages` finds; :data:`SCRIPT_PACKS` names the pack of each.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
import unicodedata
from typing import Sequence

import cv2
import numpy as np

from mobile_agent.perception.results import TextLine, Word
from mobile_agent.types import Box

#: Unicode script (the first word of a character's name) -> Tesseract language of its Debian pack
#: (``apt-get install tesseract-ocr-LANG``).
SCRIPT_PACKS: dict[str, str] = {
    "HANGUL": "kor",
    "HIRAGANA": "jpn",
    "KATAKANA": "jpn",
    "CYRILLIC": "rus",
    "ARABIC": "ara",
    "BENGALI": "ben",
    "DEVANAGARI": "hin",
    "SINHALA": "sin",
    "THAI": "tha",
    "GREEK": "ell",
    "HEBREW": "heb",
    "TAMIL": "tam",
    "TELUGU": "tel",
    "GUJARATI": "guj",
    "KANNADA": "kan",
    "MALAYALAM": "mal",
    "GEORGIAN": "kat",
    "ARMENIAN": "hye",
    "ETHIOPIC": "amh",
    "KHMER": "khm",
    "LAO": "lao",
    "MYANMAR": "mya",
}


def script_language(text: str) -> str | None:
    """The Tesseract language for the script of ``text`` that the default recogniser does not
    read (the most frequent such script), or None when every letter is Latin, Chinese or common."""
    counts: dict[str, int] = {}
    for ch in text:
        if not ch.isalpha():
            continue
        try:
            word = unicodedata.name(ch).split(" ", 1)[0]
        except ValueError:
            continue
        lang = SCRIPT_PACKS.get(word)
        if lang is not None:
            counts[lang] = counts.get(lang, 0) + 1
    return max(counts, key=counts.__getitem__) if counts else None


def script_languages(text: str) -> str | None:
    """The Tesseract languages to read ``text`` with: its script's pack (:func:`script_language`),
    plus ``eng`` where it also has Latin letters ("cbs 김현정의 뉴스쇼"); None for none."""
    lang = script_language(text)
    if lang is None:
        return None
    latin = any(ch.isascii() and ch.isalpha() for ch in text)
    return f"{lang}+eng" if latin and "eng" in installed_languages() else lang


@functools.lru_cache(maxsize=1)
def installed_languages() -> frozenset[str]:
    """The language packs of the ``tesseract`` program on this machine (empty without it)."""
    exe = shutil.which("tesseract")
    if exe is None:
        return frozenset()
    try:
        out = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(ln.strip() for ln in out.splitlines()[1:] if ln.strip())


def covered_scripts() -> list[str]:
    """The scripts (Unicode names) Click Text reads here beyond Latin and Chinese."""
    have = installed_languages()
    return sorted(s for s, lang in SCRIPT_PACKS.items() if lang in have)


def _crop(rgb: np.ndarray, box: Box, height: int = 52) -> np.ndarray:
    """A box of the screen as Tesseract reads a line best: black text on white (Otsu's threshold,
    the text being the fewer pixels of the box's middle: white text on a coloured chip is turned
    over, whatever the chip's brightness), about ``height`` px tall, with a margin."""
    h, w = rgb.shape[:2]
    pad = 6
    c = rgb[max(0, box.y1 - pad):min(h, box.y2 + pad), max(0, box.x1 - pad):min(w, box.x2 + pad)]
    g = cv2.cvtColor(c, cv2.COLOR_RGB2GRAY)
    s = height / max(1, box.height)
    if s < 0.9 or s > 1.2:
        g = cv2.resize(g, None, fx=s, fy=s, interpolation=cv2.INTER_CUBIC if s > 1 else cv2.INTER_AREA)
    _, bw = cv2.threshold(g, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    gh, gw = bw.shape
    mid = bw[gh // 4:gh - gh // 4, min(gw // 3, gh // 2):max(gw - gh // 2, gw * 2 // 3)]
    if mid.size and float((mid > 0).mean()) < 0.5:  # white is the fewer: white text on a darker ground
        bw = 255 - bw
    return cv2.copyMakeBorder(bw, 10, 10, 10, 10, cv2.BORDER_CONSTANT, value=255)


def read_script_lines(rgb: np.ndarray, boxes: Sequence[Box], langs: str, timeout_s: float = 60.0) -> list[TextLine]:
    """Read each box of ``rgb`` as one line with Tesseract in ``langs`` (``kor``, or ``kor+eng``
    for a text with Latin words mixed in: English added to a line of the script alone makes
    Tesseract read it as Latin noise more often): one Tesseract run for all boxes. Lines read as
    nothing are left out; a missing program or pack reads nothing."""
    exe = shutil.which("tesseract")
    if exe is None or not boxes or not set(langs.split("+")) <= installed_languages():
        return []
    with tempfile.TemporaryDirectory(prefix="mobile-agent-tess-") as d:
        paths = []
        for i, b in enumerate(boxes):
            p = os.path.join(d, f"{i}.png")
            cv2.imwrite(p, _crop(rgb, b))
            paths.append(p)
        listing = os.path.join(d, "crops.txt")
        with open(listing, "w", encoding="utf-8") as f:
            f.write("\n".join(paths) + "\n")
        try:
            out = subprocess.run([exe, listing, "stdout", "-l", langs, "--psm", "7"], capture_output=True,
                                 timeout=timeout_s, env={**os.environ, "OMP_THREAD_LIMIT": "1"}).stdout
        except (OSError, subprocess.SubprocessError):
            return []
    pages = out.decode("utf-8", "replace").split("\f")
    lines: list[TextLine] = []
    for box, page in zip(boxes, pages):
        text = " ".join(page.split())
        if not any(ch.isalnum() for ch in text):
            continue
        lines.append(TextLine(text, box, 0.8, (Word(text, box, 0.8),)))
    return lines
