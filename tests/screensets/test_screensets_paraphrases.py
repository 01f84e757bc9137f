"""The paraphrase table (``screensets/paraphrases.py``): other apps' wordings of every icon
description of the development set, asked by ``bench perception --dir DIR --icon-wording paraphrase``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mobile_agent.perception.textmatch import normalize_text
from mobile_agent.screensets.paraphrases import BY_APP, PARAPHRASES, wordings
from tests.devscreens import COMMITTED, WHOLE, needs_whole

FIXTURES = Path(__file__).resolve().parents[1] / "bench" / "fixtures" / "realscreens"


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
    _check_covered(_icon_targets(COMMITTED / "manifest.jsonl"))


@needs_whole
def test_the_development_sets_icon_descriptions_are_all_in_the_table():
    targets = _icon_targets(WHOLE / "manifest.jsonl")
    assert len({d for _, d in targets}) == 66
    _check_covered(targets)


def _small_folder(tmp_path: Path, names: tuple[str, ...]) -> list[dict]:
    import shutil

    (tmp_path / "img").mkdir()
    (tmp_path / "xml").mkdir()
    for n in names:
        shutil.copy(FIXTURES / "img" / f"{n}.png", tmp_path / "img")
        shutil.copy(FIXTURES / "xml" / f"{n}.xml", tmp_path / "xml")
    lines = [ln for ln in (FIXTURES / "manifest.jsonl").read_text("utf-8").splitlines() if any(n in ln for n in names)]
    (tmp_path / "manifest.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    return [json.loads(ln) for ln in lines]


def test_bench_asks_each_icon_target_by_each_of_its_other_wordings(tmp_path, capsys):
    from mobile_agent.cli import main

    names = ("org.totschnig.myexpenses__1482807785", "me.hackerchick.catima__236981483")
    targets = _small_folder(tmp_path, names)
    icons = [t for t in targets if t["kind"] == "icon"]
    asked = sum(len(wordings(t["target"], t["app"])) for t in icons)
    assert asked > len(icons) >= 4
    assert main(["bench", "perception", "--dir", str(tmp_path), "--no-timing", "--icon-wording", "paraphrase",
                 "--out", str(tmp_path / "p.json"), "-v"]) == 0
    text = capsys.readouterr().out
    d = json.loads((tmp_path / "p.json").read_text("utf-8"))
    f = d["figures"]
    assert d["icon_wording"] == "paraphrase" and d["settings"]["icon_wording"] == "paraphrase"
    for key in ("icon_nohint", "icon_hint", "icon_any", "icon_detected"):
        assert f[key]["total"] == asked, key
        assert sum(v[key]["total"] for v in d["halves"].values()) == asked
        assert sum(v.get(key, {"total": 0})["total"] for v in d["apps"].values()) == asked
    assert f["text_first"]["total"] == len(targets) - len(icons)  # texts are asked as before
    assert "other wordings (screensets/paraphrases.py)" in text
    # a miss names the wording asked and the app's own words
    icon_misses = [m for m in d["misses"] if ": icon '" in m]
    assert len(icon_misses) >= f["icon_hint"]["total"] - f["icon_hint"]["hit"]
    assert all("(the app's words: '" in m for m in icon_misses)
    # the app's own words, asked as before: one ask a target
    assert main(["bench", "perception", "--dir", str(tmp_path), "--no-timing", "--json"]) == 0
    own = json.loads(capsys.readouterr().out)
    assert own["icon_wording"] == "own" and own["figures"]["icon_nohint"]["total"] == len(icons)


def test_absent_icons_are_asked_by_wordings_that_are_not_on_the_screen(tmp_path):
    from mobile_agent.screensets.realscreens import RealResult, _absent_asked, load_folder

    folder = load_folder(FIXTURES, absent_per_screen=3)
    res = RealResult()
    seen = 0
    for s in folder.screens:
        own = set(s.absent_icons)
        asked = _absent_asked(s, "paraphrase", res)
        here = {normalize_text(w) for t in s.targets if t.kind == "icon"
                for w in (t.target,) + wordings(t.target, s.app)}
        assert not own & set(asked) and not {normalize_text(a) for a in asked} & here
        assert all(any(a in wordings(d, s.app) for d in own) for a in asked)
        seen += len(asked)
    assert seen >= 5


def test_a_wrong_icon_wording_is_one_clear_line(tmp_path, capsys):
    from mobile_agent.cli import main

    assert main(["bench", "perception", "--dir", str(FIXTURES), "--icon-wording", "slang"]) == 2
    err = capsys.readouterr().err
    assert "--icon-wording 'slang': use own or paraphrase" in err and "Traceback" not in err
    assert main(["bench", "perception", "--set", "iconstress", "--icon-wording", "paraphrase"]) == 2
    assert "needs a folder of real screens" in capsys.readouterr().err
