"""A chat client for any OpenAI-compatible endpoint (OpenAI, DashScope compatible mode, vLLM, Ollama,
LM Studio...) on the official ``openai`` SDK."""

from __future__ import annotations

import os
import time
from typing import Sequence

import openai

from mobile_agent.errors import ConfigError, ModelError, redact, remember_secret, remember_url
from mobile_agent.model.base import ChatResponse, ImagePart, Message, TextPart, Usage
from mobile_agent.model.deadline import CallTimedOut, within
from mobile_agent.model.pricing import PriceTable
from mobile_agent.model.retry import (
    MalformedAnswer, RetryPolicy, call_with_retries, describe_bad_body, sdk_attempt, sdk_failure, token_count,
)

DEFAULT_KEY_ENV = "OPENAI_API_KEY"


def resolve_key(api_key: str | None, api_key_env: str, provider: str, flag: str = "--api-key-env") -> str:
    """The API key given, else the value of ``api_key_env``; a :class:`ConfigError` naming both when unset."""
    if api_key:
        remember_secret(api_key)
        return api_key
    value = os.environ.get(api_key_env, "").strip()
    remember_secret(value)
    if not value:
        raise ConfigError(
            f"no API key for {provider}: the environment variable {api_key_env} is not set. "
            f"Export it (export {api_key_env}=...), or name another variable with {flag}. "
            "A local server that needs no key accepts any value."
        )
    return value


def to_openai_messages(messages: Sequence[Message], image_detail: str | None = None) -> list[dict]:
    """Our messages in the chat-completions JSON form (text and ``image_url`` parts)."""
    out: list[dict] = []
    for m in messages:
        if m.role != "user" or not m.images:
            out.append({"role": m.role, "content": m.plain_text})
            continue
        content: list[dict] = []
        for p in m.parts:
            if isinstance(p, TextPart):
                content.append({"type": "text", "text": p.text})
            elif isinstance(p, ImagePart):
                image_url: dict = {"url": p.data_url()}
                if image_detail:
                    image_url["detail"] = image_detail
                content.append({"type": "image_url", "image_url": image_url})
        out.append({"role": "user", "content": content})
    return out


