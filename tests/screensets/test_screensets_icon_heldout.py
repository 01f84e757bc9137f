"""The held-out icon set: frozen by its seed, its targets unique on their screens, and a clear
error when its fonts are missing."""

from __future__ import annotations

import pytest

from mobile_agent.screensets import icon_heldout as ho
from mobile_agent.errors import ConfigError

from heldout_checks import check_screens_order_free, check_seeds, check_targets, needs

needs_fonts = needs(ho, ("entypo", "glyphicons"))


@needs_fonts
@pytest.mark.slow
def test_seed_zero_is_the_frozen_set():
    assert ho.set_digest(ho.heldout_screens()) == ho.FROZEN_SHA256


@needs_fonts
def test_targets_are_unique_families_inside_their_screen():
    check_targets(check_seeds(ho.heldout_screens, ho.set_digest, 4), ho.DESCRIPTIONS)


@needs_fonts
def test_a_screen_is_the_same_whatever_was_drawn_before_it():
    check_screens_order_free(lambda i: ho._screen(ho.SEED, i), ho.set_digest, 3)


def test_a_missing_font_is_a_config_error_naming_the_package(monkeypatch):
    monkeypatch.setitem(ho.FONTS, "entypo", (("/nonexistent/entypo.ttf",), "apt-get install fonts-entypo"))
    ho._font_path.cache_clear()
    try:
        with pytest.raises(ConfigError, match="apt-get install fonts-entypo"):
            ho._font_path("entypo")
        assert not ho.available()
    finally:
        ho._font_path.cache_clear()
