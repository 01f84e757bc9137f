"""GUI-Owl of Mobile-Agent-v3 (``mPLUG/GUI-Owl-7B``, ``-32B``), after X-PLUG/MobileAgent
``Mobile-Agent-v3/android_world_v3/android_world/agents/gui_owl.py`` and ``mobile_agent_utils_new.py``:
``<thinking>`` then the ``mobile_use`` tool call then ``<conclusion>``; coordinates absolute in the
image resized by ``smart_resize`` with factor 28 and at most 12,800 tokens of 28x28
(``MAX_PIXELS = 10035200``, ``MIN_PIXELS = 3136`` there), mapped back in proportion and truncated
(``coordinate_resize.py`` ``_convert_point_format_to_abs_origin``: ``int(x / resized_width * width)``).

The request is one user turn (``gui_owl.py`` ``step``): the query, and the history as the model's own
conclusions, ``Step i: <conclusion>; `` (newlines and double quotes taken out), with the current screenshot.
"""

from __future__ import annotations

from mobile_agent.agent.families.base import Frame, tag
from mobile_agent.agent.families.mobile_use import MobileUseFamily, tool_schema, tools_system_prompt

OWL_FORMAT = ("For each function call, return the thinking process in <thinking> </thinking> tags, a json object "
              "with function name and arguments within <tool_call></tool_call> XML tags, and a summary of the "
              "action in <conclusion> </conclusion> tags:\n<thinking>\n...\n</thinking>\n<tool_call>\n"
              "{\"name\": \"mobile_use\", \"arguments\": <args-json-object>}\n</tool_call>\n<conclusion>\n...\n"
              "</conclusion>")


class GUIOwlV3(MobileUseFamily):
    name = "gui-owl-v3"
    title = "GUI-Owl (Mobile-Agent-v3)"
    served = (r"gui-?owl-(?:7b|32b)", r"gui-?owl$", r"mobile-?agent-?v3$")
    source = ("X-PLUG/MobileAgent: Mobile-Agent-v3/android_world_v3/android_world/agents/gui_owl.py, "
              "mobile_agent_utils_new.py, coordinate_resize.py")
    coordinates = "absolute"
    rounding = "floor"
    conversation_source = ("X-PLUG/MobileAgent: Mobile-Agent-v3/android_world_v3/android_world/agents/gui_owl.py "
                           "(step: stage2_history of the summaries)")
    min_pixels = 3136
    max_pixels = 12800 * 28 * 28
    actions = ("key", "click", "long_press", "swipe", "type", "answer", "system_button", "open", "wait", "terminate")

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        return tools_system_prompt(tool_schema(self.resolution(frame), self.actions), OWL_FORMAT)

    def user_text(self, instruction, history, feedback) -> str:
        """The query and the history (``generate_user_prompt_single_image``), then, in the authors' order, where
        the reasoning and the summary go (the sentences ours)."""
        return (super().user_text(instruction, history, feedback) +
                "\nBefore the <tool_call></tool_call> tags, reason step by step inside <thinking></thinking> tags."
                "\nAfter the <tool_call></tool_call> tags, sum up your action inside <conclusion></conclusion> tags.")

    def history_item(self, reply: str, thought: str, operation) -> str:
        said = tag(reply or "", "conclusion")
        if said is None:
            return super().history_item(reply, thought, operation)
        return said.replace("\n", "").replace('"', "")

    def wrap(self, thought, arguments) -> str:
        return f"<thinking>\n{thought}\n</thinking>\n" + super().wrap("", arguments).lstrip() + \
            "\n<conclusion>\n" + thought + "\n</conclusion>"
