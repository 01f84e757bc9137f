"""Fixtures of the frozen screen sets' tests (the helpers they share are in heldout_checks.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def no_packages(monkeypatch):
    """As if no optional package were installed: the sets' one package lookup
    (``mobile_agent.screensets.drawing.package_dir``) finds none, and the icons and pictures the sets
    found before are forgotten while the test runs."""
    from mobile_agent.screensets import drawing, icon_heldout_v2, icon_stress

    caches = (icon_heldout_v2._tabler_dir, icon_stress._lucide_zip, drawing.skimage_picture)
    monkeypatch.setattr(drawing, "package_dir", lambda module: None)
    for cache in caches:
        cache.cache_clear()
    yield
    for cache in caches:
        cache.cache_clear()
