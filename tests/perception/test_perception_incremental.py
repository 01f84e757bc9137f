"""Incremental parsing: a small change re-reads only its rows and gives the same texts as a full parse."""

from PIL import ImageDraw

from mobile_agent.perception import Perception
from perception_synth import roboto, settings_screen


def test_incremental_parse_reuses_unchanged_lines():
    s = settings_screen()
    before = s.image
    after = before.copy()
    box = s.texts["Off"]
    draw = ImageDraw.Draw(after)
    draw.rectangle(box.expand(2).as_tuple(), fill=(250, 250, 250))
    draw.text((box.x1, box.y1 - 8), "On", font=roboto(36), fill=(120, 120, 120))

    p = Perception()
    first = p.parse(before)
    second = p.parse(after)
    assert second.incremental and not first.incremental
    assert second.reused_lines >= len(first.lines) - 3
    assert "On" in second.texts and "Off" not in second.texts
    assert second.changed_regions and all(r.y1 >= box.y1 - 20 and r.y2 <= box.y2 + 20 for r in second.changed_regions)

    full = Perception(incremental=False).parse(after)
    assert not full.incremental
    text_lines = lambda res: sorted(l.text for l in res.lines if len(l.text) > 2)  # noqa: E731
    assert text_lines(second) == text_lines(full)
    # The same screenshot again is not read twice.
    assert p.parse(after) is second


def test_a_different_screen_is_parsed_in_full():
    p = Perception()
    p.parse(settings_screen().image)
    res = p.parse(settings_screen(dark=True).image)
    assert not res.incremental and "Dark theme" in res.texts
