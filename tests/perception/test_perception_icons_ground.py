"""Click Icon grounding cases: a Material "send" against Font Awesome paper planes, status bar
glyphs that are not buttons, a white glyph touched by a drawn line on a pale picture, and the
system bar's Back triangle. Screens are drawn with Material Design icons (perception_synth) or come
from the simulated phone; the matcher's references are Font Awesome."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import ImageDraw

from mobile_agent.device.sim import SimPhone
from mobile_agent.perception import Perception
from mobile_agent.screensets.measure import parse_tree
from mobile_agent.perception.icons.cv import CvIconDetector
from mobile_agent.perception.icons.offline import description_glyphs, reference_mask
from perception_synth import Painter


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def compose_screen(send_glyph: str):
    """A Compose-like toolbar: back arrow, title, attach, send, more; the status bar's Wi-Fi and
    battery above; a typed address with punctuation below."""
    p = Painter()
    p.status_bar()
    p.icon(40, 110, "arrow_left")
    p.text(160, 118, "Compose", size=56)
    p.icon(700, 110, "paperclip")
    p.icon(830, 110, send_glyph, key="send")
    p.icon(960, 110, "dots_vertical")
    p.text(40, 280, "To", size=44)
    p.text(200, 280, "jack.chen@example.com, ann.", size=44)
    return p.screen


@pytest.mark.parametrize("glyph", ["send", "send_outline"])
def test_send_top_right_is_the_plane_not_a_status_glyph(perception, glyph):
    screen = compose_screen(glyph)
    g = perception.ground_icon(screen.image, "send", ("top", "right"))
    assert g.status == "found"
    assert screen.icons["send"].expand(8).contains_point(g.point), (g.point, [c.box for c in g.candidates])


def test_status_glyphs_stay_groundable_when_named(perception):
    screen = compose_screen("send")
    g = perception.ground_icon(screen.image, "wifi", ("top", "right"))
    assert g.status == "found"
    assert g.point.y < 2400 * 0.035


def test_rotated_reference_points_the_other_way():
    upright = reference_mask("paper_plane")
    turned = reference_mask("paper_plane@-45")
    assert upright is not None and turned is not None
    # Font Awesome's plane flies up-right; turned 45 degrees clockwise its tip is the rightmost ink,
    # near mid height.
    ys = np.nonzero(turned[:, -1])[0]
    assert abs(ys.mean() / turned.shape[0] - 0.5) < 0.2
    ys_up = np.nonzero(upright[:, -1])[0]
    assert ys_up.mean() / upright.shape[0] < 0.3
    assert any("@-45" in g for g in description_glyphs("send"))


def heart_on_picture():
    """A pale picture with white lines, one of which runs into a white heart at the right edge."""
    p = Painter()
    d = ImageDraw.Draw(p.image)
    d.rectangle((0, 0, 1080, 2270), fill=(217, 227, 160))
    d.ellipse((190, 930, 890, 1620), fill=(245, 160, 70))
    for y0, y1 in ((1230, 1290), (1350, 1355), (1420, 1470)):
        d.line((620, y0, 1000, y1), fill=(250, 250, 250), width=8)
    heart = p.icon(930, 1400, "heart", size=100, fill=(255, 255, 255))
    p.text(950, 1500, "127K", size=34, fill=(255, 255, 255))
    p.icon(940, 1700, "comment_processing_outline", size=90, fill=(255, 255, 255), key="comment")
    return p.screen, heart


def test_white_heart_touched_by_a_line_is_detected_and_grounded(perception):
    screen, heart = heart_on_picture()
    rgb = np.asarray(screen.image)
    boxes = [b.box for b in CvIconDetector().detect(rgb)]
    assert any(b.iou(heart) > 0.5 for b in boxes), boxes
    g = perception.ground_icon(screen.image, "heart", ("right",))
    assert g.status == "found" and heart.expand(8).contains_point(g.point)


def test_back_is_the_system_triangle_navigate_up_the_toolbar_arrow(perception):
    phone = SimPhone(seed=0)
    phone.launch("Calendar")
    w, h = phone.size()
    nodes = parse_tree(phone.ui_tree(), w, h)
    back = [n for n in nodes if n.desc == "Back"]
    assert back
    shot = phone.screenshot()
    g = perception.ground_icon(shot, "Back")
    assert g.status == "found" and any(n.box.contains_point(g.point) for n in back)
    # A toolbar's arrow is found when the description says where it is.
    g2 = perception.ground_icon(shot, "back arrow", ("top", "left"))
    assert g2.status == "found" and g2.point.y < h * 0.12


class _LinesOcr:
    """An OCR engine that reports given lines (the icon candidates built from them are under test)."""

    name = "given"

    def __init__(self, lines):
        self.lines = lines

    def read(self, rgb):
        return list(self.lines)


def test_punctuation_beside_text_is_no_icon_but_a_lone_glyph_is():
    from mobile_agent.perception.results import TextLine
    from mobile_agent.types import Box

    p = Painter()
    typed = p.text(200, 280, "jack.chen@example.com", size=44)
    comma_box = Box(typed.x2 + 4, typed.y1 + 10, typed.x2 + 14, typed.y2 + 6)
    p.draw.text((comma_box.x1, typed.y1), ",", fill=p.fg)
    dots = p.icon(960, 600, "dots_vertical", size=40)
    lines = [TextLine("jack.chen@example.com", typed, 0.95), TextLine(",", comma_box, 0.7),
             TextLine(":", dots, 0.7)]
    res = Perception(ocr=_LinesOcr(lines)).parse(p.image, icons=True)
    boxes = [i.box for i in res.icons]
    assert not any(b.contains_point(comma_box.center) for b in boxes), boxes
    assert any(b.contains_point(dots.center) for b in boxes), boxes
