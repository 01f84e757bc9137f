"""Where Android puts the framework's own widgets, in dp at several densities: "Navigate up" and the
drawer toggle are the top app bar's first icon at its start, "More options" its last at its end
(mirrored right to left); the status bar is 24-52 dp tall; the three-button navigation bar's 48 dp
are system UI, while on a gesture-navigation phone the same strip is the app's bottom navigation."""

from __future__ import annotations

import numpy as np
import pytest

from mobile_agent.screensets.icon_material import material_screens
from mobile_agent.perception.icons import make_detector
from mobile_agent.perception.icons.lexicon import IconQuery
from mobile_agent.perception.icons.screen import status_bar_excluded, system_bar_factor
from mobile_agent.perception.icons.layout import (dp_scale, framework_place, framework_prior, layout_prior,
                                                   right_to_left, three_button_bar)
from mobile_agent.types import Box

# (width, height, density): 720x1600 at 2x, 1080x2400 at 2.625x, 1440x3200 at 3.5x
PHONES = [(720, 1600, 2.0), (1080, 2400, 2.625), (1440, 3200, 3.5)]


def _at(cx: float, cy: float, d: float, side_dp: float = 24) -> Box:
    h = int(side_dp * d / 2)
    return Box(int(cx) - h, int(cy) - h, int(cx) + h, int(cy) + h)


def _toolbar(w: int, d: float, status_dp: float, bar_dp: float = 64) -> tuple[list[Box], list[Box]]:
    """Icons of a top app bar (up button, two actions, overflow) and a row's trailing ⋮ and arrow
    lower down, and the bar's title, placed in dp."""
    cy = (status_dp + bar_dp / 2) * d
    icons = [_at(28 * d, cy, d), _at(w - 124 * d, cy, d), _at(w - 76 * d, cy, d), _at(w - 28 * d, cy, d),
             _at(w - 28 * d, 400 * d, d), _at(28 * d, 400 * d, d)]
    title = [Box(int(72 * d), int(cy - 10 * d), int(200 * d), int(cy + 10 * d))]
    return icons, title


def test_the_framework_phrases_and_no_others_have_a_place():
    assert framework_place("Navigate up") == "start" and framework_place("navigate  up.") == "start"
    assert framework_place("Open navigation drawer") == framework_place("Close navigation drawer") == "start"
    assert framework_place("More options") == framework_place("Clear query") == "end"
    assert framework_place("Collapse") == "start"
    for other in ("Search", "back arrow", "three dots", "More", "Navigate up to the inbox", ""):
        assert framework_place(other) is None, other


@pytest.mark.parametrize("w,h,d", PHONES)
@pytest.mark.parametrize("status_dp", [24, 52])
def test_navigate_up_and_more_options_are_the_top_bars_ends_at_every_density(w, h, d, status_dp):
    icons, title = _toolbar(w, d, status_dp)
    assert framework_prior("Navigate up", icons, title, w, h) == [1.0, 0, 0, 0, 0, 0]
    assert framework_prior("Open navigation drawer", icons, title, w, h) == [1.0, 0, 0, 0, 0, 0]
    assert framework_prior("More options", icons, title, w, h) == [0, 0, 0, 1.0, 0, 0]
    assert framework_prior("Search", icons, title, w, h) == [0.0] * 6
    # landscape: no prior
    assert framework_prior("Navigate up", icons, title, h, w) == [0.0] * 6


@pytest.mark.parametrize("w,h,d", PHONES)
def test_a_right_to_left_bar_is_mirrored(w, h, d):
    icons, title = _toolbar(w, d, 24)
    # mirror the layout: up button at the right end, overflow at the left, title ending 72 dp from the right
    flip = [Box(w - b.x2, b.y1, w - b.x1, b.y2) for b in icons]
    rtl_title = [Box(w - t.x2, t.y1, w - t.x1, t.y2) for t in title]
    assert right_to_left(rtl_title, w, h) and not right_to_left(title, w, h)
    assert framework_prior("Navigate up", flip, rtl_title, w, h) == [1.0, 0, 0, 0, 0, 0]
    assert framework_prior("More options", flip, rtl_title, w, h) == [0, 0, 0, 1.0, 0, 0]


def test_no_candidate_at_the_bars_end_gives_no_prior():
    w, h, d = 1080, 2400, 2.625
    icons, title = _toolbar(w, d, 24)
    # the up button was not detected: the first action is no up button
    assert framework_prior("Navigate up", icons[1:], title, w, h) == [0.0] * 5


