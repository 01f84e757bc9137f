"""Point operations (Tap at (x, y), Double Tap, Long Press At, Swipe, Drag, Press Key, Answer) through
the whole loop on the simulated phone: their gestures, their records (steps.jsonl read back), the point
drawn in the report, and the gates judging the point by what lies there (--confirm, --dry-run)."""

from __future__ import annotations

import json
from collections import deque

import pytest

from mobile_agent.agent import StepLoop, AgentSettings
from mobile_agent.agent.operations import (
    ALL_OPERATION_TYPES, Answer, Drag, OpenApp, PressKey, Stop, SwipePoints, TapPoint, LongPressPoint,
    DoubleTapPoint, operation_from_dict, operation_to_dict,
)
from mobile_agent.agent.planner import BasePlanner, Plan
from mobile_agent.agent.risk import assess
from mobile_agent.agent.trajectory import read_steps
from mobile_agent.device.gestures import DoubleTap, LongPress, Swipe, Tap, gesture_from_dict
from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import TreeDriver
from mobile_agent.report import write_report
from tests.fakes.agent_harness import perception


class Points(BasePlanner):
    """Hands the loop operations computed from the screen as a point model would (here from the
    simulator's tree, which only the test reads): each item is an operation or a function of the phone."""

    name = "points"

    def __init__(self, phone, steps):
        self.phone, self.steps = phone, deque(steps)

    def plan(self, ctx):
        item = self.steps.popleft() if self.steps else Stop()
        op = item(self.phone) if callable(item) else item
        return Plan("", "a point", op, raw=str(op))


def at(text):
    def find(phone):
        c = TreeDriver(phone).find(text=text).bounds.center
        return TapPoint(int(c.x), int(c.y))
    return find


def held(text):
    def find(phone):
        c = TreeDriver(phone).find(text=text).bounds.center
        return LongPressPoint(int(c.x), int(c.y))
    return find


def run(phone, steps, tmp_path, **settings):
    settings.setdefault("settle_interval_s", 0.0)
    agent = StepLoop(phone, Points(phone, steps), perception(), AgentSettings(**settings))
    return agent.run("Delete the shopping list note", tmp_path)


@pytest.mark.parametrize("op", [TapPoint(10, 20), TapPoint(5, 6, sensitive="Pay now"), DoubleTapPoint(3, 4),
                                LongPressPoint(7, 8), SwipePoints(1, 2, 3, 4), Drag(5, 6, 7, 8), PressKey("menu"),
                                Answer("The code is 42")])
def test_every_point_operation_round_trips_through_its_json_form(op):
    d = operation_to_dict(op)
    assert operation_from_dict(json.loads(json.dumps(d))) == op
    assert type(op) in ALL_OPERATION_TYPES


def test_a_point_must_be_whole_pixels_and_a_key_a_name():
    with pytest.raises(ValueError, match="whole number of pixels"):
        operation_from_dict({"op": "Tap", "x": "12", "y": 3})
    with pytest.raises(ValueError, match="lower-case name"):
        PressKey("Back; rm")


def test_point_operations_carry_out_a_task_and_are_recorded_with_what_lies_under_them(tmp_path):
    phone = SimPhone(seed=0)
    titles = [n.title for n in phone.state.notes.notes]
    result = run(phone, [OpenApp("Notes"), held("Shopping list"), at("Delete"), Answer("Deleted it.")], tmp_path)
    assert result.completed and result.answer == "Deleted it."
    assert [n.title for n in phone.state.notes.notes] == [t for t in titles if t != "Shopping list"]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["answer"] == "Deleted it." and summary["outcome"] == "completed"
    steps = read_steps(tmp_path)
    press, tap = steps[1], steps[2]
    assert isinstance(press.gesture, LongPress) and press.operation == operation_from_dict(
        operation_to_dict(press.operation))
    assert press.grounding.status == "found" and press.grounding.candidates[0].text == "Shopping list"
    assert list(press.grounding.candidates[0].point) == [press.gesture.x, press.gesture.y]
    assert isinstance(tap.gesture, Tap) and tap.grounding.candidates[0].text == "Delete"
    assert tap.action.startswith("Tap (") and tap.annotated and (tmp_path / tap.annotated).is_file()
    assert steps[3].action == "Answer (Deleted it.)" and steps[3].to_dict()["operation"] == {
        "op": "Answer", "text": "Deleted it."}
    # the report draws the point where the finger went down
    html = write_report(tmp_path).read_text()
    assert f'cx="{tap.gesture.x}"' in html and f'cy="{tap.gesture.y}"' in html


