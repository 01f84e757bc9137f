"""The perception benchmark's table (the issue's figures): what each helper counts, and one run
on a wide screen with the real perception stack."""

from __future__ import annotations

import re

import pytest

from mobile_agent.screensets.measure import (
    _first_point,
    format_report,
    original_line_matches,
    position_hint,
    run_benchmark,
)
from mobile_agent.perception.results import Candidate, Grounding, TextLine
from mobile_agent.types import Box, Point
from tests.fakes import system


def _line(text: str, x1: int, y1: int, x2: int, y2: int) -> TextLine:
    return TextLine(text, Box(x1, y1, x2, y2), 0.9)


def test_original_line_matching_prefers_exact_lines_then_containment():
    lines = [_line("Wi-Fi settings", 0, 0, 300, 40), _line("Wi-Fi", 0, 100, 100, 140)]
    assert original_line_matches("Wi-Fi", lines) == [Box(0, 100, 100, 140)]
    assert original_line_matches("settings", lines) == [Box(0, 0, 300, 40)]  # whole line, not the word
    assert original_line_matches("Bluetooth", lines) == []


@pytest.mark.parametrize("box,words", [
    (Box(0, 0, 100, 100), ("top", "left")), (Box(980, 2300, 1080, 2400), ("bottom", "right")),
    (Box(500, 1150, 580, 1250), ("center",)), (Box(1000, 1150, 1080, 1250), ("right",)),
])
def test_position_hint_is_what_a_planner_would_write(box, words):
    assert position_hint(box, 1080, 2400) == words


def test_first_point_takes_the_best_ranked_candidate_when_nobody_chooses():
    a = Candidate(Box(0, 0, 10, 10), Point(5, 5), 0.9, "a")
    b = Candidate(Box(20, 0, 30, 10), Point(25, 5), 0.9, "a")
    assert _first_point(Grounding("ambiguous", [a, b])) is a
    assert _first_point(Grounding("found", [a, b], b)) is b
    assert _first_point(Grounding("none")) is None


@pytest.mark.slow
@system.needs("dejavu", "noto-cjk")  # the wide set's looks
def test_benchmark_prints_every_figure_of_the_table_on_a_wide_screen():
    from mobile_agent.screensets.wide import collect_wide_screens
    from mobile_agent.perception import Perception

    screens = [s for s in collect_wide_screens(seed=0, max_screens=9) if s.app == "Settings"]
    assert screens, "the Settings app's first screen is in the first nine"
    d = run_benchmark(screens[:1], lambda: Perception()).to_dict()
    tb = d["table"]
    assert tb["click_text_first_point"]["total"] >= 8
    # on this screen the Settings rows' titles are found where they are drawn
    assert tb["click_text_with_choice"]["share"] >= 0.8
    assert tb["click_icon_top1_no_hint"]["total"] >= 1
    for key in ("original_line_matching_first_point", "click_icon_top1_with_hint",
                "click_icon_any_candidate_with_hint", "icon_detected_at_all"):
        assert 0.0 <= tb[key]["share"] <= 1.0
    assert list(d["parse_s_by_size"]) == [f"{screens[0].image.width}x{screens[0].image.height}"]
    text = "\n".join(format_report(d))
    for phrase in ("first point inside", "original Mobile-Agent", "top-1, no position hint",
                   "with the position hint", "any candidate inside", "detected at all", "full parse at"):
        assert phrase in text


def _reasons(phone) -> dict[str, str]:
    from mobile_agent.screensets.measure import parse_tree, text_target_reason

    w, h = phone.size()
    nodes = parse_tree(phone.ui_tree(), w, h)
    return {n.text: text_target_reason(n, nodes) for n in nodes if n.text}


def test_text_nodes_a_user_could_not_ask_for_by_text_are_counted_apart_with_their_reason():
    from mobile_agent.device.sim import SimPhone

    shop = SimPhone(seed=0)
    shop.launch("Shop")
    shop.tap(540, 273)  # the search field: the keyboard opens
    r = _reasons(shop)
    assert r["Search products or suppliers"] == "" and r["baseball cap"] == ""
    assert r["q"] == "keyboard" and r["?123"] == "keyboard"
    clock = re.search(r'text="([^"]+)" resource-id="clock"', shop.ui_tree())
    assert clock and r[clock.group(1)] == "status bar"
    store = SimPhone(seed=0)
    store.launch("Store")
    r = _reasons(store)
    assert r["Install"] == "repeated"  # one button per app row: "Install" alone cannot say which
    assert r["Top charts"] == ""
    maps = SimPhone(seed=0)
    maps.launch("Maps")
    r = _reasons(maps)
    assert r["Coffee"] == "cut by the screen edge"  # a chip scrolled half out of sight
    assert r["Restaurants"] == ""  # a chip of the same row, whole


def test_text_figures_alone_with_the_ocr_kept_between_runs(tmp_path):
    from mobile_agent.screensets.measure import CachedOcr, collect_sim_screens
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr

    screens = [s for s in collect_sim_screens(seed=0, max_screens=9) if s.app == "Settings"][:1]
    assert screens

    def run():
        p = Perception(ocr=CachedOcr(make_ocr("rapidocr"), tmp_path))
        return run_benchmark(screens, lambda: Perception(), grounding_perception=p, timing=False,
                             icons=False).to_dict()

    first = run()
    assert len(list(tmp_path.glob("*.pkl"))) == 1  # the screen's lines, kept
    tb = first["table"]
    assert tb["click_text_first_point"]["total"] >= 8 and tb["click_text_first_point"]["share"] >= 0.9
    assert tb["click_icon_top1_no_hint"]["total"] == 0 and first["parse_s"] is None
    assert "status bar" in tb["click_text_left_out"]
    assert run()["table"] == tb  # read back from the folder: the same figures
