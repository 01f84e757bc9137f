"""The disturbed tier: the paper's 33 tasks on a phone that gets in the way, as real phones do.

Each task keeps its instruction, success check and milestones; its phone has the sim's
disturbances on: a loading screen on each app's first launch (a skeleton, a spinner and
"Loading…", seen in one or two screenshots, drawn from the phone's seed and the app), then a
permission dialog (Settings aside), an ad banner in every app until its close button is tapped,
and the notification shade opened by mistake at the end of the run's second gesture (a swipe that
grazed the status bar). Its reference plan deals with them as a person would: Wait while the app
loads, Allow, close the ad, Back to close the shade. Each added step has a milestone: the
milestone before it, and the disturbance gone (a Wait: one more screenshot of the loading screen
past, or the loading over). Extra Waits on a loading screen count as correct steps (they are
alternatives of the next step); an agent that taps through the loading screen taps nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from mobile_agent.agent.operations import ClickIcon, ClickText, Exit, OpenApp, Stop, Wait
from mobile_agent.bench.task import Check, Params, Probe, RefStep, Task, TaskDef
from mobile_agent.device.sim.phone import loading_screens

DISTURBANCES = ("loading", "permission", "ads", "shade")
AD_TEXT = "SuperSaver VPN"
NO_PERMISSION_DIALOG = ("Settings",)  # apps the phone opens without asking


def _and(m: Check, extra: Check) -> Check:
    return lambda p: m(p) and extra(p)


def _no_dialog(p: Probe) -> bool:
    return not (p.shows("Allow") and p.shows("Don't allow"))


def _no_ad(p: Probe) -> bool:
    return not p.shows_part(AD_TEXT)


def _no_shade(p: Probe) -> bool:
    return not p.phone.shade_open


def _waited(j: int) -> Check:
    """The loading screen seen ``j`` times with time passed after each, or no loading screen up."""
    return lambda p: not p.phone.loading or p.phone.loading_waited >= j


def _loaded(p: Probe) -> bool:
    return not p.phone.loading


def disturbed_plan(plan: list[RefStep], shade_gesture: int = 2, seed: int | None = None) -> list[RefStep]:
    """``plan`` with the steps that clear the disturbances put in; with ``seed`` (the phone's), the
    Waits of the loading screens too."""
    out: list[RefStep] = []
    launched: set[str] = set()
    for s in plan:
        out.append(s)
        if not isinstance(s.op, OpenApp) or s.op.name.lower() in launched:
            continue
        launched.add(s.op.name.lower())
        m = s.milestone
        assert m is not None
        if seed is not None:
            k = loading_screens(seed, s.op.name)
            for j in range(1, k + 1):
                out.append(RefStep(Wait(), _and(m, _waited(j)), alternatives=(Wait(),),
                                   note=f"the loading screen of a first launch ({j} of {k})"))
            m = _and(m, _loaded)
        if s.op.name not in NO_PERMISSION_DIALOG:
            m = _and(m, _no_dialog)
            out.append(RefStep(ClickText("Allow"), m, note="the permission dialog of a first launch"))
        m = _and(m, _no_ad)
        out.append(RefStep(ClickIcon("close", ("bottom", "right")), m, icon_desc="Close ad",
                           note="the ad banner"))
    # The shade opens at the end of gesture ``shade_gesture``: every step before Stop but a Wait is
    # one gesture.
    gestures = [i for i, s in enumerate(out) if not isinstance(s.op, (Wait, Stop))]
    i = gestures[shade_gesture - 1] if len(gestures) >= shade_gesture else len(out)
    if i < len(out) - 1 and not isinstance(out[i].op, (Exit, Stop)):
        m = out[i].milestone
        assert m is not None
        out.insert(i + 1, RefStep(_back(), _and(m, _no_shade), note="the notification shade opened by mistake"))
    return out


def _back():
    from mobile_agent.agent.operations import Back

    return Back()


@dataclass(frozen=True)
class DisturbedDef(TaskDef):
    """A task of the paper on a disturbed phone. Its plan is completed once the phone's seed is
    known (the length of each loading screen depends on it)."""

    def instance(self, variant: int = 0, base_seed: int = 0) -> Task:
        task = super().instance(variant, base_seed)
        task.plan = disturbed_plan(task.plan, seed=task.phone_seed)
        return task


def disturbed(base: TaskDef) -> TaskDef:
    """``base`` on a disturbed phone."""

    def build(params: Params, state) -> Task:
        task = base.build(params, state)
        task.disturbances = DISTURBANCES
        task.description = (task.description + "; " if task.description else "") + \
            "with a loading screen and a permission dialog per app, ad banners and the notification shade opened once"
        return task

    return DisturbedDef(f"disturbed-{base.id}", base.apps, base.tier, build)


def task_defs() -> list[TaskDef]:
    from mobile_agent.bench.mobile_eval import task_defs as paper

    return [disturbed(d) for d in paper()]
