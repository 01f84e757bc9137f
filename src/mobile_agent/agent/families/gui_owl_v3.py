"""GUI-Owl of Mobile-Agent-v3 (``mPLUG/GUI-Owl-7B``, ``-32B``), after X-PLUG/MobileAgent
``Mobile-Agent-v3/android_world_v3/android_world/agents/gui_owl.py`` and ``mobile_agent_utils_new.py``:
``<thinking>`` then the ``mobile_use`` tool call then ``<conclusion>``; coordinates absolute in the
image resized by ``smart_resize`` with factor 28 and at most 12,800 tokens of 28x28
(``MAX_PIXELS = 10035200``, ``MIN_PIXELS = 3136`` there), mapped back in proportion (rounded).
"""

from __future__ import annotations

from mobile_agent.agent.families.base import Frame
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
    min_pixels = 3136
    max_pixels = 12800 * 28 * 28
    actions = ("key", "click", "long_press", "swipe", "type", "answer", "system_button", "open", "wait", "terminate")

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        return tools_system_prompt(tool_schema(self.resolution(frame), self.actions), OWL_FORMAT)

    def wrap(self, thought, arguments) -> str:
        return f"<thinking>\n{thought}\n</thinking>\n" + super().wrap("", arguments).lstrip() + \
            "\n<conclusion>\n" + thought + "\n</conclusion>"
