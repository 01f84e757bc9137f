import io

import pytest
from PIL import Image

from mobile_agent.agent.operations import (
    ClickIcon, ClickText, OpenApp, PageDown, Stop, Type, normalize_position,
    operation_from_dict, operation_to_dict,
)
from mobile_agent.errors import ImageError
from mobile_agent.types import Box, load_image


def test_box_geometry_and_bounds_round_trip():
    b = Box(10, 20, 110, 70)
    assert (b.width, b.height, b.area) == (100, 50, 5000)
    assert b.center.as_tuple() == (60, 45)
    assert b.contains(10, 20) and not b.contains(110, 20)
    assert Box.from_bounds(b.to_bounds()) == b
    assert b.to_bounds() == "[10,20][110,70]"
    assert Box(0, 0, 10, 10).iou(Box(5, 0, 15, 10)) == pytest.approx(50 / 150)
    with pytest.raises(ValueError):
        Box.from_bounds("10,20,30")


@pytest.mark.parametrize("mode,fmt", [(m, "PNG") for m in ["RGB", "RGBA", "L", "P", "LA", "I;16"]]
                         + [("RGB", "JPEG"), ("L", "JPEG")])  # JPEG stores only RGB and grayscale
def test_load_image_any_mode_gives_rgb(mode, fmt, tmp_path):
    img = Image.new("RGB", (40, 30), (200, 50, 25)).convert(mode)
    path = tmp_path / f"x.{fmt.lower()}"
    img.save(path, fmt)
    out = load_image(path)
    assert out.mode == "RGB" and out.size == (40, 30)


def test_load_image_errors_name_the_file(tmp_path):
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"\x89PNG not really")
    with pytest.raises(ImageError, match="broken.png"):
        load_image(bad)
    with pytest.raises(ImageError, match="not found"):
        load_image(tmp_path / "missing.png")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    with pytest.raises(ImageError, match="empty"):
        load_image(empty)


def test_rgba_transparency_becomes_white():
    img = Image.new("RGBA", (4, 4), (0, 0, 0, 0))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    assert load_image(buf.getvalue()).getpixel((1, 1)) == (255, 255, 255)


def test_position_normalisation():
    assert normalize_position("left top") == ("top", "left")
    assert normalize_position(["middle", "right"]) == ("center", "right")
    assert ClickIcon("red heart", ("right", "bottom")).position == ("bottom", "right")
    for bad in ("top bottom", "left right", "top left center", "upper"):
        with pytest.raises(ValueError):
            normalize_position(bad)


@pytest.mark.parametrize("op", [OpenApp("Notes"), ClickText("Wi-Fi"), ClickIcon("gray gear", ("top", "right")),
                                Type("bus stop"), PageDown(), Stop()])
def test_operation_dict_round_trip(op):
    assert operation_from_dict(operation_to_dict(op)) == op
