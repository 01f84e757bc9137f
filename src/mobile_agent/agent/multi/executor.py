"""The executor: one operation per call for the manager's current subgoal, read by the single agent's
parser, grounded and carried out by the same code as in single mode. It may run on a cheaper model
(``--executor-model``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from mobile_agent.agent import parser, prompts
from mobile_agent.agent.multi.manager import Subgoal, plan_lines
from mobile_agent.agent.multi.notes import Notes
from mobile_agent.agent.multi.prompts import system_prompt
from mobile_agent.agent.planner import Calls, HistoryEntry, LLMPlanner, Plan, PlanContext, ask, request_summary
from mobile_agent.model.base import ChatModel, Message, TextPart


@dataclass(frozen=True)
class Assignment:
    """What the executor is told besides the screen: the subgoal, the plan, the notes, its recent
    operations and the feedback on the last one."""

    subgoal: str
    plan: Sequence[Subgoal] = ()
    notes: Notes | None = None
    recent: Sequence[HistoryEntry] = ()
    feedback: Sequence[str] = ()


def executor_prompt(instruction: str, a: Assignment, step: int, earlier_screens: int = 0) -> str:
    parts = [f"User's instruction: {instruction}", "", f"Plan (from the manager):\n{plan_lines(a.plan)}", "",
             f"Current subgoal: {a.subgoal}", "",
             f"Notes (type a value with {{name}}):\n{(a.notes or Notes()).prompt_lines()}", ""]
    if a.recent:
        parts.append("Your recent operations (oldest first):")
        parts += [f"{r.step}. {r.operation} -> {r.outcome}" for r in a.recent]
    else:
        parts.append("Your recent operations: (none yet)")
    if a.feedback:
        parts += ["", "Feedback on your last operation:"] + [f"- {f}" for f in a.feedback]
    parts += ["", prompts.screens_line(step, earlier_screens),
              "Answer with Observation, Thought and Action for the current subgoal."]
    return "\n".join(parts)


class Executor(LLMPlanner):
    """The executor role: the single agent's planner with the executor's prompt. ``plan`` needs
    :attr:`assignment` set for the step; ``choose`` answers the grounding's question among numbered
    marks (the same prompt as single mode). Its calls are recorded with the role ``executor``."""

    role = "executor"

    def __init__(self, model: ChatModel, *, parse_retries: int = 2, mark_base: int = 0,
                 max_tokens: int | None = None) -> None:
        super().__init__(model, parse_retries=parse_retries, mark_base=mark_base, max_tokens=max_tokens)
        self.assignment = Assignment("(no subgoal yet)")

    def plan(self, ctx: PlanContext) -> Plan:
        text = executor_prompt(ctx.instruction, self.assignment, ctx.step, len(ctx.earlier_screens))
        parts: list = [TextPart(text)]
        parts += [self._image(ctx, im) for im in ctx.earlier_screens]
        parts.append(self._image(ctx, ctx.screenshot))
        messages = [Message.text("system", system_prompt("executor")), Message("user", tuple(parts))]
        calls = Calls()
        parsed, raw, errors = ask(self.model, messages, lambda r: parser.parse_reply(r, ctx.operations), calls,
                                  kind="plan", what="the executor's operation", retry_text=lambda e: prompts.parse_error_feedback(e, ctx.operations),
                                  retries=self.parse_retries, max_tokens=self.max_tokens, role=self.role)
        return Plan(parsed.observation, parsed.thought, parsed.operation, raw, calls, request_summary(messages), errors)
