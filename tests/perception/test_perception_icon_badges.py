"""Badged icons on coloured bars (icons/offline.py badge_discs, _cut_like): a count badge cut into a
bell's or a cart's glyph (a 16 dp badge on a 24 dp glyph covers a third of it) is painted out, and
the rest is compared with references cut the same way. Screens of the icon stress set (Lucide
icons on a coloured app bar) where the badged bell and cart lost to other glyphs before."""

from __future__ import annotations

import numpy as np
import pytest

from mobile_agent.screensets import icon_stress as st
from mobile_agent.perception import Perception
from mobile_agent.perception.icons.offline import OfflineIconMatcher, badge_discs, without_badge
from tests.fakes import system

needs_packages = system.needs_set(st, "dejavu")  # its screens' text is drawn in one of five fonts, DejaVu Sans among them


def _padded(rgb: np.ndarray, box) -> np.ndarray:
    pad = max(2, min(box.width, box.height) // 8)
    return rgb[max(0, box.y1 - pad):box.y2 + pad, max(0, box.x1 - pad):box.x2 + pad]


@needs_packages
@pytest.mark.parametrize("index,description", [(13, "bell"), (34, "cart")])
def test_a_badged_glyph_on_a_coloured_bar_grounds_without_a_hint(index, description):
    screen = st.stress_screen(index)
    target = next(t for t in screen.targets if t.description == description)
    p = Perception()
    g = p.ground_icon(screen.image, description)
    assert g.status == "found" and target.box.contains_point(g.chosen.point), (screen.name, target, g.candidates[:3])
    # the badge is found on the detected box, and the glyph it cuts scores as that glyph
    rgb = np.asarray(screen.image)
    boxes = [i.box for i in p.parse(screen.image, icons=True).icons if target.box.contains_point(i.box.center)]
    badged = [b for b in boxes if badge_discs(_padded(rgb, b))]
    assert badged
    scores = OfflineIconMatcher().score(rgb, badged, description)
    assert max(scores) > 0.6


def test_no_badge_leaves_the_crop_as_it_is():
    plain = np.full((40, 40, 3), 250, np.uint8)
    plain[10:30, 18:22] = 30  # a dark bar, no saturated disc
    assert badge_discs(plain) == []
    assert without_badge(plain) is plain
    # a red dot on the upper corner beside the ink is a badge, painted out in the background's colour
    dotted = plain.copy()
    yy, xx = np.ogrid[:40, :40]
    dotted[(xx - 30) ** 2 + (yy - 8) ** 2 <= 25] = (220, 30, 30)
    discs = badge_discs(dotted)
    assert len(discs) == 1 and abs(discs[0][0] - 30) <= 1 and abs(discs[0][1] - 8) <= 1
    cleaned = without_badge(dotted, discs)
    assert (cleaned[8, 30] == 250).all() and (cleaned[20, 20] == 30).all()
