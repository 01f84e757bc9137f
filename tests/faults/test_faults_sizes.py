"""Sizes are bounded before memory is spent: a simulated screen past 4096 a side is refused before a
pixel is allocated, a small PNG that decodes to 144 million pixels is refused from its header, and a
JPEG screenshot with an EXIF orientation is read the way it was shot."""

from __future__ import annotations

import io
import resource
import subprocess
import sys
import struct
import zlib

import pytest
from PIL import Image

from mobile_agent.errors import ConfigError, ImageError
from mobile_agent.types import MAX_PIXELS, load_image


def test_sim_shot_refuses_a_huge_screen_before_allocating(tmp_path):
    # under a 1 GB address-space limit: a refusal after allocating 60000x60000 would be a MemoryError
    code = ("import resource, sys\nresource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
            "from mobile_agent.cli import main\nsys.exit(main(sys.argv[1:]))")
    proc = subprocess.run([sys.executable, "-c", code, "sim", "shot", "--width", "60000", "--height", "60000",
                           "--out", str(tmp_path / "s.png")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "too large" in proc.stderr and "4096" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "s.png").exists()


def _bomb_png(w: int, h: int) -> bytes:
    """A valid grey PNG of w x h zero pixels: a few KB that decode to w*h bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = zlib.compressobj(9)
    row = b"\x00" * (w + 1)
    body = b"".join(raw.compress(row) for _ in range(h)) + raw.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
def test_a_small_png_of_too_many_pixels_is_refused_from_its_header(tmp_path):
    data = _bomb_png(12000, 12000)
    assert len(data) < 200_000 and 12000 * 12000 > MAX_PIXELS
    path = tmp_path / "bomb.png"
    path.write_bytes(data)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(ImageError, match="too large to be a screenshot"):
        load_image(path)
    with pytest.raises(ImageError, match="too large"):
        load_image(data)
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 100_000  # not decoded (decoding is 144 MB at the least)


def test_a_jpeg_with_an_exif_orientation_is_read_upright(tmp_path):
    img = Image.new("RGB", (200, 100), (255, 255, 255))
    img.paste((255, 0, 0), (0, 0, 50, 100))  # red on the left of the landscape image
    exif = Image.Exif()
    exif[0x0112] = 6  # stored landscape, to be shown rotated 90 degrees clockwise
    buf = io.BytesIO()
    img.save(buf, "JPEG", exif=exif, quality=95)
    shown = load_image(buf.getvalue())
    assert shown.size == (100, 200)  # upright: portrait
    r, g, b = shown.getpixel((50, 10))
    assert r > 200 and g < 60  # the red band is now at the top


def test_sim_refuses_a_huge_screen_in_python():
    from mobile_agent.device.sim import SimPhone

    with pytest.raises(ConfigError, match="at most 4096"):
        SimPhone(width=60000, height=60000)