@pytest.mark.parametrize("w,h,d", PHONES)
def test_zones_are_in_dp(w, h, d):
    assert dp_scale(w, h) == pytest.approx(d, rel=0.12)  # 360-411 dp wide phones
    # a 52 dp punch-hole status bar's glyph is status; a top bar icon under a 24 dp status bar is not
    assert status_bar_excluded(_at(w - 40 * d, 26 * d, d, 16), IconQuery.parse("Search"), w, h)
    assert not status_bar_excluded(_at(w - 28 * d, 52 * d, d), IconQuery.parse("Search"), w, h)
    assert layout_prior({"search"}, _at(w - 76 * d, (52 + 32) * d, d), w, h) == 1.0  # 52 dp status, 64 dp bar
    assert layout_prior({"home"}, _at(w / 8, h - (48 + 40) * d, d), w, h) > 0.5  # bottom nav over a 3-button bar
    nav = _at(w / 2, h - 24 * d, d)  # inside the last 48 dp
    assert system_bar_factor(nav, IconQuery.parse("Search"), w, h, nav_bar=True) < 1.0
    assert system_bar_factor(nav, IconQuery.parse("Search"), w, h, nav_bar=False) == 1.0
    assert system_bar_factor(nav, IconQuery.parse("Home"), w, h, nav_bar=True) == 1.0
    assert system_bar_factor(_at(w / 2, h - 60 * d, d), IconQuery.parse("Search"), w, h, nav_bar=True) == 1.0


@pytest.mark.parametrize("w,h,d", PHONES)
def test_three_button_bar_from_boxes(w, h, d):
    y = h - 24 * d
    buttons = [_at(w / 2 - 110 * d, y, d, 18), _at(w / 2, y, d, 18), _at(w / 2 + 110 * d, y, d, 18)]
    assert three_button_bar(buttons, [], w, h)
    assert three_button_bar(buttons[1:], [], w, h)  # Back not detected
    # bottom navigation in the same strip (gesture phone): four or five tabs, or three at the sixths
    four = [_at(w * (2 * k + 1) / 8, y, d) for k in range(4)]
    three = [_at(w * (2 * k + 1) / 6, y, d) for k in range(3)]
    assert not three_button_bar(four, [], w, h)
    assert not three_button_bar(three, [], w, h)
    # tabs with labels
    labels = [Box(int(b.x1), int(h - 8 * d), int(b.x2), int(h - 2 * d)) for b in buttons]
    assert not three_button_bar(buttons, labels, w, h)


@pytest.mark.slow
def test_three_button_bar_on_rendered_screens():
    """The detector's boxes on the Material-styles screens: every screen with a three-button bar is
    seen to have one, no gesture-navigation screen is."""
    det = make_detector("cv")
    wrong = []
    for s in material_screens(count=12):
        rgb = np.asarray(s.image)
        h, w = rgb.shape[:2]
        found = three_button_bar([i.box for i in det.detect(rgb)], [], w, h)
        if found != ("3-button" in s.look):
            wrong.append(f"{s.name} [{s.look}]: {found}")
    assert not wrong, wrong


def _bar_and_lookalikes(w: int, h: int, d: float, style: str):
    """A top app bar drawn with Material Symbols (up button, title, overflow) and, in the content, a
    pager's previous arrow and a card's overflow drawn with the matcher's own reference glyphs
    (Font Awesome): the content's glyphs match the references at least as well as the bar's."""
    from PIL import Image, ImageDraw

    from mobile_agent.screensets.icon_material import draw_glyph
    from mobile_agent.device.sim.look import load_font
    from mobile_agent.perception.icons.offline import reference_mask

    fg = (68, 71, 70)
    img = Image.new("RGB", (w, h), (255, 255, 255))
    cy = int(24 * d) + int(32 * d)
    up = draw_glyph(img, style, "arrow_back", int(28 * d), cy, int(24 * d), fg)
    ImageDraw.Draw(img).text((int(72 * d), cy), "Gallery", font=load_font("inter", int(22 * d), 400), fill=fg,
                             anchor="lm")
    more = draw_glyph(img, style, "more_vert", w - int(28 * d), cy, int(24 * d), fg)
    for spec, cx, y in (("arrow_left", int(40 * d), h // 2), ("ellipsis_vertical", w - int(40 * d), h // 2 + int(120 * d))):
        m = reference_mask(spec)
        mask = Image.fromarray(m).resize((max(1, int(32 * d * m.shape[1] / m.shape[0])), int(32 * d)))
        img.paste(Image.new("RGB", mask.size, fg), (cx - mask.width // 2, y - mask.height // 2), mask)
    return img, up, more


@pytest.mark.parametrize("w,h,d,style", [(1080, 2400, 2.625, "rounded"), (720, 1600, 2.0, "sharp")])
def test_the_framework_place_settles_navigate_up_and_more_options(w, h, d, style):
    """With the framework prior Click Icon answers "Navigate up" and "More options" by itself;
    without it the bar's up button leads the pager's arrow by less than the 0.02 within which the
    planner is asked."""
    from mobile_agent.perception import Perception

    img, up, more = _bar_and_lookalikes(w, h, d, style)
    p = Perception()
    asked: list[str] = []

    def choose(marked, cands, question):
        asked.append(question)
        return 0

    for words, box in (("Navigate up", up), ("More options", more)):
        g = p.ground_icon(img, words, choose=choose)
        assert g.found and box.contains_point(g.point) and not asked, (words, g.point, asked)
    # Why the prior is there: the shape matcher alone (the learned recogniser tells these arrows
    # apart by itself) leads the bar's up button over the pager's arrow by under 0.02 without it.
    p = Perception(matcher="offline")
    p.framework_weight = 0.0
    p.ground_icon(img, "Navigate up", choose=choose)
    assert asked, "without the framework prior the pager's arrow is within 0.02 of the up button"
