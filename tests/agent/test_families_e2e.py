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
from mobile_agent.bench import family_conventions as conventions
from tests.fakes.agent_harness import API_KEY, perception
from tests.fakes.chatserver import LocalChatServer, Reply

# family -> (served name, tap reply, finish reply): each in the family's own format, as its authors' parsers
# read it ({t}: the step's words; {x}, {y}: the point in the family's coordinates)
TOOL = '<tool_call>\n{"name": "mobile_use", "arguments": %s}\n</tool_call>'
FORMATS = {
    "ui-tars-1.5": ("ByteDance-Seed/UI-TARS-1.5-7B",
                    "Thought: {t}\nAction: click(point='<point>{x} {y}</point>')",
                    "Thought: done\nAction: finished(content='The dark theme is on.')"),
    "ui-tars-v1": ("bytedance-research/UI-TARS-7B-DPO",
                   "Thought: {t}\nAction: click(start_box='<|box_start|>({x},{y})<|box_end|>')",
                   "Thought: done\nAction: finished(content='The dark theme is on.')"),
    "autoglm-phone": ("autoglm-phone-9b",
                      '<think>{t}</think>\n<answer>do(action="Tap", element=[{x},{y}])</answer>',
                      '<think>done</think>\n<answer>finish(message="The dark theme is on.")</answer>'),
    "qwen2.5-vl": ("Qwen/Qwen2.5-VL-7B-Instruct",
                   "{t}\n" + TOOL % '{"action": "click", "coordinate": [{x}, {y}]}',
                   TOOL % '{"action": "terminate", "status": "success"}'),
    "qwen3-vl": ("Qwen/Qwen3-VL-8B-Instruct",
                 "Action: {t}\n" + TOOL % '{"action": "click", "coordinate": [{x}, {y}]}',
                 "Action: Tell the user.\n" + TOOL % '{"action": "answer", "text": "The dark theme is on."}'),
    "gui-owl-v3": ("mPLUG/GUI-Owl-7B",
                   "<thinking>\n{t}\n</thinking>\n" + TOOL % '{"action": "click", "coordinate": [{x}, {y}]}'
                   + "\n<conclusion>\n{t} done\n</conclusion>",
                   "<thinking>\ndone\n</thinking>\n" + TOOL % '{"action": "terminate", "status": "success"}'),
    "gui-owl-1.5": ("mPLUG/GUI-Owl-1.5-8B",
                    "Action: {t}\n" + TOOL % '{"action": "click", "coordinate": [{x}, {y}]}',
                    "Action: Stop, the task is done.\n" + TOOL % '{"action": "terminate", "status": "success"}'),
    "mai-ui": ("Tongyi-MAI/MAI-UI-8B",
               "<thinking>\n{t}\n</thinking>\n" + TOOL % '{"action":"click","coordinate":[{x},{y}]}',
               "<thinking>\ndone\n</thinking>\n" + TOOL % '{"action":"terminate","status":"success"}'),
    "ui-venus-navi": ("inclusionAI/UI-Venus-Navi-7B",
                      "<think>{t}</think>\n<action>Click(box=({x},{y}))</action>\n<conclusion>{t}</conclusion>",
                      "<think>done</think>\n<action>Finished(content='The dark theme is on.')</action>"),
    "ui-venus-1.5": ("inclusionAI/UI-Venus-1.5-8B",
                     "<think>{t}</think>\n<action>Click(box=({x},{y}))</action>\n<conclusion>{t}</conclusion>",
                     "<think>done</think>\n<action>CallUser(content='The dark theme is on.')</action>"),
}

#: What of an earlier reply the third request must hold, by family (the authors' history keeps it so).
KEPT = {"qwen2.5-vl": '{"action": "click", "coordinate": [{x}, {y}]}', "qwen3-vl": "Step 1: Tap Settings.",
        "gui-owl-v3": "Step 1: Tap Settings. done", "ui-venus-navi": "<action>Click(box=({x},{y}))</action>",
        "ui-venus-1.5": "<action>Click(box=({x},{y}))</action>"}
#: Families whose authors send earlier screenshots along: the third request carries three.
WITH_SCREENS = ("ui-tars-1.5", "ui-tars-v1", "mai-ui", "gui-owl-1.5")


def image_size(req, i=-1) -> tuple[int, int]:
    url = req.image_parts()[i]["image_url"]["url"]
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size


def model_point(phone, family, text) -> tuple[int, int]:
    """Where ``text``'s element is, as the family's model writes it: by its authors' conventions
    (bench/family_conventions.py: the image under their server settings, or their grid), not the adapter's."""
    c = TreeDriver(phone).find(text=text).bounds.center
    w, h = phone.size()
    return conventions.model_point(c.x, c.y, w, h, conventions.convention(family))


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


