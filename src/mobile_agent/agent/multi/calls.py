"""Asking a role's model: one request, the reply parsed, an unreadable reply sent back with what was
wrong (bounded), and every call recorded for the step record (role, raw reply, tokens, cost, error)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from mobile_agent.agent.planner import Calls, PlanningError
from mobile_agent.errors import ParseError
from mobile_agent.model.base import ChatModel, Message


@dataclass
class RoleCall:
    """One model call of a role, as the step record keeps it."""

    role: str
    kind: str
    raw: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None = None
    latency_s: float = 0.0
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "kind": self.kind, "raw": self.raw, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "cost_usd": self.cost_usd,
                "latency_s": round(self.latency_s, 3), "error": self.error}


@dataclass
class RoleLedger:
    """The calls of every role in one step, with their totals per role."""

    calls: list[RoleCall] = field(default_factory=list)

    def per_role(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for c in self.calls:
            r = out.setdefault(c.role, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": None})
            r["calls"] += 1
            r["prompt_tokens"] += c.prompt_tokens
            r["completion_tokens"] += c.completion_tokens
            if c.cost_usd is not None:
                r["cost_usd"] = round((r["cost_usd"] or 0.0) + c.cost_usd, 6)
        return out


def ask(model: ChatModel, messages: list[Message], parse: Callable[[str], Any], *, role: str, kind: str,
        calls: Calls, ledger: RoleLedger | None, retry_text: Callable[[str], str], retries: int = 2,
        max_tokens: int | None = None) -> tuple[Any, str, list[str]]:
    """Call ``model``; parse the reply; on a :class:`ParseError` send the reply back with
    ``retry_text(error)``, at most ``retries`` times. Returns (parsed, raw reply, parse errors)."""
    errors: list[str] = []
    raw = ""
    for _ in range(retries + 1):
        resp = model.complete(messages, max_tokens=max_tokens)
        calls.add(resp)
        raw = resp.text
        err = None
        try:
            parsed = parse(raw)
        except ParseError as exc:
            err = str(exc)
        if ledger is not None:
            ledger.calls.append(RoleCall(role, kind, raw, resp.usage.prompt_tokens, resp.usage.completion_tokens,
                                         resp.cost_usd, resp.latency_s, err))
        if err is None:
            return parsed, raw, errors
        errors.append(err)
        messages = messages + [Message.text("assistant", raw), Message.text("user", retry_text(err))]
    raise PlanningError(f"the {role}'s {kind} could not be read after {retries + 1} replies; last problem: "
                        f"{errors[-1]}", raw, calls, errors)


def summary(messages: Sequence[Message]) -> str:
    """A short description of a request: roles, text lengths, images (for the step record)."""
    from mobile_agent.agent.planner import _summary

    return _summary(messages)
