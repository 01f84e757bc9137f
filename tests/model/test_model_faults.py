"""A model server that answers 200 with something that is not a chat reply, never answers, or
trickles a byte a second: each ends as a ModelError with a one-line reason, within a total deadline,
through the real openai and anthropic SDKs against a real localhost server."""

from __future__ import annotations

import time

import pytest

from mobile_agent.errors import ModelError, TimeLimitReached
from mobile_agent.model import Message, RetryPolicy
from mobile_agent.model.anthropic_client import AnthropicChatModel
from mobile_agent.model.deadline import run_deadline
from mobile_agent.model.openai_client import OpenAIChatModel
from tests.fakes.chatserver import LocalChatServer, Reply
from tests.fakes.clock import hang_guard

OPENAI_OK = {"id": "x", "object": "chat.completion", "created": 1, "model": "m",
             "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
             "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}
ANTHROPIC_OK = {"id": "m1", "type": "message", "role": "assistant", "model": "m",
                "content": [{"type": "text", "text": "hi"}], "stop_reason": "end_turn",
                "usage": {"input_tokens": 1, "output_tokens": 2}}

TRUNCATED = Reply(body=b'{"id": "x", "choices": [{"mess')
GATEWAY = Reply(body=b"<html><head><title>502 Bad Gateway</title></head>\n<body>nginx</body></html>",
                content_type="text/html")
# (name, OpenAI reply, Anthropic reply, words the reason must hold)
CASES = [
    ("truncated JSON", TRUNCATED, TRUNCATED, "invalid JSON"),
    ("a gateway's HTML page", GATEWAY, GATEWAY, "HTML page"),
    ("a choice without a message", Reply(body={**OPENAI_OK, "choices": [{"index": 0, "finish_reason": "stop"}]}),
     Reply(body={**ANTHROPIC_OK, "content": None}), "no"),
    ("usage that is not numbers", Reply(body={**OPENAI_OK, "usage": {"prompt_tokens": "many", "completion_tokens": 1}}),
     Reply(body={**ANTHROPIC_OK, "usage": {"input_tokens": "many", "output_tokens": 1}}), "not a number"),
]


def client(kind: str, server: LocalChatServer, attempts: int = 2, timeout_s: float = 30.0):
    retry = RetryPolicy(max_attempts=attempts, base_delay_s=0.01, max_delay_s=0.05)
    if kind == "openai":
        return OpenAIChatModel("m", base_url=server.openai_base_url, api_key="k", retry=retry, timeout_s=timeout_s)
    return AnthropicChatModel("m", base_url=server.anthropic_base_url, api_key="k", retry=retry, timeout_s=timeout_s)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
@pytest.mark.parametrize("name,openai_reply,anthropic_reply,words", CASES, ids=[c[0] for c in CASES])
def test_a_malformed_200_answer_is_a_model_error_with_a_one_line_reason(kind, name, openai_reply, anthropic_reply,
                                                                        words):
    reply = openai_reply if kind == "openai" else anthropic_reply
    with LocalChatServer(lambda r: reply) as server:
        with pytest.raises(ModelError) as err:
            client(kind, server).complete([Message.text("user", "hi")])
    message = str(err.value)
    assert "not a chat reply" in message and words in message and "\n" not in message, message
    assert len(server.requests) == 2  # retried like a 5xx


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_malformed_answer_then_a_good_one_is_a_reply(kind):
    good = Reply(text="fine")
    with LocalChatServer([GATEWAY, good]) as server:
        r = client(kind, server).complete([Message.text("user", "hi")])
    assert r.text == "fine" and r.attempts == 2


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
@pytest.mark.parametrize("fault", [Reply(hang=True), Reply(trickle_s=0.3)], ids=["never answers", "trickles"])
def test_each_request_has_a_total_deadline(kind, fault):
    with LocalChatServer(lambda r: fault) as server:
        t = time.monotonic()
        with pytest.raises(ModelError) as err:
            client(kind, server, attempts=2, timeout_s=1.5).complete([Message.text("user", "hi")])
        took = time.monotonic() - t
    assert "no complete answer within 1.5 s" in str(err.value) and "--model-timeout" in str(err.value)
    # two attempts of 1.5 s each, not a read timeout renewed by each byte (the trickle never ends)
    assert 2.9 < took < hang_guard(3.0), took
    assert len(server.requests) == 2


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_the_run_deadline_holds_during_a_call(kind):
    with LocalChatServer(lambda r: Reply(trickle_s=0.3)) as server:
        t = time.monotonic()
        with run_deadline(time.monotonic() + 1.0), pytest.raises(TimeLimitReached):
            client(kind, server, attempts=4, timeout_s=60).complete([Message.text("user", "hi")])
        assert time.monotonic() - t < hang_guard(1.0)  # not four calls of 60 s
