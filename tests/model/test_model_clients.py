"""The chat clients against real localhost servers speaking the chat-completions and Messages APIs,
through the real openai and anthropic SDKs."""

from __future__ import annotations

import base64
import io
import json
import socket

import pytest
from PIL import Image, ImageDraw

from mobile_agent.errors import ConfigError, ModelError
from mobile_agent.model import (
    Message, PriceTable, RetryPolicy, ScriptedChatModel, TextPart, Usage, encode_image, make_chat_model, split_spec,
)
from mobile_agent.model.anthropic_client import AnthropicChatModel
from tests.fakes.chatserver import LocalChatServer, Reply
from mobile_agent.model.openai_client import OpenAIChatModel


class Sleeps(list):
    def __call__(self, s):
        self.append(s)


def fast_retry(sleeps=None, attempts=3):
    return RetryPolicy(max_attempts=attempts, base_delay_s=0.01, max_delay_s=2.0, sleep=sleeps if sleeps is not None else (lambda s: None))


def screen(w=1080, h=2400):
    img = Image.new("RGB", (w, h), (240, 240, 240))
    ImageDraw.Draw(img).rectangle([100, 100, 600, 400], fill=(200, 30, 30))
    return img


def request_messages():
    return [Message.text("system", "You operate a phone."),
            Message("user", (TextPart("What is on the screen?"), encode_image(screen(), 512, 70)))]


def test_openai_wire_format_usage_and_cost():
    with LocalChatServer(["It is a red box."]) as server:
        m = OpenAIChatModel("gpt-4o-mini", base_url=server.openai_base_url, api_key="sk-abc", retry=fast_retry())
        r = m.complete(request_messages(), max_tokens=77)
    assert r.text == "It is a red box." and r.attempts == 1 and r.model == "gpt-4o-mini"
    body = server.requests[0].body
    assert body["model"] == "gpt-4o-mini" and body["max_tokens"] == 77 and body["temperature"] == 0.0
    assert body["messages"][0] == {"role": "system", "content": "You operate a phone."}
    content = body["messages"][1]["content"]
    assert content[0] == {"type": "text", "text": "What is on the screen?"}
    assert content[1]["type"] == "image_url"
    img = Image.open(io.BytesIO(base64.b64decode(content[1]["image_url"]["url"].split(",", 1)[1])))
    assert img.format == "JPEG" and img.size == (230, 512)
    assert server.requests[0].headers["authorization"] == "Bearer sk-abc"
    # usage as the server reported it, cost from the gpt-4o-mini row (0.15 / 0.60 USD per million)
    assert r.usage.prompt_tokens > 100 and r.usage.completion_tokens == len("It is a red box.") // 4
    assert r.cost_usd == pytest.approx((r.usage.prompt_tokens * 0.15 + r.usage.completion_tokens * 0.60) / 1e6)


def test_openai_retries_5xx_and_429_with_backoff_then_succeeds():
    sleeps = Sleeps()
    script = [Reply(status=500, error="oops"), Reply(status=429, error="slow down", headers={"Retry-After": "1.5"}), "ok"]
    with LocalChatServer(script) as server:
        m = OpenAIChatModel("gpt-4o", base_url=server.openai_base_url, api_key="k", retry=fast_retry(sleeps, attempts=4))
        r = m.complete([Message.text("user", "hi")])
    assert r.text == "ok" and r.attempts == 3 and len(server.requests) == 3
    assert len(sleeps) == 2 and 0.01 <= sleeps[0] <= 0.0125 and sleeps[1] == 1.5  # backoff, then Retry-After


def test_openai_retries_are_bounded():
    with LocalChatServer(lambda r: Reply(status=503, error="down for maintenance")) as server:
        m = OpenAIChatModel("gpt-4o", base_url=server.openai_base_url, api_key="k", retry=fast_retry(attempts=3))
        with pytest.raises(ModelError) as err:
            m.complete([Message.text("user", "hi")])
    assert len(server.requests) == 3
    assert "503" in str(err.value) and "3 attempts" in str(err.value) and "down for maintenance" in str(err.value)


def test_openai_401_is_a_config_error_without_retry():
    with LocalChatServer(lambda r: Reply(status=401, error="Incorrect API key provided")) as server:
        m = OpenAIChatModel("gpt-4o", base_url=server.openai_base_url, api_key_env="MY_KEY_VAR", api_key="bad",
                            retry=fast_retry())
        with pytest.raises(ConfigError) as err:
            m.complete([Message.text("user", "hi")])
    assert len(server.requests) == 1
    assert "401" in str(err.value) and "MY_KEY_VAR" in str(err.value) and "Incorrect API key" in str(err.value)


