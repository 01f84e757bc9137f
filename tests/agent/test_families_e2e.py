"""Each family drives a Mobile-Eval task on the simulated phone to completion, through the real openai
SDK and a real chat-completions server on localhost that answers in the family's own format, with
points computed (here, independently of the adapters) in the image the request carried. And the bad
replies: a point outside the image, a malformed tool call, a mixed format, an action the family has but
this phone cannot do, and a point reply sent to the paper's planner."""

from __future__ import annotations

import base64
import io
import json
from collections import deque

import pytest
from PIL import Image

from mobile_agent.agent import StepLoop, AgentSettings
from mobile_agent.agent.families import FamilyPlanner, planner_for
from mobile_agent.agent.planner import LLMPlanner
from mobile_agent.agent.trajectory import read_steps
from mobile_agent.bench.runner import EvalConfig, task_by_key
from mobile_agent.bench.task import Probe
from mobile_agent.device.uitree import TreeDriver
from mobile_agent.model.openai_client import OpenAIChatModel
from mobile_agent.model.retry import RetryPolicy
from tests.fakes.agent_harness import API_KEY, perception
from tests.fakes.chatserver import LocalChatServer, Reply

# family -> (served name, coordinates: "absolute" or the grid's side, tap reply, finish reply)
TOOL = '<tool_call>\n{"name": "mobile_use", "arguments": %s}\n</tool_call>'
FORMATS = {
    "ui-tars-1.5": ("ByteDance-Seed/UI-TARS-1.5-7B", "absolute",
                    "Thought: {t}\nAction: click(point='<point>{x} {y}</point>')",
                    "Thought: done\nAction: finished(content='The dark theme is on.')"),
    "ui-tars-v1": ("bytedance-research/UI-TARS-7B-DPO", 1000,
                   "Thought: {t}\nAction: click(start_box='<|box_start|>({x},{y})<|box_end|>')",
                   "Thought: done\nAction: finished(content='The dark theme is on.')"),
    "autoglm-phone": ("autoglm-phone-9b", 1000,
                      '<think>{t}</think>\n<answer>do(action="Tap", element=[{x},{y}])</answer>',
                      '<think>done</think>\n<answer>finish(message="The dark theme is on.")</answer>'),
    "qwen2.5-vl": ("Qwen/Qwen2.5-VL-7B-Instruct", "absolute",
                   "{t}\n" + TOOL % '{"action": "click", "coordinate": [{x}, {y}]}',
                   TOOL % '{"action": "terminate", "status": "success"}'),
    "qwen3-vl": ("Qwen/Qwen3-VL-8B-Instruct", 1000,
                 TOOL % '{"action": "click", "coordinate": [{x}, {y}]}',
                 TOOL % '{"action": "answer", "text": "The dark theme is on."}'),
    "gui-owl-v3": ("mPLUG/GUI-Owl-7B", "absolute",
                   "<thinking>\n{t}\n</thinking>\n" + TOOL % '{"action": "click", "coordinate": [{x}, {y}]}'
                   + "\n<conclusion>\ntapped\n</conclusion>",
                   "<thinking>\ndone\n</thinking>\n" + TOOL % '{"action": "terminate", "status": "success"}'),
    "gui-owl-1.5": ("mPLUG/GUI-Owl-1.5-8B", 1000,
                    "<thinking>\n{t}\n</thinking>\n" + TOOL % '{"action": "click", "coordinate": [{x}, {y}]}',
                    "<thinking>\ndone\n</thinking>\n" + TOOL % '{"action": "answer", "text": "The dark theme is on."}'),
    "mai-ui": ("Tongyi-MAI/MAI-UI-8B", 999,
               "<thinking>\n{t}\n</thinking>\n" + TOOL % '{"action":"click","coordinate":[{x},{y}]}',
               "<thinking>\ndone\n</thinking>\n" + TOOL % '{"action":"terminate","status":"success"}'),
    "ui-venus": ("inclusionAI/UI-Venus-Navi-7B", 1000,
                 "<think>{t}</think>\n<action>Click(box=({x},{y}))</action>\n<conclusion>tapped</conclusion>",
                 "<think>done</think>\n<action>Finished(content='The dark theme is on.')</action>"),
}


