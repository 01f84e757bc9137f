"""The held-out icon set: frozen by its seed, its targets unique on their screens, and a clear
error when its fonts are missing."""

from __future__ import annotations

import pytest

from mobile_agent.bench import icon_heldout as ho
from mobile_agent.errors import ConfigError

from heldout_checks import check_targets

needs_fonts = pytest.mark.skipif(not ho.available(), reason="apt-get install fonts-entypo fonts-glyphicons-halflings")


@needs_fonts
@pytest.mark.slow
def test_seed_zero_is_the_frozen_set():
    assert ho.set_digest(ho.heldout_screens()) == ho.FROZEN_SHA256


@needs_fonts
def test_targets_are_unique_families_inside_their_screen():
    screens = ho.heldout_screens(seed=3, count=4)
    assert [s.name for s in screens] == [s.name for s in ho.heldout_screens(seed=3, count=4)]
    assert ho.set_digest(screens) != ho.set_digest(ho.heldout_screens(seed=4, count=4))
    check_targets(screens, ho.DESCRIPTIONS)


def test_a_missing_font_is_a_config_error_naming_the_package(monkeypatch):
    monkeypatch.setitem(ho.FONTS, "entypo", (("/nonexistent/entypo.ttf",), "apt-get install fonts-entypo"))
    ho._font_path.cache_clear()
    try:
        with pytest.raises(ConfigError, match="apt-get install fonts-entypo"):
            ho._font_path("entypo")
        assert not ho.available()
    finally:
        ho._font_path.cache_clear()