def tap(family, text, meant=None):
    """A tap on ``text``'s element in ``family``'s format; ``meant`` collects the point written and the phone
    pixel the authors' code puts it on."""
    _, tap_reply, _ = FORMATS[family]

    def reply(req, phone):
        x, y = model_point(phone, family, text)
        if meant is not None:
            w, h = phone.size()
            meant.append(((x, y), conventions.to_phone(x, y, w, h, conventions.convention(family))))
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
    served, _, finish = FORMATS[family]
    meant: list[tuple[int, int]] = []
    script = [tap(family, "Settings", meant), tap(family, "Display", meant), tap(family, "Dark theme", meant), finish]
    with LocalChatServer(Model(phone, script)) as server:
        agent = agent_for(server, phone, served)
        assert isinstance(agent.planner, FamilyPlanner) and agent.planner.family.name == family
        result = agent.run(task.instruction, tmp_path)
    assert result.completed and task.success(Probe(phone)), (family, result.error)
    steps = read_steps(tmp_path)
    # every tap where the model meant it: on the pixel the authors' code puts the reply
    assert [(s.gesture.x, s.gesture.y) for s in steps[:3]] == [phone_px for _, phone_px in meant]
    assert [s.grounding.candidates[0].text for s in steps[1:3]] == ["Display", "Dark theme"]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["model_family"] == family and summary["outcome"] == "completed"
    if "The dark theme is on." in finish:
        assert summary["answer"] == "The dark theme is on." and result.answer == summary["answer"]
    # the image went at the size the authors' processor makes of the screenshot
    req = server.requests[0]
    w, h = phone.size()
    conv = conventions.convention(family)
    if conv.space == "image":
        assert image_size(req) == conventions.resized(w, h, conv)
    if family == "qwen2.5-vl":
        assert image_size(req) == (1092, 2408) and "The screen's resolution is 1092x2408." in req.text
    if family == "ui-venus-navi":
        assert image_size(req) == (644, 1428)  # 919,632 pixels: within the authors' 830,000-937,664
    # from the third request on, the model's own earlier turns (and, where its authors send them, screens)
    third = server.requests[2]
    first_x, first_y = meant[0][0]
    if family in KEPT:
        kept = KEPT[family].replace("{x}", str(first_x)).replace("{y}", str(first_y))
        assert kept in third.text, third.text[-800:]
    else:
        said = [m["content"] if isinstance(m["content"], str) else "".join(p.get("text", "") for p in m["content"])
                for m in third.body["messages"] if m["role"] == "assistant"]
        assert len(said) == 2 and "Tap Settings." in said[0] and "Tap Display." in said[1], said
    assert len(third.image_parts()) == (3 if family in WITH_SCREENS else 1)
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
        tmp_path, FORMATS[fam][0], [bad_point, broken, tap(fam, "Settings"), FORMATS[fam][2]])
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
                                                                         FORMATS[fam][2]])
    assert result.completed
    assert steps[0].model.parse_errors == ["your reply mixes two formats (UI-TARS call and AutoGLM do()/finish()): "
                                           "answer with one action in UI-TARS-1.5's format only"]


def test_a_button_the_family_has_but_this_phone_cannot_press_is_a_recorded_step_error_the_model_is_told(tmp_path):
    fam = "qwen2.5-vl"
    menu = TOOL % '{"action": "system_button", "button": "Menu"}'
    result, phone, server, steps = run_script(tmp_path, FORMATS[fam][0], [menu, tap(fam, "Settings"),
                                                                         FORMATS[fam][2]])
    assert result.completed
    assert steps[0].action == "Press Key (menu)" and steps[0].gesture.kind == "none"
    told = "could not be carried out: this phone cannot do Press Key (menu)"
    assert told in steps[0].reflection.feedback
    assert told in server.requests[1].last_user_text  # the next request tells the model


def test_model_family_overrides_the_served_name(tmp_path):
    fam = "ui-venus-1.5"
    result, phone, server, steps = run_script(tmp_path, "my-finetune", [tap(fam, "Settings"), FORMATS[fam][2]],
                                              family="ui-venus-1.5")
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
        tmp_path, FORMATS[fam][0], [ask, tap(fam, "Settings"), FORMATS[fam][2]],
        ask=lambda req: asked.append(req.text) or "dark")
    assert result.completed and asked == ["Dark or light?"]
    assert steps[0].user.answer == "dark" and '"dark"' in server.requests[1].last_user_text
    # with no one to ask, the question is refused as a reply this run cannot carry out
    result, phone, server, steps = run_script(tmp_path / "none", FORMATS[fam][0], [ask, tap(fam, "Settings"),
                                                                                  FORMATS[fam][2]])
    assert steps[0].model.parse_errors == ["Ask User is not available in this run: no person can answer; go on "
                                           "with the task or finish it"]


def test_a_model_that_gives_up_ends_the_run_failed_not_done(tmp_path):
    fam = "mai-ui"
    give_up = "<thinking>\nno such setting\n</thinking>\n" + TOOL % '{"action":"terminate","status":"fail"}'
    result, phone, server, steps = run_script(tmp_path, FORMATS[fam][0], [tap(fam, "Settings"), give_up])
    assert not result.completed and result.outcome == "error" and result.answer is None
    assert "the model gave up" in result.error and "no such setting" in result.error
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["outcome"] == "error" and summary["completed"] is False
    assert '"status":"fail"' in steps[-1].model.raw
