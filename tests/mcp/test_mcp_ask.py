"""run_instruction when the agent needs the user: the question comes back to the MCP client as the
tool's result (outcome needs_user, a run_id), answer_user answers it and the run goes on. The SDK's
own client in-process, the simulated phone, the agent's model on the localhost chat server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client

from mobile_agent.device.sim import SimPhone
from mobile_agent.mcpserver import PhoneTools, ToolOptions, build_server
from mobile_agent.model.openai_client import OpenAIChatModel
from mobile_agent.perception import Perception
from tests.fakes.agent_harness import API_KEY, MODEL, Script, plan_requests, react
from tests.fakes.chatserver import LocalChatServer

from mcp_helpers import data_of, image_of, run, text_of


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def _client(phone, perception, server, tmp_path, **options) -> Client:
    model = OpenAIChatModel(MODEL, base_url=server.openai_base_url, api_key=API_KEY, timeout_s=10)
    tools = PhoneTools(phone, perception, ToolOptions(runs_dir=tmp_path, **options), chat_model_factory=lambda: model)
    return Client(build_server(tools))


def test_the_question_comes_back_as_the_result_and_answer_user_lets_the_run_go_on(perception, tmp_path):
    phone = SimPhone()
    plans = [react("Ask User (Which Anna do you mean?)"), react("Take Over (please sign in)"), react("Stop")]
    with LocalChatServer(Script(plans)) as server:
        async def scenario():
            async with _client(phone, perception, server, tmp_path) as client:
                first = data_of(await client.call_tool("run_instruction", {"instruction": "Message Anna",
                                                                           "max_steps": 5}))
                shot = image_of(await client.call_tool("screenshot", {}), "image/jpeg")  # the phone is free meanwhile
                wrong = await client.call_tool("answer_user", {"run_id": "run-9", "answer": "x"})
                second = data_of(await client.call_tool("answer_user", {"run_id": first["run_id"],
                                                                        "answer": "Anna Li"}))
                third = data_of(await client.call_tool("answer_user", {"run_id": second["run_id"],
                                                                       "answer": "done"}))
                return first, shot, wrong, second, third

        first, shot, wrong, second, third = run(scenario)
        requests = plan_requests(server)
    assert first["outcome"] == "needs_user" and first["completed"] is False
    assert first["question"] == {"kind": "question", "text": "Which Anna do you mean?", "step": 1}
    assert "answer_user" in first["next"] and shot.size[0] > 0
    assert wrong.is_error and "no run 'run-9' is waiting for an answer (the run waiting is run-1)" in text_of(wrong)
    assert second["outcome"] == "needs_user" and second["question"]["kind"] == "take_over"
    assert third["outcome"] == "completed" and third["completed"] and third["steps"] == 3
    assert '1. Ask User (Which Anna do you mean?) -> the user answered "Anna Li"' in requests[1].text
    assert "- Ask User (question):" in requests[0].body["messages"][0]["content"]
    steps = [json.loads(line) for line in (Path(third["run_folder"]) / "steps.jsonl").read_text().splitlines()]
    assert [s.get("user", {}).get("answer") for s in steps] == ["Anna Li", "done", None]


def test_giving_up_or_a_new_run_ends_the_waiting_run_needs_user(perception, tmp_path):
    phone = SimPhone()
    plans = [react("Ask User (Which size?)"), react("Ask User (Which colour?)"), react("Stop")]
    with LocalChatServer(Script(plans)) as server:
        async def scenario():
            async with _client(phone, perception, server, tmp_path) as client:
                first = data_of(await client.call_tool("run_instruction", {"instruction": "Buy a shirt"}))
                gave_up = data_of(await client.call_tool("answer_user", {"run_id": first["run_id"], "give_up": True}))
                again = data_of(await client.call_tool("run_instruction", {"instruction": "Buy a shirt"}))
                newer = data_of(await client.call_tool("run_instruction", {"instruction": "Open Settings"}))
                return first, gave_up, again, newer

        first, gave_up, again, newer = run(scenario)
    assert gave_up["outcome"] == "needs_user" and gave_up["question"] == {"kind": "question", "text": "Which size?",
                                                                          "step": 1}
    assert "run_id" not in gave_up and gave_up["run_folder"]
    summary = json.loads((Path(gave_up["run_folder"]) / "summary.json").read_text())
    assert summary["outcome"] == "needs_user" and summary["needs_user"]["text"] == "Which size?"
    assert again["outcome"] == "needs_user" and again["run_id"] == "run-2"
    # the new run_instruction ended run-2 unanswered, then ran (and Stopped)
    assert newer["outcome"] == "completed"
    ended = json.loads((Path(tmp_path) / sorted(p.name for p in tmp_path.iterdir() if "buy" in p.name)[-1]
                        / "summary.json").read_text())
    assert ended["outcome"] == "needs_user"


def test_without_ask_the_agent_is_offered_neither(perception, tmp_path):
    phone = SimPhone()
    with LocalChatServer(Script([react("Stop")])) as server:
        async def scenario():
            async with _client(phone, perception, server, tmp_path, ask=False) as client:
                return data_of(await client.call_tool("run_instruction", {"instruction": "Open Settings"}))

        out = run(scenario)
        system = plan_requests(server)[0].body["messages"][0]["content"]
    assert out["outcome"] == "completed" and "Ask User" not in system
