"""Choosing tasks: a suite by name, filtered by ids, tier or app, with K variants each."""

from __future__ import annotations

from typing import Sequence

from mobile_agent.bench.task import Task, TaskDef
from mobile_agent.errors import ConfigError

#: The tiers of the benchmark: the paper's 33 tasks (the default), the same on a phone that gets in
#: the way (permission dialogs, ad banners, the notification shade), and longer multi-app tasks.
SUITES = ("mobile-eval", "mobile-eval-disturbed", "mobile-eval-long", "mobile-eval-ask")
SUITE_TITLES = {
    "mobile-eval": "the paper's 33 tasks (Mobile-Eval)",
    "mobile-eval-disturbed": "the 33 with permission dialogs, ad banners and a notification shade opened by mistake",
    "mobile-eval-long": "long multi-app tasks in the style of Mobile-Agent-E",
    "mobile-eval-ask": "tasks that need the user: a fact only they know, a one-time code, a sign-in by hand",
}


def suite_defs(suite: str = "mobile-eval") -> list[TaskDef]:
    if suite not in SUITES:
        raise ConfigError(f"unknown suite {suite!r}: use one of {', '.join(SUITES)}")
    if suite == "mobile-eval-disturbed":
        from mobile_agent.bench.mobile_eval.disturbed import task_defs as disturbed

        return disturbed()
    if suite == "mobile-eval-long":
        from mobile_agent.bench.mobile_eval.long import task_defs as long_tasks

        return long_tasks()
    if suite == "mobile-eval-ask":
        from mobile_agent.bench.mobile_eval.ask import task_defs as ask_tasks

        return ask_tasks()
    from mobile_agent.bench.mobile_eval import task_defs

    return task_defs()


#: Variants are numbered 0..MAX_VARIANT (a seed offset; the results database stores it in 64 bits).
MAX_VARIANT = 999_999


def parse_task_key(key: str) -> tuple[str, int]:
    """``"notes-2"`` -> ("notes-2", 0); ``"notes-2#3"`` -> ("notes-2", 3)."""
    tid, _, var = key.partition("#")
    if var and not (var.isascii() and var.isdigit()):
        raise ConfigError(f"bad task key {key!r}: the variant after # is a number (notes-2#3)")
    if var and (len(var) > 7 or int(var) > MAX_VARIANT):
        raise ConfigError(f"bad task key {key!r}: variants go from 0 to {MAX_VARIANT}")
    return tid.strip(), int(var or 0)


def select(suite: str = "mobile-eval", ids: Sequence[str] | None = None, tier: int | None = None,
           app: str | None = None, variants: int = 1, base_seed: int = 0) -> list[Task]:
    """The task instances to run. ``ids`` may name variants (``notes-2#3``); otherwise each chosen
    task runs as variants 0..``variants``-1."""
    defs = suite_defs(suite)
    by_id = {d.id: d for d in defs}
    if not 1 <= variants <= 1000:
        raise ConfigError(f"--variants must be from 1 to 1000, got {variants}")
    if tier is not None and tier not in (1, 2, 3):
        raise ConfigError(f"--tier must be 1, 2 or 3, got {tier}")
    chosen: list[tuple[TaskDef, list[int]]] = []
    if ids:
        for key in ids:
            tid, var = parse_task_key(key)
            if tid not in by_id:
                raise ConfigError(f"unknown task {tid!r}; tasks: {', '.join(by_id)}")
            chosen.append((by_id[tid], [var] if "#" in key else list(range(variants))))
    else:
        chosen = [(d, list(range(variants))) for d in defs]
    if tier is not None:
        chosen = [(d, v) for d, v in chosen if d.tier == tier]
    if app is not None:
        want = "multi-app" if app.strip().lower() in ("multi", "multi-app") else app.strip().lower()
        apps = {d.app.lower() for d in defs}
        if want not in apps:
            raise ConfigError(f"unknown app {app!r}; apps: {', '.join(sorted({d.app for d in defs}))}")
        chosen = [(d, v) for d, v in chosen if d.app.lower() == want]
    return [d.instance(v, base_seed) for d, vs in chosen for v in vs]
