"""The paraphrase table (``screensets/paraphrases.py``): other apps' wordings of every icon
description of the development set, asked by ``bench perception --dir DIR --icon-wording paraphrase``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mobile_agent.perception.textmatch import normalize_text
from mobile_agent.screensets.paraphrases import BY_APP, PARAPHRASES, wordings

FIXTURES = Path(__file__).resolve().parents[1] / "bench" / "fixtures" / "realscreens"
DEV_SET = Path(__file__).resolve().parents[2] / ".." / "shared" / "realscreens"


def _icon_targets(manifest: Path) -> set[tuple[str, str]]:
    out = set()
    for line in manifest.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d["kind"] == "icon":
            out.add((d["app"], d["target"]))
    return out


def _check_covered(targets: set[tuple[str, str]]) -> None:
    for app, desc in sorted(targets):
        other = wordings(desc, app)
        assert 2 <= len(other) <= 4, (app, desc, other)
        own = normalize_text(desc)
        assert all(normalize_text(w) != own for w in other), (app, desc, other)
        assert len({normalize_text(w) for w in other}) == len(other), (app, desc, other)


def test_every_table_entry_has_two_to_four_other_wordings():
    for desc, other in list(PARAPHRASES.items()) + [(d, o) for (_, d), o in BY_APP.items()]:
        assert 2 <= len(other) <= 4 and all(w.strip() for w in other), desc
    assert all(desc in PARAPHRASES for _, desc in BY_APP)  # an app's own wording refines a known entry
    assert wordings("no such description") == ()
    assert wordings("Back", "Opera_Mini_fast_web_browser_v63.0.2254.61942") != wordings("Back")


def test_the_fixture_screens_icon_descriptions_are_all_in_the_table():
    _check_covered(_icon_targets(FIXTURES / "manifest.jsonl"))


@pytest.mark.skipif(not (DEV_SET / "manifest.jsonl").is_file(),
                    reason="the development set of real screens (../shared/realscreens beside the checkout) is not there")
def test_the_development_sets_icon_descriptions_are_all_in_the_table():
    targets = _icon_targets(DEV_SET / "manifest.jsonl")
    assert len({d for _, d in targets}) == 66
    _check_covered(targets)
