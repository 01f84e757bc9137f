"""A modal's scrim: the page under a dialog, dimmed.

A dialog (an alert, a confirmation, a sheet that holds the screen) is drawn over its page with a
scrim: the whole page behind it, its texts, pictures and bars alike, is darkened by one factor
(Android dims a dialog's window behind to about 40-60% of its light). The page's texts stay legible
in the picture, but a tap there only closes the dialog or does nothing: they are not what Click
Text should answer while the dialog is up, and the dialog's own texts are.

:func:`modal_card` finds such a dialog from the picture alone: the brightest large region of one
light (the dialog's surface, its text holes closed), roughly rectangular, and, outside it, nothing
anywhere near as light: where the page's whites are all dimmed to under 80% of the surface's light,
the page lies under a scrim. A page without a modal has its own whites (a background, a bar, a
keyboard) or a white text on a dark theme somewhere outside any one card.
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from mobile_agent.types import Box

# Worked on a copy scaled down by this factor (a dialog is large; its edge need not be exact).
_SCALE = 4
# The surface of a dialog: at least half the screen's width and 6% of its height, at most 80% of
# the area below the status bar, filling 85% of its bounding box (rounded corners, a shadow).
_MIN_W, _MIN_H, _MAX_AREA, _MIN_FILL = 0.5, 0.06, 0.8, 0.85
# Outside it, the light that a scrim leaves at most (a share of the surface's light), measured on
# the brightest 0.2% of the outside's pixels (a few specks may escape: an anti-aliased edge).
_DIMMED = 0.8
_TOP_SHARE = 99.8
# A scrim dims a page, and a page is mostly its flat background (dialogs and sheets of real apps: 74-93%
# of the outside's pixels flat); a photo above a light body, the shape of a detail page, is texture
# nearly everywhere (2-8%). Flat: a luminance gradient (Sobel, |dx|+|dy|, on the scaled copy) under
# _FLAT_GRAD; the outside must be at least _MIN_FLAT flat.
_FLAT_GRAD, _MIN_FLAT = 8.0, 0.4


def modal_card(rgb: np.ndarray, top: int = 0) -> Box | None:
    """The box of a dialog drawn over a page dimmed by a scrim (see the module's documentation),
    or ``None`` where the screen has none. ``top``: the status bar's height (left out: the system
    draws it, dimmed or not; so is a navigation bar's strip at the bottom, twice as tall, when the
    outside's light is measured)."""
    import cv2

    if rgb.ndim != 3 or rgb.shape[0] < 8 * _SCALE or rgb.shape[1] < 8 * _SCALE:
        return None
    h, w = rgb.shape[:2]
    small = cv2.resize(np.ascontiguousarray(rgb[top:]), (w // _SCALE, (h - top) // _SCALE), interpolation=cv2.INTER_AREA)
    lum = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY).astype(np.float32)
    sh, sw = lum.shape
    grad = np.abs(cv2.Sobel(lum, cv2.CV_32F, 1, 0, ksize=3)) + np.abs(cv2.Sobel(lum, cv2.CV_32F, 0, 1, ksize=3))
    bright = float(np.percentile(lum, _TOP_SHARE))
    found = None
    if bright >= 96:  # (on a dark screen the surface is not its lightest region: below)
        found = _card(lum, grad, lum >= bright - 16, top, None)
    if found is None:
        # the full-size luminance, made once however many grey levels are tried as the card's surface
        full = functools.cache(lambda: cv2.cvtColor(np.ascontiguousarray(rgb[top:]), cv2.COLOR_RGB2GRAY))
        found = _dark_card(lum, grad, top, full)
    if found is None:
        return None
    x, y, bw, bh = found
    return Box(x * _SCALE, top + y * _SCALE, (x + bw) * _SCALE, top + (y + bh) * _SCALE)


def _card(lum: np.ndarray, grad: np.ndarray, surface_mask: np.ndarray, top: int,
          full: Callable[[], np.ndarray] | None) -> tuple[int, int, int, int] | None:
    """The dialog's card (x, y, w, h on the scaled copy) made of ``surface_mask``'s largest region,
    or ``None`` where it is no dialog's card or the page outside it is not dimmed. ``full``: on a
    dark theme, the screen's luminance at full size (below the status bar), where the card's own
    texts' light is measured against the page's (the surface itself is darker than the page's
    dimmed texts, and thin text fades on the scaled copy); ``None``: the surface's light."""
    import cv2

    sh, sw = lum.shape
    mask = surface_mask.astype(np.uint8)
    k = max(3, sw // 40) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if n < 2:
        return None
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, bw, bh, area = (int(v) for v in stats[i])
    if full is not None:
        # a dark card's pictures (a list of flags, thumbnails) are holes in its surface: filled
        region = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(region, contours, -1, 1, thickness=cv2.FILLED)
        area = int(region.sum())
    if bw < _MIN_W * sw or bh < _MIN_H * sh or bw * bh > _MAX_AREA * sw * sh or area < _MIN_FILL * bw * bh:
        return None
    if y <= 1 and y + bh >= sh - max(2, (2 * top) // _SCALE) - 1 and (x <= 1 or x + bw >= sw - 1):
        return None  # an open navigation drawer: a side panel the screen's height, no dialog's card
    light = float(np.median(lum[labels == i]))
    outside = np.ones_like(mask, dtype=bool)
    m = 2  # the card's edge and shadow
    outside[max(0, y - m):y + bh + m, max(0, x - m):x + bw + m] = False
    outside[max(0, sh - (2 * top) // _SCALE):] = False  # the navigation bar's strip
    if outside.sum() < 0.1 * sw * sh:
        return None
    if full is not None:
        # a dark theme: the card floats (inset from the sides, or a sheet up from the bottom: a top
        # bar spans the width at the top), its own texts are light, the page's under the scrim dimmed
        if x <= 1 and x + bw >= sw - 1 and y + bh < sh - max(2, (2 * top) // _SCALE) - 2:
            return None
        if float(np.median(lum[outside])) >= light:
            return None
        big = full()
        s = _SCALE
        inside = big[y * s:(y + bh) * s, x * s:(x + bw) * s]
        light = float(np.percentile(inside, _TOP_SHARE))
        if light < _DARK_TEXTS:
            return None
        out = np.ones(big.shape, dtype=bool)
        out[max(0, (y - m) * s):(y + bh + m) * s, max(0, (x - m) * s):(x + bw + m) * s] = False
        out[max(0, big.shape[0] - 2 * top):] = False
        page = big[out]
        if float(np.percentile(page, _TOP_SHARE)) > _DIMMED * light:
            return None
        # A dark page holds few light pixels: a short list or a lone header on a black page is
        # under 0.2% of it, and a keyboard's grey panel up from the bottom (Gboard's dark theme)
        # looks like a sheet over a dimmed page. A scrim dims every text of the page: more than a
        # speck's worth of pixels as light as the card's texts (_LIT_PIXELS at 1080 px across, a
        # short word's strokes) is a page that is not dimmed.
        if int(np.count_nonzero(page > _DIMMED * light)) >= _LIT_PIXELS * (big.shape[1] / 1080.0) ** 2:
            return None
    elif float(np.percentile(lum[outside], _TOP_SHARE)) > _DIMMED * light:
        return None
    if float((grad[outside] < _FLAT_GRAD).mean()) < _MIN_FLAT:
        return None  # a picture above a light body (a detail page's photo header), no dimmed page
    return x, y, bw, bh


# A dark theme's dialog (Material's dark elevation: a grey surface, #1F-#42, over a dark page dimmed
# by the scrim): the card is a flat grey, one level over a large region (the dimmed page is darker,
# or a photo or gradient of many levels), and the card's texts are light while the page's are
# dimmed. The surface: one of the most common flat greys (up to _DARK_TRIES of them, each at least
# _DARK_SHARE of the screen) between _DARK_MIN and _DARK_MAX; its texts at least _DARK_TEXTS light.
_DARK_MIN, _DARK_MAX, _DARK_TEXTS, _DARK_SHARE, _DARK_TRIES = 12, 110, 160, 0.02, 3
# Pixels of the page outside a dark card as light as the card's texts that tell an undimmed page.
_LIT_PIXELS = 100


def _dark_card(lum: np.ndarray, grad: np.ndarray, top: int,
               full: Callable[[], np.ndarray]) -> tuple[int, int, int, int] | None:
    flat = grad < _FLAT_GRAD
    levels = np.rint(lum[flat]).astype(np.int32)
    if levels.size < 0.2 * lum.size:
        return None
    hist = np.bincount(levels, minlength=256)[:_DARK_MAX + 1].copy()
    hist[:_DARK_MIN] = 0
    for _ in range(_DARK_TRIES):
        surface = int(np.argmax(hist))
        if hist[surface] < _DARK_SHARE * lum.size:
            return None
        found = _card(lum, grad, np.abs(lum - surface) <= 2, top, full)
        if found is not None:
            return found
        hist[max(0, surface - 4):surface + 5] = 0
    return None
