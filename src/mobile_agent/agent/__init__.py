"""The agent: operations and their parser, prompts, planners, the step loop, reflection, trajectories."""

from mobile_agent.agent.loop import Agent, AgentSettings, RunResult, is_risky
from mobile_agent.agent.planner import (
    BasePlanner, Calls, Choice, Completion, HistoryEntry, LLMPlanner, Plan, PlanContext, Planner, PlanningError,
    Reflection,
)
from mobile_agent.agent.user import UserRequest

__all__ = [
    "Agent", "AgentSettings", "RunResult", "is_risky", "BasePlanner", "Calls", "Choice", "Completion",
    "HistoryEntry", "LLMPlanner", "Plan", "PlanContext", "Planner", "PlanningError", "Reflection",
    "UserRequest",
]
