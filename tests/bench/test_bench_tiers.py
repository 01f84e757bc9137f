"""The harder tiers: the disturbed 33 and the long multi-app tasks. Every reference plan succeeds
replayed by the tree and reaches its milestones one by one; the disturbances are really there; the
default selection is still the paper's 33; one disturbed task runs through perception."""

from __future__ import annotations

import pytest

from mobile_agent.agent.operations import Back, ClickIcon, ClickText
from mobile_agent.bench.metrics import reached
from mobile_agent.bench.runner import EvalConfig, run_eval
from mobile_agent.bench.suite import SUITES, select, suite_defs
from mobile_agent.bench.task import Probe
from mobile_agent.bench.treeplay import replay

DISTURBED = [d.id for d in suite_defs("mobile-eval-disturbed")]
LONG = [d.id for d in suite_defs("mobile-eval-long")]


def test_tiers_and_the_default():
    assert SUITES[0] == "mobile-eval" and len(select()) == 33
    assert len(DISTURBED) == 33 and all(i.startswith("disturbed-") for i in DISTURBED)
    assert {d.id for d in suite_defs()} == {i[len("disturbed-"):] for i in DISTURBED}
    assert LONG == ["long-price", "long-address"]
    for d in suite_defs("mobile-eval-long"):
        assert len(d.instance().plan) >= 12 and len(d.apps) >= 2


@pytest.mark.parametrize("suite,task_id", [("mobile-eval-disturbed", i) for i in DISTURBED] +
                         [("mobile-eval-long", i) for i in LONG])
def test_plans_succeed_by_the_tree_in_order(suite, task_id):
    for key in (task_id, f"{task_id}#2"):
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
    assert isinstance(ops[2], Back)  # the shade opened at the end of the second gesture
    phone = task.make_phone()
    assert set(phone.disturbances) == {"permission", "ads", "shade"}
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


@pytest.mark.slow
def test_a_disturbed_task_through_perception(tmp_path):
    run = run_eval(EvalConfig(suite="mobile-eval-disturbed"), select("mobile-eval-disturbed",
                   ids=["disturbed-notes-1"]), tmp_path)
    row = run.rows[0]
    assert row.success and row.ps == 1.0 and row.steps == row.human_steps, row.detail.get("first_wrong")


def test_eval_list_shows_the_tiers(capsys):
    from mobile_agent.cli import main

    assert main(["eval", "--list", "--suite", "mobile-eval-long"]) == 0
    out = capsys.readouterr().out
    assert "mobile-eval-disturbed" in out and "33 tasks" in out and "long-price" in out
    assert "* mobile-eval-long" in out and "disturbed-notes-1" not in out
    assert main(["eval", "--list", "--suite", "hard"]) == 2
    assert "mobile-eval-long" in capsys.readouterr().err
