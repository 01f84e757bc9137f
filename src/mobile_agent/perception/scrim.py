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
    bright = float(np.percentile(lum, _TOP_SHARE))
    if bright < 96:  # a dark screen: its surface is not told from its scrim this way
        return None
    mask = (lum >= bright - 16).astype(np.uint8)
    k = max(3, sw // 40) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if n < 2:
        return None
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, bw, bh, area = (int(v) for v in stats[i])
    if bw < _MIN_W * sw or bh < _MIN_H * sh or bw * bh > _MAX_AREA * sw * sh or area < _MIN_FILL * bw * bh:
        return None
    if y <= 1 and y + bh >= sh - max(2, (2 * top) // _SCALE) - 1 and (x <= 1 or x + bw >= sw - 1):
        return None  # an open navigation drawer: a side panel the screen's height, no dialog's card
    surface = float(np.median(lum[labels == i]))
    outside = np.ones_like(mask, dtype=bool)
    m = 2  # the card's edge and shadow
    outside[max(0, y - m):y + bh + m, max(0, x - m):x + bw + m] = False
    outside[max(0, sh - (2 * top) // _SCALE):] = False  # the navigation bar's strip
    if outside.sum() < 0.1 * sw * sh:
        return None
    if float(np.percentile(lum[outside], _TOP_SHARE)) > _DIMMED * surface:
        return None
    grad = np.abs(cv2.Sobel(lum, cv2.CV_32F, 1, 0, ksize=3)) + np.abs(cv2.Sobel(lum, cv2.CV_32F, 0, 1, ksize=3))
    if float((grad[outside] < _FLAT_GRAD).mean()) < _MIN_FLAT:
        return None  # a picture above a light body (a detail page's photo header), no dimmed page
    return Box(x * _SCALE, top + y * _SCALE, (x + bw) * _SCALE, top + (y + bh) * _SCALE)
