"""Position hints among equals (perception/positions.py position_order): the same heart on every
post is told apart by the hint as a user means it, on boxes and on the icon stress set's screens
(Lucide hearts in a shop's grid) where a one-word hint went to the wrong row before."""

from __future__ import annotations

import pytest

from mobile_agent.screensets import icon_stress as st
from mobile_agent.perception import Perception
from mobile_agent.perception.positions import position_order
from mobile_agent.types import Box
from tests.fakes import system

needs_packages = system.needs_set(st, "dejavu")  # its screens' text is drawn in one of five fonts, DejaVu Sans among them

W, H = 720, 1600


def _at(x: int, y: int) -> Box:
    return Box(x - 24, y - 24, x + 24, y + 24)


# a shop's grid: a heart at each card's top right and a second column's; rows at 21% and 44% height
HEARTS = [_at(296, 345), _at(649, 345), _at(296, 697), _at(649, 697)]


def test_one_axis_hint_means_the_middle_of_the_other_axis():
    # "right" alone of two equally right hearts: the one nearer the middle of the height (a planner
    # would have said "top right" of the upper one)
    assert position_order(HEARTS, ("right",), W, H)[0] == 3
    assert position_order(HEARTS, ("left",), W, H)[0] == 2
    # "top" alone of the top row's two: the one nearer the middle of the width
    assert position_order(HEARTS, ("top",), W, H)[0] == 0
    # "bottom" alone: the lowest row first, whatever the column's distance
    assert position_order(HEARTS + [_at(500, 1400)], ("bottom",), W, H)[0] == 4


def test_two_word_and_center_hints_take_the_nearest_to_that_place():
    assert position_order(HEARTS, ("top", "right"), W, H)[0] == 1
    assert position_order(HEARTS, ("bottom", "left"), W, H)[0] == 2
    assert position_order(HEARTS + [_at(360, 800)], ("center",), W, H)[0] == 4
    # a hint orders every candidate; none is lost, and no hint keeps the order given
    assert sorted(position_order(HEARTS, ("right",), W, H)) == [0, 1, 2, 3]
    assert position_order(HEARTS, (), W, H) == [0, 1, 2, 3]
    assert position_order([], ("top",), W, H) == []


def test_the_extreme_still_wins_beyond_one_column():
    # "right" of a heart far right in the top row and one nearer the middle column in the middle row:
    # the right one (the named axis decides beyond a column's width)
    boxes = [_at(680, 300), _at(480, 800)]
    assert position_order(boxes, ("right",), W, H)[0] == 0


@needs_packages
@pytest.mark.parametrize("index,description,position", [
    (34, "Like", ("top",)), (34, "Like", ("right",)), (22, "Favorite", ("right",)),
    (23, "heart", ("right",)), (35, "Favorite", ("right",)),
])
def test_one_word_hints_on_repeated_hearts_ground_the_meant_row(index, description, position):
    screen = st.stress_screen(index)
    w, h = screen.image.size
    from mobile_agent.screensets.measure import position_hint

    target = next(t for t in screen.targets if t.description == description
                  and position_hint(t.box, w, h) == position)
    g = Perception().ground_icon(screen.image, description, position)
    assert g.status == "found" and target.box.contains_point(g.chosen.point), (screen.name, target, g.candidates[:4])


@needs_packages
@pytest.mark.parametrize("index,description,position", [
    (33, "Gallery", ("bottom", "left")), (44, "Gallery", ("bottom", "left")), (52, "Gallery", ("left",)),
])
def test_other_glyphs_close_in_score_are_no_equals(index, description, position):
    # a composer's gallery beside its plus and camera, a settings row's icon among the rows' leading
    # icons: the hint does not move the tap to the neighbour nearer its corner (it did while any
    # candidate within 0.05 counted as an equal)
    screen = st.stress_screen(index)
    target = next(t for t in screen.targets if t.description == description)
    g = Perception().ground_icon(screen.image, description, position)
    assert g.status == "found" and target.box.contains_point(g.chosen.point), (screen.name, target, g.candidates[:4])


@needs_packages
def test_the_same_glyph_is_told_from_its_neighbours():
    import numpy as np

    from mobile_agent.perception.icons.offline import same_glyph

    shop = st.stress_screen(34)
    rgb = np.asarray(shop.image)
    icons = [i.box for i in Perception().parse(shop.image, icons=True).icons]

    def smallest_at(x: int, y: int) -> Box:
        return min((b for b in icons if b.contains_point(_at(x, y).center)), key=lambda b: b.area)

    hearts = [smallest_at(296, 345), smallest_at(648, 345), smallest_at(296, 697)]
    assert same_glyph(rgb, hearts[0], hearts[1]) and same_glyph(rgb, hearts[0], hearts[2])
    # the same heart moved by a third of its size, or a box of another size, is not the same glyph
    h = hearts[0]
    assert not same_glyph(rgb, h, Box(h.x1 + h.width // 3, h.y1, h.x2 + h.width // 3, h.y2))
    assert not same_glyph(rgb, h, Box(h.x1 - 10, h.y1 - 10, h.x2 + 10, h.y2 + 10))
