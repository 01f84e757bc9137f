"""Every image input is bounded by pixels and by shape before any work (issue 51, item 6): a 99-byte
1x5000 PNG given to ``parse`` / ``locate`` or to the API asked 17.5 GB of the text detector."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from mobile_agent.cli import main
from mobile_agent.errors import ImageError
from mobile_agent.types import load_image


def _png(w: int, h: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), "white").save(buf, "PNG", optimize=True)
    return buf.getvalue()


@pytest.mark.parametrize("size", [(1, 5000), (5000, 1), (40, 2000)])
def test_a_strip_is_refused_naming_its_shape(size):
    data = _png(*size)
    with pytest.raises(ImageError, match=rf"is {size[0]}x{size[1]} pixels, not the shape of a screen"):
        load_image(data)
    with pytest.raises(ImageError, match="not the shape of a screen"):
        load_image(Image.new("RGB", size))


def test_screens_of_every_phone_shape_and_a_long_capture_are_read():
    for size in ((1080, 2400), (2400, 1080), (1812, 2176), (720, 1280), (1080, 9000), (48, 48), (1, 1)):
        assert load_image(_png(*size)).size == size


def test_parse_and_locate_refuse_the_strip_with_exit_2(tmp_path, capsys):
    strip = tmp_path / "strip.png"
    strip.write_bytes(_png(1, 5000))
    assert len(strip.read_bytes()) < 200
    for argv in (["parse", str(strip)], ["locate", str(strip), "--text", "Settings"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert "1x5000 pixels, not the shape of a screen" in " ".join(err.split()), argv
