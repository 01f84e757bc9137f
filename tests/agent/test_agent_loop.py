"""The loop end to end over a real socket: a chat-completions server on localhost, the real openai
SDK, real perception (RapidOCR) and a Pillow-rendered tiny phone."""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from tests.fakes.agent_harness import API_KEY, MODEL, Script, make_agent, plan_requests, react
from tests.fakes.tinyphone import BUTTONS, TinyPhone
from mobile_agent.agent import StepLoop, AgentSettings, BasePlanner, Plan
from mobile_agent.agent.operations import Back, ClickText, Stop
from mobile_agent.agent.trajectory import read_steps, read_summary

from mobile_agent.errors import ConfigError, DeviceError
from tests.fakes.chatserver import LocalChatServer, Reply


def step_dicts(run):
    """The typed step records of a run, in their JSON form (what steps.jsonl holds)."""
    return [s.to_dict() for s in read_steps(run)]

WIFI_PLAN = [react("Click Text (Settings)"), react("Click Text (Wi-Fi)"), react("Stop")]


def test_completes_instruction_and_writes_the_trajectory(tmp_path):
    phone = TinyPhone()
    with LocalChatServer(Script(WIFI_PLAN)) as server:
        result = make_agent(server, phone).run("Turn on Wi-Fi", tmp_path / "run")
    assert result.outcome == "completed" and result.completed
    assert phone.wifi is True and phone.screen == "settings"
    assert result.steps == 3
    # the requests: model name, key, image parts that decode to resized JPEG screenshots
    assert len(server.requests) == 4  # three plans and one completion check
    for req in server.requests:
        assert req.path == "/v1/chat/completions"
        assert req.model == MODEL
        assert req.headers["authorization"] == f"Bearer {API_KEY}"
        parts = req.image_parts()
        assert len(parts) == 1
        url = parts[0]["image_url"]["url"]
        assert url.startswith("data:image/jpeg;base64,")
        img = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
        assert img.format == "JPEG" and img.size == (360, 640)
    assert "Turn on Wi-Fi" in server.requests[0].text
    # the trajectory folder
    run = tmp_path / "run"
    summary = read_summary(run)
    assert summary["outcome"] == "completed" and summary["completed"] is True and summary["steps"] == 3
    assert summary["model"] == MODEL and summary["instruction"] == "Turn on Wi-Fi"
    assert summary["tokens"]["total"] == summary["tokens"]["prompt"] + summary["tokens"]["completion"] > 0
    # "gpt-4o-test" is priced as gpt-4o by the price table's prefix rule (USD 2.50 / 10.00 per million)
    expected = (summary["tokens"]["prompt"] * 2.5 + summary["tokens"]["completion"] * 10.0) / 1e6
    assert summary["cost_usd"] == pytest.approx(expected, abs=1e-6)
    steps = step_dicts(run)
    assert [s["step"] for s in steps] == [1, 2, 3]
    assert [s["operation"] for s in steps] == [{"op": "Click Text", "text": "Settings"},
                                               {"op": "Click Text", "text": "Wi-Fi"}, {"op": "Stop"}]
    wifi_box = dict(BUTTONS["settings"])["Wi-Fi"]
    g = steps[1]["gesture"]
    assert g["kind"] == "tap" and wifi_box.contains(g["x"], g["y"])
    assert steps[1]["grounding"]["status"] == "found" and steps[1]["grounding"]["chosen"] == 0
    assert steps[1]["grounding"]["candidates"][0]["text"] == "Wi-Fi"
    assert steps[0]["reflection"]["changed"] is True and steps[1]["reflection"]["changed"] is True
    for s in steps:
        assert (run / s["screenshot"]).is_file()
        assert s["model"]["raw"].startswith("Observation:")
        assert set(s["timings"]) == {"perception_s", "model_s", "device_s", "total_s"}
    assert (run / steps[0]["annotated"]).is_file() and steps[2]["annotated"] is None
    assert steps[2]["completion"]["complete"] is True
    assert (run / "screens" / "final.png").is_file()
    assert sum(s["model"]["prompt_tokens"] + s["model"]["completion_tokens"] for s in steps) == summary["tokens"]["total"]


