"""The harder tiers: the disturbed 33 and the long multi-app tasks. Every reference plan succeeds
replayed by the tree and reaches its milestones one by one; the disturbances are really there; the
default selection is still the paper's 33; one disturbed task runs through perception."""

from __future__ import annotations

import re

import pytest

from mobile_agent.agent.operations import Back, ClickIcon, ClickText, Wait
from mobile_agent.bench.metrics import reached
from mobile_agent.bench.runner import EvalConfig, run_eval
from mobile_agent.bench.suite import SUITES, select, suite_defs
from mobile_agent.bench.task import Probe
from mobile_agent.bench.treeplay import replay
from mobile_agent.device.sim.phone import loading_screens

DISTURBED = [d.id for d in suite_defs("mobile-eval-disturbed")]
LONG = [d.id for d in suite_defs("mobile-eval-long")]


def test_tiers_and_the_default():
    assert SUITES[0] == "mobile-eval" and len(select()) == 33
    assert len(DISTURBED) == 33 and all(i.startswith("disturbed-") for i in DISTURBED)
    assert {d.id for d in suite_defs()} == {i[len("disturbed-"):] for i in DISTURBED}
    assert LONG == ["long-price", "long-address", "long-install-setting"]
    for d in suite_defs("mobile-eval-long"):
        assert len(d.instance().plan) >= 11 and len(d.apps) >= 2


@pytest.mark.parametrize("suite,task_id", [("mobile-eval-disturbed", i) for i in DISTURBED] +
                         [("mobile-eval-long", i) for i in LONG])
def test_plans_succeed_by_the_tree_in_order(suite, task_id):
    keys = [task_id, f"{task_id}#2"] + ([f"{task_id}#{v}" for v in range(1, 12)] if task_id == "long-install-setting"
                                        else [])
    for key in keys:
        task = select(suite, ids=[key])[0]
        phone = task.make_phone()
        assert reached(task, Probe(phone)) == 0 and not task.success(Probe(phone))
        metrics, progress = replay(task)
        n = len(task.milestones)
        assert progress[:n] == list(range(1, n + 1)), (key, progress)
        assert metrics.su == 1.0 and metrics.ps == 1.0, key


def test_disturbed_plans_clear_what_gets_in_the_way():
    task = select("mobile-eval-disturbed", ids=["disturbed-multi-2"])[0]
    ops = task.operations()
    assert ops.count(ClickText("Allow")) == 2  # Weather and Notes ask once each
    assert sum(isinstance(o, ClickIcon) and o.description == "close" for o in ops) == 2
    # Weather loads for two screenshots on this phone (seed 0), Notes for one: a Wait for each
    assert [loading_screens(0, "Weather"), loading_screens(0, "Notes")] == [2, 1]
    assert ops[1:3] == [Wait(), Wait()] and ops[8] == Wait() and ops.count(Wait()) == 3
    assert isinstance(ops[4], Back)  # the shade opened at the end of the second gesture (Allow; a Wait is none)
    phone = task.make_phone()
    assert set(phone.disturbances) == {"loading", "permission", "ads", "shade"}
    # Without clearing them the plain plan fails on this phone.
    plain = select(ids=["multi-2"])[0]
    plain.disturbances = task.disturbances
    with pytest.raises(LookupError):
        replay(plain)


def test_the_cheaper_price_is_checked_not_just_any_number():
    task = select("mobile-eval-long", ids=["long-price"])[0]
    phone = task.make_phone()
    from mobile_agent.bench.treeplay import tree_act
    from mobile_agent.device.uitree import TreeDriver

    d = TreeDriver(phone)
    for s in task.plan[:10]:  # up to the new note's editor
        tree_act(d, s)
    shop, web = task.params["shop_price"], task.params["web_price"]
    dearer = max(shop, web)
    phone.type_text(f"Cheaper: US${dearer:.2f}")
    tree_act(d, task.plan[11])
    assert not task.success(Probe(phone))


def test_a_loading_screen_lasts_its_screenshots_and_takes_no_taps():
    from mobile_agent.device.sim import SimPhone
    from mobile_agent.device.uitree import TreeDriver

    assert {loading_screens(s, "Notes") for s in range(20)} == {1, 2}  # drawn from the seed
    seed = next(s for s in range(20) if loading_screens(s, "Notes") == 2)
    phone = SimPhone(seed=seed, disturbances=("loading",))
    d = TreeDriver(phone)
    d.tap(text="Notes")
    assert phone.loading and d.find(text="Loading…") and d.find(desc="Loading")  # spinner and text
    assert phone.wait_still() is False and phone.loading  # not seen yet: no time has passed for it
    phone.screenshot()
    phone.tap(540, 1400)  # on the loading screen: time passes, the tap lands on nothing
    assert phone.loading and phone.loading_waited == 1 and phone.state.foreground == "Notes"
    phone.screenshot()
    assert phone.wait_still() is True and not phone.loading and d.find(text="Loading…") is None
    assert d.find(text="New note") is not None
    d.tap(desc="Back") if d.find(desc="Back") else phone.back()
    phone.home()
    d.tap(text="Notes")  # the second launch loads nothing
    assert not phone.loading


@pytest.mark.slow
def test_oracle_waits_while_it_sees_the_loading_screen(tmp_path):
    """The oracle reads the screen (OCR) before a step: on "Loading…" it waits, as often as the
    loading lasts, even where its plan has no Wait."""
    from mobile_agent.bench.runner import run_task

    seed = next(s for s in range(20) if loading_screens(s, "Notes") == 2)
    task = select("mobile-eval-disturbed", ids=["disturbed-notes-1"], base_seed=seed)[0]
    task.plan = [s for s in task.plan if not isinstance(s.op, Wait)]
    row = run_task(EvalConfig(suite="mobile-eval-disturbed", base_seed=seed), task, tmp_path, "cfg")
    assert row.success, row.detail.get("first_wrong")
    assert [j["action"] for j in row.detail["steps"]].count("Wait") == 2


@pytest.mark.slow
def test_a_disturbed_task_through_perception(tmp_path):
    seed = next(s for s in range(20) if loading_screens(s, "Notes") == 2)  # two Waits in the plan
    config = EvalConfig(suite="mobile-eval-disturbed", base_seed=seed)
    run = run_eval(config, select("mobile-eval-disturbed", ids=["disturbed-notes-1"], base_seed=seed), tmp_path)
    row = run.rows[0]
    assert row.success and row.ps == 1.0 and row.steps == row.human_steps, row.detail.get("first_wrong")
    assert row.detail["plan"].count("Wait") == 2


def test_eval_list_shows_the_tiers(capsys):
    from mobile_agent.cli import main

    assert main(["eval", "--list", "--suite", "mobile-eval-long"]) == 0
    out = capsys.readouterr().out
    assert "mobile-eval-disturbed" in out and re.search(r"mobile-eval-disturbed +33 ", out) and "long-price" in out
    assert "* mobile-eval-long" in out and "disturbed-notes-1" not in out
    assert main(["eval", "--list", "--suite", "hard"]) == 2
    assert "mobile-eval-long" in capsys.readouterr().err
