"""The noisy planner: seeded, model-like phrasing of the reference plan, recovery from its own
wrong steps; run through the real perception on the simulated phone."""

from __future__ import annotations

from mobile_agent.agent.operations import ClickIcon, ClickText, Exit, OpenApp, PageDown, PageUp, Stop
from mobile_agent.agent import parser
from mobile_agent.bench.noisy import ICON_WORDS, NoiseRates, NoisyPlanner
from mobile_agent.bench.runner import EvalConfig, run_eval
from mobile_agent.bench.suite import select


def _ops(task, seed, rates=None):
    p = NoisyPlanner(task, seed=seed, rates=rates)
    out = []
    for _ in range(3 * len(task.plan)):
        item = p._next()
        out.append(item.op)
        if isinstance(item.op, Stop):
            break
    return out, p


def test_same_seed_same_words_other_seed_other_words():
    tasks = select()
    a = [_ops(t, 1)[0] for t in tasks]
    assert a == [_ops(t, 1)[0] for t in tasks]
    b = [_ops(t, 2)[0] for t in tasks]
    assert a != b
    plans = [t.operations() for t in tasks]
    changed = sum(x != y for x, y in zip(a, plans))
    assert changed > len(tasks) // 3, "the noise changes the words of many plans"


def test_every_phrasing_parses_back_and_names_the_same_target():
    always = NoiseRates(app_case=1, text=1, icon=1, wrong_position=1, wrong_step=0)
    seen_icons = set()
    for t in select(variants=2):
        ops, _ = _ops(t, 0, always)
        refs = [o for o in t.operations()]
        assert len(ops) == len(refs)
        for said, ref in zip(ops, refs):
            if said != ref:  # what the planner changed reads back from its own words
                assert parser.parse_operation(str(said)) == said
            assert type(said) is type(ref)
            if isinstance(ref, ClickIcon):
                assert said.position != ref.position  # the wrong hint
                if ref.description.lower() in ICON_WORDS:
                    assert said.description in ICON_WORDS[ref.description.lower()]
                    seen_icons.add(ref.description.lower())
            if isinstance(ref, ClickText):
                assert said.text != ref.text and said.text.lower()[:3] == ref.text.lower()[:3]
            if isinstance(ref, OpenApp):
                assert said.name.lower() == ref.name.lower()
    assert {"search", "send", "check", "heart"} <= seen_icons


def test_wrong_steps_come_with_their_undoing():
    wrong = NoiseRates(app_case=0, text=0, icon=0, wrong_position=0, wrong_step=1)
    t = select(ids=["notes-2"])[0]
    ops, planner = _ops(t, 0, wrong)
    assert isinstance(ops[0], OpenApp) and ops[0].name not in t.apps and isinstance(ops[1], Exit)
    assert ops[2] == t.operations()[0]
    i = ops.index(PageDown())
    assert ops[i + 1] == PageUp()
    assert [o for o in ops if o in t.operations()] == t.operations()
    assert any("wrong" in e for e in planner.log.entries)


def test_noisy_run_through_perception_recovers_and_costs_steps(tmp_path):
    tasks = select(ids=["store-3"])
    cfg = EvalConfig(planner="noisy", base_seed=0)
    run = run_eval(cfg, tasks, tmp_path)
    assert run.complete
    rows = {r.task_key: r for r in run.rows}
    assert all(r.success for r in rows.values())
    # store-3 draws a detour and its undoing at seed 0: more steps than a person's, PS below 1
    noisy = rows["store-3"]
    assert noisy.steps > noisy.human_steps and noisy.re < 1.0 and noisy.ps < 1.0
    assert noisy.detail["noise"]
    from mobile_agent.bench.store import config_id

    assert config_id(EvalConfig().identity()) != run.config_id  # stored apart from the oracle's runs