def test_a_500_is_retried_then_the_run_goes_on(tmp_path):
    phone = TinyPhone()
    plans = [Reply(status=500, error="upstream exploded")] + WIFI_PLAN
    with LocalChatServer(Script(plans)) as server:
        result = make_agent(server, phone).run("Turn on Wi-Fi", tmp_path)
    assert result.completed and phone.wifi
    assert len(server.requests) == 5  # the 500, then three plans and a check


def test_a_401_is_a_clear_error_without_retries(tmp_path):
    with LocalChatServer(lambda req: Reply(status=401, error="Incorrect API key provided")) as server:
        result = make_agent(server, TinyPhone()).run("Turn on Wi-Fi", tmp_path)
    assert result.outcome == "error" and not result.completed
    assert isinstance(result.exception, ConfigError)
    assert "401" in result.error and "OPENAI_API_KEY" in result.error and "Incorrect API key" in result.error
    assert len(server.requests) == 1
    assert read_summary(tmp_path)["outcome"] == "error"
    assert step_dicts(tmp_path)[0]["error"]


def test_unparseable_replies_get_feedback_then_recover(tmp_path):
    phone = TinyPhone()
    plans = ["I think I should open the settings first.", "Action: Swipe to the left"] + WIFI_PLAN
    with LocalChatServer(Script(plans)) as server:
        result = make_agent(server, phone).run("Turn on Wi-Fi", tmp_path)
    assert result.completed and phone.wifi
    second, third = server.requests[1], server.requests[2]
    msgs = second.body["messages"]
    assert msgs[-2] == {"role": "assistant", "content": "I think I should open the settings first."}
    assert "could not be read" in msgs[-1]["content"] and "no 'Action:' line" in msgs[-1]["content"]
    assert "'Swipe to the left' is not one of the operations" in third.body["messages"][-1]["content"]
    # what was wrong, the form, then the operations once (the device's offer), nothing repeated
    assert third.body["messages"][-1]["content"] == (
        "Your reply could not be read: 'Swipe to the left' is not one of the operations.\n"
        "Answer again, in exactly this form:\nObservation: ...\nThought: ...\nAction: <one operation>\n"
        "where the operation is one of: Open App (name) | Click Text (text) | Click Icon (description, position) | "
        "Type (text) | Page Up | Page Down | Back | Exit | Stop")
    step1 = step_dicts(tmp_path)[0]
    assert len(step1["model"]["parse_errors"]) == 2 and step1["operation"] == {"op": "Click Text", "text": "Settings"}


def test_replies_that_never_parse_end_the_run_after_bounded_retries(tmp_path):
    with LocalChatServer(lambda req: "I cannot decide.") as server:
        result = make_agent(server, TinyPhone(), parse_retries=2).run("Turn on Wi-Fi", tmp_path)
    assert result.outcome == "error" and "could not be read after 3 replies" in result.error
    assert len(server.requests) == 3


def test_a_model_that_never_stops_hits_the_step_limit(tmp_path):
    phone = TinyPhone()
    script = Script([react("Click Text (Settings)"), react("Back")], cycle=True)
    with LocalChatServer(script) as server:
        result = make_agent(server, phone, max_steps=4).run("Turn on Wi-Fi", tmp_path)
    assert result.outcome == "step_limit" and result.steps == 4 and not result.completed
    assert len(server.requests) == 4 and phone.backs == 2
    assert len(step_dicts(tmp_path)) == 4 and read_summary(tmp_path)["outcome"] == "step_limit"


