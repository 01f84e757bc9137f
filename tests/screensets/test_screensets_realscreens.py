"""``mobile-agent bench perception --dir DIR``: the figures on a folder of real screenshots with their
uiautomator dumps (the fixtures are nine screens of open-source apps, see tests/bench/fixtures/realscreens/SOURCE.md),
targets from a manifest or derived from the dumps, and bad input named file by file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mobile_agent.screensets.realscreens import derive_targets, load_folder, read_dump, split_half, third_hint
from mobile_agent.cli import main
from mobile_agent.types import Box

FIXTURES = Path(__file__).resolve().parents[1] / "bench" / "fixtures" / "realscreens"
from tests.devscreens import COMMITTED, WHOLE, needs_whole


def test_third_hint_says_vertical_then_horizontal_third():
    w, h = 1080, 2280
    assert third_hint(Box(0, 66, 154, 220), w, h) == ("top", "left")
    assert third_hint(Box(500, 66, 580, 220), w, h) == ("top", "center")
    assert third_hint(Box(900, 1100, 1000, 1200), w, h) == ("center", "right")
    assert third_hint(Box(500, 1100, 580, 1200), w, h) == ("center",)
    assert third_hint(Box(500, 2000, 580, 2100), w, h) == ("bottom", "center")


def test_fixture_folder_reads_its_manifest_and_the_dumps_give_the_same_targets():
    folder = load_folder(FIXTURES)
    assert folder.problems == [] and not folder.derived
    assert len(folder.screens) == 9
    kinds = [t.kind for s in folder.screens for t in s.targets]
    assert kinds.count("text") + kinds.count("icon") == 120 and kinds.count("icon") > 10
    for s in folder.screens:
        derived = derive_targets(read_dump(s.xml.read_bytes()), s.width, s.height)
        assert sorted((t.kind, t.target, t.box.as_tuple()) for t in derived) == \
            sorted((t.kind, t.target, t.box.as_tuple()) for t in s.targets), s.name
    # texts not on a screen: other screens' labels of the same app, none of them in the screen's dump
    absent = {s.name: s.absent for s in folder.screens}
    assert absent["org.totschnig.myexpenses__1482807785"]
    for s in folder.screens:
        for text in s.absent:
            assert text.casefold() not in s.labels
    # icons not on a screen: other screens' icon descriptions of the same app, neither in the
    # screen's dump nor of a glyph family one of its descriptions names ("Navigate up" is no
    # absent icon where the dump has "Back")
    from mobile_agent.perception.icons.lexicon import description_families

    icons = {s.name: s.absent_icons for s in folder.screens}
    assert icons["org.totschnig.myexpenses__1482807785"] and sum(map(len, icons.values())) >= 5
    for s in folder.screens:
        fams = set().union(*(description_families(lab) for lab in s.labels))
        for desc in s.absent_icons:
            assert desc.casefold() not in s.labels and not description_families(desc) & fams, (s.name, desc)
            assert any(t.kind == "icon" and t.target == desc for o in folder.screens if o.app == s.app
                       for t in o.targets)


def test_folder_without_manifest_derives_targets_from_the_dumps(tmp_path):
    shutil.copytree(FIXTURES / "img", tmp_path / "img")
    shutil.copytree(FIXTURES / "xml", tmp_path / "xml")
    folder = load_folder(tmp_path)
    assert folder.derived and folder.problems == []
    assert sum(len(s.targets) for s in folder.screens) == 120
    assert {s.app for s in folder.screens} >= {"org.totschnig.myexpenses", "me.hackerchick.catima"}


def test_cli_measures_the_fixtures_overall_per_half_and_per_app(tmp_path, capsys):
    out = tmp_path / "fig.json"
    code = main(["bench", "perception", "--dir", str(FIXTURES), "--no-timing", "--out", str(out), "-v"])
    assert code == 0
    text = capsys.readouterr().out
    d = json.loads(out.read_text(encoding="utf-8"))
    f = d["figures"]
    assert f["text_first"]["total"] == 89 and f["icon_hint"]["total"] == 31
    assert f["text_first"]["share"] >= 0.8 and f["absent_none"]["total"] >= 5
    # icons not on the screen: answered none or with low confidence, or listed as a miss
    low = f["icon_absent_low"]
    assert low["total"] >= 5 and "icons not on the screen answered none" in text
    assert len([m for m in d["misses"] if "absent icon '" in m]) == low["total"] - low["hit"]
    assert f["icon_any"]["hit"] >= f["icon_hint"]["hit"]
    assert set(d["halves"]) == {"A", "B"}
    assert d["apps"]["org.totschnig.myexpenses"]["text_first"]["total"] == 26
    assert set(d["apps"]) == {s.app for s in load_folder(FIXTURES).screens}
    assert "Click Text, first point inside the target's node" in text and "half A" in text
    # -v lists every miss with what was found instead
    assert len([ln for ln in text.splitlines() if ln.startswith("  miss: ")]) == len(d["misses"]) > 0
    assert all(" -> " in m and ("node [" in m or "absent text" in m or "absent icon" in m) for m in d["misses"])
    assert any(m.startswith("org.totschnig.myexpenses ") and " text '" in m for m in d["misses"])
    # an icon missed without the hint is listed even where the hint found it
    icon_lines = [m for m in d["misses"] if ": icon '" in m]
    assert len(icon_lines) >= f["icon_nohint"]["total"] - f["icon_nohint"]["hit"]
    assert any(m.endswith("(with the hint found)") for m in icon_lines)
    # texts the picture does not show (Vinyl's results under its keyboard, My Expenses' page under
    # its open drawer) are counted apart, and their misses say why
    shown, first = f["text_shown"], f["text_first"]
    under_kb = [m for m in d["misses"] if m.endswith("[under the keyboard]")]
    under_view = [m for m in d["misses"] if m.endswith("[under a view the dump draws over it]")]
    assert {m.split(":")[0] for m in under_kb} == {"com.poupa.vinylmusicplayer com.poupa.vinylmusicplayer__741334294"}
    assert len(under_kb) == 2 and len(under_view) >= 4
    assert all(m.startswith("org.totschnig.myexpenses org.totschnig.myexpenses__1482807785:") for m in under_view)
    assert shown["total"] == first["total"] - len(under_kb) - len(under_view)
    assert shown["hit"] == first["hit"] and shown["share"] > first["share"]
    assert "of the targets the picture shows" in text


def test_bad_input_is_named_and_the_rest_is_still_measured(tmp_path, capsys):
    keep = "de.chaosdorf.meteroid__597245818"
    (tmp_path / "img").mkdir()
    (tmp_path / "xml").mkdir()
    for name in (keep, "org.koitharu.kotatsu__107684743", "me.hackerchick.catima__236981483"):
        shutil.copy(FIXTURES / "img" / f"{name}.png", tmp_path / "img")
    shutil.copy(FIXTURES / "xml" / f"{keep}.xml", tmp_path / "xml")
    # a dump cut short, and no dump at all for the third screenshot
    (tmp_path / "xml" / "org.koitharu.kotatsu__107684743.xml").write_text("<hierarchy><node bounds=", "utf-8")
    lines = [ln for ln in (FIXTURES / "manifest.jsonl").read_text("utf-8").splitlines()
             if any(n in ln for n in (keep, "kotatsu__107684743", "catima__236981483"))]
    good = [json.loads(ln) for ln in lines if keep in ln]
    outside = dict(good[0], bbox=[1000, 2200, 1200, 2400], target="Off the picture")
    (tmp_path / "manifest.jsonl").write_text("\n".join(lines + [json.dumps(outside), "{not json"]) + "\n", "utf-8")
    code = main(["bench", "perception", "--dir", str(tmp_path), "--no-timing", "--json"])
    assert code == 0
    cap = capsys.readouterr()
    err = cap.err
    assert "kotatsu__107684743.xml: dump does not parse" in err
    assert "catima__236981483.png: screenshot without its uiautomator dump" in err
    assert "manifest.jsonl:" in err and "'Off the picture' lies outside the 1080x2280 picture" in err
    assert "unreadable target line" in err and "Traceback" not in err
    d = json.loads(cap.out)
    f = d["figures"]
    assert f["text_first"]["total"] == sum(g["kind"] == "text" for g in good)
    assert f["icon_nohint"]["total"] == sum(g["kind"] == "icon" for g in good)
    assert len(d["problems"]) == 4


def test_max_screens_cuts_a_folder_only_when_asked(tmp_path, capsys):
    from PIL import Image

    dump = ('<?xml version="1.0"?><hierarchy rotation="0"><node text="" content-desc="" clickable="false" '
            'package="app.blank" bounds="[0,0][120,240]"/></hierarchy>')
    for i in range(125):  # more than the 120 screens a --set stops at
        Image.new("RGB", (120, 240), (255, 255, 255)).save(tmp_path / f"s{i:03d}.png")
        (tmp_path / f"s{i:03d}.xml").write_text(dump, encoding="utf-8")
    assert main(["bench", "perception", "--dir", str(tmp_path), "--no-timing", "--no-icons", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["screens"] == 125
    assert main(["bench", "perception", "--dir", str(FIXTURES), "--no-timing", "--no-icons", "--absent", "0",
                 "--max-screens", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["screens"] == 1 and d["settings"]["screens"] == 1


def test_a_folder_with_nothing_to_measure_is_a_clear_error(tmp_path, capsys):
    assert main(["bench", "perception", "--dir", str(tmp_path / "missing")]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert main(["bench", "perception", "--dir", str(tmp_path)]) == 2
    assert "no manifest.jsonl and no screenshot" in capsys.readouterr().err
    (tmp_path / "a.png").write_bytes(b"not a png")
    assert main(["bench", "perception", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "a.png: not an image" in err and "no screen could be measured" in err


def test_split_half_is_fixed_and_uses_both_halves():
    assert split_half("org.totschnig.myexpenses") == split_half("org.totschnig.myexpenses")
    assert {split_half(a) for a in ("org.totschnig.myexpenses", "me.hackerchick.catima")} == {"A", "B"}


@pytest.mark.parametrize("where, screens, texts, icons", [
    pytest.param(WHOLE, 85, 612, 166, marks=needs_whole, id="whole"),
    pytest.param(COMMITTED, 33, 273, 83, id="committed"),
])
def test_development_set_reads_whole_and_its_dumps_give_its_manifest(where, screens, texts, icons):
    folder = load_folder(where)
    assert folder.problems == [] and len(folder.screens) == screens
    kinds = [t.kind for s in folder.screens for t in s.targets]
    assert kinds.count("text") == texts and kinds.count("icon") == icons
    for s in folder.screens:
        derived = derive_targets(read_dump(s.xml.read_bytes()), s.width, s.height)
        assert len(derived) == len(s.targets), s.name


@needs_whole
def test_the_committed_screens_are_the_development_sets_own():
    # the committed copy (tests/perception/fixtures/devscreens) is the development set's files byte for
    # byte, and its manifest is the whole set's lines for those screens, in the same order
    names = sorted(p.stem for p in (COMMITTED / "img").glob("*.png"))
    assert len(names) == 33
    for name in names:
        for sub, ext in (("img", "png"), ("xml", "xml")):
            assert (COMMITTED / sub / f"{name}.{ext}").read_bytes() == (WHOLE / sub / f"{name}.{ext}").read_bytes(), name
    whole = [line for line in (WHOLE / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
             if json.loads(line)["image"][len("img/"):-len(".png")] in names]
    assert (COMMITTED / "manifest.jsonl").read_text(encoding="utf-8").splitlines() == whole
