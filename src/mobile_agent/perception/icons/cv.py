"""Weight-free icon detection with classical computer vision.

On a phone screen an icon is a compact blob of "ink" (strong local contrast) on a flat background.
The detector works at half resolution: a morphological gradient finds ink on light and dark themes
alike, text lines found by OCR are blanked out, small gaps are closed at two scales (an icon's
separate strokes, e.g. three dots, join at the coarser one), connected components become boxes,
size and aspect filters drop specks, rules and panels, and non-maximum suppression removes
duplicates.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from mobile_agent.perception.icons.density import at_reference, from_reference, to_reference
from mobile_agent.perception.results import IconBox
from mobile_agent.types import Box


def nms(items: list[IconBox], iou_threshold: float = 0.5) -> list[IconBox]:
    """Greedy non-maximum suppression, best score first (ties in their order): a box is kept
    unless a kept box overlaps it by ``iou_threshold`` or more (``Box.iou``). The overlaps of all
    pairs are computed at once with numpy, in the same arithmetic as ``Box.iou`` (the same boxes
    as comparing them pair by pair, which ``nms_pairwise`` does)."""
    order = sorted(items, key=lambda i: -i.score)
    if len(order) < 2:
        return order
    b = np.array([i.box.as_tuple() for i in order], dtype=np.int64)
    x1, y1, x2, y2 = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    area = np.maximum(0, x2 - x1) * np.maximum(0, y2 - y1)
    iw = np.minimum(x2[:, None], x2[None, :]) - np.maximum(x1[:, None], x1[None, :])
    ih = np.minimum(y2[:, None], y2[None, :]) - np.maximum(y1[:, None], y1[None, :])
    inter = np.where((iw > 0) & (ih > 0), iw * ih, 0)
    union = area[:, None] + area[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where(inter > 0, inter / union.astype(np.float64), 0.0)
    overlaps = iou >= iou_threshold
    suppressed = np.zeros(len(order), bool)
    keep: list[IconBox] = []
    for k in range(len(order)):
        if not suppressed[k]:
            keep.append(order[k])
            suppressed |= overlaps[k]
    return keep


def nms_pairwise(items: list[IconBox], iou_threshold: float = 0.5) -> list[IconBox]:
    """``nms`` comparing the boxes pair by pair in Python (the former code; tests hold the two equal)."""
    keep: list[IconBox] = []
    for it in sorted(items, key=lambda i: -i.score):
        if all(it.box.iou(k.box) < iou_threshold for k in keep):
            keep.append(it)
    return keep


def component_boxes(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """The 8-connected components of ``mask`` (uint8, non-zero is foreground): their number with
    the background (label 0), the label image, and each label's bounding box (x, y, width,
    height; row 0 the background's, all zero): what ``cv2.connectedComponentsWithStats`` gives
    less the areas, in its label order. Its statistics cost ten times its labelling, so the boxes
    are those of the components' outer contours (``cv2.findContours``; an outer contour holds the
    component's extreme pixels), each given to the label under its first point. Where the
    contours do not give exactly one box per label, the statistics are computed after all."""
    n, labels = cv2.connectedComponents(mask, connectivity=8, ltype=cv2.CV_32S)
    boxes = np.zeros((n, 4), np.int64)
    if n <= 1:
        return n, labels, boxes
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    seen = np.zeros(n, np.int64)
    if hierarchy is not None:
        for c, link in zip(contours, hierarchy[0]):
            if link[3] >= 0:
                continue  # a hole's contour
            x0, y0 = c[0, 0]
            lab = labels[y0, x0]
            boxes[lab] = cv2.boundingRect(c)
            seen[lab] += 1
    if seen[0] or not bool((seen[1:] == 1).all()):
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_32S)
        boxes = stats[:, :4].astype(np.int64)
        boxes[0] = 0
    return n, labels, boxes


def small_holes(holes: np.ndarray, max_side: float) -> np.ndarray | None:
    """A uint8 mask, 255 on the 4-connected components of ``holes`` (non-zero is foreground) that
    touch no edge of the image and whose bounding box is at most ``max_side`` on both sides, 0
    elsewhere; ``None`` where there is none. The same pixels as labelling the components with
    their statistics (``small_holes_stats``, the former code, which tests hold equal), in about a third of
    its time: a component that touches no edge is a hole of the rest of the image, so the
    candidates are the hole contours of ``holes == 0`` (``cv2.findContours``, whose bounding box
    is the hole's grown by a pixel on each side), and each is filled from the pixel right of its
    contour's first point, where the contour's tracing began (``cv2.floodFill``, 4-connected),
    which gives its exact bounding box. The contour's points are all kept
    (``CHAIN_APPROX_NONE``): a compressed contour may drop that first point. Where a fill does
    not match its contour, the statistics are computed after all."""
    hh, ww = holes.shape[:2]
    work = cv2.compare(holes, 0, cv2.CMP_NE)  # 255 on the holes
    contours, hierarchy = cv2.findContours(cv2.bitwise_not(work), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    found = False
    if hierarchy is not None:
        for c, link in zip(contours, hierarchy[0]):
            if link[3] < 0:
                continue  # an outer contour
            x, y, bw, bh = cv2.boundingRect(c)
            if bw - 2 > max_side or bh - 2 > max_side:
                continue  # the hole is as large as its contour less a pixel on each side
            x0, y0 = (int(v) for v in c[0, 0])
            if x0 + 1 >= ww or work[y0, x0 + 1] != 255:
                return small_holes_stats(holes, max_side)
            _, _, _, rect = cv2.floodFill(work, None, (x0 + 1, y0), 1, 0, 0, 4)
            if tuple(rect) != (x + 1, y + 1, bw - 2, bh - 2):
                return small_holes_stats(holes, max_side)
            if rect[2] <= max_side and rect[3] <= max_side:
                found = True
            else:
                cv2.floodFill(work, None, (x0 + 1, y0), 2, 0, 0, 4)
    if not found:
        return None
    return cv2.compare(work, 1, cv2.CMP_EQ)


def small_holes_stats(holes: np.ndarray, max_side: float) -> np.ndarray | None:
    """``small_holes`` with OpenCV's component statistics (the former code; tests hold the two
    equal)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
    hh, ww = holes.shape[:2]
    x, y, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    small = (bw <= max_side) & (bh <= max_side) & (x > 0) & (y > 0) & (x + bw < ww) & (y + bh < hh)
    small[0] = False  # label 0: the background of ``holes``
    if n <= 1 or not bool(small[1:].any()):
        return None
    return small[labels].astype(np.uint8) * 255


