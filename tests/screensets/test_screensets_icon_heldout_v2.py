"""The second held-out icon set (v2): frozen by its seed, its targets unique on their screens, its
icons thin-stroke Tabler outlines beside real photographs, and a clear error when its packages are
missing."""

from __future__ import annotations

import numpy as np
import pytest

from mobile_agent.screensets import icon_heldout_v2 as h2
from mobile_agent.errors import ConfigError

from heldout_checks import check_screens_order_free, check_seeds, check_targets, needs
from tests.fakes import system

needs_packages = needs(h2)


@needs_packages
@system.needs("dejavu")
@pytest.mark.slow
def test_seed_zero_is_the_frozen_set():
    assert h2.set_digest(h2.heldout_screens()) == h2.FROZEN_SHA256


@needs_packages
def test_targets_are_unique_families_with_the_sets_descriptions():
    check_targets(check_seeds(h2.heldout_screens, h2.set_digest, 4), h2.DESCRIPTIONS)


@needs_packages
def test_a_screen_is_the_same_whatever_was_drawn_before_it():
    check_screens_order_free(lambda i: h2._screen(h2.SEED, i), h2.set_digest, 3)


@needs_packages
def test_icons_are_thin_strokes_and_the_photos_are_real():
    # A Tabler outline at 240 px on its 24-unit grid with stroke 1.5: its strokes are 15 px wide,
    # so its ink is a small part of its frame (a filled glyph covers far more).
    thin = np.asarray(h2._icon_mask("outline", "bell", 1.5)) > 127
    filled = np.asarray(h2._icon_mask("filled", "bell", 2.0)) > 127
    assert 0.05 < thin.mean() < 0.2 and filled.mean() > 2 * thin.mean()
    pic = np.asarray(h2._picture("chelsea.png"))
    # a photograph: many distinct colours, not a gradient with shapes
    assert len(np.unique((pic // 16).reshape(-1, 3), axis=0)) > 150


def test_missing_packages_are_a_config_error_naming_them(no_packages):
    with pytest.raises(ConfigError, match="second held-out icon set needs Tabler.*pip install pytablericons"):
        h2._tabler_dir()
    with pytest.raises(ConfigError, match="second held-out icon set needs scikit-image"):
        h2._picture("astronaut.png")
    assert not h2.available()
