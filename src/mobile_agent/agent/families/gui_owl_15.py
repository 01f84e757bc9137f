"""GUI-Owl 1.5 of Mobile-Agent-v3.5 (``mPLUG/GUI-Owl-1.5-*``), after X-PLUG/MobileAgent
``Mobile-Agent-v3.5/mobile_use/utils.py`` (``SYSTEM_PROMPT``, ``build_messages``, ``image_to_base64``) and
``run_gui_owl_1_5_for_mobile.py`` (``parse_action``, ``rescale_coordinates``).

Its own format, not v3's: the system prompt is the ``mobile_use`` tool told a 1000x1000 screen, then a response
format of two parts, an ``Action:`` sentence (what to do, in words) and one ``<tool_call>``; the actions are
key, click, long_press, swipe, type, system_button, open, wait, answer, interact (a question to the user:
our Ask User) and terminate. The user's first message asks for the next move from the screenshot, the
instruction (after today's date) and the previous actions.

Coordinates: relative on a 0-1000 grid, truncated (``int(x / 1000 * width)``). The authors' runtime multiplies
by the width of the screenshot resized at factor 16 (1088 for a 1080-pixel-wide phone), which puts a tap up
to 0.7% right of the point the model meant; this adapter maps to the phone's own width (the point meant).

The conversation (``build_messages``, ``history_n=4``): the last 4 steps as turns, each its screenshot and the
model's whole reply; the steps before them as their ``Action:`` sentences under "Previous actions"; the
screenshots at ``smart_resize`` factor 28, 3,136 to 10,035,200 pixels, PNG.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from mobile_agent.agent.families.base import Frame
from mobile_agent.agent.families.gui_owl_v3 import GUIOwlV3
from mobile_agent.agent.families.mobile_use import (
    QWEN_FORMAT, RESPONSE_FORMAT, MobileUseFamily, action_line, tool_schema, tools_system_prompt,
)

#: The two actions its tool has beyond Qwen's (the descriptions ours, in the authors' sense).
EXTRA = {"answer": "Terminate the current task and output the answer.",
         "interact": "Resolve what blocks the task by asking the user; `text` is the question."}

class GUIOwl15(GUIOwlV3):
    name = "gui-owl-1.5"
    title = "GUI-Owl 1.5 (Mobile-Agent-v3.5)"
    served = (r"gui-?owl-?1\.5", r"mobile-?agent-?v3\.5")
    source = ("X-PLUG/MobileAgent: Mobile-Agent-v3.5/mobile_use/utils.py (SYSTEM_PROMPT, build_messages), "
              "run_gui_owl_1_5_for_mobile.py (rescale_coordinates: int(x / 1000 * w))")
    coordinates = "relative"
    scale = 1000
    rounding = "floor"
    min_pixels = 3136
    max_pixels = 10_035_200
    actions = ("key", "click", "long_press", "swipe", "type", "system_button", "open", "wait", "answer", "interact",
               "terminate")
    example = ('Action: Tap the search bar.\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
               '"coordinate": [x, y]}}\n</tool_call>')
    turns = True
    turn_window = 4
    images_kept = 5
    history_kept = 30
    conversation_source = "X-PLUG/MobileAgent: Mobile-Agent-v3.5/mobile_use/utils.py (build_messages, history_n=4)"

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        acts = tuple(a for a in self.actions if ask_user or a != "interact")
        schema = tool_schema(self.resolution(frame), acts, {k: v for k, v in EXTRA.items() if k in acts})
        return tools_system_prompt(schema, QWEN_FORMAT + "\n\n" + RESPONSE_FORMAT).removeprefix(
            "You are a helpful assistant.\n\n")

    def user_text(self, instruction, history, feedback) -> str:
        previous = "\n".join(f"Step {i}: {h}" for i, h in enumerate(history, start=1)) or "None"
        text = (f"Decide the next move from the UI screenshot, the instruction and the previous actions.\n\n"
                f"Instruction: Today is {date.today().isoformat()} {date.today().strftime('%A')}. {instruction}\n\n"
                f"Previous actions:\n{previous}")
        if feedback:
            text += "\n\nFeedback on your last action: " + " ".join(feedback)
        return text

    def history_item(self, reply: str, thought: str, operation: Any) -> str:
        return action_line(reply) or MobileUseFamily.history_item(self, reply, thought, operation)

    def wrap(self, thought, arguments) -> str:
        return f"Action: {thought}\n" + MobileUseFamily.wrap(self, "", arguments).lstrip()
