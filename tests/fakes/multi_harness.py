"""Helpers for the multi-agent tests: a role-aware responder for the localhost chat server (it answers
by the role named in the system prompt), manager replies, and a multi agent wired to the server through
the real openai SDK."""

from __future__ import annotations

from collections import deque
from typing import Iterable, Sequence

from mobile_agent.agent import AgentSettings
from mobile_agent.agent.multi import MultiAgent, MultiSettings
from mobile_agent.model.openai_client import OpenAIChatModel
from mobile_agent.model.retry import RetryPolicy

from .agent_harness import API_KEY, is_choice, perception, react
from .chatserver import Reply, Request

MANAGER_MODEL = "gpt-4o-test"
EXECUTOR_MODEL = "gpt-4o-mini-test"


def role_of(req: Request) -> str:
    """manager, executor, verifier (by the system prompt), or choice (numbered marks)."""
    system = "\n".join(m["content"] if isinstance(m.get("content"), str) else
                       "".join(p.get("text", "") for p in m.get("content") or [])
                       for m in req.body.get("messages", []) if m.get("role") == "system")
    for role in ("manager", "executor", "verifier"):
        if f"You are the {role}" in system:
            return role
    if is_choice(req):
        return "choice"
    return "unknown"


def mgr(plan: Sequence[tuple[str, str]], notes: dict[str, str] | None = None, status: str = "continue",
        route: str = "same", observation: str = "The screen is shown.") -> str:
    """A manager reply: ``plan`` as (mark, subgoal) pairs."""
    lines = [f"Observation: {observation}", "Plan:"]
    lines += [f"{i}. [{mark}] {text}" for i, (mark, text) in enumerate(plan, 1)]
    lines.append("Notes:")
    lines += [f"- {k}: {v}" for k, v in (notes or {}).items()] or ["- none"]
    lines += [f"Route: {route}", f"Status: {status}"]
    return "\n".join(lines)


def staged(goals: Sequence[str], now: int) -> list[tuple[str, str]]:
    """The plan ``goals`` with the first ``now`` done and goal ``now`` current."""
    return [("done" if i < now else "now" if i == now else "todo", g) for i, g in enumerate(goals)]


class RoleScript:
    """Replies per role, in order. Choices answer 0 and verifier reflections A unless given; a role
    whose replies run out answers 400 (or starts again with ``cycle``)."""

    def __init__(self, manager: Iterable[str], executor: Iterable[str], verifier: Iterable[str] = (),
                 choices: Iterable[str] = (), cycle: Sequence[str] = ()) -> None:
        self.queues = {"manager": deque(manager), "executor": deque(executor), "verifier": deque(verifier),
                       "choice": deque(choices)}
        self.cycle = set(cycle)
        self.originals = {k: list(v) for k, v in self.queues.items()}
        self.seen: list[str] = []

    def __call__(self, req: Request) -> Reply | str:
        role = role_of(req)
        self.seen.append(role)
        q = self.queues.get(role)
        if q is None:
            return Reply(status=400, error=f"no script for a request of role {role}")
        if not q:
            if role == "choice":
                return "Answer: 0"
            if role == "verifier":
                return "Verdict: A\nReason: as expected"
            if role not in self.cycle:
                return Reply(status=400, error=f"the {role} script is exhausted")
            q.extend(self.originals[role])
        return q.popleft()


def chat(server, name: str) -> OpenAIChatModel:
    return OpenAIChatModel(name, base_url=server.openai_base_url, api_key=API_KEY,
                           retry=RetryPolicy(max_attempts=2, base_delay_s=0.01, max_delay_s=0.05), timeout_s=10)


def make_multi(server, phone, *, cheap_executor: bool = True, multi: MultiSettings | None = None,
               **settings) -> MultiAgent:
    settings.setdefault("settle_interval_s", 0.0)
    return MultiAgent(phone, chat(server, MANAGER_MODEL), perception(), AgentSettings(**settings),
                      executor_model=chat(server, EXECUTOR_MODEL) if cheap_executor else None, multi=multi)


def requests_of(server, role: str) -> list[Request]:
    return [r for r in server.requests if role_of(r) == role]


__all__ = ["RoleScript", "mgr", "staged", "react", "make_multi", "requests_of", "role_of", "chat",
           "MANAGER_MODEL", "EXECUTOR_MODEL"]
