"""Bad input to perception: odd sizes, odd modes, a 1-pixel image, a black screen, an image too
large to be a screenshot, things that are not images. Each gets a clear answer (nothing found, or
an error naming the cause) through ``parse``, ``locate`` and the Python API; none crashes."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from mobile_agent.cli import main
from mobile_agent.errors import ImageError
from mobile_agent.perception import Perception
from perception_synth import settings_screen


@pytest.fixture(scope="module")
def perception():
    return Perception()


@pytest.fixture(scope="module")
def odd(tmp_path_factory):
    d = tmp_path_factory.mktemp("odd")
    top = settings_screen().image.crop((0, 0, 1080, 720))
    images = {
        "one_pixel": Image.new("RGB", (1, 1), (255, 255, 255)),
        "black": Image.new("RGB", (1080, 2400), (0, 0, 0)),
        "strip": top.resize((3000, 40)),  # far wider than tall
        "sliver": top.resize((6, 900)),  # far taller than wide
        "tiny": top.resize((9, 6)),
        "palette": top.convert("P", palette=Image.Palette.ADAPTIVE, colors=16),
        "rgba_clear": Image.new("RGBA", (400, 300), (0, 0, 0, 0)),
        "landscape": top.resize((2400, 1080)),
    }
    paths = {}
    for k, img in images.items():
        paths[k] = d / f"{k}.png"
        img.save(paths[k])
    paths["huge"] = d / "huge.png"  # 196 megapixels of black: compresses to a small file
    Image.new("1", (14000, 14000)).save(paths["huge"])
    return images, paths


@pytest.mark.parametrize("kind", ["one_pixel", "black", "tiny", "rgba_clear"])
def test_api_answers_none_found_on_images_without_the_target(perception, odd, kind):
    img = odd[0][kind]
    res = perception.parse(img, icons=True)
    assert (res.width, res.height) == img.size
    g = perception.ground_text(img, "Network & internet")
    assert g.status == "none" and "not on the screen" in g.message
    assert perception.ground_app(img, "Settings").status == "none"
    gi = perception.ground_icon(img, "search", "top right")
    assert gi.status in ("none", "found")  # a stray shape may pass for an icon; never an exception
    if gi.status == "none":
        assert "no icon found" in gi.message


@pytest.mark.parametrize("kind,size", [("strip", "3000x40"), ("sliver", "6x900")])
def test_a_strip_or_sliver_is_refused_naming_its_shape(perception, odd, kind, size):
    img = odd[0][kind]
    for call in (lambda: perception.parse(img, icons=True), lambda: perception.ground_text(img, "Settings"),
                 lambda: perception.ground_icon(img, "search", "top right")):
        with pytest.raises(ImageError, match=f"{size} pixels, not the shape of a screen"):
            call()


def test_palette_and_landscape_images_still_ground_their_texts(perception, odd):
    images, _ = odd
    g = perception.ground_text(images["palette"], "Settings")
    assert g.found and g.point.y < 300
    g = perception.ground_text(images["landscape"], "Settings")
    assert g.found


@pytest.mark.parametrize("bad,phrase", [
    (Image.new("RGB", (0, 0)), "no pixels"),
    (b"", "empty"),
    (b"GIF89a but not really", "cannot read image"),
    (None, "expected an image path"),
    (42, "expected an image path"),
])
def test_api_raises_a_clear_image_error(perception, bad, phrase):
    for call in (lambda: perception.parse(bad), lambda: perception.ground_text(bad, "x"),
                 lambda: perception.ground_icon(bad, "search")):
        with pytest.raises(ImageError, match=phrase):
            call()


def test_an_image_too_large_to_be_a_screenshot_is_an_error_not_a_traceback(perception, odd, capsys):
    _, paths = odd
    with pytest.raises(ImageError, match="too large"):
        perception.parse(str(paths["huge"]))
    assert main(["locate", str(paths["huge"]), "--text", "x"]) == 2  # unreadable: a usage error; 1 is "not found"
    err = capsys.readouterr().err
    assert "too large" in err and "Traceback" not in err


@pytest.mark.parametrize("kind", ["one_pixel", "black", "tiny", "rgba_clear"])
def test_cli_parse_and_locate_on_odd_images(odd, kind, capsys):
    _, paths = odd
    assert main(["parse", str(paths[kind]), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lines"] == []
    assert main(["locate", str(paths[kind]), "--text", "Settings"]) == 1  # nothing found
    out = capsys.readouterr()
    assert "not on the screen" in out.out + out.err
    assert main(["locate", str(paths[kind]), "--icon", "search", "--json"]) in (0, 1)
    json.loads(capsys.readouterr().out)  # a JSON answer either way
