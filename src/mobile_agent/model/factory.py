"""Pick a chat client from a model spec as the CLI takes it."""

from __future__ import annotations

from mobile_agent.errors import ConfigError
from mobile_agent.model.base import ChatModel
from mobile_agent.model.pricing import PriceTable
from mobile_agent.model.retry import RetryPolicy

PROVIDERS = ("openai", "anthropic", "scripted")


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

    The key is read from ``api_key_env`` (default ``OPENAI_API_KEY`` or ``ANTHROPIC_API_KEY``).
    """
    provider, name = split_spec(spec)
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