def test_a_point_off_the_screen_is_not_carried_out_and_the_planner_is_told(tmp_path):
    phone = SimPhone(seed=0)
    result = run(phone, [TapPoint(5000, 10), Stop()], tmp_path)
    step = read_steps(tmp_path)[0]
    assert step.grounding.status == "none" and step.gesture.kind == "none"
    assert "the point (5000, 10) is outside the screen (1080x2400" in step.reflection.feedback
    assert "Nothing was tapped" in step.reflection.feedback and result.completed


def test_a_key_the_device_cannot_press_is_a_recorded_step_error_the_model_is_told_of(tmp_path):
    phone = SimPhone(seed=0)
    result = run(phone, [PressKey("menu"), PressKey("home"), Stop()], tmp_path)
    steps = read_steps(tmp_path)
    assert steps[0].gesture.kind == "none"
    assert "could not be carried out: this phone cannot do Press Key (menu)" in steps[0].reflection.feedback
    assert steps[1].gesture.kind == "home" and result.completed


def test_double_tap_swipe_and_drag_become_their_gestures(tmp_path):
    phone = SimPhone(seed=0)
    run(phone, [DoubleTapPoint(540, 1200), SwipePoints(540, 1700, 540, 700), Drag(540, 1700, 540, 1000), Stop()],
        tmp_path)
    steps = read_steps(tmp_path)
    assert isinstance(steps[0].gesture, DoubleTap) and steps[0].to_dict()["gesture"]["kind"] == "double_tap"
    assert gesture_from_dict(steps[0].to_dict()["gesture"]) == DoubleTap(540, 1200)
    assert isinstance(steps[1].gesture, Swipe) and (steps[1].gesture.y1, steps[1].gesture.y2) == (1700, 700)
    assert isinstance(steps[2].gesture, Swipe) and steps[2].gesture.duration_ms == 1500


def test_confirm_judges_a_tap_by_the_text_under_the_point_not_the_model_s_words(tmp_path):
    phone = SimPhone(seed=0)
    asked = []

    def confirm(op, why):
        asked.append((str(op), why))
        return False
    result = run(phone, [OpenApp("Notes"), held("Shopping list"), at("Delete")], tmp_path, confirm=confirm)
    assert result.outcome == "interrupted" and len(asked) == 1
    assert asked[0][0].startswith("Tap (") and "'Delete' deletes" in asked[0][1]
    assert "Shopping list" in [n.title for n in phone.state.notes.notes]  # nothing touched


def test_a_tap_the_model_marks_sensitive_is_asked_about_whatever_is_there(tmp_path):
    phone = SimPhone(seed=0)
    asked = []
    result = run(phone, [TapPoint(540, 1200, sensitive="pay for the order")], tmp_path,
                 confirm=lambda op, why: asked.append(why) or False)
    assert result.outcome == "interrupted"
    assert asked and "the model marks this tap as sensitive: pay for the order" in asked[0]


def test_enter_as_a_key_is_asked_about_as_a_typed_newline_is():
    assert assess(PressKey("enter")).risky and not assess(PressKey("back")).risky
    assert not assess(SwipePoints(1, 2, 3, 4)).risky and not assess(Answer("send it")).risky


def test_dry_run_draws_the_point_and_touches_nothing(tmp_path):
    phone = SimPhone(seed=0)
    before = phone.screenshot()
    result = run(phone, [TapPoint(540, 1200)], tmp_path, dry_run=True)
    assert result.outcome == "dry_run"
    step = read_steps(tmp_path)[0]
    assert isinstance(step.gesture, Tap) and step.annotated
    assert phone.screenshot().tobytes() == before.tobytes()


def test_confirm_judges_a_double_taps_second_tap_on_the_screen_the_first_tap_opened(tmp_path):
    # issue 51, item 4: on Video's home (900, 960) is on the first video's card (the phone's tree: a
    # clickable card 0..1080 x 325..1173), which opens the video's page on the first tap; there
    # Subscribe lies under the same point (776..1038 x 915..1010). The second tap asks; declined,
    # nothing is subscribed and the first tap's page is in front
    phone = SimPhone(seed=0)
    asked = []
    result = run(phone, [OpenApp("Video"), DoubleTapPoint(900, 960)], tmp_path,
                 confirm=lambda op, why: asked.append(why) or False)
    assert result.outcome == "interrupted" and len(asked) == 1, (result.outcome, asked)
    assert "second tap" in asked[0] and "Subscribe" in asked[0] and "pays" in asked[0], asked
    assert not phone.state.video.subscribed
    assert TreeDriver(phone).find(text="Subscribe") is not None
