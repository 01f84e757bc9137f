"""Icon detection of radio buttons and checkboxes whose outline runs into a larger frame (issue 25:
Firefox's theme and toolbar pickers put each radio button on the corner of a picture card's
border, and the ring's ink and the card's were one component, too large for an icon).
``CvIconDetector.ring_insides`` finds them by the empty inside of the ring or the box.

(A radio button drawn here on a card's corner, with its halo and shadow, was detected before this
rule too: what joins Firefox's rings to their cards is in its own pixels, so the gain is tested
on its screen, from the development set, and the drawn test guards the rule's limits.)"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from mobile_agent.perception import Perception
from mobile_agent.perception.icons.cv import CvIconDetector
from mobile_agent.types import Box

DEV = Path(__file__).resolve().parents[3] / "shared" / "realscreens"


def test_a_checkerboard_or_a_code_gets_no_ring_boxes():
    # A pattern of like cells (a loyalty card's barcode or QR code, a checkered photo) is no control.
    img = Image.new("RGB", (1080, 1200), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for r in range(8):
        for c in range(8):
            if (r + c) % 2:
                d.rectangle((200 + 50 * c, 200 + 50 * r, 250 + 50 * c, 250 + 50 * r), fill=(0, 0, 0))
    det = CvIconDetector()
    small = det.working(np.asarray(img))
    ink = det.ink(small)
    holes: list[np.ndarray] = []
    det.solid(ink, 0.3 * 1080 * det.scale, holes_out=holes)
    assert holes, "the white cells are holes of the black ones' ink"
    assert det.ring_insides(holes[0], ink) == []


@pytest.mark.skipif(not (DEV / "manifest.jsonl").is_file(),
                    reason="needs the development set of real screens in ../shared/realscreens (not in a user's clone)")
def test_firefox_theme_and_toolbar_radio_buttons_are_detected():
    # Firefox's customisation screen: Light/Dark theme and Top/Bottom toolbar, each a radio button
    # on its preview card's corner; none was detected before.
    name = "Firefox_Fast_Private_Browser_v101.1.1__1588025648"
    targets = [json.loads(line) for line in (DEV / "manifest.jsonl").read_text().splitlines() if name in line]
    targets = [t for t in targets if t["kind"] == "icon"]
    assert {t["target"] for t in targets} >= {"Light theme", "Dark theme", "Top", "Bottom"}
    boxes = Perception().parse(Image.open(DEV / "img" / f"{name}.png").convert("RGB"), icons=True).icons
    for t in targets:
        node = Box(*t["bbox"])
        assert any(b.box.contains_point(node.center) for b in boxes), t["target"]
