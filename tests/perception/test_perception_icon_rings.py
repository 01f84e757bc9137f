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
from tests.devscreens import COMMITTED

DEV = COMMITTED


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


def test_a_flat_patch_of_a_picture_is_no_control():
    # A picture's flat shapes (a disc, a square of one colour, outlined, on a picture of others): an
    # empty, round or square hole of the ink with ink all around, but its colour is not the one
    # around it, as a radio button's white inside is its page's.
    img = Image.new("RGB", (1080, 1200), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for k in range(3):
        x = 20 + 350 * k
        for r in range(340):
            d.line((x, 200 + r, x + 340, 200 + r), fill=(140 + r // 4, 60 + k * 50, 200 - r // 3))
        d.ellipse((x + 30, 230, x + 94, 294), fill=(40, 70 + 40 * k, 230), outline=(20, 30, 90), width=6)
        d.rectangle((x + 200, 380, x + 260, 440), fill=(230, 80, 40 + 60 * k), outline=(90, 30, 20), width=6)
    det = CvIconDetector()
    rgb = np.asarray(img)
    small = det.working(rgb)
    ink = det.ink(small)
    holes: list[np.ndarray] = []
    det.solid(ink, 0.3 * 1080 * det.scale, holes_out=holes)
    assert holes
    assert det.ring_insides(holes[0], ink) != [], "without the colours, these are rings' insides"
    assert det.ring_insides(holes[0], ink, small) == []
