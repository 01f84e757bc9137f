"""Long Press and Wait through the whole loop (a chat-completions server on localhost, the real
openai SDK, real perception), and the prompt offering only what the device declares."""

from __future__ import annotations

from tests.fakes.agent_harness import Script, make_agent, plan_requests, react
from tests.fakes.tinyphone import TinyPhone
from mobile_agent.agent.trajectory import read_steps
from mobile_agent.device.gestures import LongPress, Wait
from mobile_agent.device.sim import SimPhone
from tests.fakes.chatserver import LocalChatServer


def _system(req) -> str:
    return req.body["messages"][0]["content"]


def test_long_press_a_note_and_delete_it_on_the_simulated_phone(tmp_path):
    phone = SimPhone(seed=0)
    titles = [n.title for n in phone.state.notes.notes]
    assert "Shopping list" in titles
    plans = [react("Open App (Notes)"), react("Long Press (Shopping list)"), react("Click Text (Delete)"),
             react("Wait"), react("Stop")]
    with LocalChatServer(Script(plans)) as server:
        result = make_agent(server, phone).run("Delete the shopping list note", tmp_path)
    assert result.completed
    assert [n.title for n in phone.state.notes.notes] == [t for t in titles if t != "Shopping list"]
    first = plan_requests(server)[0]
    assert "- Long Press (text or icon description, position):" in _system(first)
    assert "- Wait:" in _system(first)
    steps = read_steps(tmp_path)
    press = steps[1]
    assert isinstance(press.gesture, LongPress) and press.grounding.status == "found"
    chosen = press.grounding.candidates[press.grounding.chosen]
    assert chosen.text == "Shopping list"
    assert press.annotated and (tmp_path / press.annotated).is_file()
    assert isinstance(steps[3].gesture, Wait) and steps[3].error is None
    assert press.to_dict()["gesture"]["kind"] == "long_press"


def test_a_device_that_declares_nothing_is_not_offered_long_press_or_wait(tmp_path):
    phone = TinyPhone()
    plans = [react("Wait"), react("Click Text (Settings)"), react("Stop")]
    with LocalChatServer(Script(plans)) as server:
        result = make_agent(server, phone).run("Open Settings", tmp_path)
    assert result.completed and phone.screen == "settings"
    first, retry = plan_requests(server)[:2]
    assert "Long Press" not in _system(first) and "- Wait:" not in _system(first)
    assert "Click Text (text)" in _system(first)
    # an operation the device does not offer goes back at once, saying so, with only what it offers
    feedback = retry.body["messages"][-1]["content"]
    assert feedback.startswith("Your reply could not be read: Wait is not available on this device.\n")
    offered = feedback.split("where the operation is one of: ")[1]
    assert offered.startswith("Open App (name) | Click Text (text)") and offered.endswith("Exit | Stop")
    assert "Wait" not in offered and "Long Press" not in offered and feedback.count("Click Text") == 1
    step = read_steps(tmp_path)[0]
    assert step.action == "Click Text (Settings)" and step.model.parse_errors == ["Wait is not available on this device"]
    assert step.calls[0].error == "could not be read: Wait is not available on this device"
