"""The languages set (lists of languages and countries, each named in its own script): frozen by
its seed, every script and style drawn, targets inside their screens and unique there, absent
names not drawn, the mixed names drawn without missing glyphs, a missing font left out and said
so, and its figures printed per script."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mobile_agent.perception.textmatch import compact
from mobile_agent.screensets import registry
from mobile_agent.screensets import text_langs as tl
from tests.fakes import system

needs_fonts = system.needs("noto-core", "noto-cjk", other="; ".join(f"{k}: {v}" for k, v in tl.missing_fonts().items()))


def test_the_set_is_in_the_registry_as_a_text_set():
    s = registry.get("langs")
    assert (s.kind, s.truth, s.module) == ("text", "text", "text_langs")
    assert s.default_count() == tl.SCREENS


@needs_fonts
def test_seed_zero_is_the_frozen_set_and_draws_every_script_and_style():
    screens = tl.collect_langs_screens()
    assert tl.set_digest(screens) == tl.FROZEN_SHA256
    assert registry.get("langs").is_frozen_set(screens, 0)
    scripts = {t.phenomenon.split(":")[0] for s in screens for t in s.targets}
    assert set(tl.SCRIPT_NAMES) | {"Latin"} == scripts
    for style in tl.STYLES:
        looks = [s.look for s in screens if s.look.startswith(style)]
        assert sum("dark" in x for x in looks) == sum("light" in x for x in looks) > 0, style
        assert any(t.phenomenon.endswith(f": {style}") for s in screens for t in s.targets)
    assert any(t.phenomenon == "Latin: two-line, English" for s in screens for t in s.targets)
    assert any(t.phenomenon.endswith(": country picker") and t.text == "Ελλάδα" for s in screens for t in s.targets)
    assert {k for s in screens for _, k in s.absent} >= {"Greek: other screen", "Latin diacritics: other screen"}
    assert tl.set_digest(tl.collect_langs_screens(count=3)) == tl.set_digest(screens[:3])
    assert tl.set_digest(tl.collect_langs_screens(seed=1, count=3)) != tl.set_digest(screens[:3])


@needs_fonts
def test_targets_lie_inside_their_screen_unique_on_it_and_absent_names_are_not_drawn():
    for seed in (0, 5):
        for s in tl.collect_langs_screens(seed=seed):
            w, h = s.image.size
            keys = [compact(t.text) for t in s.targets]
            ink = np.asarray(s.image.convert("L")).astype(int)
            for t in s.targets:
                assert 0 <= t.box.x1 < t.box.x2 <= w and 0 <= t.box.y1 < t.box.y2 <= h, (s.name, t)
                assert keys.count(compact(t.text)) == 1, (s.name, t.text)
                bg = int(np.median(ink[t.box.y1:t.box.y2, w - 4:w]))
                assert (np.abs(ink[t.box.y1:t.box.y2, t.box.x1:t.box.x2] - bg) > 60).any(), (s.name, t.text)
            for text, _ in s.absent:
                assert not any(compact(text) in compact(d) or compact(d) in compact(text) for d in s.drawn), (s.name, text)


@needs_fonts
def test_a_mixed_name_draws_its_brackets_in_a_font_that_has_them():
    # "ไทย (Thai)": the bracket after a name in a script's own font is drawn by Noto Sans (the Thai
    # font has none: a box), and the space after a right-to-left name stays between the two
    runs = tl._runs("ไทย (Thai)")
    assert runs == [("ไทย ", "NotoSansThai"), ("(Thai)", "NotoSans")]
    assert tl._runs("فارسی (Persian)") == [("فارسی", "NotoNaskhArabic"), (" (Persian)", "NotoSans")]
    # the joiner inside Sinhala's "ශ්‍රී" stays in the Sinhala run (its conjunct is shaped whole)
    assert [k for _, k in tl._runs("ශ්‍රී ලංකාව")] == ["NotoSansSinhala"]


@system.needs("noto-core")  # Noto Sans, which every name's brackets and Latin need: only Georgian's font is missing
def test_a_script_whose_font_is_missing_is_left_out_and_said_so(monkeypatch):
    monkeypatch.setitem(tl._FONT_OF, "GEORGIAN", "NotoSansNoSuchGeorgian")
    missing = tl.missing_fonts()
    assert "Georgian" in missing and "NotoSansNoSuchGeorgian-Regular.ttf" in missing["Georgian"]
    assert "fonts-noto-core" in missing["Georgian"]
    screens = tl.collect_langs_screens(count=4)
    assert not any(t.phenomenon.startswith("Georgian") for s in screens for t in s.targets)
    lines = tl.format_figures({"screens": 0, "digest": "0" * 64, "frozen": False,
                               "click_text_first_point": {"hit": 0, "total": 0},
                               "original_line_matching_first_point": {"hit": 0, "total": 0},
                               "by_phenomenon": {}, "absent": {"answered_none": 0, "total": 0,
                                                               "with_closest_texts": 0, "by_kind": {}}})
    assert any(l.strip().startswith("Georgian: left out (NotoSansNoSuchGeorgian-Regular.ttf missing") for l in lines)


@needs_fonts
@pytest.mark.slow
def test_the_benchmark_command_prints_figures_per_script(capsys):
    from mobile_agent.cli import main

    assert main(["bench", "perception", "--set", "langs", "--max-screens", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["settings"]["set"] == "langs"
    total = sum(v["targets"] for v in d["by_phenomenon"].values())
    assert d["click_text_first_point"]["total"] == total > 8
    lines = tl.format_figures(d, title="languages set")
    per = lines[lines.index(next(l for l in lines if l.startswith("by script"))) + 1:]
    assert per and all(l.startswith("  ") and "%" in l for l in per)
