"""Pick a chat client from a model spec as the CLI takes it."""

from __future__ import annotations

import os
import re

from mobile_agent.errors import ConfigError
from mobile_agent.model.base import ChatModel
from mobile_agent.model.pricing import PriceTable
from mobile_agent.model.retry import RetryPolicy

PROVIDERS = ("openai", "anthropic", "scripted")

#: where a bare model name goes when no --base-url (nor ``OPENAI_BASE_URL``) says otherwise
OPENAI_URL = "https://api.openai.com/v1"
#: the names OpenAI's own API serves
_OPENAI_NAMES = re.compile(r"^(gpt-|chatgpt-|o\d|ft:|computer-use)", re.IGNORECASE)
_LOCAL = ("a local OpenAI-compatible server", "http://localhost:11434/v1 (Ollama; vLLM: http://localhost:8000/v1)",
          "OLLAMA_KEY (any value)")
#: model families served elsewhere: name prefix -> (who serves it, base URL, key variable)
ELSEWHERE: dict[str, tuple[str, str, str]] = {
    "qwen": ("Alibaba Cloud's DashScope", "https://dashscope.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY"),
    "glm": ("Zhipu's BigModel", "https://open.bigmodel.cn/api/paas/v4", "ZHIPUAI_API_KEY"),
    "gemini": ("Google's Gemini API", "https://generativelanguage.googleapis.com/v1beta/openai/", "GEMINI_API_KEY"),
    **{family: _LOCAL for family in ("llava", "bakllava", "llama", "minicpm", "moondream", "ui-tars", "cogagent",
                                     "internvl", "gemma")},
}


def check_model_name(spec: str, base_url: str | None = None) -> None:
    """A :class:`ConfigError` for a bare name that would go to OpenAI's API (no ``base_url``) but is
    not one of OpenAI's models: it says which server the name would reach and, for a known family
    (Qwen-VL, GLM, Gemini, local models), the ``--base-url`` that serves it. ``openai:NAME`` sends any
    name to OpenAI as it is."""
    provider, name = split_spec(spec)
    explicit = spec.strip().lower().startswith(f"{provider}:")
    if provider != "openai" or explicit or base_url or os.environ.get("OPENAI_BASE_URL"):
        return
    if _OPENAI_NAMES.match(name):
        return
    lower = name.lower()
    for family, (who, url, key) in ELSEWHERE.items():
        if lower.startswith(family):
            raise ConfigError(
                f"{name} is not an OpenAI model, and without --base-url the request would go to OpenAI "
                f"({OPENAI_URL}). {who} serves it: add --base-url {url} --api-key-env {key}")
    raise ConfigError(
        f"unknown model {name!r}: without --base-url a name goes to OpenAI ({OPENAI_URL}), whose models are "
        f"named gpt-..., chatgpt-... or o1/o3/o4... (gpt-4o, gpt-4.1-mini), and Claude's claude-... For a model "
        f"on another server give its --base-url (a local Ollama: http://localhost:11434/v1); openai:{name} "
        f"sends the name to OpenAI as it is")


def split_spec(spec: str) -> tuple[str, str]:
    """``"anthropic:claude-x"`` -> ("anthropic", "claude-x"); a bare name -> its provider by name
    (``claude*`` is Anthropic, anything else OpenAI-compatible)."""
    spec = spec.strip()
    if not spec:
        raise ConfigError("no model name: pass --model NAME (for example gpt-4o, claude-sonnet-4-5, scripted:replies.txt)")
    head, sep, rest = spec.partition(":")
    if sep and head.lower() in PROVIDERS:
        if not rest:
            raise ConfigError(f"model spec {spec!r} names a provider but no model: use {head}:NAME")
        return head.lower(), rest
    if spec.lower().startswith("claude"):
        return "anthropic", spec
    return "openai", spec


def make_chat_model(
    spec: str,
    *,
    base_url: str | None = None,
    api_key_env: str | None = None,
    timeout_s: float = 120.0,
    retry: RetryPolicy | None = None,
    prices: PriceTable | None = None,
    max_tokens: int = 1024,
) -> ChatModel:
    """A chat client for ``spec``: ``NAME``, ``openai:NAME``, ``anthropic:NAME`` or ``scripted:PATH``.

    The key is read from ``api_key_env`` (default ``OPENAI_API_KEY`` or ``ANTHROPIC_API_KEY``). A bare
    name that only another server knows needs its ``base_url`` (:func:`check_model_name`).
    """
    provider, name = split_spec(spec)
    check_model_name(spec, base_url)
    if provider == "scripted":
        from mobile_agent.model.scripted import ScriptedChatModel

        return ScriptedChatModel.from_file(name)
    if provider == "anthropic":
        from mobile_agent.model.anthropic_client import DEFAULT_KEY_ENV, AnthropicChatModel

        return AnthropicChatModel(name, base_url=base_url, api_key_env=api_key_env or DEFAULT_KEY_ENV,
                                  timeout_s=timeout_s, retry=retry, prices=prices, max_tokens=max_tokens)
    from mobile_agent.model.openai_client import DEFAULT_KEY_ENV, OpenAIChatModel

    return OpenAIChatModel(name, base_url=base_url, api_key_env=api_key_env or DEFAULT_KEY_ENV,
                           timeout_s=timeout_s, retry=retry, prices=prices, max_tokens=max_tokens)