def test_openai_unknown_model_or_base_url_is_a_config_error():
    with LocalChatServer(lambda r: Reply(status=404, error="The model `gpt-9` does not exist")) as server:
        m = OpenAIChatModel("gpt-9", base_url=server.openai_base_url, api_key="k", retry=fast_retry())
        with pytest.raises(ConfigError) as err:
            m.complete([Message.text("user", "hi")])
        assert "gpt-9" in str(err.value) and "base URL" in str(err.value)
        # a base URL without /v1 reaches a path the server does not have
        m2 = OpenAIChatModel("gpt-4o", base_url=server.anthropic_base_url, api_key="k", retry=fast_retry())
        with pytest.raises(ConfigError) as err2:
            m2.complete([Message.text("user", "hi")])
    assert "404" in str(err2.value) and "/v1" in str(err2.value)
    assert len(server.requests) == 1  # the second request never reached a known path


def test_openai_unreachable_base_url_after_bounded_retries():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    sleeps = Sleeps()
    m = OpenAIChatModel("gpt-4o", base_url=f"http://127.0.0.1:{port}/v1", api_key="k", retry=fast_retry(sleeps))
    with pytest.raises(ModelError) as err:
        m.complete([Message.text("user", "hi")])
    assert f"127.0.0.1:{port}" in str(err.value) and "--base-url" in str(err.value)
    assert len(sleeps) == 2


def test_openai_timeout_is_retried():
    script = [Reply(text="late", delay_s=1.0), "on time"]
    with LocalChatServer(script) as server:
        m = OpenAIChatModel("gpt-4o", base_url=server.openai_base_url, api_key="k", timeout_s=0.3, retry=fast_retry())
        r = m.complete([Message.text("user", "hi")])
    assert r.text == "on time" and r.attempts == 2


def test_missing_key_names_the_variable(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError) as err:
        OpenAIChatModel("gpt-4o")
    assert "OPENAI_API_KEY" in str(err.value) and "--api-key-env" in str(err.value)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConfigError) as err:
        make_chat_model("claude-sonnet-4-5")
    assert "ANTHROPIC_API_KEY" in str(err.value)


def test_key_from_a_named_environment_variable(monkeypatch):
    monkeypatch.setenv("DASHSCOPE_API_KEY", "sk-dash")
    with LocalChatServer(["ok"]) as server:
        m = make_chat_model("qwen-vl-max", base_url=server.openai_base_url, api_key_env="DASHSCOPE_API_KEY")
        assert m.complete([Message.text("user", "hi")]).cost_usd is None  # not in the price table
    assert server.requests[0].headers["authorization"] == "Bearer sk-dash"
    assert server.requests[0].model == "qwen-vl-max"


def test_anthropic_wire_format_usage_and_cost():
    with LocalChatServer(["A red box."]) as server:
        m = AnthropicChatModel("claude-sonnet-4-5", base_url=server.anthropic_base_url, api_key="ak-1", retry=fast_retry())
        r = m.complete(request_messages())
    req = server.requests[0]
    assert req.path == "/v1/messages" and req.model == "claude-sonnet-4-5"
    assert req.body["system"] == "You operate a phone." and req.body["max_tokens"] == 1024
    content = req.body["messages"][0]["content"]
    assert req.body["messages"][0]["role"] == "user" and content[0] == {"type": "text", "text": "What is on the screen?"}
    assert content[1]["type"] == "image" and content[1]["source"]["media_type"] == "image/jpeg"
    img = Image.open(io.BytesIO(base64.b64decode(content[1]["source"]["data"])))
    assert img.size == (230, 512)
    assert "ak-1" in (req.headers.get("x-api-key", "") + req.headers.get("authorization", ""))
    assert req.headers.get("anthropic-version")
    assert r.text == "A red box." and r.usage.prompt_tokens > 100
    assert r.cost_usd == pytest.approx((r.usage.prompt_tokens * 3 + r.usage.completion_tokens * 15) / 1e6)


def test_anthropic_errors_and_retries():
    script = [Reply(status=529, error="Overloaded"), "fine", Reply(status=401, error="invalid x-api-key"),
              Reply(status=404, error="model: claude-nope")]
    with LocalChatServer(script) as server:
        m = AnthropicChatModel("claude-nope", base_url=server.anthropic_base_url, api_key="ak", retry=fast_retry())
        assert m.complete([Message.text("user", "hi")]).attempts == 2
        with pytest.raises(ConfigError, match="401"):
            m.complete([Message.text("user", "hi")])
        with pytest.raises(ConfigError, match="claude-nope"):
            m.complete([Message.text("user", "hi")])
    assert len(server.requests) == 4


