"""The icon stress set: frozen by its seed, every phenomenon it names present, its targets unique on
their screens (or told apart by the position hint), Lucide's icons drawn as thin outlines, and a
clear error when its packages are missing."""

from __future__ import annotations

import numpy as np
import pytest

from mobile_agent.screensets import icon_stress as st
from mobile_agent.screensets.measure import position_hint
from mobile_agent.errors import ConfigError

from heldout_checks import check_screens_order_free, check_seeds, needs

needs_packages = needs(st, ("dejavu",))  # its screens' text is drawn in one of five fonts, DejaVu Sans among them


@needs_packages
@pytest.mark.slow
def test_seed_zero_is_the_frozen_set_and_has_every_phenomenon():
    screens = st.stress_screens()
    assert st.set_digest(screens) == st.FROZEN_SHA256
    seen = {t.phenomenon for s in screens for t in s.targets}
    assert seen == set(st.PHENOMENA)
    # the issue's words and the models' words are all asked for
    words = {t.description for s in screens for t in s.targets}
    for w in ("Navigate up", "More options", "Search", "Open navigation drawer", "Share", "Close", "Settings",
              "profile picture", "heart", "cart", "bell", "back arrow", "three dots", "gear", "magnifier", "bin",
              "paper plane", "plus"):
        assert w in words, w


@needs_packages
def test_targets_are_unique_or_told_apart_by_the_hint():
    for s in check_seeds(st.stress_screens, st.set_digest, 12, seed=5):
        w, h = s.image.size
        assert s.targets, s.name
        assert (w, h) in {(sw, sh) for sw, sh, _ in st.SIZES}
        for t in s.targets:
            assert 0 <= t.box.x1 < t.box.x2 <= w and 0 <= t.box.y1 < t.box.y2 <= h
            assert t.description in st.DESCRIPTIONS[t.family] and t.phenomenon in st.PHENOMENA
        fams = [t.family for t in s.targets if t.phenomenon != "repeated (hint decides)"]
        assert len(fams) == len(set(fams)), (s.name, fams)
        rep = [(t.family, position_hint(t.box, w, h)) for t in s.targets if t.phenomenon == "repeated (hint decides)"]
        assert len(rep) == len(set(rep)), (s.name, rep)


@needs_packages
def test_a_screen_is_the_same_whatever_was_drawn_before_it():
    check_screens_order_free(st.stress_screen, st.set_digest, 3)


@needs_packages
def test_icons_are_lucide_outlines_filled_only_when_asked():
    thin = np.asarray(st.icon_mask("notifications", 1.5)) > 127
    thick = np.asarray(st.icon_mask("notifications", 2.25)) > 127
    filled = np.asarray(st.icon_mask("notifications", 2.0, filled=True)) > 127
    assert 0.05 < thin.mean() < thick.mean() < 0.3 and filled.mean() > 1.5 * thick.mean()


def test_missing_lucide_is_a_config_error_naming_it(no_packages):
    with pytest.raises(ConfigError, match="icon stress set needs Lucide.*pip install lucide"):
        st._lucide_zip()
    assert not st.available()
