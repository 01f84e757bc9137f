"""The executor: one operation per call for the manager's current subgoal, read by the single agent's
parser, grounded and carried out by the same code as in single mode. It may run on a cheaper model
(``--executor-model``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from PIL import Image

from mobile_agent.agent import parser, prompts
from mobile_agent.agent.multi.calls import RoleLedger, ask, summary
from mobile_agent.agent.multi.manager import StepReport, Subgoal, plan_lines
from mobile_agent.agent.multi.notes import Notes
from mobile_agent.agent.multi.prompts import system_prompt
from mobile_agent.agent.planner import BasePlanner, Calls, Choice, Plan, PlanContext
from mobile_agent.model.base import ChatModel, Message, TextPart, encode_image


@dataclass(frozen=True)
class Assignment:
    """What the executor is told besides the screen: the subgoal, the plan, the notes, its recent
    operations and the feedback on the last one."""

    subgoal: str
    plan: Sequence[Subgoal] = ()
    notes: Notes | None = None
    recent: Sequence[StepReport] = ()
    feedback: Sequence[str] = ()


def executor_prompt(instruction: str, a: Assignment, step: int, earlier_screens: int = 0) -> str:
    parts = [f"User's instruction: {instruction}", "", f"Plan (from the manager):\n{plan_lines(a.plan)}", "",
             f"Current subgoal: {a.subgoal}", "",
             f"Notes (type a value with {{name}}):\n{(a.notes or Notes()).prompt_lines()}", ""]
    if a.recent:
        parts.append("Your recent operations (oldest first):")
        parts += [f"{r.step}. {r.action} -> {r.outcome}" for r in a.recent]
    else:
        parts.append("Your recent operations: (none yet)")
    if a.feedback:
        parts += ["", "Feedback on your last operation:"] + [f"- {f}" for f in a.feedback]
    parts.append("")
    if earlier_screens:
        parts.append(f"The first {earlier_screens} image(s) are earlier screenshots, oldest first; the last image "
                     f"is the current screen (step {step}).")
    else:
        parts.append(f"The image is the current screen (step {step}).")
    parts.append("Answer with Observation, Thought and Action for the current subgoal.")
    return "\n".join(parts)


class Executor(BasePlanner):
    """The executor role. ``plan`` needs :attr:`assignment` set for the step; ``choose`` answers the
    grounding's question among numbered marks (the same prompt as single mode)."""

    role = "executor"

    def __init__(self, model: ChatModel, *, parse_retries: int = 2, mark_base: int = 0,
                 max_tokens: int | None = None) -> None:
        self.model = model
        self.name = model.name
        self.parse_retries = parse_retries
        self.mark_base = mark_base
        self.max_tokens = max_tokens
        self.assignment = Assignment("(no subgoal yet)")
        self.ledger: RoleLedger | None = None

    def _image(self, ctx: PlanContext, image: Image.Image):
        return encode_image(image, ctx.image_max_side, ctx.jpeg_quality)

    def plan(self, ctx: PlanContext) -> Plan:
        text = executor_prompt(ctx.instruction, self.assignment, ctx.step, len(ctx.earlier_screens))
        parts: list = [TextPart(text)]
        parts += [self._image(ctx, im) for im in ctx.earlier_screens]
        parts.append(self._image(ctx, ctx.screenshot))
        messages = [Message.text("system", system_prompt("executor")), Message("user", tuple(parts))]
        calls = Calls()
        parsed, raw, errors = ask(self.model, messages, parser.parse_reply, role="executor", kind="operation",
                                  calls=calls, ledger=self.ledger, retry_text=prompts.parse_error_feedback,
                                  retries=self.parse_retries, max_tokens=self.max_tokens)
        return Plan(parsed.observation, parsed.thought, parsed.operation, raw, calls, summary(messages), errors)

    def choose(self, ctx: PlanContext, marked: Image.Image, candidates: Sequence[Any], question: str) -> Choice:
        n = len(candidates)
        text = prompts.choose_prompt(ctx.instruction, question, n, self.mark_base)
        messages = [Message.text("system", prompts.JUDGE_SYSTEM_PROMPT),
                    Message("user", (TextPart(text), self._image(ctx, marked)))]
        calls = Calls()
        index, raw, _ = ask(self.model, messages, lambda r: parser.parse_choice(r, n, self.mark_base),
                            role="executor", kind="choice", calls=calls, ledger=self.ledger,
                            retry_text=lambda e: f"Your reply could not be read: {e}\nAnswer with one line "
                                                 "'Answer: <number>' or 'Answer: none'.",
                            retries=self.parse_retries, max_tokens=self.max_tokens)
        return Choice(index, raw, calls)
