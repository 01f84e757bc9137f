"""The wide screen set: fixed by its seed, varied in look, with the phone's tree as ground truth."""

from __future__ import annotations

import random

from mobile_agent.screensets.wide import collect_wide_screens, wide_look
from tests.fakes import system


@system.needs("dejavu", "noto-cjk")  # two of the set's looks
def test_wide_set_is_fixed_by_its_seed_and_varied():
    a = collect_wide_screens(seed=0, max_screens=4)
    b = collect_wide_screens(seed=0, max_screens=4)
    assert [s.name for s in a] == [s.name for s in b]
    assert all(x.image.tobytes() == y.image.tobytes() for x, y in zip(a, b))
    for s in a:
        w, h = s.image.size
        assert s.look and s.look in s.name
        # ground truth in the screen's own pixels: every node inside the picture, texts present
        assert all(n.box.x2 <= w and n.box.y2 <= h for n in s.nodes)
        assert any(n.text for n in s.nodes)


def test_wide_looks_cover_fonts_icons_sizes_themes_bars_jpeg_and_chinese():
    rng = random.Random("wide-set:0")
    looks = [wide_look(rng) for _ in range(120)]
    assert {lk.look.font for lk in looks} >= {"noto-sans", "open-sans", "inter", "lato", "dejavu", "noto-cjk"}
    assert {lk.look.icons for lk in looks} == {"phosphor", "remix"}
    assert {(lk.width, lk.height) for lk in looks} == {(720, 1600), (1080, 2400), (1440, 3200)}
    assert {lk.look.status_bar for lk in looks} == {"pixel", "samsung", "miui", "center"}
    assert any(lk.dark for lk in looks) and any(not lk.dark for lk in looks)
    assert any(lk.look.jpeg_quality for lk in looks) and any(lk.look.lang == "zh" for lk in looks)
