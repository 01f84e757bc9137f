"""Looks of the simulated phone: other fonts, icon sets, themes, status bars, JPEG, Chinese labels;
the default look draws what the phone always drew."""

from __future__ import annotations

import numpy as np
import pytest

from mobile_agent.screensets.measure import parse_tree
from mobile_agent.device.sim import SimPhone
from mobile_agent.device.sim import fonts as fonts_mod
from mobile_agent.device.sim import look as look_mod
from mobile_agent.device.sim.look import Look
from mobile_agent.errors import ConfigError
from tests.fakes import system


def _shot(phone: SimPhone) -> np.ndarray:
    return np.asarray(phone.screenshot().convert("RGB"), dtype=np.int16)


def _texts(phone: SimPhone) -> list[str]:
    w, h = phone.size()
    return [n.text for n in parse_tree(phone.ui_tree(), w, h) if n.text]


def test_default_look_draws_the_same_pixels_as_no_look():
    a, b = SimPhone(seed=0), SimPhone(seed=0, look=Look())
    for app in (None, "Settings", "Music"):
        if app:
            a.launch(app)
            b.launch(app)
        assert np.array_equal(_shot(a), _shot(b))
        assert a.ui_tree() == b.ui_tree()


def test_another_font_and_icon_set_change_pixels_but_not_the_labels():
    plain = SimPhone(seed=0)
    other = SimPhone(seed=0, look=Look(font="noto-sans", icons="phosphor"))
    for p in (plain, other):
        p.launch("Settings")
    diff = np.abs(_shot(plain) - _shot(other)).max(axis=2) > 40
    assert diff.mean() > 0.002  # text and glyphs drawn differently
    assert _texts(plain) == _texts(other)


@pytest.mark.parametrize("icons", ["phosphor", "remix"])
def test_other_icon_sets_draw_other_glyphs(icons):
    lk = Look(icons=icons)
    key, ch = lk.icon_glyph("magnify")
    assert key == f"icons:{icons}"
    mdi_key, mdi_ch = Look().icon_glyph("magnify")
    assert mdi_key == "icon:mdi" and ch != mdi_ch
    # an icon with no counterpart falls back to the MDI glyph rather than failing
    assert lk.icon_glyph("apple-keyboard-caps")[0] in ("icon:mdi", f"icons:{icons}")


@system.needs("noto-cjk")
def test_chinese_look_translates_labels_in_pixels_and_tree():
    phone = SimPhone(seed=0, look=Look(lang="zh"))
    phone.launch("Settings")
    texts = _texts(phone)
    assert "设置" in texts and "Settings" not in texts
    home = SimPhone(seed=0, look=Look(lang="zh"))
    assert "音乐" in _texts(home)  # launcher label of Music


def test_dark_theme_colours_come_from_the_look():
    phone = SimPhone(seed=0, dark=True, look=Look(dark="black"))
    phone.launch("Notes")
    img = phone.screenshot()
    # the screen's background (bottom third, between the list and the navigation bar) is true black
    assert img.getpixel((5, img.height * 2 // 3)) == (0, 0, 0)


def test_jpeg_look_hands_over_a_lossy_rgb_screenshot():
    plain = SimPhone(seed=0)
    jpeg = SimPhone(seed=0, look=Look(jpeg_quality=60))
    a, b = _shot(plain), _shot(jpeg)
    assert jpeg.screenshot().mode == "RGB"
    err = np.abs(a - b)
    assert 0 < err.mean() < 8  # artefacts, not another picture


@pytest.mark.parametrize("style", ["samsung", "miui", "center"])
def test_vendor_status_bars_keep_clock_and_battery_in_the_tree(style):
    phone = SimPhone(seed=0, look=Look(status_bar=style))
    phone.launch("Settings")
    w, h = phone.size()
    nodes = [n for n in parse_tree(phone.ui_tree(), w, h) if n.package == "com.android.systemui"]
    clock = [n for n in nodes if n.text == phone.now.strftime("%H:%M")]
    assert clock and clock[0].box.y2 <= phone.status_h + 2
    if style == "center":
        assert abs(clock[0].box.center.x - w // 2) <= 2
    else:
        assert clock[0].box.center.x < w // 4
    assert any("Battery" in n.desc for n in nodes)


@pytest.mark.parametrize("size", [(720, 1600), (1440, 3200)])
def test_other_densities_lay_out_the_same_screen(size):
    phone = SimPhone(seed=0, width=size[0], height=size[1], look=Look(font="open-sans", icons="remix"))
    phone.launch("Settings")
    assert phone.screenshot().size == size
    assert "Network & internet" in _texts(phone)


def test_bad_look_values_and_missing_fonts_are_clear_errors(monkeypatch):
    with pytest.raises(ConfigError, match="unknown font"):
        Look(font="comic-sans")
    with pytest.raises(ConfigError, match="unknown theme"):
        Look(dark="purple")
    with pytest.raises(ConfigError, match="jpeg_quality"):
        Look(jpeg_quality=0)
    fonts = dict(fonts_mod.FONTS)
    fonts["inter"] = (lambda: {"var": None}, "pip install fontpkg-inter")
    monkeypatch.setattr(fonts_mod, "FONTS", fonts)  # where the look finds its font files
    monkeypatch.setattr(look_mod, "FONTS", fonts)
    with pytest.raises(ConfigError, match="pip install fontpkg-inter"):
        SimPhone(look=Look(font="inter"))
