"""Screen change detection on rendered screens (no OCR)."""

import io

from PIL import Image

from mobile_agent.perception import changed_regions, screen_changed
from mobile_agent.perception.change import changed_fraction
from perception_synth import settings_screen


def test_same_screen_with_another_clock_is_unchanged():
    a = settings_screen(clock="12:30").image
    b = settings_screen(clock="12:31").image
    assert not screen_changed(a, b)
    assert screen_changed(a, b, ignore_status_bar=False)


def test_jpeg_noise_is_not_a_change():
    a = settings_screen().image
    buf = io.BytesIO()
    a.save(buf, "JPEG", quality=90)
    b = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    assert not screen_changed(a, b)


def test_a_changed_row_is_found_where_it_is():
    s = settings_screen()
    a = s.image
    b = a.copy()
    from PIL import ImageDraw

    box = s.texts["Off"]
    ImageDraw.Draw(b).rectangle(box.as_tuple(), fill=(250, 250, 250))
    assert screen_changed(a, b)
    regions = changed_regions(a, b)
    assert regions and all(r.intersect(box).area > 0 for r in regions)
    assert changed_fraction(regions, *a.size) < 0.02


def test_other_size_or_theme_is_a_change():
    a = settings_screen().image
    assert screen_changed(a, settings_screen(dark=True).image)
    assert screen_changed(a, a.resize((540, 1200)))
