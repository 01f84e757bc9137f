"""A native Anthropic Messages API client on the official ``anthropic`` SDK."""

from __future__ import annotations

import time
from typing import Sequence

import anthropic

from mobile_agent.errors import ConfigError, ModelError
from mobile_agent.model.base import ChatResponse, ImagePart, Message, TextPart, Usage
from mobile_agent.model.openai_client import resolve_key
from mobile_agent.model.pricing import PriceTable
from mobile_agent.model.retry import RetryPolicy, call_with_retries, sdk_attempt, sdk_failure

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
        self.api_key_env = api_key_env
        self.retry = retry or RetryPolicy()
        self.prices = prices if prices is not None else PriceTable.load()
        self.max_tokens = max_tokens
        key = resolve_key(api_key, api_key_env, f"model {model}")
        try:
            self._client = anthropic.Anthropic(api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0)
        except anthropic.AnthropicError as exc:
            raise ConfigError(f"cannot set up the Anthropic client: {exc}") from exc

    @property
    def name(self) -> str:
        return self._model

    def _where(self) -> str:
        return self.base_url or "the Anthropic API"

    def complete(self, messages: Sequence[Message], *, max_tokens: int | None = None) -> ChatResponse:
        system, payload = to_anthropic(messages)
        kwargs: dict = {"model": self._model, "messages": payload, "max_tokens": max_tokens or self.max_tokens}
        if system:
            kwargs["system"] = system

        once = sdk_attempt(anthropic, lambda: self._client.messages.create(**kwargs))
        t0 = time.monotonic()
        try:
            resp, attempts = call_with_retries(once, self.retry, f"chat call to {self._model}")
        except anthropic.AnthropicError as exc:
            raise sdk_failure(
                exc, anthropic, model=self._model, where=self._where(), api_key_env=self.api_key_env,
                attempts=self.retry.max_attempts, not_found_hint="the model name is unknown, or the base URL is wrong",
            ) from exc
        latency = time.monotonic() - t0
        texts = [b.text for b in resp.content if getattr(b, "type", None) == "text"]
        if not texts:
            raise ModelError(f"model {self._model} returned no text (stop reason {resp.stop_reason})")
        usage = Usage(resp.usage.input_tokens or 0, resp.usage.output_tokens or 0)
        return ChatResponse(
            text="".join(texts), usage=usage, model=resp.model or self._model,
            cost_usd=self.prices.cost(self._model, usage), latency_s=latency, attempts=attempts,
        )
