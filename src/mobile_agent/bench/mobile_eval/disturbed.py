"""The disturbed tier: the paper's 33 tasks on a phone that gets in the way, as real phones do.

Each task keeps its instruction, success check and milestones; its phone has the sim's
disturbances on: a permission dialog on each app's first launch (Settings aside), an ad banner in
every app until its close button is tapped, and the notification shade opened by mistake at the
end of the run's second gesture (a swipe that grazed the status bar). Its reference plan deals
with them as a person would: Allow after the first launch of an app, close the ad, Back to close
the shade. Each added step has a milestone: the milestone before it, and the disturbance gone.

Loading screens are left out here: on the simulated phone a loading screen ends after one or two
gestures, not after a while, and there is no Wait among the eight operations to pass it with.
"""

from __future__ import annotations

from mobile_agent.agent.operations import ClickIcon, ClickText, Exit, OpenApp, Stop
from mobile_agent.bench.task import Check, Params, Probe, RefStep, Task, TaskDef

DISTURBANCES = ("permission", "ads", "shade")
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


def disturbed_plan(plan: list[RefStep], shade_gesture: int = 2) -> list[RefStep]:
    """``plan`` with the steps that clear the disturbances put in."""
    out: list[RefStep] = []
    launched: set[str] = set()
    for s in plan:
        out.append(s)
        if not isinstance(s.op, OpenApp) or s.op.name.lower() in launched:
            continue
        launched.add(s.op.name.lower())
        m = s.milestone
        assert m is not None
        if s.op.name not in NO_PERMISSION_DIALOG:
            m = _and(m, _no_dialog)
            out.append(RefStep(ClickText("Allow"), m, note="the permission dialog of a first launch"))
        m = _and(m, _no_ad)
        out.append(RefStep(ClickIcon("close", ("bottom", "right")), m, icon_desc="Close ad",
                           note="the ad banner"))
    # The shade opens at the end of gesture ``shade_gesture``: every step before Stop is one gesture.
    i = shade_gesture - 1
    if i < len(out) - 1 and not isinstance(out[i].op, (Exit, Stop)):
        m = out[i].milestone
        assert m is not None
        out.insert(i + 1, RefStep(_back(), _and(m, _no_shade), note="the notification shade opened by mistake"))
    return out


def _back():
    from mobile_agent.agent.operations import Back

    return Back()


def disturbed(base: TaskDef) -> TaskDef:
    """``base`` on a disturbed phone."""

    def build(params: Params, state) -> Task:
        task = base.build(params, state)
        task.plan = disturbed_plan(task.plan)
        task.disturbances = DISTURBANCES
        task.description = (task.description + "; " if task.description else "") + \
            "with a permission dialog per app, ad banners and the notification shade opened once"
        return task

    return TaskDef(f"disturbed-{base.id}", base.apps, base.tier, build)


def task_defs() -> list[TaskDef]:
    from mobile_agent.bench.mobile_eval import task_defs as paper

    return [disturbed(d) for d in paper()]
