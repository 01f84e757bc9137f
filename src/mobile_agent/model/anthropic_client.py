"""A native Anthropic Messages API client on the official ``anthropic`` SDK."""

from __future__ import annotations

from typing import Sequence

import anthropic

from mobile_agent.errors import ModelError
from mobile_agent.model.base import ChatResponse, Message, Usage
from mobile_agent.model.deadline import sdk_timeout
from mobile_agent.model.retry import MalformedAnswer, describe_bad_body
from mobile_agent.model.sdk_client import SDKChatModel, answer_model, content_blocks, read_usage

DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"


def to_anthropic(messages: Sequence[Message]) -> tuple[str | None, list[dict]]:
    """(system text, messages) in the Messages API form; images become base64 ``image`` blocks."""
    system: list[str] = []
    out: list[dict] = []
    for m in messages:
        if m.role == "system":
            system.append(m.plain_text)
            continue
        blocks = content_blocks(m.parts, lambda p: {"type": "image", "source": {"type": "base64", "media_type": p.mime,
                                                                                "data": p.base64()}})
        if out and out[-1]["role"] == m.role:  # the API wants roles to alternate
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": m.role, "content": blocks})
    return ("\n\n".join(system) if system else None), out


class AnthropicChatModel(SDKChatModel):
    """Claude models through the Messages API. Same error and retry rules as
    :class:`mobile_agent.model.openai_client.OpenAIChatModel` (both on
    :class:`~mobile_agent.model.sdk_client.SDKChatModel`); 529 (overloaded) is retried too."""

    provider = "anthropic"
    sdk = anthropic
    sdk_error = anthropic.AnthropicError
    default_key_env = DEFAULT_KEY_ENV
    example_model = "claude-sonnet-4-5"
    service = "the Anthropic API"
    client_words = "the Anthropic client"
    not_found_hint = "the model name is unknown, or the base URL is wrong"

    def _new_client(self, key: str) -> anthropic.Anthropic:
        return anthropic.Anthropic(api_key=key, base_url=self.base_url, timeout=sdk_timeout(self.timeout_s), max_retries=0)

    def complete(self, messages: Sequence[Message], *, max_tokens: int | None = None) -> ChatResponse:
        system, payload = to_anthropic(messages)
        kwargs: dict = {"model": self._model, "messages": payload, "max_tokens": max_tokens or self.max_tokens}
        if system:
            kwargs["system"] = system
        return self._complete(lambda: self._client.messages.create(**kwargs))

    def _read(self, resp: object) -> tuple[str, Usage, str]:
        """(text, usage, model name) of a Messages answer; :class:`MalformedAnswer` for one that is
        not a reply, :class:`ModelError` for a reply without text."""
        content = getattr(resp, "content", None)
        if isinstance(resp, (str, bytes)) or not isinstance(content, list):
            raise MalformedAnswer(describe_bad_body(resp) if isinstance(resp, (str, bytes))
                                  else "an answer with no content blocks")
        texts = [getattr(b, "text", None) for b in content if getattr(b, "type", None) == "text"]
        if any(not isinstance(t, str) for t in texts):
            raise MalformedAnswer("a text block without text")
        if not texts:
            raise ModelError(f"model {self._model} returned no text (stop reason {getattr(resp, 'stop_reason', None)})")
        return "".join(texts), read_usage(resp, "input_tokens", "output_tokens"), answer_model(resp)
