"""Short texts the text detector does not find: badges and display text.

The text detector runs on the screenshot scaled down (800 px on its long side). Two kinds of text
fall outside what it finds there, and the recogniser reads both without trouble once it is given
the crop:

- Badges (:func:`badge_boxes`): apps put counts and short tags on small filled shapes of one
  colour: a notification count ("3", "99+") on a red disc beside a tab or a row, "+3" on an avatar
  stack's last disc, a quantity "x10" on a pill, "NEW" or "LIVE" on a tag. Scaled down, such a
  badge's text is a few pixels tall in light ink on a saturated fill. The shapes are found from the
  picture alone, with no colour or size a particular app uses: a closed outline, filled with one
  colour of its own (not the colour around it) for most of its inside, roughly convex, about as
  tall as a line of small text, with ink of another colour inside it.
- Display text (:func:`display_boxes`): a weather app's temperature, a clock's or a timer's time, a
  step count, drawn at 48 sp or more in a light or thin weight: scaled down, its strokes are a
  pixel or two wide on glyphs a sixth of the screen wide, and the detector finds no line. The
  glyphs are found as tall ink outlines standing side by side on one row.

Click Text reads them (one crop each) only where a short target was found nowhere else, so a hit
costs nothing.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from mobile_agent.types import Box

# A badge's height as a share of the screen's width: about 12 dp (a small count disc) to 40 dp (a
# tag pill at a large font scale) on phones of 360-480 dp width.
_MIN_H_SHARE = 0.022
_MAX_H_SHARE = 0.11
_MIN_H_PX = 12


def _big_enough(rgb: np.ndarray) -> bool:
    """Whether ``rgb`` is a colour image of at least a small badge's height on both sides."""
    return rgb.ndim == 3 and rgb.shape[0] >= _MIN_H_PX and rgb.shape[1] >= _MIN_H_PX


def _read_already(box: Box, known: Sequence[Box], share: float = 0.3) -> bool:
    """Whether ``share`` (30%) or more of ``box`` lies in one of ``known`` (a line OCR read already)."""
    for kb in known:
        part = box.intersect(kb)
        if not part.is_empty() and part.area >= share * box.area:
            return True
    return False


def badge_boxes(rgb: np.ndarray, known: Sequence[Box] = (), limit: int = 24) -> list[Box]:
    """Boxes of small filled discs or pills with ink of another colour inside (see the module's
    documentation), those overlapping none of ``known`` (lines OCR read already), at most
    ``limit``, largest share of ink first. Nothing for an image too small or of one colour."""
    import cv2

    if not _big_enough(rgb):
        return []
    h, w = rgb.shape[:2]
    lo = max(_MIN_H_PX, int(_MIN_H_SHARE * min(w, h)))
    hi = max(lo + 1, int(_MAX_H_SHARE * min(w, h)))
    # An outline is where any channel changes (a red disc on a blue bar may be of one grey level).
    k = np.ones((3, 3), np.uint8)
    grad = np.max(np.stack([cv2.morphologyEx(np.ascontiguousarray(rgb[..., c]), cv2.MORPH_GRADIENT, k)
                            for c in range(3)]), axis=0)
    mask = (grad > 48).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found: list[tuple[float, Box]] = []
    for cnt in contours:
        x, y, bw, bh = cv2.boundingRect(cnt)
        if not (lo <= bh <= hi and 0.8 * bh <= bw <= 4.5 * bh):
            continue
        box = Box(int(x), int(y), int(x + bw), int(y + bh))
        if _read_already(box, known):
            continue
        ink = _badge_ink(rgb, cnt, box)
        if ink is not None:
            found.append((ink, box))
    found.sort(key=lambda f: -f[0])
    return [b for _, b in found[:limit]]


