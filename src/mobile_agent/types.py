"""Small value types shared by every layer: points, boxes, screen sizes, and image loading.

Every layer may import this module; it imports nothing from the rest of the package except
:mod:`mobile_agent.errors`.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from PIL import Image, ImageOps, UnidentifiedImageError

from mobile_agent.errors import ImageError


@dataclass(frozen=True, slots=True)
class Point:
    """A pixel position in screenshot coordinates (origin top-left)."""

    x: int
    y: int

    def as_tuple(self) -> tuple[int, int]:
        return (self.x, self.y)


@dataclass(frozen=True, slots=True)
class Size:
    width: int
    height: int

    def as_tuple(self) -> tuple[int, int]:
        return (self.width, self.height)


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle, ``x1``/``y1`` inclusive, ``x2``/``y2`` exclusive (as Android bounds)."""

    x1: int
    y1: int
    x2: int
    y2: int

    @property
    def width(self) -> int:
        return self.x2 - self.x1

    @property
    def height(self) -> int:
        return self.y2 - self.y1

    @property
    def area(self) -> int:
        return max(0, self.width) * max(0, self.height)

    @property
    def center(self) -> Point:
        return Point((self.x1 + self.x2) // 2, (self.y1 + self.y2) // 2)

    def is_empty(self) -> bool:
        return self.x2 <= self.x1 or self.y2 <= self.y1

    def contains(self, x: float, y: float) -> bool:
        return self.x1 <= x < self.x2 and self.y1 <= y < self.y2

    def contains_point(self, p: Point) -> bool:
        return self.contains(p.x, p.y)

    def intersect(self, other: Box) -> Box:
        return Box(max(self.x1, other.x1), max(self.y1, other.y1),
                   min(self.x2, other.x2), min(self.y2, other.y2))

    def union(self, other: Box) -> Box:
        return Box(min(self.x1, other.x1), min(self.y1, other.y1),
                   max(self.x2, other.x2), max(self.y2, other.y2))

    def iou(self, other: Box) -> float:
        inter = self.intersect(other)
        if inter.is_empty():
            return 0.0
        a = inter.area
        return a / float(self.area + other.area - a)

    def offset(self, dx: int, dy: int) -> Box:
        return Box(self.x1 + dx, self.y1 + dy, self.x2 + dx, self.y2 + dy)

    def expand(self, margin: int) -> Box:
        return Box(self.x1 - margin, self.y1 - margin, self.x2 + margin, self.y2 + margin)

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x1, self.y1, self.x2, self.y2)

    def to_bounds(self) -> str:
        """Android's ``bounds`` attribute form: ``[x1,y1][x2,y2]``."""
        return f"[{self.x1},{self.y1}][{self.x2},{self.y2}]"

    @classmethod
    def from_bounds(cls, bounds: str) -> Box:
        """Parse ``[x1,y1][x2,y2]`` as written by uiautomator."""
        try:
            a, b = bounds.strip()[1:-1].split("][")
            x1, y1 = (int(v) for v in a.split(","))
            x2, y2 = (int(v) for v in b.split(","))
        except (ValueError, IndexError) as exc:
            raise ValueError(f"not an Android bounds string: {bounds!r}") from exc
        return cls(x1, y1, x2, y2)

    @classmethod
    def enclosing(cls, boxes: Iterable[Box]) -> Box:
        boxes = list(boxes)
        if not boxes:
            raise ValueError("no boxes")
        out = boxes[0]
        for b in boxes[1:]:
            out = out.union(b)
        return out


POSITIONS: tuple[str, ...] = ("top", "bottom", "left", "right", "center")


#: The English words a position may use (``middle`` and ``centre`` are read as ``center``).
POSITION_WORDS = (*POSITIONS, "middle", "centre")


def position_parts(words: tuple[str, ...] | list[str] | str) -> list[str]:
    """A position's words: a text split at spaces, hyphens and commas ("top-left", "top, left")."""
    return words.replace("-", " ").replace(",", " ").split() if isinstance(words, str) else list(words)


def normalize_position(words: tuple[str, ...] | list[str] | str | None) -> tuple[str, ...]:
    """Validate a Click Icon position of one or two of top/bottom/left/right/center, in a canonical order.

    Vertical word first (``top left``), ``middle`` is read as ``center``; the same words in the
    languages of ``perception/icons/languages.toml`` ("右上角", "en haut à droite") are read as
    these by ``perception.positions.read_position``, which then calls this. Raises ``ValueError``
    naming a word it does not know.
    """
    if words is None:
        return ()
    out: list[str] = []
    for w in position_parts(words):
        w = w.strip().lower()
        if w == "middle" or w == "centre":
            w = "center"
        if w not in POSITIONS:
            raise ValueError(f"unknown position {w!r}: use one or two of {', '.join(POSITIONS)}")
        if w not in out:
            out.append(w)
    if len(out) > 2:
        raise ValueError(f"a position has one or two words, got {' '.join(out)!r}")
    if {"top", "bottom"} <= set(out) or {"left", "right"} <= set(out):
        raise ValueError(f"contradictory position {' '.join(out)!r}")
    # Vertical word (or center) first: "top left", "center right".
    order = {"top": 0, "bottom": 0, "center": 1, "left": 2, "right": 2}
    out.sort(key=lambda w: order[w])
    return tuple(out)


