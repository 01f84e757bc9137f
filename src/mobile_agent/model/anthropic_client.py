"""A native Anthropic Messages API client on the official ``anthropic`` SDK."""

from __future__ import annotations

import time
from typing import Sequence

import anthropic

from mobile_agent.errors import ConfigError, ModelError, redact, remember_url
from mobile_agent.model.base import ChatResponse, ImagePart, Message, TextPart, Usage
from mobile_agent.model.deadline import CallTimedOut, within
from mobile_agent.model.openai_client import resolve_key
from mobile_agent.model.pricing import PriceTable
from mobile_agent.model.retry import (
    MalformedAnswer, RetryPolicy, call_with_retries, describe_bad_body, sdk_attempt, sdk_failure, token_count,
)

DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"


def to_anthropic(messages: Sequence[Message]) -> tuple[str | None, list[dict]]:
    """(system text, messages) in the Messages API form; images become base64 ``image`` blocks."""
    system: list[str] = []
    out: list[dict] = []
    for m in messages:
        if m.role == "system":
            system.append(m.plain_text)
            continue
        blocks: list[dict] = []
        for p in m.parts:
            if isinstance(p, TextPart):
                blocks.append({"type": "text", "text": p.text})
            elif isinstance(p, ImagePart):
                blocks.append({"type": "image", "source": {"type": "base64", "media_type": p.mime, "data": p.base64()}})
        if out and out[-1]["role"] == m.role:  # the API wants roles to alternate
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": m.role, "content": blocks})
    return ("\n\n".join(system) if system else None), out


class AnthropicChatModel:
    """Claude models through the Messages API. Same error and retry rules as
    :class:`mobile_agent.model.openai_client.OpenAIChatModel`; 529 (overloaded) is retried too."""

    provider = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        api_key_env: str = DEFAULT_KEY_ENV,
        timeout_s: float = 120.0,
        retry: RetryPolicy | None = None,
        prices: PriceTable | None = None,
        max_tokens: int = 1024,
    ) -> None:
        if not model:
            raise ConfigError("no model name: pass --model NAME (for example claude-sonnet-4-5)")
        self._model = model
        self.base_url = base_url
        remember_url(base_url)  # its password, and the Basic header made of it
        self.api_key_env = api_key_env
        self.retry = retry or RetryPolicy()
        self.prices = prices if prices is not None else PriceTable.load()
        self.max_tokens = max_tokens
        self.timeout_s = timeout_s
        key = resolve_key(api_key, api_key_env, f"model {model}")
        self._connect = lambda: anthropic.Anthropic(api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0)
        try:
            self._client = self._connect()
        except anthropic.AnthropicError as exc:
            raise ConfigError(f"cannot set up the Anthropic client: {redact(str(exc))}") from exc

    @property
    def name(self) -> str:
        return self._model

    def _where(self) -> str:
        return redact(self.base_url) if self.base_url else "the Anthropic API"

    def _abort(self) -> None:
        """Close the connections of a request past its deadline (its thread's read ends) and start afresh."""
        old, self._client = self._client, self._connect()
        old.close()

    def complete(self, messages: Sequence[Message], *, max_tokens: int | None = None) -> ChatResponse:
        system, payload = to_anthropic(messages)
        kwargs: dict = {"model": self._model, "messages": payload, "max_tokens": max_tokens or self.max_tokens}
        if system:
            kwargs["system"] = system

        once = sdk_attempt(anthropic, lambda: within(lambda: self._client.messages.create(**kwargs),
                                                     self.timeout_s, self._abort, f"the call to {self._model}"),
                           self._read)
        t0 = time.monotonic()
        try:
            resp, attempts = call_with_retries(once, self.retry, f"chat call to {self._model}")
        except (anthropic.AnthropicError, MalformedAnswer, CallTimedOut) as exc:
            raise sdk_failure(
                exc, anthropic, model=self._model, where=self._where(), api_key_env=self.api_key_env,
                attempts=self.retry.max_attempts, not_found_hint="the model name is unknown, or the base URL is wrong",
            ) from exc
        latency = time.monotonic() - t0
        text, usage, name = resp
        return ChatResponse(
            text=text, usage=usage, model=name or self._model,
            cost_usd=self.prices.cost(self._model, usage), latency_s=latency, attempts=attempts,
        )

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
        u = getattr(resp, "usage", None)
        usage = Usage()
        if u is not None:
            usage = Usage(token_count(getattr(u, "input_tokens", None), "input_tokens"),
                          token_count(getattr(u, "output_tokens", None), "output_tokens"))
        name = getattr(resp, "model", None)
        return "".join(texts), usage, name if isinstance(name, str) else ""