def _badge_ink(rgb: np.ndarray, contour: np.ndarray, box: Box) -> float | None:
    """The share of a filled shape's inside that is ink of another colour than its fill, or
    ``None`` where the outline is no badge: not roughly convex or not filling its box like a disc
    or a pill, its inside not mostly of one colour, or no ink (or mostly ink) inside."""
    import cv2

    area = float(cv2.contourArea(contour))
    if area < 0.7 * box.area:  # a disc fills pi/4 of its box, a pill or a rounded tag more
        return None
    hull = float(cv2.contourArea(cv2.convexHull(contour)))
    if hull <= 0 or area / hull < 0.92:
        return None
    shape = np.zeros((box.height, box.width), np.uint8)
    cv2.drawContours(shape, [contour - np.array([[box.x1, box.y1]])], -1, 1, thickness=-1)
    # the inside, away from the outline's anti-aliased edge
    edge = max(2, box.height // 8)
    inside = cv2.erode(shape, np.ones((2 * edge + 1, 2 * edge + 1), np.uint8)).astype(bool)
    if inside.sum() < 16:
        return None
    crop = rgb[box.y1:box.y2, box.x1:box.x2].astype(np.int16)
    px = crop[inside]
    q = px // 24
    vals, counts = np.unique(q, axis=0, return_counts=True)
    fill = px[(q == vals[counts.argmax()]).all(axis=1)].mean(axis=0)
    diff = np.abs(px - fill).max(axis=1)
    fill_share = float((diff <= 40).mean())
    ink_share = float((diff > 90).mean())
    if fill_share < 0.45 or not 0.04 <= ink_share <= 0.5:
        return None
    # A badge is a shape of its own colour: its fill differs from what lies around it (a letter
    # "o" or a radio button's ring encloses the background's colour).
    y1, y2 = max(0, box.y1 - edge), min(rgb.shape[0], box.y2 + edge)
    x1, x2 = max(0, box.x1 - edge), min(rgb.shape[1], box.x2 + edge)
    around = np.ones((y2 - y1, x2 - x1), bool)
    around[box.y1 - y1:box.y2 - y1, box.x1 - x1:box.x2 - x1] = ~shape.astype(bool)
    grown = cv2.dilate(shape, np.ones((3, 3), np.uint8)).astype(bool)
    around[box.y1 - y1:box.y2 - y1, box.x1 - x1:box.x2 - x1] &= ~grown
    out = rgb[y1:y2, x1:x2][around].astype(np.int16)
    if out.size == 0 or float(np.abs(np.median(out, axis=0) - fill).max()) < 48:
        return None
    return ink_share


# Display glyphs' height as a share of the screen's width: a 48 sp light numeral is about 0.09 of
# it; from 0.06 (smaller text the detector finds) to a third (a clock's digits).
_DISPLAY_MIN_SHARE = 0.06
_DISPLAY_MAX_SHARE = 0.34


def display_boxes(rgb: np.ndarray, known: Sequence[Box] = (), limit: int = 8) -> list[Box]:
    """Boxes of runs of tall glyphs side by side on one row (see the module's documentation), with
    a margin, those overlapping none of ``known``, at most ``limit``, the widest first. Glyphs are
    ink outlines (dark on light and light on dark alike) of a display numeral's height; outlines
    inside another (the holes of an "8") are left out, and a run's neighbours are of a like height,
    overlap it vertically by half and stand less than their height apart."""
    import cv2

    if not _big_enough(rgb):
        return []
    h, w = rgb.shape[:2]
    lo, hi = max(24, int(_DISPLAY_MIN_SHARE * min(w, h))), int(_DISPLAY_MAX_SHARE * min(w, h))
    gray = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2GRAY)
    grad = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    mask = (grad > 60).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    glyphs = []
    for cnt in contours:
        x, y, bw, bh = (int(v) for v in cv2.boundingRect(cnt))
        if lo <= bh <= hi and 0.15 * bh <= bw <= 1.5 * bh:
            glyphs.append(Box(x, y, x + bw, y + bh))
    glyphs.sort(key=lambda b: b.x1)
    runs: list[list[Box]] = []
    for g in glyphs:
        for run in runs:
            last = run[-1]
            overlap = min(last.y2, g.y2) - max(last.y1, g.y1)
            if (0.6 <= g.height / last.height <= 1.67 and overlap >= 0.5 * min(last.height, g.height)
                    and -0.1 * g.height <= g.x1 - last.x2 <= g.height):
                run.append(g)
                break
        else:
            runs.append([g])
    out: list[Box] = []
    for run in runs:
        box = Box.enclosing(run)
        m = box.height // 4
        box = Box(max(0, box.x1 - m), max(0, box.y1 - m // 2), min(w, box.x2 + m), min(h, box.y2 + m // 2))
        if _read_already(box, known):
            continue
        out.append(box)
    out.sort(key=lambda b: -b.width)
    return out[:limit]


# Masked and placeholder text (a password field's dots, a code field's dashes): a row of like marks
# whose larger side is 0.5% of the screen's width or more (a 4 dp dot), at most 3.5% for a dot or a
# star (a mask at a large font scale; an icon is larger) and 10% for a dash (a code box's underline).
_MARK_MIN_SHARE = 0.005
_MARK_MAX_SHARE = {"dot": 0.035, "star": 0.035, "dash": 0.10}

_Blob = tuple[int, int, int, int, int, bool]  # x, y, width, height, area, dark ink


def _mark_shape(bw: int, bh: int, fill: float, shape: str, w: int) -> bool:
    """Whether a connected blob of ink ``bw`` x ``bh`` filling ``fill`` of its box has ``shape``:
    a round ``dot`` (about square, solid: a ring such as a letter "o" fills less), a ``star``
    (about square, spiky), a flat ``dash``."""
    if shape == "dash":
        return bw >= 1.8 * bh and bh <= 0.02 * w and fill >= 0.7
    if not 0.7 <= bw / bh <= 1.43:
        return False
    return fill >= 0.72 if shape == "dot" else 0.3 <= fill <= 0.75


def _ink_masks(rgb: np.ndarray) -> dict[bool, np.ndarray]:
    """Ink on any ground, keyed by darkness: what stands 30 grey levels off its surroundings' mean
    (dark on light: ``True``; light on dark: ``False``)."""
    import cv2

    gray = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2GRAY)
    block = max(15, int(0.05 * gray.shape[1])) | 1
    # The threshold is the mean less C: under it for dark ink (C = 30), over it for light (C = -30).
    return {dark: cv2.adaptiveThreshold(gray, 1, cv2.ADAPTIVE_THRESH_MEAN_C,
                                        cv2.THRESH_BINARY_INV if dark else cv2.THRESH_BINARY, block, 30 if dark else -30)
            for dark in (True, False)}


def _mark_blobs(ink: dict[bool, np.ndarray], shape: str) -> list[_Blob]:
    """Blobs of ink of ``shape``."""
    import cv2

    w = ink[True].shape[1]
    lo, hi = max(3, _MARK_MIN_SHARE * w), _MARK_MAX_SHARE[shape] * w
    out = []
    for dark, mask in ink.items():
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for x, y, bw, bh, area in stats[1:n].tolist():
            if lo <= max(bw, bh) <= hi and min(bw, bh) >= 2 and _mark_shape(bw, bh, area / (bw * bh), shape, w):
                out.append((x, y, bw, bh, area, dark))
    return out


def _alike(a: _Blob, b: _Blob, mask: np.ndarray) -> bool:
    """Whether two blobs are the same mark drawn twice: same ink, the same size and area within a
    pixel or a tenth, centres on one line, and the same shape (their ink laid over each other
    overlaps by two thirds or more): letters of a word differ in one or the other."""
    if a[5] != b[5]:
        return False
    for s, t in ((a[2], b[2]), (a[3], b[3])):
        if abs(s - t) > max(1, 0.1 * max(s, t)):
            return False
    if abs(a[4] - b[4]) > 0.2 * max(a[4], b[4]):
        return False
    if abs((a[1] + a[3] / 2) - (b[1] + b[3] / 2)) > max(1.5, 0.2 * max(a[3], b[3])):
        return False
    w, h = min(a[2], b[2]), min(a[3], b[3])
    ia = mask[a[1]:a[1] + h, a[0]:a[0] + w].astype(bool)
    ib = mask[b[1]:b[1] + h, b[0]:b[0] + w].astype(bool)
    union = int((ia | ib).sum())
    return union > 0 and (ia & ib).sum() >= 0.67 * union


def _mark_groups(run: list[_Blob]) -> list[int] | None:
    """How many marks each group of a row holds, groups being split where the gap is well over the
    row's usual gap (a space); ``None`` where the marks are not evenly spaced within groups."""
    gaps = [b[0] - (a[0] + a[2]) for a, b in zip(run, run[1:])]
    usual = float(np.median(gaps))
    size = max(run[0][2], run[0][3])
    split = max(1.8 * usual, usual + 0.5 * size)
    groups = [1]
    for g in gaps:
        if g > split:
            groups.append(1)
        else:
            if g < usual - max(2, 0.5 * usual):
                return None
            groups[-1] += 1
    return groups


def _stands_alone(mask: np.ndarray, run: list[_Blob], box: Box) -> bool:
    """Whether a row of marks is all the ink on its line: between its marks and for a step on
    either side, the ink of its band (a mark's height above and below) lies in its marks' columns,
    but for a thin bar (a text cursor beside the first mark). A row of like letters inside a word,
    or dots between words, has other ink there."""
    step = max(run[0][2], run[0][3]) + float(np.median([b[0] - (a[0] + a[2]) for a, b in zip(run, run[1:])]))
    y1, y2 = max(0, box.y1 - box.height), min(mask.shape[0], box.y2 + box.height)
    x1, x2 = max(0, int(box.x1 - step)), min(mask.shape[1], int(box.x2 + step) + 1)
    cols = mask[y1:y2, x1:x2].any(axis=0)
    for b in run:
        cols[max(0, b[0] - 1 - x1):b[0] + b[2] + 1 - x1] = False
    return int(cols.sum()) <= max(2, 0.25 * step)


def mark_rows(rgb: np.ndarray, shape: str, groups: Sequence[int], text: Sequence[Box] = ()) -> list[tuple[Box, float]]:
    """Rows of small like marks of ``shape`` (``dot``, ``star``, ``dash``: see
    ``textmatch.mask_query``) on one line, evenly spaced, alone on their line, whose groups (split
    by wider gaps) hold about ``groups`` marks each (as many groups; each within a fifth of its
    count, rounded down: exactly under five marks): a password field's mask, a code field's placeholder. Rows lying mostly in one of
    ``text`` (lines OCR read as letters or digits) are part of a text, not a mask. Each row's box
    with a score (1 where the counts agree, less the more they differ), best first."""
    if not _big_enough(rgb) or not groups:
        return []
    ink = _ink_masks(rgb)
    blobs = sorted(_mark_blobs(ink, shape), key=lambda b: b[0])
    runs: list[list[_Blob]] = []
    for b in blobs:
        for run in runs:
            last = run[-1]
            reach = 2.5 * max(last[2], last[3])  # a mask's gaps, a space included, are narrower
            if _alike(last, b, ink[b[5]]) and -1 <= b[0] - (last[0] + last[2]) <= reach:
                run.append(b)
                break
        else:
            runs.append([b])
    want = sum(groups)
    out: list[tuple[Box, float]] = []
    for run in runs:
        if len(run) < 2:
            continue
        got = _mark_groups(run)
        if got is None or len(got) != len(groups):
            continue
        if any(abs(g - q) > int(0.2 * q) for g, q in zip(got, groups)):
            continue
        box = Box(min(b[0] for b in run), min(b[1] for b in run),
                  max(b[0] + b[2] for b in run), max(b[1] + b[3] for b in run))
        if _read_already(box, text, share=0.5) or not _stands_alone(ink[run[0][5]], run, box):
            continue
        off = sum(abs(g - q) for g, q in zip(got, groups))
        out.append((box, round(1.0 - off / (2.0 * want), 4)))
    out.sort(key=lambda f: -f[1])
    return out
