"""An unreadable reply is sent back to the model with the request to answer again, but not whole
(issue 51, low: a reply of a megabyte went back whole, and so on each retry): its first
MAX_ECHO_CHARS characters and how many more there were. Real parts: the localhost chat server (the
second request is what the model is sent), the simulated phone."""

from __future__ import annotations

from mobile_agent.agent.planner import MAX_ECHO_CHARS
from mobile_agent.agent.trajectory import read_steps
from mobile_agent.device.sim import SimPhone
from tests.fakes.agent_harness import is_completion_check, make_agent, react
from tests.fakes.chatserver import LocalChatServer, Reply

JUNK = "I will now think at length. " * 40_000  # about 1.1 MB, no Action line


def test_a_megabyte_reply_is_sent_back_cut_and_the_run_goes_on(tmp_path):
    replies = iter([JUNK, react("Stop")])

    def respond(req):
        if is_completion_check(req):
            return Reply("Verdict: complete\nReason: done")
        return Reply(next(replies))

    with LocalChatServer(respond) as server:
        result = make_agent(server, SimPhone(seed=0), settle_timeout_s=1.0).run("Look at the home screen",
                                                                               tmp_path / "run")
        retry = server.requests[1]
    assert result.completed, result.error
    sent_back = [m for m in retry.body["messages"] if m["role"] == "assistant"]
    assert len(sent_back) == 1
    text = sent_back[0]["content"] if isinstance(sent_back[0]["content"], str) else sent_back[0]["content"][0]["text"]
    assert text.startswith(JUNK[:MAX_ECHO_CHARS]) and len(text) < MAX_ECHO_CHARS + 100
    assert f"{len(JUNK) - MAX_ECHO_CHARS} more characters" in text
    assert read_steps(tmp_path / "run")[0].action == "Stop"
