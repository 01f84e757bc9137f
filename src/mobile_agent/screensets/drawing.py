"""What the frozen screen sets draw the same way (the held-out icon sets v1 and v2, the Material
Symbols set, the icon stress set, the text stress and held-out text sets): finding a package's files,
scikit-image's bundled photographs, SVG icons rasterised by pygame, a round avatar's mask, the JPEG
round trip of a screenshot, and the SHA-256 digest that freezes a set.

Each helper draws exactly what the sets drew before they shared it: every set's frozen digest holds
(each set's frozen-digest test). A set whose drawing only looks like another's keeps its own code.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np
from PIL import Image, ImageDraw

from mobile_agent.errors import ConfigError


def package_dir(module: str) -> Path | None:
    """The folder of the installed package ``module``, or None when it is not installed."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def pygame_module(needs: str, install: str) -> Any:
    """pygame, imported quietly (it greets on import); a :class:`ConfigError` saying that ``needs``
    it and how to ``install`` it where it is missing."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            import pygame
    except ImportError as exc:
        raise ConfigError(f"{needs} needs pygame to draw SVG icons: {install}") from exc
    return pygame


def svg_mask(svg: str, stroke: float, filled: bool, pygame: Any) -> Image.Image:
    """A 24-unit SVG icon (Tabler's, Lucide's) as an "L" mask of its ink at 240 px (its frame
    scaled 10x, optical padding kept), its strokes ``stroke`` units wide, its first ``fill="none"``
    filled when ``filled``."""
    svg = svg.replace('width="24"', 'width="240"', 1).replace('height="24"', 'height="240"', 1)
    svg = svg.replace('stroke-width="2"', f'stroke-width="{stroke:g}"').replace("currentColor", "#ffffff")
    if filled:
        svg = svg.replace('fill="none"', 'fill="#ffffff"', 1)
    surf = pygame.image.load(io.BytesIO(svg.encode("utf-8")))
    w, h = surf.get_size()
    rgba = np.frombuffer(pygame.image.tobytes(surf, "RGBA"), np.uint8).reshape(h, w, 4)
    return Image.fromarray(np.ascontiguousarray(rgba[:, :, 3]))


def skimage_file(name: str, needs: str, install: str) -> Path:
    """The path of scikit-image's bundled picture ``name`` (public domain and CC0 photographs); a
    :class:`ConfigError` saying that ``needs`` it and how to ``install`` it where it is missing."""
    d = package_dir("skimage")
    p = d / "data" / name if d is not None else None
    if p is None or not p.exists():
        raise ConfigError(f"{needs} needs scikit-image's bundled pictures: {install}")
    return p


@lru_cache(maxsize=16)
def skimage_picture(name: str, needs: str, install: str) -> Image.Image:
    """scikit-image's bundled picture ``name`` in RGB (read once; callers crop it, never draw on it)."""
    return Image.open(skimage_file(name, needs, install)).convert("RGB")


def round_mask(side: int) -> Image.Image:
    """An "L" mask of a disc ``side`` px wide, drawn 4x larger and scaled down (smooth edges)."""
    mask = Image.new("L", (side * 4, side * 4), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, side * 4 - 1, side * 4 - 1), fill=255)
    return mask.resize((side, side), Image.LANCZOS)


def jpeg(img: Image.Image, quality: int | None) -> Image.Image:
    """``img`` saved as a JPEG at ``quality`` and decoded again (a phone's compressed screenshot);
    ``img`` itself where ``quality`` is None."""
    if not quality:
        return img
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality)
    return Image.open(io.BytesIO(buf.getvalue())).convert("RGB")


def digest(screens: Sequence[Any], lines: Callable[[Any], Iterable[str]]) -> str:
    """SHA-256 over each screen's name, size and pixels, then the lines ``lines(screen)`` gives
    (its targets, its absent texts): what freezes a set."""
    h = hashlib.sha256()
    for s in screens:
        h.update(f"{s.name} {s.image.size}".encode())
        h.update(np.asarray(s.image).tobytes())
        for line in lines(s):
            h.update(line.encode())
    return h.hexdigest()


__all__ = ["digest", "jpeg", "package_dir", "pygame_module", "round_mask", "skimage_file", "skimage_picture",
           "svg_mask"]


class TextCanvas:
    """A text set's screen being drawn (the scripts set's, the languages set's): its image, size,
    density, theme colours (an accent from ``accents``, lightened in the dark theme), the margin,
    and the targets and texts drawn so far. The random draws (the light background, then the
    accent) are the sets' own order: their frozen digests depend on it."""

    def __init__(self, rng: Any, width: int, height: int, density: float, dark: bool,
                 accents: Sequence[tuple[int, int, int]]):
        self.rng = rng
        self.w, self.h, self.d = width, height, density
        self.dark = dark
        self.bg = (18, 18, 20) if dark else rng.choice(((255, 255, 255), (250, 250, 250), (246, 247, 251)))
        self.fg = (230, 225, 229) if dark else (32, 33, 36)
        self.grey = (150, 150, 156) if dark else (105, 109, 114)
        accent = rng.choice(accents)
        self.accent = tuple(min(255, int(c * 0.55 + 120)) for c in accent) if dark else accent
        self.img = Image.new("RGB", (width, height), self.bg)
        self.draw = ImageDraw.Draw(self.img)
        self.m = self.px(16)
        self.targets: list[Any] = []
        self.drawn: list[str] = []

    def px(self, dp: float) -> int:
        return int(round(dp * self.d))
