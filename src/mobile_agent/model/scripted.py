"""A chat model that replays replies from a list or a file, for tests and demonstrations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from mobile_agent.errors import ConfigError, ModelError
from mobile_agent.model.base import ChatResponse, Message, Usage

SEPARATOR = "---"


class ScriptedChatModel:
    """Answers call *n* with reply *n*; records every request in :attr:`requests`.

    Token usage is estimated (4 characters a token; an image counts as 85 tokens) so that
    accounting can be exercised. When the replies run out it raises :class:`ModelError`, or starts
    again from the first when ``cycle`` is true.
    """

    provider = "scripted"

    def __init__(self, replies: Sequence[str], *, name: str = "scripted", cycle: bool = False) -> None:
        if not replies:
            raise ConfigError("a scripted model needs at least one reply")
        self._replies = list(replies)
        self._name = name
        self.cycle = cycle
        self.calls = 0
        self.requests: list[list[Message]] = []

    @property
    def name(self) -> str:
        return self._name

    @classmethod
    def from_file(cls, path: str | Path, *, cycle: bool = False) -> ScriptedChatModel:
        """Replies from a JSON file (a list of strings, or ``{"replies": [...]}``) or a text file
        whose replies are separated by lines holding only ``---``."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read the scripted replies file {p}: {exc}") from exc
        if p.suffix.lower() == ".json":
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{p} is not valid JSON: {exc}") from exc
            replies = data.get("replies") if isinstance(data, dict) else data
            if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
                raise ConfigError(f'{p}: expected a JSON list of reply strings, or {{"replies": [...]}}')
        else:
            replies, cur = [], []
            for line in text.splitlines():
                if line.strip() == SEPARATOR:
                    replies.append("\n".join(cur).strip())
                    cur = []
                else:
                    cur.append(line)
            replies.append("\n".join(cur).strip())
            replies = [r for r in replies if r]
        return cls(replies, name=f"scripted:{p.name}", cycle=cycle)

    def complete(self, messages: Sequence[Message], *, max_tokens: int | None = None) -> ChatResponse:
        self.requests.append(list(messages))
        i = self.calls
        self.calls += 1
        if i >= len(self._replies):
            if not self.cycle:
                raise ModelError(f"the scripted model has no reply left (it holds {len(self._replies)}, call {i + 1})")
            i %= len(self._replies)
        text = self._replies[i]
        chars = sum(len(m.plain_text) for m in messages)
        images = sum(len(m.images) for m in messages)
        usage = Usage(chars // 4 + 85 * images, max(1, len(text) // 4))
        return ChatResponse(text=text, usage=usage, model=self._name, cost_usd=None)
