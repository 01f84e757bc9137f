"""The scripts set (Click Text in Korean, Japanese, Cyrillic, Arabic, Thai, Devanagari and Bengali,
drawn in real apps' styles): frozen by its seed, its targets inside their screens and unique there,
its absent texts not drawn, a script whose font is missing left out and said so, and its figures
printed per script."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from mobile_agent.perception.textmatch import compact
from mobile_agent.screensets import registry
from mobile_agent.screensets import text_scripts as ts
from tests.fakes import system

needs_fonts = system.needs("noto-core", "noto-cjk", other="; ".join(f"{k}: {v}" for k, v in ts.missing_scripts().items()))


def test_the_set_is_in_the_registry_as_a_text_set():
    s = registry.get("scripts")
    assert (s.kind, s.truth, s.module) == ("text", "text", "text_scripts")
    assert s.default_count() == ts.SCREENS == 4 * len(ts.SCRIPTS)


@needs_fonts
def test_seed_zero_is_the_frozen_set_and_draws_every_script_and_phenomenon():
    screens = ts.collect_scripts_screens()
    assert ts.set_digest(screens) == ts.FROZEN_SHA256
    assert registry.get("scripts").is_frozen_set(screens, 0)
    kinds = {t.phenomenon for s in screens for t in s.targets}
    for script in ts.SCRIPTS:
        for k in ("toolbar title", "tab", "chip, white on colour", "grey subtitle, mixed", "word in a line",
                  "caption 12sp", "dialog button"):
            assert f"{script.name}: {k}" in kinds, (script.name, k)
        looks = [s.look for s in screens if s.look.startswith(script.name)]
        assert sum("dark" in x for x in looks) == 2 and sum("light" in x for x in looks) == 2
    absent = {k for s in screens for _, k in s.absent}
    assert {f"{s.name}: {k}" for s in ts.SCRIPTS for k in ("near miss", "unrelated")} <= absent
    # the same seed draws the same screens, another seed others
    assert ts.set_digest(ts.collect_scripts_screens(count=3)) == ts.set_digest(screens[:3])
    assert ts.set_digest(ts.collect_scripts_screens(seed=1, count=3)) != ts.set_digest(screens[:3])


@needs_fonts
def test_targets_lie_inside_their_screen_unique_on_it_and_absent_texts_are_not_drawn():
    for s in ts.collect_scripts_screens(seed=3):
        w, h = s.image.size
        keys = [compact(t.text) for t in s.targets]
        for t in s.targets:
            assert 0 <= t.box.x1 < t.box.x2 <= w and 0 <= t.box.y1 < t.box.y2 <= h, (s.name, t)
            assert keys.count(compact(t.text)) == 1, (s.name, t.text)
        for text, _ in s.absent:
            assert not any(compact(text) in compact(d) for d in s.drawn), (s.name, text)
            assert not any(compact(d) == compact(text) for d in s.drawn)


@needs_fonts
def test_a_word_in_a_line_is_boxed_where_it_is_drawn_right_to_left_too():
    screens = ts.collect_scripts_screens()
    words = [(s, t) for s in screens for t in s.targets if t.phenomenon.endswith("word in a line")]
    assert {t.phenomenon.split(":")[0] for _, t in words} == {s.name for s in ts.SCRIPTS}
    for s, t in words:
        ink = np.asarray(s.image.convert("L")).astype(int)
        bg = int(np.median(ink[t.box.y1:t.box.y2, 0:8]))
        inside = (np.abs(ink[t.box.y1:t.box.y2, t.box.x1:t.box.x2] - bg) > 60).sum()
        # the word's box holds ink, and so much of it that it is the word, not a space beside it
        assert inside > 0.05 * t.box.width * t.box.height, (s.name, t.text)
    arabic = [(s, t) for s, t in words if s.look.startswith("Arabic")]
    first = [(s, t) for s, t in arabic if any(x.startswith(t.text + " ") for x in s.drawn)]
    assert first, "an Arabic row's first word is a target"
    for s, t in first:
        # the first word of a right-to-left line is its rightmost: the box ends at the line's end
        line = next(x for x in s.drawn if x.startswith(t.text + " "))
        assert line and t.box.x2 > s.image.size[0] // 2


@system.needs("noto-core")  # the other scripts' Latin and digits: only Thai's own font is missing
def test_a_script_whose_font_is_missing_is_left_out_and_said_so(monkeypatch):
    gone = replace(ts.THAI, fonts=(("/nonexistent/NotoSansThai-Regular.ttf", 0),) * 2)
    monkeypatch.setattr(ts, "SCRIPTS", tuple(gone if s is ts.THAI else s for s in ts.SCRIPTS))
    missing = ts.missing_scripts()
    assert "Thai" in missing and "NotoSansThai-Regular.ttf" in missing["Thai"] and "fonts-noto-core" in missing["Thai"]
    screens = ts.collect_scripts_screens(count=ts.SCREENS)
    assert not any(s.look.startswith("Thai") for s in screens)
    lines = ts.format_figures({"screens": 0, "digest": "0" * 64, "frozen": False,
                               "click_text_first_point": {"hit": 0, "total": 0},
                               "original_line_matching_first_point": {"hit": 0, "total": 0},
                               "by_phenomenon": {}, "absent": {"answered_none": 0, "total": 0,
                                                               "with_closest_texts": 0, "by_kind": {}}})
    assert any(l.strip().startswith("Thai: left out (NotoSansThai-Regular.ttf missing") for l in lines)


@needs_fonts
@pytest.mark.slow
def test_the_benchmark_command_prints_figures_per_script(capsys):
    from mobile_agent.cli import main

    assert main(["bench", "perception", "--set", "scripts", "--max-screens", "1", "--no-timing"]) == 0
    out = capsys.readouterr().out
    assert "scripts set: 1 screens" in out and "NOT the frozen set" in out
    per = out.split("by script")[1].splitlines()
    assert per[1].strip().startswith("Korean: ") and "%" in per[1]
    assert main(["bench", "perception", "--set", "scripts", "--max-screens", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["settings"]["set"] == "scripts" and all(k.startswith("Korean: ") for k in d["by_phenomenon"])
    total = sum(v["targets"] for v in d["by_phenomenon"].values())
    assert d["click_text_first_point"]["total"] == total > 10
