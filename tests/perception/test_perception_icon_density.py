"""Click Icon on phones of other densities (icons.density): the same real screens (open-source
apps' screens committed as fixtures, 1080 px across) scaled to a 720 px-wide phone's pixels and a
1440 px-wide one's, as a phone of that density draws them. The icon detector's and matcher's sizes
are measured at 1080 px; each target below was missed on the scaled screen before the picture was
brought to that density first (for the detector both ways, for the matcher a denser screen only:
a 720 px screen's chevron under the detector's smallest icon, a 1440 px screen's margins and discs
too large)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mobile_agent.perception import Perception
from mobile_agent.perception.icons.cv import CvIconDetector
from mobile_agent.perception.icons.density import REFERENCE_SIDE, at_reference, density_factor, from_reference
from mobile_agent.screensets.realscreens import third_hint
from mobile_agent.types import Box
from manifest_targets import target_box

HERE = Path(__file__).resolve().parent
FIXTURES = (HERE / "fixtures" / "realicons", HERE.parent / "bench" / "fixtures" / "realscreens")


def _target(name: str, target: str) -> tuple[Image.Image, Box]:
    folder = next(f for f in FIXTURES if (f / "img" / f"{name}.png").is_file())
    return Image.open(folder / "img" / f"{name}.png").convert("RGB"), target_box(folder, name, target)


def _scaled(img: Image.Image, box: Box, f: float) -> tuple[Image.Image, Box]:
    """The screen as a phone ``f`` times as dense draws it (Lanczos), and the target's box there."""
    w, h = round(img.width * f), round(img.height * f)
    return (img.resize((w, h), Image.LANCZOS),
            Box(round(box.x1 * f), round(box.y1 * f), round(box.x2 * f), round(box.y2 * f)))


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def test_density_factor_of_common_phone_widths():
    assert density_factor(1080, 2280) == 1.0
    assert density_factor(1080, 2400) == 1.0
    assert density_factor(1100, 2400) == 1.0  # within 5%: used as it is
    assert density_factor(720, 1600) == pytest.approx(1.5)
    assert density_factor(1440, 3200) == pytest.approx(0.75)
    assert density_factor(2280, 1080) == 1.0  # landscape: the short side


def test_a_reference_screen_is_used_as_it_is_and_another_is_scaled_once():
    rgb = np.zeros((2280, 1080, 3), np.uint8)
    same, f = at_reference(rgb)
    assert same is rgb and f == 1.0
    small = np.zeros((1520, 720, 3), np.uint8)
    scaled, f = at_reference(small)
    assert scaled.shape == (2280, 1080, 3) and f == pytest.approx(1.5)
    again, _ = at_reference(small)
    assert again is scaled  # the same picture is scaled once
    assert from_reference(Box(150, 300, 1080, 2280), f, 720, 1520) == Box(100, 200, 720, 1520)
    assert min(scaled.shape[:2]) == REFERENCE_SIDE


def test_detected_boxes_come_back_in_the_screens_pixels():
    img, box = _target("org.totschnig.myexpenses__1332990983", "Change to previous month")
    small, sbox = _scaled(img, box, 2 / 3)
    icons = CvIconDetector().detect(np.asarray(small))
    assert icons and all(0 <= i.box.x1 < i.box.x2 <= small.width and 0 <= i.box.y1 < i.box.y2 <= small.height
                         for i in icons)
    assert any(sbox.contains_point(i.box.center) for i in icons)


@pytest.mark.parametrize("factor,name,target,hint", [
    # a month picker's chevron
    (2 / 3, "org.totschnig.myexpenses__1332990983", "Change to previous month", True),
    # an expanded account's chevron in a navigation drawer
    (2 / 3, "org.totschnig.myexpenses__1482807785", "Collapse", True),
    # a form row's end icon
    (4 / 3, "org.totschnig.myexpenses__1243134374", "Create or select tags", False),
    (4 / 3, "org.totschnig.myexpenses__14726600", "Goal / Limit : Calculator", True),
    (4 / 3, "org.totschnig.myexpenses__14726600", "Opening balance : Calculator", False),
    # a form's floating Save (Material's check on a disc)
    (4 / 3, "org.totschnig.myexpenses__14726600", "Save the data and close the form.", False),
])
def test_click_icon_on_other_densities(perception, factor, name, target, hint):
    img, box = _target(name, target)
    img, box = _scaled(img, box, factor)
    g = perception.ground_icon(img, target, third_hint(box, *img.size) if hint else ())
    assert g.status == "found" and box.contains_point(g.point), (g.status, g.point, box, g.message)
