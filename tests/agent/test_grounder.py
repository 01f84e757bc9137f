"""A point-output model as the grounder of Click Text / Click Icon (agent/grounder.py), against a real
chat-completions server on localhost that answers as UI-TARS-1.5 would (the point computed in the image
the request carried): a point that OCR confirms is used; a wrong point, an unreadable answer or a
failing server fall back to perception's own grounding, and the record says which."""

from __future__ import annotations

import base64
import io

from PIL import Image

from mobile_agent.agent.families import get_family
from mobile_agent.agent.grounder import ModelGrounder
from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import TreeDriver
from mobile_agent.model.openai_client import OpenAIChatModel
from mobile_agent.model.retry import RetryPolicy
from tests.fakes.agent_harness import API_KEY, perception
from tests.fakes.chatserver import LocalChatServer, Reply


def image_size(req) -> tuple[int, int]:
    url = req.image_parts()[-1]["image_url"]["url"]
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size


def settings_phone():
    phone = SimPhone(seed=0)
    phone.launch("Settings")
    return phone


def answer_at(phone, text):
    """UI-TARS-1.5's reply tapping ``text``'s element, in the pixels of the image the request carried."""
    def reply(req):
        c = TreeDriver(phone).find(text=text).bounds.center
        (iw, ih), (w, h) = image_size(req), phone.size()
        return f"Thought: tap it\nAction: click(point='<point>{round(c.x * iw / w)} {round(c.y * ih / h)}</point>')"
    return reply


def grounder(server):
    model = OpenAIChatModel("ByteDance-Seed/UI-TARS-1.5-7B", base_url=server.openai_base_url, api_key=API_KEY,
                            retry=RetryPolicy(max_attempts=1, base_delay_s=0.01, max_delay_s=0.02), timeout_s=120)
    return ModelGrounder(perception(), model, get_family("ui-tars-1.5"))


def test_a_point_that_ocr_confirms_is_the_grounding(tmp_path):
    phone = settings_phone()
    with LocalChatServer(answer_at(phone, "Display")) as server:
        g = grounder(server)
        found = g.ground_text(phone.screenshot(), "Display")
    assert found.status == "found" and found.chosen.text == "Display"
    assert found.message.startswith("the grounding model's point (") and "OCR reads 'Display' there" in found.message
    assert (g.asked, g.held, g.fell_back) == (1, 1, 0)
    assert 'Tap the text "Display".' in server.requests[0].text


def test_a_wrong_point_falls_back_to_perception_and_says_so():
    phone = settings_phone()
    with LocalChatServer(answer_at(phone, "Network & internet")) as server:  # the model points elsewhere
        g = grounder(server)
        found = g.ground_text(phone.screenshot(), "Display")
    assert found.status == "found" and found.chosen.text == "Display"  # OCR's own grounding
    assert "did not check out (OCR reads 'Network & internet' there)" in found.message
    assert (g.held, g.fell_back) == (0, 1)


def test_a_failing_server_or_an_unreadable_answer_falls_back():
    phone = settings_phone()
    with LocalChatServer([Reply(status=500, error="down"), "I cannot see it."]) as server:
        g = grounder(server)
        first = g.ground_text(phone.screenshot(), "Display")
        second = g.ground_text(phone.screenshot(), "Display")
    assert first.chosen.text == "Display" and first.message.startswith("the grounding model gave no point (")
    assert second.chosen.text == "Display" and "has no 'Action:' line" in second.message
    assert g.fell_back == 2


def test_the_grounding_model_s_calls_are_in_the_step_s_calls_record(tmp_path):
    """Each question to the grounding model is a call of kind ``ground`` in the step's record (raw reply,
    tokens, duration; an unreadable answer with why), counted in the run's tokens like the planner's."""
    import json

    from mobile_agent.agent import StepLoop, AgentSettings, LLMPlanner
    from tests.fakes.agent_harness import MODEL, Script, react

    phone = settings_phone()
    at_display = answer_at(phone, "Display")
    answers = iter([at_display, lambda req: "I cannot see it."])
    plans = Script([react("Click Text (Display)"), react("Back"), react("Click Text (Display)"), react("Stop")])
    with LocalChatServer(plans) as planner_server, LocalChatServer(lambda req: next(answers)(req)) as server:
        planner = LLMPlanner(OpenAIChatModel(MODEL, base_url=planner_server.openai_base_url, api_key=API_KEY,
                                             retry=RetryPolicy(max_attempts=1, base_delay_s=0.01, max_delay_s=0.02),
                                             timeout_s=120))
        agent = StepLoop(phone, planner, grounder(server), AgentSettings(settle_interval_s=0.0))
        result = agent.run("Open the display settings", tmp_path / "run")
    assert result.completed, result.error
    steps = [json.loads(ln) for ln in (tmp_path / "run" / "steps.jsonl").open()]
    kinds = [[c["kind"] for c in s["calls"]] for s in steps]
    assert kinds[:3] == [["plan", "ground"], ["plan"], ["plan", "ground"]]
    good, bad = steps[0]["calls"][1], steps[2]["calls"][1]
    assert "<point>" in good["raw"] and good["prompt_tokens"] > 0 and good["error"] is None
    assert bad["raw"] == "I cannot see it." and bad["error"].startswith("could not be read: your reply has no 'Action:'")
    assert "the grounding model gave no point" in steps[2]["grounding"]["message"]
    assert steps[0]["grounding"]["message"].startswith("the grounding model's point (")
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    every = sum(c["prompt_tokens"] + c["completion_tokens"] for s in steps for c in s["calls"])
    grounding = good["prompt_tokens"] + good["completion_tokens"] + bad["prompt_tokens"] + bad["completion_tokens"]
    assert summary["tokens"]["total"] == every and grounding > 0 and len(server.requests) == 2
