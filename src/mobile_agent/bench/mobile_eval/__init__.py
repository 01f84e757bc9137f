"""The Mobile-Eval suite (Wang et al. 2024) on the simulated phone: 10 apps and the multi-app
scenario, three instructions each (1 simple, 2 with an added requirement, 3 indirect).

Each app module exports ``TASKS``: ``(id, apps, tier, builder)`` tuples. A module whose app is not
on the phone yet is left out (so the suite grows as apps land).
"""

from __future__ import annotations

import importlib

from mobile_agent.bench.task import TaskDef

MODULES = ("shop", "music", "browser", "mail", "maps", "store", "notes", "settings", "clips", "video", "multi")
APP_ORDER = ("Shop", "Music", "Browser", "Mail", "Maps", "Store", "Notes", "Settings", "Clips", "Video", "Multi-app")


def _phone_apps() -> set[str]:
    from mobile_agent.device.sim.apps import APP_CLASSES

    return {cls.name for cls in APP_CLASSES}


def task_defs() -> list[TaskDef]:
    """Every task definition whose apps are on the simulated phone, in the paper's order."""
    have = _phone_apps()
    out: list[TaskDef] = []
    for name in MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.endswith(f".{name}"):
                continue
            raise
        for tid, apps, tier, build in module.TASKS:
            if all(a in have for a in apps):
                out.append(TaskDef(tid, tuple(apps), tier, build))
    return out