def _holds_label(box: Box, text_boxes: Sequence[Box]) -> bool:
    """Whether ``box`` is the outline of a chip, a button or a field around a text (wider than tall,
    a text line inside that spans a third of it): a control's frame, not a glyph. The glyph beside
    the label inside it (a chip's icon, a field's magnifier) is found on its own."""
    if box.width < 2 * box.height:
        return False
    return any(box.contains_point(t.center) and t.width >= box.width / 3 and t.height <= box.height
               for t in text_boxes)


class CvIconDetector:
    """Classical icon detector (no weights)."""

    name = "cv"

    def __init__(self, min_side: int = 20, max_side_fraction: float = 0.3, max_aspect: float = 3.0,
                 grad_threshold: int = 28, scale: float = 0.5) -> None:
        self.min_side = min_side
        self.max_side_fraction = max_side_fraction
        self.max_aspect = max_aspect
        self.grad_threshold = grad_threshold
        self.scale = scale

    def working(self, rgb: np.ndarray) -> np.ndarray:
        """``rgb`` at the working scale."""
        h, w = rgb.shape[:2]
        s = self.scale
        return cv2.resize(rgb, (max(1, int(w * s)), max(1, int(h * s))), interpolation=cv2.INTER_AREA)

    def ink(self, small: np.ndarray) -> np.ndarray:
        """A uint8 mask of strong local contrast in ``small`` (the screenshot at the working scale)."""
        # Max over channels of the gradient: coloured icons on coloured backgrounds count too.
        k = np.ones((3, 3), np.uint8)
        grad = np.max(np.stack([cv2.morphologyEx(small[:, :, c], cv2.MORPH_GRADIENT, k) for c in range(3)]), axis=0)
        return (grad > self.grad_threshold).astype(np.uint8) * 255

    def solid(self, ink: np.ndarray, max_side: float, open_side: int = 7,
              holes_out: list[np.ndarray] | None = None) -> np.ndarray:
        """``ink`` with its small enclosed holes filled (an outlined shape becomes solid), opened
        with an ``open_side`` square: strokes and lines thinner than that vanish, solid shapes
        stay with their outline. ``holes_out``, where given, receives the mask of those holes."""
        # Thin channels of background (inside a line that runs into the shape) are cut first, so
        # that the inside of the shape is a hole of its own.
        holes = cv2.morphologyEx(cv2.bitwise_not(ink), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        small = small_holes(holes, max_side)
        if holes_out is not None and small is not None:
            holes_out.append(small)
        filled = ink.copy()
        if small is not None:
            filled = cv2.max(filled, small)  # 255 where a small hole is, ink elsewhere
        k = np.ones((open_side, open_side), np.uint8)
        return cv2.morphologyEx(filled, cv2.MORPH_OPEN, k)

    def white_on_picture(self, rgb: np.ndarray, small: np.ndarray, text_boxes: Sequence[Box] = ()) -> np.ndarray:
        """A mask (the size of ``small``, the working scale) of white glyphs over pictures: pure
        white, unsaturated strokes (found at full resolution: a 1.5 dp stroke is a pixel or two
        wide, and halving the image blends it into the photo) whose surroundings are not flat (a
        photo, a gradient, a scrim on a photo) and not white. White icons on a flat bar and a white page are left to the other
        passes; text is left out as there."""
        s = self.scale
        # every channel above 225: white and unsaturated (the channels are within 30 of each other)
        full = cv2.inRange(np.ascontiguousarray(rgb), (226, 226, 226), (255, 255, 255))
        white = (cv2.resize(full, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA) > 40).astype(np.uint8) * 255
        for b in text_boxes:
            white[int(b.y1 * s):int(np.ceil(b.y2 * s)), int(b.x1 * s):int(np.ceil(b.x2 * s))] = 0
        joined = cv2.morphologyEx(white, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        n, labels, stats = component_boxes(joined)
        if n <= 1:
            return np.zeros_like(white)
        keep = np.zeros(n, bool)
        hh, ww = white.shape
        big = np.maximum(stats[:, 2], stats[:, 3])
        sized = np.nonzero((big >= self.min_side * s) & (big <= 0.15 * min(hh, ww)))[0]
        for i in sized[sized > 0]:
            x, y, bw, bh = (int(v) for v in stats[i])
            m = max(3, max(bw, bh) // 3)
            x1, y1, x2, y2 = max(0, x - m), max(0, y - m), min(ww, x + bw + m), min(hh, y + bh + m)
            ring = np.ones((y2 - y1, x2 - x1), bool)
            ring[y - y1:y - y1 + bh, x - x1:x - x1 + bw] = False
            around = small[y1:y2, x1:x2][ring]
            if len(around) < 20 or (white[y1:y2, x1:x2][ring] > 0).mean() > 0.3:
                continue
            if float(around.reshape(-1, 3).std(axis=0).mean()) < 12.0:
                continue  # a flat bar or disc: the ink passes see this icon already
            keep[i] = True
        return keep[labels].astype(np.uint8) * 255

    def detect(self, rgb: np.ndarray, text_boxes: Sequence[Box] = ()) -> list[IconBox]:
        # The sizes below are measured at 1080 px across (icons.density): another density's
        # screenshot is scaled there and its boxes brought back.
        scaled, f = at_reference(rgb)
        if f == 1.0:
            return self._detect(rgb, text_boxes)
        h, w = rgb.shape[:2]
        return [IconBox(from_reference(i.box, f, w, h), i.score, i.source)
                for i in self._detect(scaled, [to_reference(b, f) for b in text_boxes])]

    def _detect(self, rgb: np.ndarray, text_boxes: Sequence[Box] = ()) -> list[IconBox]:
        h, w = rgb.shape[:2]
        s = self.scale
        small = self.working(rgb)
        ink = self.ink(small)
        for b in text_boxes:
            ink[int(b.y1 * s):int(np.ceil(b.y2 * s)), int(b.x1 * s):int(np.ceil(b.x2 * s))] = 0
        found: list[IconBox] = []
        min_side = self.min_side * s
        max_side = self.max_side_fraction * min(w, h) * s
        passes = [(cv2.dilate(ink, np.ones((gap, gap), np.uint8)), gap // 2, bonus)
                  for gap, bonus in ((3, 0.05), (9, 0.0))]
        # Solid shapes touching thin lines (a white heart on a picture, touched by a drawn line):
        # outlines filled, then an opening that removes lines thinner than the kernel.
        holes: list[np.ndarray] = []
        passes.append((self.solid(ink, max_side, holes_out=holes), 0, -0.05))
        # Icons drawn over a photo (Navigate up, Share, a heart on a hero picture or a product
        # shot), thin outlines included: the photo's texture is ink everywhere, so the glyph's
        # strokes join the photo's; they stand out as pure white.
        passes.append((self.white_on_picture(rgb, small, text_boxes), 0, -0.1))
        for grown, half, bonus in passes:
            n, _, stats = component_boxes(grown)
            for i in range(1, n):
                x, y, bw, bh = (int(v) for v in stats[i])
                x, y, bw, bh = x + half, y + half, bw - 2 * half, bh - 2 * half
                big, small_side = max(bw, bh), min(bw, bh)
                if big < min_side or big > max_side or small_side < 3:
                    continue
                aspect = big / max(1, small_side)
                fill = float(np.count_nonzero(ink[y:y + bh, x:x + bw])) / float(bw * bh)
                if fill < 0.04:
                    continue
                slim = small_side < min_side or aspect > self.max_aspect
                if slim:
                    # A column or row of dots, a thin bar glyph: an icon only when short; its tap
                    # target is the square around it.
                    if big > 140 * s or aspect > 8 or big < 1.5 * min_side:
                        continue
                    cx, cy = x + bw / 2.0, y + bh / 2.0
                    x, y, bw, bh = int(cx - big / 2.0), int(cy - big / 2.0), big, big
                box = Box(max(0, int(x / s)), max(0, int(y / s)), min(w, int(np.ceil((x + bw) / s))),
                          min(h, int(np.ceil((y + bh) / s))))
                if _holds_label(box, text_boxes):
                    continue
                side = max(box.width, box.height)
                # Typical phone icons are 40-160 px and roughly square.
                size_fit = 1.0 if 36 <= side <= 180 else 0.7
                score = (0.45 + 0.25 / aspect + 0.2 * size_fit + bonus) * (0.8 if slim else 1.0)
                found.append(IconBox(box, min(1.0, score), "cv"))
        if holes:
            # Only where no other box holds the control: the inside of a glyph that is found
            # already (a speech bubble's, a bell's, a bookmark's) is no second candidate.
            found += [r for r in self.ring_insides(holes[0], ink, small)
                      if not any(f.box.contains_point(r.box.center) for f in found)]
        return nms(found, 0.6)

    def ring_insides(self, holes: np.ndarray, ink: np.ndarray, colour: np.ndarray | None = None) -> list[IconBox]:
        """Radio buttons and checkboxes whose outline runs into a larger frame (Firefox's theme
        and toolbar pickers: a ring on the corner of a picture card's border; a checkbox on a
        list row's or a photo grid cell's edge): their ink is one component with the frame's, too
        large for an icon, but the inside of the ring or the box is an empty hole of its own,
        round or square and icon-sized (holes of ``solid``, at the working scale). Such a hole,
        grown by the outline's width (a fifth of its side each way), is a box. In a selected radio
        button the gap between dot and ring is lost in the ring's ink at the working scale, and the
        dot is the hole (``colour``: the working-scale image, for the flat and page-coloured test)."""
        s = self.scale
        n, _, stats = component_boxes(holes)
        out: list[IconBox] = []
        cands: list[tuple[int, int, int, int, int]] = []
        hh, ww = holes.shape[:2]
        for i in range(1, n):
            x, y, bw, bh = (int(v) for v in stats[i])
            big, small_side = max(bw, bh), min(bw, bh)
            # The inside of a radio button or a checkbox (or a selected one's dot): 18-88 px at
            # full resolution (with the default 20 px ``min_side``; 7-32 dp on a 1080 px-wide
            # screen), as wide as tall.
            if small_side < 0.9 * self.min_side * s or big > 4.4 * self.min_side * s or big > 1.15 * small_side:
                continue
            sub = holes[y:y + bh, x:x + bw]
            contours, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            if len(contours) != 1:
                continue
            share = cv2.contourArea(contours[0]) / float(bw * bh)
            if share < 0.72:  # a disc is 0.785 of its square, a square 1.0
                continue
            g = max(2, int(round(0.2 * big)))
            x1, y1, x2, y2 = max(0, x - g), max(0, y - g), min(ww, x + bw + g), min(hh, y + bh + g)
            # The outline itself: ink along each of its four sides (a photo's or a doodle's
            # patch of no ink is bounded by ink here and there, not all around).
            band = ink[y1:y2, x1:x2] > 0
            if min(band[:g].mean(), band[-g:].mean(), band[:, :g].mean(), band[:, -g:].mean()) < 0.75:
                continue
            # The control's inside is flat and, but for a selected radio button's dot (the gap
            # between dot and ring is lost in the ring's ink at the working scale: a hole under
            # 30 px, 11 dp, in the accent's colour), the page's around it (a white inside on a white halo or
            # page): a flat patch of a photo or a picture differs from its surroundings.
            if colour is not None:
                inside = colour[y:y + bh, x:x + bw][sub > 0].reshape(-1, 3).astype(np.int16)
                ox1, oy1, ox2, oy2 = max(0, x1 - g), max(0, y1 - g), min(ww, x2 + g), min(hh, y2 + g)
                outer = np.ones((oy2 - oy1, ox2 - ox1), bool)
                outer[y1 - oy1:y2 - oy1, x1 - ox1:x2 - ox1] = False
                around = colour[oy1:oy2, ox1:ox2][outer].reshape(-1, 3).astype(np.int16)
                ref = np.median(inside, axis=0)
                if inside.std(axis=0).max() > 8:
                    continue
                if big > 30 * s and (np.abs(around - ref).max(axis=1) <= 16).mean() < 0.25:
                    continue
            cands.append((x1, y1, x2, y2, big))
        for k, (x1, y1, x2, y2, big) in enumerate(cands):
            # A pattern of such cells (a checkerboard, a barcode, a QR code) is no control: a
            # radio button or a checkbox has no like-sized hole within two of its sides.
            cx, cy = (x1 + x2) / 2.0, (y1 + y2) / 2.0
            near = sum(1 for j, o in enumerate(cands) if j != k and abs(o[4] - big) <= 0.3 * big
                       and abs((o[0] + o[2]) / 2.0 - cx) < 2 * big and abs((o[1] + o[3]) / 2.0 - cy) < 2 * big)
            if near:
                continue
            box = Box(int(x1 / s), int(y1 / s), int(np.ceil(x2 / s)), int(np.ceil(y2 / s)))
            out.append(IconBox(box, 0.8, "cv"))
        return out
