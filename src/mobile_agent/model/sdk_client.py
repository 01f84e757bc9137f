"""What the chat clients on a provider's SDK (``openai``, ``anthropic``) share: the key, the client
and its fresh start after a deadline, each request's total deadline, bounded retries, the errors
the user sees once they are spent, the usage read from an answer, the cost and the timing.

A provider's client (:mod:`~mobile_agent.model.openai_client`, :mod:`~mobile_agent.model.anthropic_client`)
names its SDK and words, makes the SDK's client, puts messages in its form and reads its answer."""

from __future__ import annotations

import os
import time
from types import ModuleType
from typing import Any, Callable, ClassVar, Sequence, TypeVar

from mobile_agent.errors import ConfigError, redact, remember_secret, remember_url
from mobile_agent.model.base import ChatResponse, ImagePart, Part, TextPart, Usage
from mobile_agent.model.deadline import CallTimedOut, within
from mobile_agent.model.pricing import PriceTable
from mobile_agent.model.retry import MalformedAnswer, RetryPolicy, call_with_retries, sdk_attempt, sdk_failure, token_count

T = TypeVar("T")


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


def content_blocks(parts: Sequence[Part], image: Callable[[ImagePart], dict]) -> list[dict]:
    """A message's parts as a provider's content blocks: text as ``{"type": "text", "text": ...}``,
    images as ``image`` makes them."""
    out: list[dict] = []
    for p in parts:
        if isinstance(p, TextPart):
            out.append({"type": "text", "text": p.text})
        elif isinstance(p, ImagePart):
            out.append(image(p))
    return out


def read_usage(resp: object, prompt: str, completion: str) -> Usage:
    """The token counts of an answer's ``usage`` (its fields named ``prompt`` and ``completion``);
    zero without one, :class:`MalformedAnswer` for counts that are not numbers."""
    u = getattr(resp, "usage", None)
    if u is None:
        return Usage()
    return Usage(token_count(getattr(u, prompt, None), prompt), token_count(getattr(u, completion, None), completion))


def answer_model(resp: object) -> str:
    """The model name an answer gives (empty when it gives none)."""
    name = getattr(resp, "model", None)
    return name if isinstance(name, str) else ""


class SDKChatModel:
    """The base of the chat clients on a provider's SDK. A subclass sets the class attributes, and
    writes :meth:`_new_client` (the SDK's client with the key) and ``_read`` (an answer ->
    (text, usage, model name))."""

    provider: ClassVar[str]
    sdk: ClassVar[ModuleType]  # the SDK's module: its errors say what went wrong
    sdk_error: ClassVar[type[Exception]]  # the base of the SDK's errors
    default_key_env: ClassVar[str]  # where the key is found when no other variable is named
    example_model: ClassVar[str]  # named when no model is given
    service: ClassVar[str]  # where requests go without a base URL, in words
    client_words: ClassVar[str]  # the client, in the message of a failed setup
    not_found_hint: ClassVar[str]  # what a 404 means

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 api_key_env: str | None = None, timeout_s: float = 120.0, retry: RetryPolicy | None = None,
                 prices: PriceTable | None = None, max_tokens: int = 1024) -> None:
        if not model:
            raise ConfigError(f"no model name: pass --model NAME (for example {self.example_model})")
        self._model = model
        self.base_url = base_url
        self.api_key_env = api_key_env or self.default_key_env
        self.retry = retry or RetryPolicy()
        self.prices = prices if prices is not None else PriceTable.load()
        self.max_tokens = max_tokens
        self.timeout_s = timeout_s
        key = resolve_key(api_key, self.api_key_env, self._key_for())
        self._connect = lambda: self._new_client(key)
        try:
            self._client = self._connect()
        except self.sdk_error as exc:
            raise ConfigError(f"cannot set up {self.client_words}: {redact(str(exc))}") from exc

    def _key_for(self) -> str:
        """Whose key is missing, in the message that says so; the base URL's password and the Basic
        header made of it are remembered (kept out of every message) first."""
        remember_url(self.base_url)
        return f"model {self._model}"

    def _new_client(self, key: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _read(self, resp: object) -> tuple[str, Usage, str]:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def name(self) -> str:
        return self._model

    def _where(self) -> str:
        return redact(self.base_url) if self.base_url else self.service

    def _abort(self) -> None:
        """Close the connections of a request past its deadline (its thread's read ends) and start afresh."""
        old, self._client = self._client, self._connect()
        old.close()

    def _retried(self, once: Callable[[], T]) -> tuple[T, int]:
        return call_with_retries(once, self.retry, f"chat call to {self._model}")

    def _complete(self, create: Callable[[], object],
                  retried: Callable[[Callable[[], Any]], tuple[Any, int]] | None = None) -> ChatResponse:
        """One request (``create``, on the current client), within the total deadline of each attempt,
        retried as the policy says (``retried``: a provider's own way of retrying, around
        :meth:`_retried`), its answer read; the SDK's errors as the user's message."""
        once = sdk_attempt(self.sdk, lambda: within(create, self.timeout_s, self._abort, f"the call to {self._model}"),
                           self._read)
        t0 = time.monotonic()
        try:
            resp, attempts = (retried or self._retried)(once)
        except (self.sdk_error, MalformedAnswer, CallTimedOut) as exc:
            raise sdk_failure(exc, self.sdk, model=self._model, where=self._where(), api_key_env=self.api_key_env,
                              attempts=self.retry.max_attempts, not_found_hint=self.not_found_hint) from exc
        latency = time.monotonic() - t0
        text, usage, name = resp
        return ChatResponse(text=text, usage=usage, model=name or self._model,
                            cost_usd=self.prices.cost(self._model, usage), latency_s=latency, attempts=attempts)


__all__ = ["SDKChatModel", "answer_model", "content_blocks", "read_usage", "resolve_key"]
