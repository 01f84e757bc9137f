"""Qwen3-VL (``Qwen/Qwen3-VL-8B-Instruct``, ``-30B-A3B-``, ``-235B-A22B-``...), after QwenLM/Qwen3-VL
``cookbooks/mobile_agent.ipynb``: the same ``mobile_use`` tool, with coordinates relative to the screen
on a 0-999 grid (the tool is told a 999x999 screen; ``x / 999 * width``, rounded). It adds ``answer``. The
reply begins with an ``Action:`` sentence (what the step does, in words), then the tool call; the history
is those sentences (``Step i: <Action sentence>``). The image goes at Qwen3-VL's own ``smart_resize``: factor 32 (its vision encoder's patch 16
times the merge 2; Qwen2.5-VL's is 14 x 2 = 28), so the server's processor keeps the size the request
carries (1088x2400 for a 1080x2400 phone) instead of resizing it a second time.
"""

from __future__ import annotations

from mobile_agent.agent.families.base import Frame
from mobile_agent.agent.families.mobile_use import (
    QWEN_FORMAT, RESPONSE_FORMAT, MobileUseFamily, action_line, tool_schema, tools_system_prompt,
)


class Qwen3VL(MobileUseFamily):
    name = "qwen3-vl"
    title = "Qwen3-VL"
    served = (r"qwen3-vl",)
    source = "QwenLM/Qwen3-VL: cookbooks/mobile_agent.ipynb (mobile_use, relative 0-999)"
    coordinates = "relative"
    scale = 999
    factor = 32
    actions = MobileUseFamily.actions[:-1] + ("answer", "terminate")
    conversation_source = "QwenLM/Qwen3-VL: cookbooks/mobile_agent.ipynb (one user turn; history: the Action sentences)"

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        return tools_system_prompt(tool_schema(self.resolution(frame), self.actions), QWEN_FORMAT + "\n\n" +
                                   RESPONSE_FORMAT)

    def history_item(self, reply, thought, operation) -> str:
        return action_line(reply) or super().history_item(reply, thought, operation)

    def wrap(self, thought, arguments) -> str:
        return f"Action: {thought}\n" + super().wrap("", arguments).lstrip()
