"""The apps of the simulated phone. Each module in this package exports ``APPS``: a list of
:class:`~mobile_agent.device.sim.phone.App` subclasses. They are found by scanning the package, and
ordered on the home screen by :data:`ORDER` (unknown names last, alphabetically)."""

from __future__ import annotations

import importlib
import pkgutil

ORDER = ("Shop", "Music", "Browser", "Mail", "Maps", "Store", "Notes", "Settings", "Clips", "Video",
         "Calendar", "Weather")


def _discover() -> list[type]:
    found: list[type] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(getattr(module, "APPS", ()))
    rank = {n: i for i, n in enumerate(ORDER)}
    return sorted(found, key=lambda cls: (cls.installable, rank.get(cls.name, len(ORDER)), cls.name))


APP_CLASSES: list[type] = _discover()
