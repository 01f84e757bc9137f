"""What a crop of the screen looks like, whatever it is named: a picture or a glyph.

Pixel measures of one crop (an RGB array), shared by the shape matcher (``offline``) and the
layout's rules (``layout``): how much it looks like a photo, how shaded, how round its outline is.
They read no description, so both may use them without importing each other.
"""

from __future__ import annotations

import cv2
import numpy as np


def picture_score(crop: np.ndarray) -> float:
    """How much a crop looks like a picture (a photo, a cover, an avatar) rather than a glyph:
    large, with many colours and texture."""
    h, w = crop.shape[:2]
    if min(h, w) < 60:
        return 0.0
    small = cv2.resize(crop, (32, 32), interpolation=cv2.INTER_AREA)
    colours = len(np.unique((small // 32).reshape(-1, 3), axis=0))
    spread = float(small.reshape(-1, 3).std(axis=0).mean())
    return min(1.0, colours / 40.0) * min(1.0, spread / 40.0) * (1.0 if min(h, w) >= 100 else 0.7)


def texture_score(crop: np.ndarray) -> float:
    """How much a crop of any size looks like part of a photo (many colours, shading, grain)
    rather than a glyph: 0 to 1. A glyph is its background, its ink and their anti-aliased blends
    (colours on one line between the two), at most with one more flat colour (a pill, a disc);
    a photo has many colours off that line."""
    h, w = crop.shape[:2]
    if min(h, w) < 12:
        return 0.0
    small = cv2.resize(crop, (24, 24), interpolation=cv2.INTER_AREA).reshape(-1, 3).astype(np.float32)
    border = np.concatenate([small.reshape(24, 24, 3)[0], small.reshape(24, 24, 3)[-1],
                             small.reshape(24, 24, 3)[:, 0], small.reshape(24, 24, 3)[:, -1]])
    bg = np.median(border, axis=0)
    far = small[int(np.argmax(np.abs(small - bg).sum(axis=1)))]
    d = far - bg
    t = np.clip(((small - bg) @ d) / max(1.0, float(d @ d)), 0.0, 1.0)
    resid = np.linalg.norm(small - (bg + t[:, None] * d), axis=1)
    off = small[resid > 30]
    if len(off) < 8:
        return 0.0
    _, counts = np.unique((off // 32).astype(np.int32), axis=0, return_counts=True)
    bins = int((counts >= 4).sum())
    return float(np.clip((bins - 2) / 8.0, 0.0, 1.0))


def shading_score(crop: np.ndarray) -> float:
    """How much a crop is shaded like a photo, 0 to 1, where ``texture_score`` cannot tell (a
    black-and-white or sepia photo has its colours on one line, as a glyph has): a glyph is two
    flat colours whose in-between tones lie only along its edges, next to a strong gradient; a
    photo has in-between tones across smooth areas (shading)."""
    h, w = crop.shape[:2]
    if min(h, w) < 16:
        return 0.0
    side = 64
    small = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)
    border = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]])
    bg = np.median(border, axis=0)
    flat = small.reshape(-1, 3)
    far = flat[int(np.argmax(np.abs(flat - bg).sum(axis=1)))]
    d = far - bg
    if float(np.abs(d).max()) < 40:
        return 0.0
    t = np.clip(((small - bg) @ d) / max(1.0, float(d @ d)), 0.0, 1.0)
    gx = cv2.Sobel(t, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(t, cv2.CV_32F, 0, 1, ksize=3)
    grad = np.sqrt(gx * gx + gy * gy)
    between = (t > 0.2) & (t < 0.8)
    smooth = grad < 0.6
    frac = float((between & smooth).mean())
    return float(np.clip((frac - 0.06) / 0.2, 0.0, 1.0))


def roundness(mask: np.ndarray) -> float:
    """1 for a filled disc (an avatar's outline), lower for other silhouettes."""
    h, w = mask.shape[:2]
    if min(h, w) < 8:
        return 0.0
    aspect = min(h, w) / max(h, w)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return 0.0
    c = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(c)
    fill = area / float(h * w)
    perim = cv2.arcLength(c, True) or 1.0
    circ = 4.0 * np.pi * area / (perim * perim)
    return max(0.0, 1.0 - abs(fill - np.pi / 4) / 0.2) * max(0.0, min(1.0, (circ - 0.6) / 0.3)) * aspect
