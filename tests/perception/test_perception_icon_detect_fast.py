"""Icon detection's fast parts give the very boxes of the code they replaced: box suppression with
all overlaps computed at once (``nms``) against comparing pair by pair (``nms_pairwise``), the
components' boxes from their outer contours (``component_boxes``) against OpenCV's statistics,
and the solid-shape pass's small holes from hole contours and fills (``small_holes``) against
4-connected components with statistics (``small_holes_stats``), on random masks and boxes and
through the whole detector on rendered screens of several sets."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import mobile_agent.perception.icons.cv as cv
from mobile_agent.perception.results import IconBox
from mobile_agent.types import Box
from tests.fakes import system


def _stats_boxes(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """The former way: OpenCV's statistics."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    boxes = stats[:, :4].astype(np.int64)
    boxes[0] = 0
    return n, labels, boxes


@pytest.mark.parametrize("seed", range(4))
def test_component_boxes_equal_opencv_statistics_on_random_masks(seed):
    rng = np.random.default_rng(seed)
    for _ in range(150):
        h, w = (int(v) for v in rng.integers(1, 70, 2))
        mask = ((rng.random((h, w)) < rng.random()) * 255).astype(np.uint8)
        if rng.random() < 0.5:  # blobs with holes, nested blobs, blobs on the border
            mask = cv2.dilate(mask, np.ones((3, 3), np.uint8)) ^ mask
        n, labels, boxes = cv.component_boxes(mask)
        n2, labels2, boxes2 = _stats_boxes(mask)
        assert n == n2
        assert np.array_equal(labels, labels2)
        assert np.array_equal(boxes, boxes2), (mask.shape, n)


def test_component_boxes_of_nothing_and_everything():
    for mask in (np.zeros((5, 7), np.uint8), np.full((5, 7), 255, np.uint8), np.zeros((1, 1), np.uint8)):
        n, _, boxes = cv.component_boxes(mask)
        n2, _, boxes2 = _stats_boxes(mask)
        assert n == n2 and np.array_equal(boxes, boxes2)


def _random_masks(rng: np.random.Generator, count: int, size: int = 80):
    for _ in range(count):
        h, w = (int(v) for v in rng.integers(1, size, 2))
        mask = ((rng.random((h, w)) < rng.random()) * 255).astype(np.uint8)
        r = rng.random()
        if r < 0.3:  # rings: holes, holes in islands in holes, holes on the border
            mask = cv2.dilate(mask, np.ones((3, 3), np.uint8)) ^ mask
        elif r < 0.6:  # blobs
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        if rng.random() < 0.3:  # any non-zero value is foreground
            mask = (mask // 255 * int(rng.integers(1, 256))).astype(np.uint8)
        yield mask


@pytest.mark.parametrize("seed", range(4))
def test_small_holes_equal_the_statistics_way_on_random_masks(seed, monkeypatch):
    fallbacks = []
    stats_way = cv.small_holes_stats
    monkeypatch.setattr(cv, "small_holes_stats", lambda *a: fallbacks.append(1) or stats_way(*a))
    rng = np.random.default_rng(seed)
    found = 0
    for mask in _random_masks(rng, 400):
        max_side = float(rng.choice([1, 3, 10, 1000, rng.random() * 40]))
        fast, slow = cv.small_holes(mask, max_side), stats_way(mask, max_side)
        assert (fast is None) == (slow is None)
        if fast is not None:
            found += 1
            assert fast.dtype == np.uint8 and np.array_equal(fast, slow), (mask.shape, max_side)
    assert found > 50
    assert not fallbacks  # the contours and fills agreed: the statistics were never needed


def test_small_holes_of_nothing_everything_and_a_ring():
    ring = np.zeros((9, 9), np.uint8)
    ring[2:7, 2:7] = 255
    ring[4, 4] = 0  # a one-pixel hole inside a square: the square is the hole of its surroundings
    for mask in (np.zeros((5, 7), np.uint8), np.full((5, 7), 255, np.uint8), np.zeros((1, 1), np.uint8),
                 np.full((1, 1), 255, np.uint8), ring, 255 - ring):
        for max_side in (0, 1, 5, 100):
            fast, slow = cv.small_holes(mask, max_side), cv.small_holes_stats(mask, max_side)
            assert (fast is None) == (slow is None) and (fast is None or np.array_equal(fast, slow))
    assert np.array_equal(cv.small_holes(ring, 5), ring)  # the square, less its own hole
    assert cv.small_holes(ring, 4) is None


@pytest.mark.parametrize("seed", range(4))
def test_nms_keeps_the_boxes_pairwise_comparison_keeps(seed):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        k = int(rng.integers(0, 80))
        items = []
        for _ in range(k):
            x, y = (int(v) for v in rng.integers(0, 200, 2))
            w, h = (int(v) for v in rng.integers(1, 60, 2))
            # few distinct scores: ties are kept in their order by both
            items.append(IconBox(Box(x, y, x + w, y + h), float(rng.choice([0.5, 0.6, 0.7, rng.random()]))))
        items += items[: k // 4]  # exact duplicates
        for thr in (0.3, 0.5, 0.6):
            fast = cv.nms(items, thr)
            slow = cv.nms_pairwise(items, thr)
            assert [id(i) for i in fast] == [id(i) for i in slow]


def test_nms_suppresses_an_overlap_of_exactly_the_threshold():
    a, b = IconBox(Box(0, 0, 10, 10), 0.9), IconBox(Box(0, 0, 10, 5), 0.8)  # IoU 0.5
    assert cv.nms([a, b], 0.5) == cv.nms_pairwise([a, b], 0.5) == [a]
    assert cv.nms([b, a], 0.51) == cv.nms_pairwise([b, a], 0.51) == [a, b]


def _screens() -> list[tuple[str, np.ndarray, list[Box]]]:
    """Rendered screens of the sim and wide sets (text boxes: the tree's texts) and of the held-out
    icon set (no text boxes)."""
    system.require("dejavu", "noto-cjk", "entypo", "glyphicons")  # the wide set's looks, the held-out icon fonts
    from mobile_agent.screensets import icon_heldout
    from mobile_agent.screensets.measure import collect_sim_screens
    from mobile_agent.screensets.wide import collect_wide_screens

    out = []
    for s in collect_sim_screens(seed=0, max_screens=3) + collect_wide_screens(seed=0, max_screens=4)[1:]:
        texts = [n.box for n in s.nodes if n.text and not n.box.is_empty()]
        out.append((s.name, np.asarray(s.image.convert("RGB")), texts))
    for s in icon_heldout.heldout_screens(seed=0, count=3):
        out.append((s.name, np.asarray(s.image.convert("RGB")), []))
    return out


def test_detector_gives_the_former_boxes_on_rendered_screens(monkeypatch):
    screens = _screens()
    det = cv.CvIconDetector()
    fast = [det.detect(rgb, texts) for _, rgb, texts in screens]
    monkeypatch.setattr(cv, "component_boxes", _stats_boxes)
    monkeypatch.setattr(cv, "nms", cv.nms_pairwise)
    monkeypatch.setattr(cv, "small_holes", cv.small_holes_stats)
    slow = [det.detect(rgb, texts) for _, rgb, texts in screens]
    assert sum(len(f) for f in fast) > 10 * len(screens)
    for (name, _, _), f, s in zip(screens, fast, slow):
        assert [(i.box, i.score, i.source) for i in f] == [(i.box, i.score, i.source) for i in s], name
