"""Click Icon among real photographs (scikit-image's bundled pictures) with thin-stroke icons
(Phosphor's light and thin weights; the matcher's references are Font Awesome, Codicons, Elusive and
Material Icons): icons drawn white over a photo are detected and grounded, the account's round photo
is the "profile picture", and neither a photo nor a text with glyph-like characters ("x 2 items",
"Q&A") wins over the named icon."""

from __future__ import annotations

import importlib.util

import pytest

from mobile_agent.perception import Perception
from icon_sets import photo_screen

pytestmark = pytest.mark.skipif(importlib.util.find_spec("skimage") is None,
                                reason="scikit-image (the test extra) brings the photos")

LOOKS = [((1080, 2400), False, "light"), ((720, 1600), True, "thin"), ((1440, 3200), False, "thin")]


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


@pytest.mark.parametrize("size,dark,weight", LOOKS)
def test_thin_icons_on_a_photo_are_detected_and_grounded(perception, size, dark, weight):
    img, boxes = photo_screen(*size, dark=dark, weight=weight)
    icons = perception.parse(img, icons=True).icons or []
    for key in ("back", "share", "like"):
        t = boxes[key]
        glyph = t.width // 2  # the glyph is 24 dp, its touch target 48 dp
        # a box around the icon itself: centred on it, neither a fragment nor the whole photo
        assert any(abs(i.box.center.x - t.center.x) <= glyph // 3 and abs(i.box.center.y - t.center.y) <= glyph // 3
                   and 0.6 * glyph <= max(i.box.width, i.box.height) <= 1.6 * glyph for i in icons), key
    missed = _misses(perception, img, boxes, (("Navigate up", "back"), ("Share", "share"), ("Favorite", "like"),
                                              ("heart", "like")))
    assert not missed, missed


@pytest.mark.parametrize("size,dark,weight", LOOKS)
def test_profile_picture_is_the_round_photo(perception, size, dark, weight):
    img, boxes = photo_screen(*size, dark=dark, weight=weight)
    for words in ("profile picture", "Profile photo"):
        g = perception.ground_icon(img, words)
        assert g.found and boxes["avatar"].contains_point(g.point), (words, g.point)


@pytest.mark.parametrize("size,dark,weight", LOOKS)
def test_photos_and_text_fragments_do_not_win_over_the_named_icon(perception, size, dark, weight):
    img, boxes = photo_screen(*size, dark=dark, weight=weight)
    missed = _misses(perception, img, boxes, (("Close", "close"), ("Search", "search"), ("magnifier", "search"),
                                              ("close button", "close")))
    assert not missed, missed


def _misses(perception, img, boxes, pairs) -> list[tuple[str, tuple[int, int] | None]]:
    """The (words, box key) pairs whose words do not ground inside that box, with where they landed."""
    missed = []
    for words, key in pairs:
        g = perception.ground_icon(img, words)
        if not (g.found and boxes[key].contains_point(g.point)):
            missed.append((words, g.point and g.point.as_tuple()))
    return missed
