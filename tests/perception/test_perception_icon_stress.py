"""Click Icon on screens of the icon stress set (mobile_agent.screensets.icon_stress: Lucide icons, which no
reference set of the matcher draws, in what real apps do to icons) that failed before the rules they
led to: a chip's outline around its label is no icon (the chip's own glyph is), and a settings row's
switch is no glyph."""

from __future__ import annotations

import numpy as np
import pytest

from mobile_agent.screensets import icon_stress as st
from mobile_agent.perception import Perception
from mobile_agent.perception.icons.cv import _holds_label
from mobile_agent.perception.icons.offline import switch_like
from mobile_agent.types import Box
from tests.fakes import system

needs_packages = system.needs_set(st, "dejavu")  # its screens' text is drawn in one of five fonts, DejaVu Sans among them


def _target(screen: st.StressIconScreen, phenomenon: str) -> st.StressIconTarget:
    return next(t for t in screen.targets if t.phenomenon == phenomenon)


def test_a_wide_frame_around_a_label_is_a_control_not_a_glyph():
    chip = Box(100, 100, 400, 164)
    assert _holds_label(chip, [Box(180, 115, 380, 150)])
    # the label's glyph, a square box, is kept; so is a wide box with no label, or one whose text is
    # a small part of it (a letter on a wide banner)
    assert not _holds_label(Box(110, 110, 160, 156), [Box(180, 115, 380, 150)])
    assert not _holds_label(chip, [])
    assert not _holds_label(chip, [Box(240, 120, 270, 150)])
    assert not _holds_label(chip, [Box(500, 115, 700, 150)])


def _switches(p: Perception, screen: st.StressIconScreen) -> list[Box]:
    rgb = np.asarray(screen.image)
    w, h = screen.image.size
    out = []
    for ib in p.parse(screen.image, icons=True).icons:
        b = ib.box
        pad = max(2, min(b.width, b.height) // 8)
        if switch_like(rgb[max(0, b.y1 - pad):b.y2 + pad, max(0, b.x1 - pad):b.x2 + pad], b, w, h):
            out.append(b)
    return out


@needs_packages
def test_switches_are_told_from_glyphs_and_from_the_navigation_pill():
    p = Perception()
    settings = st.stress_screen(52)  # three switches on, off, on, chevrons on the other rows
    found = _switches(p, settings)
    w = settings.image.width
    assert len(found) == 3 and all(b.x1 > 0.75 * w for b in found)
    # a row's icon beside its label is still what Click Icon finds (a switch won for both before)
    for t in settings.targets:
        if t.description in ("Copy link", "Gallery"):
            g = p.ground_icon(settings.image, t.description)
            assert t.box.contains_point(g.chosen.point), (t, g.candidates[:3])
    # the active tab's pill (a stadium holding its icon in the middle) is no switch
    assert _switches(p, st.stress_screen(0)) == []


@needs_packages
@pytest.mark.parametrize("index,phenomenon", [(57, "icon + text"), (45, "icon + text")])
def test_stress_screens_that_failed_before_ground(index, phenomenon):
    screen = st.stress_screen(index)
    t = _target(screen, phenomenon)
    p = Perception()
    g = p.ground_icon(screen.image, t.description)
    assert g.status == "found" and t.box.contains_point(g.chosen.point), (screen.name, t, g.candidates[:3])
    if index == 57:
        # no detected box is the frame of a chip around its label
        lines = [line.box for line in p.parse(screen.image).lines]
        assert not any(_holds_label(i.box, lines) for i in p.parse(screen.image, icons=True).icons)
        assert np.asarray(screen.image).shape[:2] == (1600, 720)