def test_a_no_op_puts_no_change_feedback_into_the_next_request(tmp_path):
    phone = TinyPhone()
    plans = [react("Click Text (Notes)")] + WIFI_PLAN
    with LocalChatServer(Script(plans)) as server:
        result = make_agent(server, phone).run("Turn on Wi-Fi", tmp_path)
    assert result.completed
    first, second = plan_requests(server)[:2]
    assert "did not change the screen" not in first.text
    assert "Your last operation, Click Text (Notes), did not change the screen" in second.text
    assert "1. Click Text (Notes) -> done at (" in second.text and "the screen did not change" in second.text
    step1 = step_dicts(tmp_path)[0]
    assert step1["reflection"]["changed"] is False and step1["reflection"]["verdict"] == "no_change"
    assert "Your last operation" not in plan_requests(server)[2].text  # the feedback is for the next step only


def test_the_same_operation_on_the_same_screen_three_times_is_a_loop(tmp_path):
    phone = TinyPhone()
    with LocalChatServer(lambda req: react("Click Text (Notes)")) as server:
        result = make_agent(server, phone).run("Turn on Wi-Fi", tmp_path)
    assert result.outcome == "loop" and result.steps == 3
    assert len(phone.taps) == 2  # the third time is stopped before it is carried out
    steps = step_dicts(tmp_path)
    assert "loop" in steps[-1]["error"] and steps[-1]["gesture"] == {"kind": "none"}


def test_an_incomplete_verdict_after_stop_lets_the_run_go_on(tmp_path):
    phone = TinyPhone()
    plans = [react("Click Text (Settings)"), react("Stop"), react("Click Text (Wi-Fi)"), react("Stop")]
    checks = ["Verdict: incomplete\nReason: Wi-Fi is still off.", "Verdict: complete\nReason: Wi-Fi is on."]
    with LocalChatServer(Script(plans, checks)) as server:
        result = make_agent(server, phone).run("Turn on Wi-Fi", tmp_path)
    assert result.completed and result.steps == 4 and phone.wifi
    third_plan = plan_requests(server)[2]
    assert "You said Stop, but the check of the final screen found the instruction not complete: Wi-Fi is still off." in third_plan.text
    steps = step_dicts(tmp_path)
    assert steps[1]["completion"] == {"complete": False, "reason": "Wi-Fi is still off.",
                                      "raw": "Verdict: incomplete\nReason: Wi-Fi is still off."}
    assert steps[3]["completion"]["complete"] is True


def test_a_grounding_failure_goes_back_to_the_planner(tmp_path):
    phone = TinyPhone()
    plans = [react("Click Text (Bluetooth)")] + WIFI_PLAN
    with LocalChatServer(Script(plans)) as server:
        result = make_agent(server, phone).run("Turn on Wi-Fi", tmp_path)
    assert result.completed
    assert phone.taps[0] != (0, 0) and len(phone.taps) == 2  # nothing tapped for Bluetooth
    second = plan_requests(server)[1]
    assert 'Click Text (Bluetooth), could not be carried out: the text "Bluetooth" is not on the screen' in second.text
    assert '"Settings"' in second.text  # the closest texts on the screen are named
    step1 = step_dicts(tmp_path)[0]
    assert step1["grounding"]["status"] == "none" and step1["gesture"] == {"kind": "none"}


def test_history_keeps_every_step_in_text_but_only_the_last_k_screens(tmp_path):
    for k, expected in ((1, [1, 1, 1]), (2, [1, 2, 2])):
        phone = TinyPhone()
        with LocalChatServer(Script(WIFI_PLAN)) as server:
            make_agent(server, phone, history_screens=k).run("Turn on Wi-Fi", tmp_path / str(k))
        plans = plan_requests(server)
        assert [len(r.image_parts()) for r in plans] == expected
        assert "1. Click Text (Settings) -> done at" in plans[2].text
        assert "2. Click Text (Wi-Fi) -> done at" in plans[2].text


def test_screenshots_are_resized_for_the_model(tmp_path):
    with LocalChatServer(Script(WIFI_PLAN)) as server:
        make_agent(server, TinyPhone(), image_max_side=320, jpeg_quality=40).run("Turn on Wi-Fi", tmp_path)
    url = server.requests[0].image_parts()[0]["image_url"]["url"]
    img = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert img.size == (180, 320)