def image_size(req) -> tuple[int, int]:
    url = req.image_parts()[-1]["image_url"]["url"]
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size


def model_point(req, phone, text, coords) -> tuple[int, int]:
    """Where ``text``'s element is, in the coordinates of the image this request carried."""
    c = TreeDriver(phone).find(text=text).bounds.center
    w, h = phone.size()
    if coords == "absolute":
        iw, ih = image_size(req)
        return round(c.x * iw / w), round(c.y * ih / h)
    return round(c.x * coords / w), round(c.y * coords / h)


class Model:
    """Answers each planning request with the next reply of ``script``: a string, or a function of
    (request, phone)."""

    def __init__(self, phone, script):
        self.phone, self.script = phone, deque(script)

    def __call__(self, req):
        if not self.script:
            return Reply(status=400, error="script exhausted")
        item = self.script.popleft()
        return item(req, self.phone) if callable(item) else item


def tap(family, text):
    _, coords, tap_reply, _ = FORMATS[family]

    def reply(req, phone):
        x, y = model_point(req, phone, text, coords)
        return tap_reply.replace("{t}", f"Tap {text}.").replace("{x}", str(x)).replace("{y}", str(y))
    return reply


def agent_for(server, phone, served, family=None, **settings):
    model = OpenAIChatModel(served, base_url=server.openai_base_url, api_key=API_KEY,
                            retry=RetryPolicy(max_attempts=1, base_delay_s=0.01, max_delay_s=0.05), timeout_s=120)
    settings.setdefault("settle_interval_s", 0.0)
    return StepLoop(phone, planner_for(model, family), perception(), AgentSettings(**settings))


@pytest.mark.parametrize("family", list(FORMATS))
def test_each_family_turns_on_the_dark_mode_on_the_simulated_phone(family, tmp_path):
    task = task_by_key(EvalConfig(), "settings-1")
    phone = task.make_phone()
    served, coords, _, finish = FORMATS[family]
    script = [tap(family, "Settings"), tap(family, "Display"), tap(family, "Dark theme"), finish]
    with LocalChatServer(Model(phone, script)) as server:
        agent = agent_for(server, phone, served)
        assert isinstance(agent.planner, FamilyPlanner) and agent.planner.family.name == family
        result = agent.run(task.instruction, tmp_path)
    assert result.completed and task.success(Probe(phone)), (family, result.error)
    steps = read_steps(tmp_path)
    # what lay under each point is recorded (the launcher's Settings cell is its icon: no text there)
    assert [s.grounding.candidates[0].text for s in steps[1:3]] == ["Display", "Dark theme"]
    assert [s.gesture.kind for s in steps[:3]] == ["tap"] * 3
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["model_family"] == family and summary["outcome"] == "completed"
    if "answer" in finish or "content='The" in finish or 'message="The' in finish:
        assert summary["answer"] == "The dark theme is on." and result.answer == summary["answer"]
    # the image went at the family's size, and an absolute family's prompt names it
    req = server.requests[0]
    expect = agent.planner.family.image_size(*phone.size())
    assert image_size(req) == expect
    if family == "qwen2.5-vl":
        assert expect == (1092, 2408) and "The screen's resolution is 1092x2408." in req.text
    assert steps[-1].completion.reason.startswith("the model's own finish")
    assert len(server.requests) == 4  # no completion call: the model's own finish ends the run


def run_script(tmp_path, served, script, family=None, **settings):
    task = task_by_key(EvalConfig(), "settings-1")
    phone = task.make_phone()
    with LocalChatServer(Model(phone, script)) as server:
        result = agent_for(server, phone, served, family, **settings).run(task.instruction, tmp_path)
    return result, phone, server, read_steps(tmp_path)


