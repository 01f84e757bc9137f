"""The ``parse`` and ``locate`` commands, run through the real CLI entry point."""

import json

import pytest
from PIL import Image

from mobile_agent.cli import main
from perception_synth import settings_screen, toolbar_screen


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    d = tmp_path_factory.mktemp("shots")
    s = settings_screen()
    top = s.image.crop((0, 0, 1080, 720))  # Settings title, search icon, first rows: quick to read
    paths = {
        "rgb": d / "top.png",
        "rgba": d / "top_rgba.png",
        "gray": d / "top_gray.png",
        "palette": d / "top_palette.png",
        "jpeg": d / "top.jpg",
        "toolbar": d / "toolbar.png",
        "broken": d / "broken.png",
    }
    top.save(paths["rgb"])
    top.convert("RGBA").save(paths["rgba"])
    top.convert("L").save(paths["gray"])
    top.convert("P", palette=Image.Palette.ADAPTIVE).save(paths["palette"])
    top.save(paths["jpeg"], quality=90)
    toolbar_screen().image.save(paths["toolbar"])
    paths["broken"].write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    return paths


def test_parse_json_and_annotation(shots, tmp_path, capsys):
    out = tmp_path / "ann.png"
    assert main(["parse", str(shots["rgb"]), "--json", "--annotate", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    texts = [l["text"] for l in data["lines"]]
    assert "Settings" in texts and "Network & internet" in texts
    assert data["icons"] and data["timings"]["total"] > 0
    ann = Image.open(out)
    assert ann.size == (1080, 720)


@pytest.mark.parametrize("kind", ["rgba", "gray", "palette", "jpeg"])
def test_locate_on_every_image_mode(shots, kind, capsys):
    assert main(["locate", str(shots[kind]), "--text", "network & internet", "--json"]) == 0
    g = json.loads(capsys.readouterr().out)
    assert g["status"] == "found"
    x, y = g["candidates"][g["chosen"]]["point"]
    assert 170 <= x <= 580 and 320 <= y <= 400


def test_locate_exit_status_and_icons(shots, capsys):
    assert main(["locate", str(shots["rgb"]), "--text", "Printer queue"]) == 1
    assert "not on the screen" in capsys.readouterr().out
    assert main(["locate", str(shots["toolbar"]), "--icon", "shopping cart", "--position", "bottom"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("status: found") and "*0: point (" in out


def test_errors_name_the_cause(shots, tmp_path, capsys):
    assert main(["locate", str(shots["broken"]), "--text", "x"]) == 2  # 1 is for "not found"
    assert "cannot read image" in capsys.readouterr().err
    assert main(["parse", str(tmp_path / "nothing.png")]) == 2
    assert "not found" in capsys.readouterr().err
    assert main(["locate", str(shots["rgb"])]) == 2
    assert main(["locate", str(shots["rgb"]), "--icon", "x", "--position", "up"]) == 2
    assert main(["parse", str(shots["rgb"]), "--ocr", "easyocr"]) == 2