def test_dry_run_plans_and_grounds_but_touches_nothing(tmp_path):
    phone = TinyPhone()
    with LocalChatServer(Script(WIFI_PLAN)) as server:
        result = make_agent(server, phone, dry_run=True).run("Turn on Wi-Fi", tmp_path)
    assert result.outcome == "dry_run" and not result.completed and result.steps == 1
    assert phone.taps == [] and phone.screen == "home"
    step = step_dicts(tmp_path)[0]
    assert step["gesture"]["kind"] == "tap" and (tmp_path / step["annotated"]).is_file()
    assert read_summary(tmp_path)["outcome"] == "dry_run"


def test_confirm_is_asked_before_deleting_and_a_no_ends_the_run(tmp_path):
    phone = TinyPhone()
    asked = []
    plans = [react("Click Text (Settings)"), react("Click Text (Delete all)")]
    with LocalChatServer(Script(plans)) as server:
        result = make_agent(server, phone, confirm=lambda op, d: asked.append(d) or False).run("Clear", tmp_path)
    assert result.outcome == "interrupted" and "declined" in result.error
    assert len(asked) == 1 and asked[0].startswith("Click Text (Delete all) at (")
    assert len(phone.taps) == 1  # only Settings was tapped


def test_wall_clock_limit(tmp_path):
    plans = [Reply(text=react("Click Text (Notes)"), delay_s=0.4)] * 5
    with LocalChatServer(Script(plans)) as server:
        result = make_agent(server, TinyPhone(), time_limit_s=0.3).run("Turn on Wi-Fi", tmp_path)
    assert result.outcome == "time_limit" and result.steps == 1


def test_ctrl_c_ends_cleanly_with_the_trajectory_saved(tmp_path):
    def interrupt(rec):
        if rec.step == 2:
            raise KeyboardInterrupt

    with LocalChatServer(Script(WIFI_PLAN)) as server:
        result = make_agent(server, TinyPhone(), on_step=interrupt).run("Turn on Wi-Fi", tmp_path)
    assert result.outcome == "interrupted"
    assert [s["step"] for s in step_dicts(tmp_path)] == [1, 2]
    assert read_summary(tmp_path)["outcome"] == "interrupted"


def test_reflection_call_reports_a_wrong_page(tmp_path):
    phone = TinyPhone()
    refl = ["Verdict: B\nReason: This is the settings page, not notes."]
    plans = [react("Click Text (Settings)"), react("Back")] + WIFI_PLAN
    with LocalChatServer(Script(plans, reflections=refl)) as server:
        result = make_agent(server, phone, reflect=True).run("Open notes", tmp_path)
    assert result.completed
    second = plan_requests(server)[1]
    assert "led to an unexpected page (This is the settings page, not notes.)" in second.text
    steps = step_dicts(tmp_path)
    assert steps[0]["reflection"]["verdict"] == "wrong_page" and steps[1]["reflection"]["verdict"] == "as_expected"


class _DyingPhone(TinyPhone):
    def tap(self, x, y):
        if len(self.taps) == 1:
            raise DeviceError("the phone went away")
        super().tap(x, y)


def test_a_device_failure_leaves_every_finished_step_readable(tmp_path):
    with LocalChatServer(Script(WIFI_PLAN)) as server:
        result = make_agent(server, _DyingPhone()).run("Turn on Wi-Fi", tmp_path)
    assert result.outcome == "error" and "went away" in result.error
    lines = (tmp_path / "steps.jsonl").read_text().splitlines()
    assert [json.loads(x)["step"] for x in lines] == [1, 2]
    assert not list(tmp_path.rglob("*.tmp"))


class _ReplayPlanner(BasePlanner):
    """A planner without a model: the loop takes any Planner."""

    name = "replay"

    def __init__(self, ops):
        self.ops = list(ops)

    def plan(self, ctx):
        return Plan("", "replayed", self.ops[ctx.step - 1])