class OpenAIChatModel:
    """Chat completions with images through the ``openai`` SDK.

    ``base_url`` points at any compatible server (``http://localhost:11434/v1`` for Ollama,
    ``https://dashscope.aliyuncs.com/compatible-mode/v1`` for Qwen-VL...). The key comes from
    ``api_key`` or the environment variable ``api_key_env``. Timeouts, 429 and 5xx are retried with
    backoff as ``retry`` says; 401/403/404 raise :class:`ConfigError` at once. ``timeout_s`` is the
    total deadline of each request (the whole answer, not each read); a 200 answer that is not a
    chat reply is retried, then a :class:`ModelError` saying what came.
    """

    provider = "openai"

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
        temperature: float | None = 0.0,
        image_detail: str | None = None,
    ) -> None:
        if not model:
            raise ConfigError("no model name: pass --model NAME (for example gpt-4o)")
        self._model = model
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.retry = retry or RetryPolicy()
        self.prices = prices if prices is not None else PriceTable.load()
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.image_detail = image_detail
        self.token_param = "max_tokens"
        self.timeout_s = timeout_s
        remember_url(base_url or os.environ.get("OPENAI_BASE_URL"))  # its password, and the Basic header made of it
        where = redact(base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1")
        key = resolve_key(api_key, api_key_env, f"model {model} at {where}")
        self._connect = lambda: openai.OpenAI(api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0)
        try:
            self._client = self._connect()
        except openai.OpenAIError as exc:
            raise ConfigError(f"cannot set up the OpenAI-compatible client: {redact(str(exc))}") from exc

    @property
    def name(self) -> str:
        return self._model

    def _where(self) -> str:
        return redact(self.base_url) if self.base_url else "the OpenAI API"

    def _abort(self) -> None:
        """Close the connections of a request past its deadline (its thread's read ends) and start afresh."""
        old, self._client = self._client, self._connect()
        old.close()

    def _adapt(self, kwargs: dict, param: str | None) -> bool:
        """Drop or rename a parameter the server refused; False when there is nothing to adapt."""
        if param == "max_tokens" and "max_tokens" in kwargs:
            kwargs["max_completion_tokens"] = kwargs.pop("max_tokens")
            self.token_param = "max_completion_tokens"
            return True
        if param == "temperature" and "temperature" in kwargs:
            kwargs.pop("temperature")
            self.temperature = None
            return True
        return False

    def complete(self, messages: Sequence[Message], *, max_tokens: int | None = None) -> ChatResponse:
        payload = to_openai_messages(messages, self.image_detail)
        kwargs: dict = {"model": self._model, "messages": payload, self.token_param: max_tokens or self.max_tokens}
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature

        once = sdk_attempt(openai, lambda: within(lambda: self._client.chat.completions.create(**kwargs),
                                                  self.timeout_s, self._abort, f"the call to {self._model}"),
                           self._read)
        t0 = time.monotonic()
        try:
            try:
                resp, attempts = call_with_retries(once, self.retry, f"chat call to {self._model}")
            except openai.BadRequestError as exc:
                # Newer OpenAI models refuse max_tokens (they want max_completion_tokens) and some
                # refuse temperature; the server names the parameter. Adapt once and remember.
                if not self._adapt(kwargs, _param(exc)):
                    raise
                resp, attempts = call_with_retries(once, self.retry, f"chat call to {self._model}")
        except (openai.OpenAIError, MalformedAnswer, CallTimedOut) as exc:
            raise sdk_failure(
                exc, openai, model=self._model, where=self._where(), api_key_env=self.api_key_env,
                attempts=self.retry.max_attempts,
                not_found_hint="the model name is unknown to this server, or the base URL is wrong "
                "(OpenAI-compatible URLs usually end in /v1)",
            ) from exc
        latency = time.monotonic() - t0
        text, usage, name = resp
        return ChatResponse(
            text=text, usage=usage, model=name or self._model,
            cost_usd=self.prices.cost(self._model, usage), latency_s=latency, attempts=attempts,
        )

    def _read(self, resp: object) -> tuple[str, Usage, str]:
        """(text, usage, model name) of a chat-completions answer; :class:`MalformedAnswer` for one
        that is not a chat reply, :class:`ModelError` for a reply without text."""
        choices = getattr(resp, "choices", None)
        if isinstance(resp, (str, bytes)) or not isinstance(choices, list):
            raise MalformedAnswer(describe_bad_body(resp) if isinstance(resp, (str, bytes))
                                  else "an answer with no choices")
        if not choices:
            raise MalformedAnswer("an answer whose list of choices is empty")
        message = getattr(choices[0], "message", None)
        if message is None:
            raise MalformedAnswer("its first choice has no message")
        text = getattr(message, "content", None)
        if text is None:
            raise ModelError(f"model {self._model} returned an empty message (finish reason "
                             f"{getattr(choices[0], 'finish_reason', None)})")
        if not isinstance(text, str):
            raise MalformedAnswer("its message's content is not text")
        u = getattr(resp, "usage", None)
        usage = Usage()
        if u is not None:
            usage = Usage(token_count(getattr(u, "prompt_tokens", None), "prompt_tokens"),
                          token_count(getattr(u, "completion_tokens", None), "completion_tokens"))
        name = getattr(resp, "model", None)
        return text, usage, name if isinstance(name, str) else ""


def _param(exc: BaseException) -> str | None:
    """The ``param`` an OpenAI-style 400 error names, if any."""
    body = getattr(exc, "body", None)
    err = body.get("error", body) if isinstance(body, dict) else None
    value = err.get("param") if isinstance(err, dict) else None
    return str(value) if value else None

