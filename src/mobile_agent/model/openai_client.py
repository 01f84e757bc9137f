"""A chat client for any OpenAI-compatible endpoint (OpenAI, DashScope compatible mode, vLLM, Ollama,
LM Studio...) on the official ``openai`` SDK."""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

import openai

from mobile_agent.errors import ModelError, redact, remember_url
from mobile_agent.model.base import ChatResponse, ImagePart, Message, Usage
from mobile_agent.model.deadline import sdk_timeout
from mobile_agent.model.retry import MalformedAnswer, describe_bad_body
from mobile_agent.model.sdk_client import SDKChatModel, answer_model, content_blocks, read_usage, resolve_key

DEFAULT_KEY_ENV = "OPENAI_API_KEY"

__all__ = ["DEFAULT_KEY_ENV", "OpenAIChatModel", "resolve_key", "to_openai_messages"]


def to_openai_messages(messages: Sequence[Message], image_detail: str | None = None) -> list[dict]:
    """Our messages in the chat-completions JSON form (text and ``image_url`` parts)."""
    out: list[dict] = []
    for m in messages:
        if m.role != "user" or not m.images:
            out.append({"role": m.role, "content": m.plain_text})
            continue

        def image(p: ImagePart) -> dict:
            image_url: dict = {"url": p.data_url()}
            if image_detail:
                image_url["detail"] = image_detail
            return {"type": "image_url", "image_url": image_url}

        out.append({"role": "user", "content": content_blocks(m.parts, image)})
    return out


class OpenAIChatModel(SDKChatModel):
    """Chat completions with images through the ``openai`` SDK.

    ``base_url`` points at any compatible server (``http://localhost:11434/v1`` for Ollama,
    ``https://dashscope.aliyuncs.com/compatible-mode/v1`` for Qwen-VL...). The key comes from
    ``api_key`` or the environment variable ``api_key_env``. Timeouts, 429 and 5xx are retried with
    backoff as ``retry`` says; 401/403/404 raise :class:`ConfigError` at once. ``timeout_s`` is the
    total deadline of each request (the whole answer, not each read); a 200 answer that is not a
    chat reply is retried, then a :class:`ModelError` saying what came. What the clients share:
    :class:`~mobile_agent.model.sdk_client.SDKChatModel`.
    """

    provider = "openai"
    sdk = openai
    sdk_error = openai.OpenAIError
    default_key_env = DEFAULT_KEY_ENV
    example_model = "gpt-4o"
    service = "the OpenAI API"
    client_words = "the OpenAI-compatible client"
    not_found_hint = ("the model name is unknown to this server, or the base URL is wrong "
                      "(OpenAI-compatible URLs usually end in /v1)")

    def __init__(self, model: str, *, temperature: float | None = 0.0, image_detail: str | None = None,
                 **options: Any) -> None:
        """``options``: those of :class:`~mobile_agent.model.sdk_client.SDKChatModel` (``base_url``,
        ``api_key``, ``api_key_env``, ``timeout_s``, ``retry``, ``prices``, ``max_tokens``)."""
        self.temperature = temperature
        self.image_detail = image_detail
        self.token_param = "max_tokens"
        super().__init__(model, **options)

    def _key_for(self) -> str:
        base_url = self.base_url or os.environ.get("OPENAI_BASE_URL")
        remember_url(base_url)  # its password, and the Basic header made of it
        return f"model {self._model} at {redact(base_url or 'https://api.openai.com/v1')}"

    def _new_client(self, key: str) -> openai.OpenAI:
        return openai.OpenAI(api_key=key, base_url=self.base_url, timeout=sdk_timeout(self.timeout_s), max_retries=0)

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

        def retried(once: Callable[[], Any]) -> tuple[Any, int]:
            try:
                return self._retried(once)
            except openai.BadRequestError as exc:
                # Newer OpenAI models refuse max_tokens (they want max_completion_tokens) and some
                # refuse temperature; the server names the parameter. Adapt once and remember.
                if not self._adapt(kwargs, _param(exc)):
                    raise
                return self._retried(once)

        return self._complete(lambda: self._client.chat.completions.create(**kwargs), retried)

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
        return text, read_usage(resp, "prompt_tokens", "completion_tokens"), answer_model(resp)


def _param(exc: BaseException) -> str | None:
    """The ``param`` an OpenAI-style 400 error names, if any."""
    body = getattr(exc, "body", None)
    err = body.get("error", body) if isinstance(body, dict) else None
    value = err.get("param") if isinstance(err, dict) else None
    return str(value) if value else None

