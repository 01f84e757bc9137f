"""The typed step record: a steps.jsonl written before the typed records reads back line for line,
each gesture kind reads back to its gesture, and a bad line says which line and why."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mobile_agent.agent.operations import ClickText, OpenApp
from mobile_agent.agent.record import StepRecord
from mobile_agent.agent.trajectory import STEPS, read_steps
from mobile_agent.device.gestures import (
    GESTURE_TYPES, Key, Launch, LongPress, NoGesture, Swipe, Tap, TypeText, Wait, gesture_from_dict,
)

# Lines of steps.jsonl written by the agent before the typed records (a Mobile-Eval oracle run):
# a tap, a tap among several candidates, a type, a Stop with its completion check, a swipe, Exit.
OLD = Path(__file__).parent / "fixtures" / "steps_written_before_typed_records.jsonl"


def test_a_steps_file_of_the_earlier_format_reads_back_line_for_line(tmp_path):
    shutil.copy(OLD, tmp_path / STEPS)
    lines = OLD.read_text(encoding="utf-8").splitlines()
    records = read_steps(tmp_path)
    assert len(records) == len(lines) == 6
    for rec, line in zip(records, lines):
        assert json.dumps(rec.to_dict(), ensure_ascii=False) == line  # same fields, same order
    kinds = [type(r.gesture) for r in records]
    assert kinds == [Tap, Tap, TypeText, NoGesture, Swipe, Key]
    assert records[0].operation == OpenApp("Browser") and records[0].grounding.candidates[0].text == "Browser"
    assert records[3].completion is not None and records[3].carried_out
    assert records[5].gesture == Key("home") and records[5].calls == []


def test_each_gesture_round_trips_and_describes_itself():
    gestures = [Tap(1, 2), LongPress(3, 4, 900), Swipe(1, 2, 3, 4, 300), TypeText("hi\n"), Key("back"),
                Key("home"), Key("enter"), Launch("Maps"), Wait(2.0), NoGesture()]
    assert {type(g) for g in gestures} == set(GESTURE_TYPES)
    for g in gestures:
        assert gesture_from_dict(g.to_dict()) == g
        assert g.describe() and "\n" not in g.describe().replace("'hi\\n'", "")
    assert Tap(1, 2).describe() == "tap at (1, 2)" and Key("back").describe() == "press back"
    assert Swipe(1, 2, 3, 4, 300).describe() == "swipe (1, 2) → (3, 4) in 300 ms"
    # the launch fallback as it was written before: {"kind": "none", "launch": NAME}
    assert gesture_from_dict({"kind": "none", "launch": "Maps"}) == Launch("Maps")
    with pytest.raises(ValueError, match="unknown gesture kind 'fly'"):
        gesture_from_dict({"kind": "fly"})
    with pytest.raises(ValueError, match="'x' must be a number"):
        gesture_from_dict({"kind": "tap", "x": "a", "y": 1})


def test_a_record_with_every_part_round_trips(tmp_path):
    from mobile_agent.agent.record import CallRecord, CandidateRecord, CompletionRecord, GroundingRecord

    rec = StepRecord(3, "screens/step_003.png", None, operation=ClickText("OK"), action="Click Text (OK)",
                     grounding=GroundingRecord("found", [CandidateRecord([1, 2, 3, 4], [2, 3], 0.9, "OK")], 0, "",
                                               ["Answer: 0"]),
                     gesture=Tap(2, 3), completion=CompletionRecord(True, "done", "Verdict: complete"),
                     calls=[CallRecord("plan", "Action: Click Text (OK)", 10, 5, 0.25),
                            CallRecord("choose", None, 0, 0, 0.5, "APIError: 500")])
    back = StepRecord.from_dict(json.loads(json.dumps(rec.to_dict())))
    assert back == rec


def test_a_bad_line_names_its_line(tmp_path):
    (tmp_path / STEPS).write_text('{"step": 1}\n{"step": 2, "gesture": {"kind": "tap"}}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="line 2 is not a step record: .*'x' must be a number"):
        read_steps(tmp_path)
