"""Helpers for the agent's tests: ReAct replies, a responder that routes the completion check, and an
agent wired to a real localhost chat server through the real openai SDK."""

from __future__ import annotations

import json
from collections import deque
from functools import lru_cache
from typing import Iterable

from mobile_agent.agent import StepLoop, AgentSettings, LLMPlanner
from mobile_agent.model.openai_client import OpenAIChatModel
from mobile_agent.model.retry import RetryPolicy

from .chatserver import Reply, Request

API_KEY = "sk-test-agent-key"
MODEL = "gpt-4o-test"


def react(action: str, thought: str = "Next step.", observation: str = "The screen is shown.") -> str:
    return f"Observation: {observation}\nThought: {thought}\nAction: {action}"


def without_timings(line: dict) -> dict:
    """A record of ``steps.jsonl`` without what differs from run to run (its timings, each model
    call's duration): two runs that did the same compare equal."""
    d = json.loads(json.dumps(line))
    d.pop("timings", None)
    for c in d.get("calls") or []:
        c.pop("duration_s", None)
    return d


def is_completion_check(req: Request) -> bool:
    return "You said Stop" in req.last_user_text and "Verdict: complete | incomplete" in req.last_user_text


def is_reflection(req: Request) -> bool:
    return "Verdict: A | B | C" in req.last_user_text


def is_choice(req: Request) -> bool:
    return "numbered boxes" in req.last_user_text and "Answer: <number>" in req.last_user_text


class Script:
    """Plan replies in order; completion checks and reflections answered from their own lists."""

    def __init__(self, plans: Iterable[Reply | str], checks: Iterable[str] = (), reflections: Iterable[str] = (),
                 cycle: bool = False, choices: Iterable[str] = ()) -> None:
        self.choices = deque(choices)
        self.plans = list(plans)
        self._plans = deque(self.plans)
        self.checks = deque(checks)
        self.reflections = deque(reflections)
        self.cycle = cycle

    def __call__(self, req: Request) -> Reply | str:
        if is_completion_check(req):
            return self.checks.popleft() if self.checks else "Verdict: complete\nReason: done"
        if is_choice(req):
            return self.choices.popleft() if self.choices else "Answer: 0"
        if is_reflection(req):
            return self.reflections.popleft() if self.reflections else "Verdict: A\nReason: fine"
        if not self._plans:
            if not self.cycle:
                return Reply(status=400, error="test script exhausted")
            self._plans.extend(self.plans)
        return self._plans.popleft()


@lru_cache(maxsize=1)
def perception():
    from mobile_agent.perception import Perception

    return Perception(ocr="rapidocr")


def make_agent(server, phone, *, parse_retries: int = 2, **settings) -> StepLoop:
    model = OpenAIChatModel(MODEL, base_url=server.openai_base_url, api_key=API_KEY,
                            retry=RetryPolicy(max_attempts=3, base_delay_s=0.01, max_delay_s=0.05), timeout_s=10)
    settings.setdefault("settle_interval_s", 0.0)
    return StepLoop(phone, LLMPlanner(model, parse_retries=parse_retries), perception(), AgentSettings(**settings))


def plan_requests(server) -> list[Request]:
    return [r for r in server.requests if not (is_completion_check(r) or is_reflection(r) or is_choice(r))]
