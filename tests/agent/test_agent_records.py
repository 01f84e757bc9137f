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
    GESTURE_TYPES, DoubleTap, Key, Launch, LongPress, NoGesture, Swipe, Tap, TypeText, Wait, gesture_from_dict,
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
    gestures = [Tap(1, 2), DoubleTap(5, 6), LongPress(3, 4, 900), Swipe(1, 2, 3, 4, 300), TypeText("hi\n"),
                Key("back"), Key("home"), Key("enter"), Launch("Maps"), Wait(2.0), NoGesture()]
    assert {type(g) for g in gestures} == set(GESTURE_TYPES)
    for g in gestures:
        assert gesture_from_dict(g.to_dict()) == g
        assert g.describe() and "\n" not in g.describe().replace("'hi\\n'", "")
    assert Tap(1, 2).describe() == "tap at (1, 2)" and Key("back").describe() == "press back"
    assert DoubleTap(5, 6).describe() == "double tap at (5, 6)" and DoubleTap(5, 6) != Tap(5, 6)
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


# A multi-mode steps.jsonl written by the multi loop before it wrote the typed record (its own dicts:
# call kinds operation/choice/reflection, latency_s, cost_usd on every call), from a run of the
# Mobile-Eval task multi-1 with reflection on: an unreadable manager reply, a subgoal the executor
# says is reached (Stop), a Type with a note filled in, a choice among marks, the manager's done.
OLD_MULTI = Path(__file__).parent / "fixtures" / "multi_steps_written_before_typed_records.jsonl"


def test_a_multi_mode_steps_file_of_the_earlier_format_reads_back(tmp_path):
    shutil.copy(OLD_MULTI, tmp_path / STEPS)
    old = [json.loads(line) for line in OLD_MULTI.read_text(encoding="utf-8").splitlines()]
    records = read_steps(tmp_path)
    assert len(records) == len(old) == 8 and all(r.mode == "multi" and r.multi is not None for r in records)
    kinds = {"operation": "plan", "choice": "choose", "reflection": "reflect", "plan": "plan"}
    for rec, d in zip(records, old):
        new = rec.to_dict()
        # every field but the calls is written back as it was (the report reads them unchanged)
        assert {k: v for k, v in new.items() if k != "calls"} == {k: v for k, v in d.items() if k != "calls"}
        # the calls: one vocabulary of kinds, the role kept, latency_s read as duration_s
        assert [(c.role, c.kind, c.raw, c.prompt_tokens, c.completion_tokens, c.error, c.duration_s)
                for c in rec.calls] == [(c["role"], kinds[c["kind"]], c["raw"], c["prompt_tokens"],
                                         c["completion_tokens"], c["error"], c["latency_s"]) for c in d["calls"]]
    assert records[1].calls[0].error and records[1].model.raw and records[1].action == "Stop"
    assert records[5].multi.typed and records[5].multi.typed != records[5].operation.text
    assert [c.kind for c in records[6].calls] == ["plan", "plan", "choose", "reflect"]
    assert records[7].completion.by == "manager" and records[7].multi.notes == old[7]["notes"]


def test_single_and_multi_records_share_one_call_record_and_the_role_is_a_field():
    from mobile_agent.agent.record import CallRecord, MultiRecord

    single = StepRecord(1, calls=[CallRecord("plan", "Action: Back", 10, 2, 0.5)])
    multi = StepRecord(1, calls=[CallRecord("plan", "Plan: ...", 10, 2, 0.5, role="manager", cost_usd=0.01),
                                 CallRecord("plan", None, 0, 0, 0.1, "APIError: 500", role="executor")],
                       multi=MultiRecord(subgoal="Open Settings"))
    s, m = single.to_dict(), multi.to_dict()
    assert "mode" not in s and "role" not in s["calls"][0] and "cost_usd" not in s["calls"][0]
    assert m["mode"] == "multi" and [c["role"] for c in m["calls"]] == ["manager", "executor"]
    assert m["roles"] == {"manager": {"calls": 1, "prompt_tokens": 10, "completion_tokens": 2, "cost_usd": 0.01},
                          "executor": {"calls": 1, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": None}}
    assert StepRecord.from_dict(m).to_dict() == m and StepRecord.from_dict(s).to_dict() == s
