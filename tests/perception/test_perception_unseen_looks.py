"""Text grounding on looks the engine was never tuned on: other fonts, densities, dark themes of
other colours, JPEG, Chinese labels, vendor status bars (the wide set's looks)."""

from __future__ import annotations

import pytest

from mobile_agent.screensets.measure import parse_tree
from mobile_agent.device.sim import SimPhone
from mobile_agent.device.sim.look import Look
from mobile_agent.perception import Perception
from mobile_agent.perception.results import TextLine, Word
from mobile_agent.perception.textmatch import match_lines
from mobile_agent.types import Box
from tests.fakes import system


@pytest.fixture(scope="module")
def perception():
    return Perception()


def _targets(phone: SimPhone) -> list:
    """Text views whose text occurs once on the screen, in no other text either (the battery level
    is both in the status bar and in the Battery row: the row's line wins, a planner would name
    the place)."""
    w, h = phone.size()
    nodes = [n for n in parse_tree(phone.ui_tree(), w, h)
             if n.text and not n.clipped and n.cls.endswith("TextView") and len(n.text) <= 40]
    return [n for n in nodes if sum(n.text in m.text for m in nodes) == 1]


@pytest.mark.slow
@pytest.mark.parametrize("look,size,dark", [
    (Look(font="dejavu", icons="remix", light="cream", status_bar="samsung", jpeg_quality=75), (720, 1600), False),
    (Look(font="lato", icons="phosphor", dark="navy", status_bar="miui"), (1440, 3200), True),
    (Look(lang="zh", icons="phosphor", status_bar="center", jpeg_quality=90), (1080, 2400), False),
])
def test_a_screen_in_an_unseen_font_still_grounds_its_texts(perception, look, size, dark):
    if look.font in system.PARTS:  # a system font (DejaVu; Noto Sans CJK for the Chinese labels)
        system.require(look.font)
    phone = SimPhone(seed=0, width=size[0], height=size[1], dark=dark, look=look)
    phone.launch("Settings")
    img = phone.screenshot()
    targets = _targets(phone)
    assert len(targets) >= 12
    missed = []
    for n in targets:
        g = perception.ground_text(img, n.text)
        point = g.chosen.point if g.chosen else (g.candidates[0].point if g.candidates else None)
        if point is None or not n.box.contains_point(point):
            missed.append((n.text, g.status, point))
    # every row title and subtitle, the status bar's clock
    assert not missed, missed


def _chars(text: str, x1: int, pitch: int) -> TextLine:
    words = tuple(Word(ch, Box(x1 + i * pitch, 0, x1 + (i + 1) * pitch, 40)) for i, ch in enumerate(text))
    return TextLine(text, Box(x1 - 120, 0, x1 + len(text) * pitch + 20, 40), 0.9, words)


def test_target_in_a_line_read_character_by_character_is_boxed_by_its_characters():
    # "78%" read together with the battery glyph beside it (as a CJK character), with icons before it
    line = _chars("78%日", 900, 22)
    m = match_lines("78%", [line])
    assert m and m[0].box.x1 == 900 and m[0].box.x2 == 966


def test_target_joined_to_other_text_at_a_change_of_script_or_kind():
    line = TextLine("0.0K/s78", Box(700, 0, 1000, 40), 0.9,
                    (Word("0.0K/s", Box(720, 0, 820, 40)), Word("78", Box(940, 0, 985, 40))))
    m = match_lines("0.0K/s", [line])
    assert m and m[0].box.center.x < 830  # the speed, not the middle of the merged line
    cjk = TextLine("Wi-Fi设置", Box(0, 0, 300, 40), 0.9)
    assert match_lines("Wi-Fi", [cjk])
    # no match inside a word of the same script and kind
    assert not match_lines("Set", [TextLine("Settings", Box(0, 0, 300, 40), 0.9)])
    assert not match_lines("15", [TextLine("2015", Box(0, 0, 80, 40), 0.9)])
