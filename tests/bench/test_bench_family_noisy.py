"""The family oracle with its families' quirks (``eval --planner noisy --model-family F``): every quirk of
every family is read by the family's own parser to the same element, every unknown action is refused
with a message naming it, the noise is drawn from the seed, and a run with every quirk on every step
still completes, its unknown actions recorded as parse errors and sent back."""

from __future__ import annotations

import json

import pytest

from mobile_agent.agent.families import FAMILIES, Frame
from mobile_agent.agent.families.planner import read_reply
from mobile_agent.agent.operations import LongPressPoint, TapPoint
from mobile_agent.bench import family_noisy
from mobile_agent.bench.family_noisy import (
    BOX_FORMS, SPACING, UNKNOWN, FamilyNoiseRates, NoisyFamilyOraclePlanner, write_box,
)
from mobile_agent.bench.runner import EvalConfig, run_eval
from mobile_agent.bench.suite import select
from mobile_agent.errors import ConfigError, ParseError
from mobile_agent.types import Box

#: A phone's screenshot size, and an element on it (a list row's label).
W, H = 1080, 2400
ELEMENT = Box(220, 640, 460, 700)
ARGS = {"tap": {"x": 340, "y": 670}, "long_press": {"x": 340, "y": 670}, "type": {"text": "Dinner at 8, (table 2)"},
        "open": {"app": "Notes"}, "back": {}, "home": {}, "wait": {},
        "swipe": {"x1": 540, "y1": 1800, "x2": 540, "y2": 800}}


def _frame(family):
    iw, ih = family.image_size(W, H)
    return Frame(W, H, iw, ih)


@pytest.mark.parametrize("syntax", sorted(SPACING))
def test_every_spacing_variant_reads_as_the_plain_reply(syntax):
    applied = set()
    for fam in (f for f in FAMILIES.values() if f.syntax == syntax):
        frame = _frame(fam)
        for action, args in ARGS.items():
            plain = fam.write(action, args, "Tap it, then go on.", frame)
            want = read_reply(fam, plain, frame).operation
            for quirk, rewrite in SPACING[syntax]:
                raw = rewrite(plain)
                if raw != plain:
                    applied.add(quirk)
                    assert read_reply(fam, raw, frame).operation == want, (fam.name, quirk, raw)
    assert applied == {q for q, _ in SPACING[syntax]}, "every variant changes some reply of the syntax's families"


@pytest.mark.parametrize("name", sorted(BOX_FORMS))
def test_a_box_for_the_point_lands_inside_the_element(name):
    fam = FAMILIES[name]
    frame = _frame(fam)
    for action in ("tap", "long_press"):
        plain = fam.write(action, ARGS[action], "t", frame)
        box = fam.to_model(ELEMENT.x1, ELEMENT.y1, frame) + fam.to_model(ELEMENT.x2, ELEMENT.y2, frame)
        raw = write_box(plain, fam, box)
        assert raw != plain and str(box[2]) in raw
        op = read_reply(fam, raw, frame).operation
        assert isinstance(op, TapPoint if action == "tap" else LongPressPoint)
        assert ELEMENT.x1 < op.x < ELEMENT.x2 and ELEMENT.y1 < op.y < ELEMENT.y2
        assert abs(op.x - (ELEMENT.x1 + ELEMENT.x2) / 2) <= 3 and abs(op.y - (ELEMENT.y1 + ELEMENT.y2) / 2) <= 3


@pytest.mark.parametrize("name", list(FAMILIES))
def test_every_unknown_action_is_refused_naming_it(name):
    fam = FAMILIES[name]
    frame = _frame(fam)
    for bad in UNKNOWN[fam.syntax]:
        with pytest.raises(ParseError) as err:
            read_reply(fam, bad.format(x=500, y=500), frame)
        said = str(err.value)
        assert "is not one of" in said
        assert any(word in said for word in ("hover", "right_single", "left_click", "scroll", "Scroll",
                                             "DoubleClick", "Hotkey"))


def _answers(family, seed, rates=None):
    task = select(ids=["settings-1"])[0]
    p = NoisyFamilyOraclePlanner(task, FAMILIES[family], None, seed=seed, rates=rates)
    frame = _frame(p.family)
    plans = [p.answer(action, args, "go on", frame, ELEMENT if action in ("tap", "long_press") else None)
             for _ in range(6) for action, args in ARGS.items()]
    return plans, p


def test_the_noise_is_drawn_from_the_seed_and_stays_inside_the_element():
    a, pa = _answers("ui-tars-1.5", 1)
    assert [p.raw for p in a] == [p.raw for p in _answers("ui-tars-1.5", 1)[0]]
    assert [p.raw for p in a] != [p.raw for p in _answers("ui-tars-1.5", 2)[0]]
    log = " ".join(pa.log.entries)
    assert "px off" in log and "a box for the point" in log and "spacing:" in log
    for plan in a:
        if isinstance(plan.operation, (TapPoint, LongPressPoint)):  # off, boxed or plain: on the element
            assert ELEMENT.x1 <= plan.operation.x <= ELEMENT.x2 and ELEMENT.y1 <= plan.operation.y <= ELEMENT.y2


def test_an_unknown_action_is_recorded_sent_back_and_answered_again():
    always = FamilyNoiseRates(point_off=0, box=0, spacing=0, unknown=1)
    plans, p = _answers("autoglm-phone", 0, always)
    assert all(len(plan.parse_errors) == 1 and "is not one of AutoGLM-Phone's actions" in plan.parse_errors[0]
               for plan in plans)
    assert all("sent back: Your reply could not be read" in e for e in p.log.entries)
    assert [type(plan.operation).__name__ for plan in plans[:len(ARGS)]] == [
        "TapPoint", "LongPressPoint", "Type", "OpenApp", "PressKey", "PressKey", "Wait", "SwipePoints"]


def test_every_quirk_on_every_step_still_completes_the_tasks(tmp_path, monkeypatch):
    monkeypatch.setattr(family_noisy, "FamilyNoiseRates", lambda: FamilyNoiseRates(1, 1, 1, 1))
    result = run_eval(EvalConfig(planner="noisy", model_family="ui-tars-1.5"), select(ids=["settings-1"]),
                      tmp_path, workers=1)
    assert result.rows[0].success and result.rows[0].steps == result.rows[0].human_steps
    lines = [json.loads(ln) for ln in (tmp_path / result.config_id / "settings-1" / "steps.jsonl").open()]
    assert [ln["operation"]["op"] for ln in lines] == ["Open App", "Tap", "Tap", "Stop"]
    for ln in lines:  # an unknown action first, each step: recorded, and the step went on
        assert len(ln["model"]["parse_errors"]) == 1 and "is not one of UI-TARS-1.5's actions" in \
            ln["model"]["parse_errors"][0]
    assert "<bbox>" in lines[1]["model"]["raw"] and lines[1]["grounding"]["candidates"][0]["text"] == "Display"
    noise = result.rows[0].detail["noise"]
    assert sum("sent back:" in e for e in noise) == 4 and any("a box for the point" in e for e in noise)


def test_the_noisy_family_configuration_is_its_own():
    assert EvalConfig(planner="noisy", model_family="MAI-UI").model_family == "mai-ui"
    ids = {EvalConfig(planner="noisy", model_family="mai-ui").identity()["planner"],
           EvalConfig(model_family="mai-ui").identity()["planner"]}
    assert ids == {"noisy", "oracle"}
    with pytest.raises(ConfigError, match="unknown model family 'gpt'"):
        EvalConfig(planner="noisy", model_family="gpt")
