"""Token prices per model, from a user-editable JSON table, and the cost of a call."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Mapping

from mobile_agent.errors import ConfigError
from mobile_agent.model.base import Usage

PRICES_ENV = "MOBILE_AGENT_PRICES"


@dataclass(frozen=True)
class Price:
    """USD per million input (prompt) and output (completion) tokens."""

    input: float
    output: float


class PriceTable:
    """Model name -> :class:`Price`. A key matches a model name equal to it or starting with it;
    the longest key wins, so ``gpt-4o-mini`` beats ``gpt-4o`` for ``gpt-4o-mini-2024-07-18``."""

    def __init__(self, prices: Mapping[str, Price]) -> None:
        self._prices = dict(prices)

    @classmethod
    def load(cls, path: str | Path | None = None, *, use_env: bool = True) -> PriceTable:
        """The built-in table, overridden by the file at ``path`` (or at ``$MOBILE_AGENT_PRICES``)."""
        text = resources.files("mobile_agent.model").joinpath("prices.json").read_text(encoding="utf-8")
        prices = _parse(json.loads(text), "the built-in price table")
        if path is None and use_env:
            path = os.environ.get(PRICES_ENV) or None
        if path is not None:
            p = Path(path)
            try:
                data = json.loads(p.read_text(encoding="utf-8"))
            except FileNotFoundError as exc:
                raise ConfigError(f"price table not found: {p} (fix the path, or unset {PRICES_ENV})") from exc
            except json.JSONDecodeError as exc:
                raise ConfigError(f"price table {p} is not valid JSON: {exc}") from exc
            prices.update(_parse(data, str(p)))
        return cls(prices)

    def price(self, model: str) -> Price | None:
        name = model.lower()
        best: str | None = None
        for key in self._prices:
            k = key.lower()
            if (name == k or name.startswith(k)) and (best is None or len(k) > len(best)):
                best = key
        return self._prices[best] if best is not None else None

    def cost(self, model: str, usage: Usage) -> float | None:
        """USD for ``usage`` on ``model``, or None when the table does not know the model."""
        p = self.price(model)
        if p is None:
            return None
        return (usage.prompt_tokens * p.input + usage.completion_tokens * p.output) / 1_000_000.0


def _parse(data: object, where: str) -> dict[str, Price]:
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, dict):
        raise ConfigError(f'{where}: expected {{"models": {{"NAME": {{"input": USD, "output": USD}}}}}} (USD per million tokens)')
    out: dict[str, Price] = {}
    for name, v in models.items():
        try:
            out[str(name)] = Price(float(v["input"]), float(v["output"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"{where}: model {name!r} needs numeric 'input' and 'output' prices") from exc
    return out