def to_rgb(image: Image.Image) -> Image.Image:
    """Any PIL image (RGBA, LA, L, P, I;16, CMYK...) as RGB; transparent parts become white."""
    if image.mode == "RGB":
        return image
    if image.mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")
    if image.mode in ("RGBA", "LA", "PA"):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    if image.mode.startswith("I;16") or image.mode == "I":
        import numpy as np

        arr = np.asarray(image, dtype="float64")
        hi = arr.max() or 1.0
        return Image.fromarray((arr * (255.0 / hi)).astype("uint8"), "L").convert("RGB")
    return image.convert("RGB")


#: Quote marks other than the ASCII one that could read as the end of a quoted text.
_OTHER_QUOTES = {"\u201c": "\\u201c", "\u201d": "\\u201d", "\u201e": "\\u201e", "\u00ab": "\\u00ab",
                 "\u00bb": "\\u00bb", "\u300c": "\\u300c", "\u300d": "\\u300d", "\uff02": "\\uff02"}


def quote_screen_text(text: str, limit: int = 80) -> str:
    """Text read off a screen, quoted as data for a model's prompt: a JSON string literal (its quotes,
    backslashes and line breaks escaped, and the other quote marks too), on one line, at most
    ``limit`` characters, so that a screen cannot close the quote and write instructions of its own."""
    flat = " ".join(str(text).split())
    if len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    quoted = json.dumps(flat, ensure_ascii=False)
    for mark, escaped in _OTHER_QUOTES.items():
        quoted = quoted.replace(mark, escaped)
    return quoted


#: The most pixels a screenshot may have (decoded: 3 bytes each). Pillow's own limit (89 M, an
#: error only at twice that) lets a small compressed file expand to gigabytes; 8K is 33 M.
MAX_PIXELS = 40_000_000
#: The longest side over the shortest a screen may have: phones are about 2.2 (20:9), a scrolling
#: capture of several screens is under 10; a strip beyond it (a 1x5000 PNG) would be scaled up by the
#: text detector's side limits until it asks for gigabytes.
MAX_ASPECT = 25


def check_pixels(image: Image.Image, name: str = "image") -> None:
    """:class:`ImageError` when ``image`` (opened, not yet decoded) has more than :data:`MAX_PIXELS`."""
    w, h = image.size
    if w * h > MAX_PIXELS:
        raise ImageError(f"{name} is {w}x{h} pixels, too large to be a screenshot (at most {MAX_PIXELS // 1_000_000} "
                         "million pixels)")
    if max(w, h) > MAX_ASPECT * min(w, h):
        raise ImageError(f"{name} is {w}x{h} pixels, not the shape of a screen (the longer side at most {MAX_ASPECT} "
                         "times the shorter)")


def open_checked(source: Any, name: str = "image") -> Image.Image:
    """``Image.open(source)`` (a path or a file object) with :func:`check_pixels` on its header: the
    pixels are not decoded yet, and Pillow's own bomb warning is not printed (this check says it)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        image = Image.open(source)
    try:
        check_pixels(image, name)
    except ImageError:
        image.close()
        raise
    return image


def load_image(source: str | Path | bytes | Image.Image) -> Image.Image:
    """Load a screenshot from a path, PNG/JPEG bytes or a PIL image, as an RGB image.

    Raises :class:`ImageError` with a message naming the file when it cannot be read.
    """
    if isinstance(source, Image.Image):
        if source.width == 0 or source.height == 0:
            raise ImageError(f"image has no pixels ({source.width}x{source.height})")
        check_pixels(source)
        return to_rgb(source)
    if not isinstance(source, (str, Path, bytes, bytearray)):
        raise ImageError(f"expected an image path, PNG/JPEG bytes or a PIL image, got {type(source).__name__}")
    name = "<bytes>"
    try:
        if isinstance(source, (bytes, bytearray)):
            if not source:
                raise ImageError("empty image data (0 bytes)")
            image = open_checked(io.BytesIO(source), name)
        else:
            name = str(source)
            path = Path(source)
            if not path.exists():
                raise ImageError(f"image not found: {name}")
            if path.is_dir():
                raise ImageError(f"expected an image file, got a directory: {name}")
            if path.stat().st_size == 0:
                raise ImageError(f"image file is empty: {name}")
            image = open_checked(path, name)  # from the header, before the pixels are decoded
        image.load()
        if image.getexif().get(0x0112, 1) not in (1, None):  # a JPEG taken sideways is read the way it was shot
            image = ImageOps.exif_transpose(image)
    except ImageError:
        raise
    except Image.DecompressionBombError as exc:
        raise ImageError(f"image {name} is too large to be a screenshot ({exc})") from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise ImageError(f"cannot read image {name}: {exc}") from exc
    if image.width == 0 or image.height == 0:
        raise ImageError(f"image {name} has no pixels ({image.width}x{image.height})")
    return to_rgb(image)
