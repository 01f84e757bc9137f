"""Perception on the simulated phone's real screenshots, its ui_tree as ground truth."""

import pytest

from mobile_agent.device.sim import SimPhone
from mobile_agent.perception import Perception
from mobile_agent.screensets.measure import parse_tree


def node(phone, text=None, desc=None):
    w, h = phone.size()
    for n in parse_tree(phone.ui_tree(), w, h):
        if (text is not None and n.text == text) or (desc is not None and n.desc == desc):
            return n
    raise AssertionError(f"no node {text or desc!r} on the screen")


@pytest.fixture(scope="module")
def perception():
    return Perception()


def test_open_settings_then_dark_theme_by_grounding_alone(perception):
    phone = SimPhone(seed=0)
    g = perception.ground_app(phone.screenshot(), "Settings")
    assert g.status == "found"
    phone.tap(*g.point.as_tuple())
    assert phone.state.foreground == "Settings"

    shot = phone.screenshot()
    g = perception.ground_text(shot, "Network & internet")
    assert g.status == "found" and node(phone, text="Network & internet").box.contains_point(g.point)
    search = perception.ground_icon(shot, "search")
    assert search.status == "found"
    assert node(phone, text="Search settings").box.expand(120).contains_point(search.point)

    g = perception.ground_text(shot, "Display")
    phone.tap(*g.point.as_tuple())
    shot2 = phone.screenshot()
    assert perception.screen_changed(shot, shot2)
    g = perception.ground_text(shot2, "Dark theme")
    assert g.status == "found" and node(phone, text="Dark theme").box.contains_point(g.point)
    res = perception.parse(shot2)
    assert res.incremental is False  # a new page: most rows changed

    # The switch is drawn without text: an icon, found by its shape next to the text it names.
    sw = perception.ground_icon(shot2, "Dark theme switch")
    assert sw.status == "found"
    assert abs(sw.point.y - g.point.y) < 80 and sw.point.x > 800
    phone.tap(*sw.point.as_tuple())
    assert phone.state.settings.dark_mode is True
    assert perception.screen_changed(shot2, phone.screenshot())


def test_bench_perception_prints_figures(capsys):
    import json

    from mobile_agent.cli import main

    assert main(["bench", "perception", "--max-screens", "1", "--depth", "0", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["screens"] == 1
    assert d["parse_s"]["n"] == 1 and d["parse_s"]["median"] > 0
    tg = d["text_grounding"]
    assert tg["total"] >= 10 and tg["share"] >= 0.9
    assert d["icon_recall"]["total"] >= 3 and d["icon_recall"]["share"] >= 0.8
    assert d["app_grounding"]["total"] >= 8 and d["app_grounding"]["share"] >= 0.8
