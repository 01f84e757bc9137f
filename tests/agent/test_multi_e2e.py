"""Multi-agent mode end to end on the simulated phone, through a chat-completions server on localhost
that answers by the role named in the system prompt, the real openai SDK, and real perception."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

from PIL import Image

from mobile_agent.agent.trajectory import STEPS, read_steps, read_summary
from mobile_agent.bench.mobile_eval.multi import long_date
from mobile_agent.bench.runner import EvalConfig, run_task
from mobile_agent.bench.suite import select
from mobile_agent.device.sim import SimPhone
from tests.fakes.chatserver import LocalChatServer
from tests.fakes.multi_harness import (
    EXECUTOR_MODEL, MANAGER_MODEL, RoleScript, make_multi, mgr, react, requests_of, role_of, staged,
)


def multi_records(run) -> list[dict]:
    """The lines of a multi-mode steps.jsonl as written (the typed StepRecord with its MultiRecord:
    roles, plan, notes and calls with their role)."""
    text = (Path(run) / STEPS).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


NOTE_TAIL = ["Go to the home screen and open Notes", "Start a new note", "Write the note", "Save the note"]


def _run_task(task_id: str, script: RoleScript, tmp_path, monkeypatch, phone):
    monkeypatch.setenv("MULTI_TEST_KEY", "sk-test-agent-key")
    task = select(ids=[task_id])[0]
    with LocalChatServer(script) as server:
        config = EvalConfig(planner="model", model=f"openai:{MANAGER_MODEL}", base_url=server.openai_base_url,
                            api_key_env="MULTI_TEST_KEY", mode="multi", executor_model=f"openai:{EXECUTOR_MODEL}",
                            max_steps=14)
        row = run_task(config, task, tmp_path, "multi", device=phone)
    return row, server


def _note_flow(goals: list[str], first: int, notes: dict[str, str], type_text: str) -> tuple[list[str], list[str]]:
    """Manager and executor replies from the moment the first app's value is read: home, Notes, new
    note, type (with the note), save, done."""
    n = first
    manager = [mgr(staged(goals, n), notes), mgr(staged(goals, n), notes), mgr(staged(goals, n + 1), notes),
               mgr(staged(goals, n + 2), notes), mgr(staged(goals, n + 3), notes),
               mgr([("done", g) for g in goals], notes, status="done", observation="The note is saved.")]
    executor = [react("Exit"), react("Open App (Notes)"), react("Click Text (New note)"),
                react(f"Type ({type_text})"), react("Click Icon (check, top right)")]
    return manager, executor


def _assert_notes_carried(server, name: str, value: str, steps: list[dict]) -> None:
    # From the step the note was saved on, every later prompt of both roles carries it...
    saved_at = next(s["step"] for s in steps if name in s.get("notes", {}))
    later = [r for r in server.requests if role_of(r) in ("manager", "executor")][2 * saved_at:]
    assert later and all(f"- {name}: {value}" in r.text for r in later)
    # ... and the trajectory has it at every later step.
    assert all(s["notes"].get(name) == value for s in steps if s["step"] >= saved_at)


def test_calendar_date_carried_to_notes(tmp_path, monkeypatch):
    phone = select(ids=["multi-1"])[0].make_phone()
    date = long_date(phone.state.today)
    goals = ["Open the Calendar app", "Read today's date", *NOTE_TAIL]
    manager, executor = _note_flow(goals, 2, {"date": date}, "Today is {date}")
    script = RoleScript([mgr(staged(goals, 0)), *manager], [react("Open App (Calendar)"), *executor])
    row, server = _run_task("multi-1", script, tmp_path, monkeypatch, phone)
    assert row.success and row.outcome == "completed", row.detail
    assert any(n.title == f"Today is {date}" for n in phone.state.notes.notes)
    steps = multi_records(row.trajectory)
    _assert_notes_carried(server, "date", date, steps)
    typed = next(s for s in steps if s["action"].startswith("Type"))
    assert typed["action"] == "Type (Today is {date})" and typed["typed"] == f"Today is {date}"
    assert typed["verification"]["name"] == "typed_text" and typed["verification"]["passed"] is True
    # each role on its own model; the manager decided the end
    assert {r.model for r in requests_of(server, "manager")} == {MANAGER_MODEL}
    assert {r.model for r in requests_of(server, "executor")} == {EXECUTOR_MODEL}
    assert steps[-1]["action"] == "Stop" and steps[-1]["completion"]["by"] == "manager"
    summary = read_summary(row.trajectory)
    assert summary["mode"] == "multi" and summary["notes"] == {"date": date}
    kinds = [(c["role"], c["kind"]) for s in steps for c in s["calls"]]
    assert kinds.count(("manager", "plan")) == 7 and kinds.count(("executor", "plan")) == 6
    assert summary["roles"]["manager"]["calls"] == 7
    assert summary["roles"]["executor"]["calls"] == 6 + kinds.count(("executor", "choose"))
    assert summary["tokens"]["total"] == sum(r["prompt_tokens"] + r["completion_tokens"]
                                             for r in summary["roles"].values())
    assert steps[0]["notes"] == {} and steps[0]["plan"][0] == {"text": "Open the Calendar app", "status": "now"}
    # the same typed record as single mode, read back by the same reader, the role a field of each call
    records = read_steps(row.trajectory)
    assert [r.to_dict() for r in records] == steps
    assert records[0].multi.subgoal == "Open the Calendar app" and records[0].calls[0].role == "manager"
    assert records[-1].completion.by == "manager" and records[-1].multi.notes == {"date": date}


def test_weather_temperatures_carried_to_notes(tmp_path, monkeypatch):
    phone = select(ids=["multi-2"])[0].make_phone()
    days = phone.state.weather.forecast
    temps = ", ".join(f"{d.weekday} {d.high}/{d.low} C" for d in days)
    goals = ["Open the Weather app", "Read the 5-day forecast", *NOTE_TAIL]
    manager, executor = _note_flow(goals, 2, {"temperatures": temps},
                                   "5-day forecast: {temperatures}")
    script = RoleScript([mgr(staged(goals, 0)), *manager], [react("Open App (Weather)"), *executor])
    row, server = _run_task("multi-2", script, tmp_path, monkeypatch, phone)
    assert row.success and row.outcome == "completed", row.detail
    steps = multi_records(row.trajectory)
    _assert_notes_carried(server, "temperatures", temps, steps)
    assert any(temps in n.title for n in phone.state.notes.notes)


def test_lakers_result_carried_from_browser_to_notes(tmp_path, monkeypatch):
    from mobile_agent.bench.mobile_eval.browser import HINT
    from mobile_agent.device.sim.apps.browser import lakers_result

    task = select(ids=["multi-3"])[0]
    phone = task.make_phone()
    g = lakers_result(phone.seed)
    result = f"Lakers {g['lakers_score']}, {g['opponent']} {g['opponent_score']}"
    goals = ["Open the Browser", "Search for today's Lakers game", "Read the result", *NOTE_TAIL]
    manager, executor = _note_flow(goals, 3, {"result": result}, "Sports news: {result}")
    script = RoleScript(
        [mgr(staged(goals, 0)), mgr(staged(goals, 1)), mgr(staged(goals, 1)), *manager],
        [react("Open App (Browser)"), react(f"Click Text ({HINT})"), react("Type (Lakers game today\\n)"), *executor])
    row, server = _run_task("multi-3", script, tmp_path, monkeypatch, phone)
    assert row.success and row.outcome == "completed", row.detail
    _assert_notes_carried(server, "result", result, multi_records(row.trajectory))


def test_a_dropped_character_is_caught_by_the_verifier_and_fixed(tmp_path):
    text = "Hello, this is a note"
    phone = SimPhone(seed=10, disturbances=("typo",))  # the keyboard drops the last letter of the first text
    goals = ["Open Notes", "Start a new note", f'Write "{text}"', "Save the note"]
    fix = [("done", goals[0]), ("done", goals[1]), ("now", "Add the missing 'e' at the end"), ("todo", goals[3])]
    script = RoleScript(
        [mgr(staged(goals, 0)), mgr(staged(goals, 1)), mgr(staged(goals, 2)),
         mgr(fix, route="type the missing letter at the end of the title"), mgr(staged(goals, 3)),
         mgr([("done", g) for g in goals], status="done")],
        [react("Open App (Notes)"), react("Click Text (New note)"), react(f"Type ({text})"), react("Type (e)"),
         react("Click Icon (check, top right)")])
    with LocalChatServer(script) as server:
        result = make_multi(server, phone).run(f'Create a new note in Notes and write "{text}", then save it.',
                                               tmp_path)
    assert result.completed, result.error
    assert [n.title for n in phone.state.notes.notes][-1] == text
    steps = multi_records(tmp_path)
    first_type = steps[2]
    assert first_type["action"] == f"Type ({text})"
    v = first_type["verification"]
    assert v["passed"] is False and v["method"] == "ocr" and "this is a not" in v["seen"].lower()
    # the failure went to the manager, with what was seen
    told = requests_of(server, "manager")[3].text
    assert "the verifier read the field back" in told and "Hello, this is a not" in told
    assert steps[3]["verification"]["passed"] is True


def test_a_repeating_executor_makes_the_manager_change_route(tmp_path):
    phone = SimPhone(seed=0)
    goals = ["Open Settings", "Open Display", "Turn on the dark theme"]
    route = "open the app fresh from the home screen"
    script = RoleScript(
        [mgr(staged(goals, 0)), mgr(staged(goals, 0)), mgr(staged(goals, 0)), mgr(staged(goals, 0), route=route),
         mgr(staged(goals, 1)), mgr(staged(goals, 2)), mgr([("done", g) for g in goals], status="done")],
        [react("Back"), react("Back"), react("Back"), react("Open App (Settings)"), react("Click Text (Display)"),
         react("Click Text (Dark theme)")])
    with LocalChatServer(script) as server:
        result = make_multi(server, phone, loop_threshold=3).run("Turn on the dark mode", tmp_path)
    assert result.completed and phone.state.settings.dark_mode
    steps = multi_records(tmp_path)
    third = steps[2]
    assert third["cycle"] == {"repeats": 3, "change": 1, "give_up": False}
    assert third["gesture"] == {"kind": "none"}  # the repeat was not carried out
    assert "cycle: the executor chose Back 3 times" in requests_of(server, "manager")[3].text
    assert "do not choose it again" in requests_of(server, "executor")[3].text
    summary = read_summary(tmp_path)
    assert summary["route_changes"] == 1
    assert any(h["route"] == route for h in summary["plan_history"])


def test_route_changes_are_bounded(tmp_path):
    phone = SimPhone(seed=0)
    script = RoleScript([mgr(staged(["Open Settings"], 0), route="Back and retry")], [react("Back")],
                        cycle=("manager", "executor"))
    with LocalChatServer(script) as server:
        result = make_multi(server, phone, loop_threshold=2, max_steps=30,
                            multi=__import__("mobile_agent.agent.multi", fromlist=["MultiSettings"]).MultiSettings(
                                max_route_changes=2)).run("Turn on the dark mode", tmp_path)
    assert result.outcome == "loop" and not result.completed
    # threshold 2: cycles at steps 2, 4 and 6; the third is one change too many
    assert result.steps == 6 and len(requests_of(server, "executor")) == 6
    assert "after 2 route change(s)" in result.error


def test_every_request_stays_within_the_image_bound(tmp_path):
    phone = SimPhone(seed=0)
    goals = ["Open Settings", "Open Display", "Turn on the dark theme"]
    script = RoleScript(
        [mgr(staged(goals, 0)), mgr(staged(goals, 1)), mgr(staged(goals, 2)), mgr([("done", g) for g in goals],
                                                                                   status="done")],
        [react("Open App (Settings)"), react("Click Text (Display)"), react("Click Text (Dark theme)")])
    with LocalChatServer(script) as server:
        result = make_multi(server, phone, reflect=True, image_max_side=768).run("Turn on the dark mode", tmp_path)
    assert result.completed
    bound = {"manager": 1, "executor": 1, "choice": 1, "verifier": 2}
    roles = [role_of(r) for r in server.requests]
    assert set(roles) >= {"manager", "executor", "verifier"}
    for req, role in zip(server.requests, roles):
        parts = req.image_parts()
        assert len(parts) <= bound[role], role
        for p in parts:
            img = Image.open(io.BytesIO(base64.b64decode(p["image_url"]["url"].split(",", 1)[1])))
            assert max(img.size) <= 768
    # reflection verdicts are in the trajectory, by the verifier
    steps = multi_records(tmp_path)
    assert steps[1]["reflection"]["verdict"] == "as_expected" and steps[1]["roles"]["verifier"]["calls"] == 1


def test_the_cli_runs_multi_mode_with_a_cheaper_executor(tmp_path, monkeypatch, capsys):
    from mobile_agent.cli import main

    monkeypatch.setenv("MULTI_TEST_KEY", "k")
    goals = ["Open Settings", "Open Display", "Turn on the dark theme"]
    script = RoleScript(
        [mgr(staged(goals, 0)), mgr(staged(goals, 1)), mgr(staged(goals, 2)),
         mgr([("done", g) for g in goals], status="done")],
        [react("Open App (Settings)"), react("Click Text (Display)"), react("Click Text (Dark theme)")])
    with LocalChatServer(script) as server:
        code = main(["run", "Turn on the dark mode", "--mode", "multi", "--model", MANAGER_MODEL, "--executor-model",
                     EXECUTOR_MODEL, "--base-url", server.openai_base_url, "--api-key-env", "MULTI_TEST_KEY",
                     "--out", str(tmp_path), "--max-steps", "6"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "multi mode" in out and "(Open Display)" in out and "completed" in out
    assert {r.model for r in requests_of(server, "executor")} == {EXECUTOR_MODEL}
    assert read_summary(tmp_path)["models"] == {"manager": MANAGER_MODEL, "executor": EXECUTOR_MODEL, "verifier": None}
    assert (tmp_path / "report.html").exists()


def test_max_steps_and_the_time_limit_count_turns_of_all_roles(tmp_path):
    phone = SimPhone(seed=0)
    script = RoleScript([mgr(staged(["Open Settings"], 0))], [react("Page Down")], cycle=("manager", "executor"))
    with LocalChatServer(script) as server:
        result = make_multi(server, phone, max_steps=2).run("Turn on the dark mode", tmp_path)
    assert result.outcome == "step_limit" and result.steps == 2
    assert len(requests_of(server, "manager")) == 2 and len(requests_of(server, "executor")) == 2
    with LocalChatServer(script) as server:
        result = make_multi(server, SimPhone(seed=0), time_limit_s=0.0).run("Turn on the dark mode", tmp_path / "t")
    assert result.outcome == "time_limit" and result.steps <= 1


def test_confirm_applies_to_the_executor_and_a_declined_operation_ends_the_run(tmp_path):
    phone = SimPhone(seed=0)
    asked: list[str] = []
    goals = ["Open Notes", "Delete the note"]

    def confirm(op, description):
        asked.append(description)
        return False

    phone.launch("Notes")
    script = RoleScript([mgr(staged(goals, 1))], [react("Click Icon (delete, top right)")])
    with LocalChatServer(script) as server:
        result = make_multi(server, phone, confirm=confirm).run("Delete the note", tmp_path)
    assert result.outcome == "interrupted" and "declined" in result.error
    assert len(asked) == 1 and asked[0].startswith("Click Icon (delete, top right) at (")
    assert multi_records(tmp_path)[0]["error"].startswith("the user declined")


def test_cli_usage_errors_exit_2(tmp_path, monkeypatch, capsys):
    from mobile_agent.cli import main

    monkeypatch.setenv("MULTI_TEST_KEY", "k")
    assert main(["run", "x", "--mode", "team", "--model", "gpt-4o", "--api-key-env", "MULTI_TEST_KEY",
                 "--out", str(tmp_path / "a")]) == 2
    assert "unknown mode 'team'" in capsys.readouterr().err
    assert main(["run", "x", "--executor-model", "gpt-4o-mini", "--model", "gpt-4o", "--api-key-env",
                 "MULTI_TEST_KEY", "--out", str(tmp_path / "b")]) == 2
    assert "--executor-model is for --mode multi" in capsys.readouterr().err
    assert main(["eval", "--mode", "multi", "--out", str(tmp_path / "c")]) == 2
    assert "--mode multi needs --planner model" in capsys.readouterr().err


def test_an_unreadable_manager_reply_goes_back_with_the_form_and_give_up_ends_the_run(tmp_path):
    script = RoleScript(["Let us open the settings first.", mgr(staged(["Open Settings"], 0)),
                         mgr(staged(["Open Settings"], 0), status="give up", observation="There is no such app.")],
                        [react("Open App (Settings)")])
    with LocalChatServer(script) as server:
        result = make_multi(server, SimPhone(seed=0)).run("Turn on the dark mode", tmp_path)
    assert result.outcome == "error" and result.error == "the manager gave up: There is no such app."
    retry = requests_of(server, "manager")[1]
    assert "could not be read: the reply has no 'Plan:' section" in retry.last_user_text
    assert "1. [done|now|todo] subgoal" in retry.last_user_text
    steps = multi_records(tmp_path)
    assert len(steps[0]["manager"]["parse_errors"]) == 1 and steps[0]["calls"][0]["error"]
    assert [c["kind"] for c in steps[0]["calls"]][:2] == ["plan", "plan"]


def test_an_operation_the_executor_is_not_offered_goes_back_with_what_it_is_offered(tmp_path):
    goals = ["Open Settings"]
    script = RoleScript([mgr(staged(goals, 0)), mgr([("done", g) for g in goals], status="done")],
                        [react("Long Press (Settings)"), react("Open App (Settings)")])
    with LocalChatServer(script) as server:
        result = make_multi(server, SimPhone(seed=0)).run("Open the settings", tmp_path)
    assert result.completed
    retry = requests_of(server, "executor")[1].last_user_text
    assert retry.startswith("Your reply could not be read: Long Press is not available on this device.\n")
    offered = retry.split("where the operation is one of: ")[1]
    assert offered == ("Open App (name) | Click Text (text) | Click Icon (description, position) | Type (text) | "
                       "Page Up | Page Down | Back | Exit | Stop")  # what the executor's prompt offers
    first = read_steps(tmp_path)[0]
    assert first.action == "Open App (Settings)" and [(c.role, c.kind, bool(c.error)) for c in first.calls] == [
        ("manager", "plan", False), ("executor", "plan", True), ("executor", "plan", False)]
