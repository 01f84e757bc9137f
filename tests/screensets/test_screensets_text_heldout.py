"""The held-out text set: frozen by its seed, its targets inside their screens and unique there, its
absent texts not drawn (near misses of its own labels among them), every phenomenon drawn, and its
benchmark's figures adding up."""

from __future__ import annotations

import json

import pytest

from mobile_agent.screensets import text_heldout as th
from mobile_agent.perception.textmatch import compact

from heldout_checks import check_order_free, check_seeds, needs

needs_fonts = needs(th, ("noto-cjk",))


@needs_fonts
@pytest.mark.slow
def test_seed_zero_is_the_frozen_set_and_draws_every_phenomenon():
    screens = th.collect_heldout_screens()
    assert th.set_digest(screens) == th.FROZEN_SHA256
    kinds = {t.phenomenon for s in screens for t in s.targets}
    assert {"tab, selected", "tab, unselected", "segmented button", "covered by a FAB", "extended FAB",
            "snackbar message", "snackbar action", "toast", "bottom sheet item", "dialog button",
            "row with icon, switch", "trailing value", "link in a paragraph", "highlighted word",
            "hashtag, mention, URL", "price, other locale", "date or time, other format", "counter",
            "camel case", "grid label", "grid label, two lines", "settings title", "settings summary",
            "notification", "quick settings tile", "italic", "display number", "code (mono)",
            "Chinese (serif)", "Japanese"} <= kinds
    absent_kinds = {k for s in screens for _, k in s.absent}
    assert {"number one digit off", "a word changed", "a word added", "unrelated"} <= absent_kinds
    looks = " ".join(s.look for s in screens)
    assert all(f in looks for f in th.FAMILIES) and all(f"x{x}" in looks for x in (0.85, 1.0, 1.3))


@needs_fonts
def test_a_seed_gives_the_same_screens_and_another_seed_others():
    check_seeds(th.collect_heldout_screens, th.set_digest, 2)


@needs_fonts
def test_a_collection_is_the_same_whatever_was_drawn_before_it():
    # the eighth screen's clock came out a pixel apart when the same font objects had drawn the
    # first seven before (raqm on a variable font), so the frozen digest depended on test order
    check_order_free(lambda: th.collect_heldout_screens(count=8), th.set_digest)


@needs_fonts
def test_targets_lie_inside_their_screen_unique_and_absent_texts_are_not_drawn():
    for s in th.collect_heldout_screens(seed=5, count=5):
        w, h = s.image.size
        keys = [compact(t.text) for t in s.targets]
        drawn = [compact(t) for t in s.drawn]
        for t in s.targets:
            assert 0 <= t.box.x1 < t.box.x2 <= w and 0 <= t.box.y1 < t.box.y2 <= h, (s.name, t)
            assert keys.count(compact(t.text)) == 1, (s.name, t.text)
        assert s.absent
        for text, _kind in s.absent:
            assert not any(compact(text) in d for d in drawn), (s.name, text)


def test_a_near_miss_changes_one_digit_or_one_word():
    import random

    assert th._one_digit_off("1.234,56 \u20ac", random.Random(1)) != "1.234,56 \u20ac"
    assert th._one_digit_off("Week", random.Random(1)) is None
    off = th._one_digit_off("03.12.2026", random.Random(2))
    assert len(off) == 10 and sum(a != b for a, b in zip(off, "03.12.2026")) == 1


@needs_fonts
@pytest.mark.slow
def test_the_benchmark_command_prints_figures_by_phenomenon_that_add_up(capsys):
    from mobile_agent.cli import main

    assert main(["bench", "perception", "--set", "textheldout", "--max-screens", "2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["screens"] == 2 and d["frozen"] is False and d["settings"]["set"] == "textheldout"
    per = d["by_phenomenon"].values()
    assert sum(v["targets"] for v in per) == d["click_text_first_point"]["total"] > 5
    assert sum(v["first_point_hit"] for v in per) == d["click_text_first_point"]["hit"]
    assert d["absent"]["total"] >= 4 and d["absent"]["answered_none"] <= d["absent"]["total"]


def test_an_unknown_set_is_a_clear_error(capsys):
    from mobile_agent.cli import main

    assert main(["bench", "perception", "--set", "textheldin"]) == 2
    assert "textheldout" in capsys.readouterr().err