def test_any_planner_plugs_into_the_loop(tmp_path):
    from tests.fakes.agent_harness import perception

    phone = TinyPhone()
    agent = StepLoop(phone, _ReplayPlanner([ClickText("Settings"), ClickText("Wi-Fi"), Back(), Stop()]), perception(),
                  AgentSettings(settle_interval_s=0.0))
    result = agent.run("Turn on Wi-Fi and go back", tmp_path)
    assert result.completed and phone.wifi and phone.screen == "home"
    assert read_summary(tmp_path)["model"] == "replay"
    assert result.usage.total_tokens == 0


def test_several_matches_are_resolved_by_the_planner_choosing_a_numbered_mark(tmp_path):
    from tests.fakes.tinyphone import SECOND_SETTINGS

    phone = TinyPhone(duplicate=True)
    script = Script([react("Click Text (Settings)"), react("Stop")], choices=["The lower one.\nAnswer: 1"])
    with LocalChatServer(script) as server:
        result = make_agent(server, phone).run("Open the lower Settings", tmp_path)
    assert result.completed and phone.screen == "settings"
    assert len(phone.taps) == 1 and SECOND_SETTINGS.contains(*phone.taps[0])
    choose_req = [r for r in server.requests if "numbered boxes" in r.last_user_text][0]
    assert len(choose_req.image_parts()) == 1 and "Several places match" in choose_req.last_user_text
    assert "(0 to 1)" in choose_req.last_user_text
    g = step_dicts(tmp_path)[0]["grounding"]
    assert g["status"] == "found" and g["chosen"] == 1 and len(g["candidates"]) == 2
    assert g["choice_raw"] == ["The lower one.\nAnswer: 1"]


class _BuggyPhone(TinyPhone):
    def back(self):
        raise RuntimeError("a bug in a device driver")


def test_an_unexpected_exception_still_leaves_a_complete_record(tmp_path):
    with LocalChatServer(Script([react("Back")])) as server:
        result = make_agent(server, _BuggyPhone()).run("Go back", tmp_path)
    assert result.outcome == "error" and "RuntimeError: a bug in a device driver" in result.error
    assert isinstance(result.exception, RuntimeError)
    summary = read_summary(tmp_path)
    assert summary["outcome"] == "error" and summary["error"] == result.error
    assert (tmp_path / "screens" / "final.png").is_file()


def test_open_app_off_the_home_screen_suggests_exit(tmp_path):
    phone = TinyPhone(screen="settings")
    plans = [react("Open App (Calendar)"), react("Exit"), react("Stop")]
    with LocalChatServer(Script(plans)) as server:
        result = make_agent(server, phone).run("Go home", tmp_path)
    assert result.completed and phone.screen == "home"
    second = plan_requests(server)[1]
    assert "Your last operation, Open App (Calendar), could not be carried out" in second.text
    assert "use Exit to go there first" in second.text
    assert step_dicts(tmp_path)[1]["gesture"] == {"kind": "home"}


def test_the_loop_on_the_native_anthropic_client(tmp_path):
    from tests.fakes.agent_harness import perception
    from mobile_agent.agent import LLMPlanner
    from mobile_agent.model.anthropic_client import AnthropicChatModel
    from mobile_agent.model.retry import RetryPolicy

    phone = TinyPhone()
    with LocalChatServer(Script(WIFI_PLAN)) as server:
        model = AnthropicChatModel("claude-sonnet-4-5", base_url=server.anthropic_base_url, api_key="ak-test",
                                   retry=RetryPolicy(max_attempts=2, base_delay_s=0.01))
        agent = StepLoop(phone, LLMPlanner(model), perception(), AgentSettings(settle_interval_s=0.0))
        result = agent.run("Turn on Wi-Fi", tmp_path)
    assert result.completed and phone.wifi
    assert all(r.path == "/v1/messages" and r.model == "claude-sonnet-4-5" for r in server.requests)
    first = server.requests[0]
    assert "Click Text (text)" in first.body["system"]  # the grammar travels in the system prompt
    assert [p["type"] for p in first.body["messages"][0]["content"]] == ["text", "image"]
    assert result.cost_usd == pytest.approx((result.usage.prompt_tokens * 3 + result.usage.completion_tokens * 15) / 1e6)
