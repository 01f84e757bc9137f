"""The agent: operations and their parser, prompts, planners, the step loop, reflection, trajectories."""

from typing import Any

from mobile_agent.agent.loop import AgentSettings, RunResult, StepLoop, deprecated_agent, is_risky
from mobile_agent.agent.planner import (
    BasePlanner, Calls, Choice, Completion, HistoryEntry, LLMPlanner, Plan, PlanContext, Planner, PlanningError,
    Reflection,
)
from mobile_agent.agent.user import UserRequest

__all__ = [
    "StepLoop", "AgentSettings", "RunResult", "is_risky", "BasePlanner", "Calls", "Choice", "Completion",
    "HistoryEntry", "LLMPlanner", "Plan", "PlanContext", "Planner", "PlanningError", "Reflection",
    "UserRequest",
]


def __getattr__(name: str) -> Any:
    """``mobile_agent.agent.Agent``, the step loop's name before, gives :class:`StepLoop` with a warning."""
    if name == "Agent":
        return deprecated_agent()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
