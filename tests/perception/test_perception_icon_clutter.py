"""Click Icon on a cluttered app screen (icons from Remix Icon and Phosphor, sets the matcher does not
use as references): round photo avatars, photo thumbnails and a coloured FAB beside the named
icons. An avatar is what "profile picture" names; photos and avatars never win for a glyph."""

from __future__ import annotations

import pytest

from mobile_agent.perception import Perception
from mobile_agent.perception.icons.layout import layout_prior
from mobile_agent.types import Box
from icon_sets import app_screen

LOOKS = [((1080, 2400), False, "remixicon"), ((720, 1600), True, "phosphor"), ((1440, 3200), False, "phosphor")]


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


@pytest.mark.parametrize("size,dark,icon_set", LOOKS)
def test_profile_picture_is_the_round_photo_in_the_top_bar(perception, size, dark, icon_set):
    img, boxes = app_screen(*size, dark=dark, icon_set=icon_set)
    for words, hint in (("profile picture", ()), ("Profile photo", ("top", "right")), ("account avatar", ())):
        g = perception.ground_icon(img, words, hint)
        assert g.found and boxes["avatar"].contains_point(g.point), (words, g.point, g.message)
    # the person glyph's words still do not take the photo for a search or a share
    g = perception.ground_icon(img, "Search")
    assert g.found and boxes["search"].contains_point(g.point), g.point


@pytest.mark.parametrize("size,dark,icon_set", LOOKS)
def test_clutter_does_not_win_over_the_named_icon(perception, size, dark, icon_set):
    img, boxes = app_screen(*size, dark=dark, icon_set=icon_set)
    missed = []
    for words, key in (("Navigate up", "back"), ("Search", "search"), ("Share", "share"),
                       ("More options", "more"), ("Add", "add"), ("plus", "add"), ("three dots", "more")):
        g = perception.ground_icon(img, words)
        if not (g.found and boxes[key].contains_point(g.point)):
            missed.append((words, g.point and g.point.as_tuple()))
    assert not missed, missed


def test_layout_prior_puts_families_where_apps_put_them():
    w, h = 1080, 2400

    def at(x: int, y: int) -> Box:
        return Box(x - 40, y - 40, x + 40, y + 40)

    assert layout_prior({"back"}, at(80, 150), w, h) == 1.0          # toolbar, left end
    assert layout_prior({"back"}, at(540, 1200), w, h) == 0.0        # the middle of the content
    assert layout_prior({"more"}, at(1020, 150), w, h) == 1.0        # toolbar, right end
    assert layout_prior({"more"}, at(1020, 1200), w, h) < 1.0        # a row's trailing ⋮
    assert layout_prior({"add"}, at(960, 2200), w, h) == 1.0         # the FAB
    assert layout_prior({"home"}, at(130, 2330), w, h) > 0.5         # bottom navigation
    assert layout_prior({"search"}, at(700, 20), w, h) == 0.0        # the status bar
    assert layout_prior({"back"}, at(80, 150), 2400, 1080) == 0.0    # landscape: no prior
    assert layout_prior(set(), at(80, 150), w, h) == 0.0