def test_scripted_model_from_files(tmp_path):
    txt = tmp_path / "replies.txt"
    txt.write_text("Observation: a\nAction: Back\n---\nAction: Stop\n", encoding="utf-8")
    m = make_chat_model(f"scripted:{txt}")
    assert isinstance(m, ScriptedChatModel)
    assert m.complete([Message.text("user", "x")]).text == "Observation: a\nAction: Back"
    assert m.complete([Message.text("user", "y")]).text == "Action: Stop"
    with pytest.raises(ModelError, match="no reply left"):
        m.complete([Message.text("user", "z")])
    assert [r[0].plain_text for r in m.requests] == ["x", "y", "z"]
    js = tmp_path / "r.json"
    js.write_text(json.dumps({"replies": ["one", "two"]}), encoding="utf-8")
    m2 = ScriptedChatModel.from_file(js, cycle=True)
    assert [m2.complete([]).text for _ in range(3)] == ["one", "two", "one"]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError):
        ScriptedChatModel.from_file(bad)


def test_model_specs():
    assert split_spec("gpt-4o") == ("openai", "gpt-4o")
    assert split_spec("claude-3-5-sonnet-latest") == ("anthropic", "claude-3-5-sonnet-latest")
    assert split_spec("openai:claude-via-proxy") == ("openai", "claude-via-proxy")
    assert split_spec("anthropic:my-model") == ("anthropic", "my-model")
    assert split_spec("qwen2.5-vl:7b") == ("openai", "qwen2.5-vl:7b")  # an Ollama tag is not a provider
    with pytest.raises(ConfigError):
        split_spec("")


def test_price_table_longest_prefix_and_user_file(tmp_path, monkeypatch):
    t = PriceTable.load(use_env=False)
    assert t.price("gpt-4o-mini-2024-07-18").input == 0.15
    assert t.price("gpt-4o-2024-08-06").input == 2.50
    assert t.cost("some-local-model", Usage(10, 10)) is None
    user = tmp_path / "prices.json"
    user.write_text(json.dumps({"models": {"qwen-vl-max": {"input": 1.0, "output": 4.0},
                                           "gpt-4o": {"input": 5.0, "output": 15.0}}}), encoding="utf-8")
    monkeypatch.setenv("MOBILE_AGENT_PRICES", str(user))
    t2 = PriceTable.load()
    assert t2.cost("qwen-vl-max", Usage(1_000_000, 500_000)) == pytest.approx(3.0)
    assert t2.price("gpt-4o").input == 5.0 and t2.price("gpt-4o-mini").input == 0.15
    user.write_text(json.dumps({"models": {"x": {"input": "cheap"}}}), encoding="utf-8")
    with pytest.raises(ConfigError, match="'x'"):
        PriceTable.load()
    monkeypatch.setenv("MOBILE_AGENT_PRICES", str(tmp_path / "missing.json"))
    with pytest.raises(ConfigError, match="not found"):
        PriceTable.load()


def test_encode_image_resizes_and_sets_quality():
    img = screen()
    small = encode_image(img, 1024, 80)
    assert (small.width, small.height) == (461, 1024) and small.mime == "image/jpeg"
    assert Image.open(io.BytesIO(small.data)).size == (461, 1024)
    low = encode_image(img, 1024, 20)
    assert len(low.data) < len(small.data)
    full = encode_image(img, None, 80)
    assert (full.width, full.height) == (1080, 2400)
    png = encode_image(Image.new("RGBA", (50, 80)), 1024, fmt="PNG")
    assert png.mime == "image/png" and Image.open(io.BytesIO(png.data)).size == (50, 80)


def test_openai_adapts_once_to_a_refused_parameter():
    script = [Reply(status=400, error="Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens'.",
                    param="max_tokens"), "ok", "again", Reply(status=400, error="bad image", param="messages")]
    with LocalChatServer(script) as server:
        m = OpenAIChatModel("o-model", base_url=server.openai_base_url, api_key="k", retry=fast_retry())
        assert m.complete([Message.text("user", "hi")], max_tokens=50).text == "ok"
        assert m.complete([Message.text("user", "hi")]).text == "again"
        with pytest.raises(ModelError, match="HTTP 400: bad image"):
            m.complete([Message.text("user", "hi")])
    bodies = [r.body for r in server.requests]
    assert bodies[0]["max_tokens"] == 50 and "max_completion_tokens" not in bodies[0]
    assert bodies[1]["max_completion_tokens"] == 50 and "max_tokens" not in bodies[1]
    assert bodies[2]["max_completion_tokens"] == 1024  # remembered
    assert len(server.requests) == 4