def test_a_point_outside_the_image_and_a_malformed_tool_call_go_back_to_the_model(tmp_path):
    bad_point = TOOL % '{"action": "click", "coordinate": [1500, 30]}'
    broken = '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [5, 6]\n</tool_call>'
    fam = "qwen2.5-vl"
    result, phone, server, steps = run_script(
        tmp_path, FORMATS[fam][0], [bad_point, broken, tap(fam, "Settings"), FORMATS[fam][3]])
    assert result.completed and steps[0].gesture.kind == "tap"
    assert steps[0].model.parse_errors == [
        "the point (1500, 30) is outside the image you were sent (1092x2408)",
        "the tool call is not valid JSON (Expecting ',' delimiter at character 76)"]
    retry = server.requests[1].last_user_text
    assert retry.startswith("Your reply could not be read: the point (1500, 30) is outside the image you were sent")


def test_a_reply_mixing_two_formats_is_sent_back(tmp_path):
    fam = "ui-tars-1.5"
    mixed = ("Thought: tap\nAction: click(point='<point>10 20</point>')\n"
             '<answer>do(action="Tap", element=[10, 20])</answer>')
    result, phone, server, steps = run_script(tmp_path, FORMATS[fam][0], [mixed, tap(fam, "Settings"),
                                                                         FORMATS[fam][3]])
    assert result.completed
    assert steps[0].model.parse_errors == ["your reply mixes two formats (UI-TARS call and AutoGLM do()/finish()): "
                                           "answer with one action in UI-TARS-1.5's format only"]


def test_a_button_the_family_has_but_this_phone_cannot_press_is_a_recorded_step_error_the_model_is_told(tmp_path):
    fam = "qwen2.5-vl"
    menu = TOOL % '{"action": "system_button", "button": "Menu"}'
    result, phone, server, steps = run_script(tmp_path, FORMATS[fam][0], [menu, tap(fam, "Settings"),
                                                                         FORMATS[fam][3]])
    assert result.completed
    assert steps[0].action == "Press Key (menu)" and steps[0].gesture.kind == "none"
    told = "could not be carried out: this phone cannot do Press Key (menu)"
    assert told in steps[0].reflection.feedback
    assert told in server.requests[1].last_user_text  # the next request tells the model


def test_model_family_overrides_the_served_name(tmp_path):
    fam = "ui-venus"
    result, phone, server, steps = run_script(tmp_path, "my-finetune", [tap(fam, "Settings"), FORMATS[fam][3]],
                                              family="ui-venus")
    assert result.completed and steps[0].gesture.kind == "tap" and phone.state.foreground == "Settings"


def test_a_point_reply_to_the_paper_s_planner_ends_with_an_error_naming_the_families(tmp_path):
    reply = "Thought: open it\nAction: click(start_box='<|box_start|>(495,30)<|box_end|>')"
    task = task_by_key(EvalConfig(), "settings-1")
    phone = task.make_phone()
    with LocalChatServer(Model(phone, [reply] * 3)) as server:
        agent = agent_for(server, phone, "gpt-4o-test")
        assert type(agent.planner) is LLMPlanner  # no family in the name: the paper's planner
        result = agent.run(task.instruction, tmp_path)
    assert result.outcome == "error" and len(server.requests) == 3
    assert "point action in the format of ui-tars-1.5 / ui-tars-v1" in result.error
    assert "--model-family (ui-tars-1.5, ui-tars-v1, autoglm-phone" in result.error


def test_a_question_the_family_asks_goes_to_the_person_and_back(tmp_path):
    fam = "mai-ui"
    ask = "<thinking>\nwhich?\n</thinking>\n" + TOOL % '{"action":"ask_user","text":"Dark or light?"}'
    asked = []
    result, phone, server, steps = run_script(
        tmp_path, FORMATS[fam][0], [ask, tap(fam, "Settings"), FORMATS[fam][3]],
        ask=lambda req: asked.append(req.text) or "dark")
    assert result.completed and asked == ["Dark or light?"]
    assert steps[0].user.answer == "dark" and '"dark"' in server.requests[1].last_user_text
    # with no one to ask, the question is refused as a reply this run cannot carry out
    result, phone, server, steps = run_script(tmp_path / "none", FORMATS[fam][0], [ask, tap(fam, "Settings"),
                                                                                  FORMATS[fam][3]])
    assert steps[0].model.parse_errors == ["Ask User is not available in this run: no person can answer; go on "
                                           "with the task or finish it"]
