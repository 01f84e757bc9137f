"""bench/variant_folder.py: a real folder as a phone of another density, or with force dark, shows
it; the copy is measured like the original (its targets found at the scaled boxes)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from PIL import Image

from mobile_agent.screensets.realscreens import load_folder

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "realscreens"


def _script():
    spec = importlib.util.spec_from_file_location("_variant_folder", ROOT / "bench" / "variant_folder.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _rows(folder: Path) -> list[dict]:
    return [json.loads(ln) for ln in (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines() if ln.strip()]


def test_a_720_px_copy_scales_pictures_dumps_and_targets(tmp_path):
    vf = _script()
    n = vf.write_variant(FIXTURES, tmp_path, scale=2 / 3)
    assert n == len(list((FIXTURES / "img").glob("*.png")))
    name = "org.totschnig.myexpenses__1243134374"
    assert Image.open(tmp_path / "img" / f"{name}.png").size == (720, 1520)
    before, after = _rows(FIXTURES), _rows(tmp_path)
    assert len(before) == len(after)
    for a, b in zip(before, after):
        assert b["target"] == a["target"] and (b["width"], b["height"]) == (720, 1520)
        assert b["bbox"] == [round(v * 2 / 3) for v in a["bbox"]]
    orig = vf._BOUNDS.findall((FIXTURES / "xml" / f"{name}.xml").read_text(encoding="utf-8"))
    copy = vf._BOUNDS.findall((tmp_path / "xml" / f"{name}.xml").read_text(encoding="utf-8"))
    assert len(orig) == len(copy) > 10
    assert all([round(int(v) * 2 / 3) for v in o] == [int(v) for v in c] for o, c in zip(orig, copy))
    # the copy loads as a folder set, every screen and target kept
    folder = load_folder(tmp_path, absent_per_screen=0)
    assert not folder.problems and len(folder.screens) == n


def test_force_dark_inverts_lightness_and_keeps_hue(tmp_path):
    vf = _script()
    img = Image.new("RGB", (8, 8), (250, 250, 250))
    img.putpixel((0, 0), (25, 118, 210))  # a blue: stays blue, lighter
    dark = vf.force_dark(img)
    assert max(dark.getpixel((4, 4))) < 30
    r, g, b = dark.getpixel((0, 0))
    assert b > r and b > 150


def test_nothing_to_change_is_one_line(capsys):
    vf = _script()
    with pytest.raises(SystemExit):
        vf.main([str(FIXTURES), "out"])
    assert "nothing to change" in capsys.readouterr().err
