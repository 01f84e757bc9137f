"""GUI-Owl 1.5 of Mobile-Agent-v3.5 (``mPLUG/GUI-Owl-1.5-*``), after X-PLUG/MobileAgent ``Mobile-Agent-v3.5/``:
the v3 reply (``<thinking>``, the ``mobile_use`` tool call, ``<conclusion>``) with coordinates relative on
a 0-1000 grid (``x / 1000 * width``, rounded), and the actions key, open and interact (a question to the
user: our Ask User).
"""

from __future__ import annotations

from mobile_agent.agent.families.base import Frame
from mobile_agent.agent.families.gui_owl_v3 import OWL_FORMAT, GUIOwlV3
from mobile_agent.agent.families.mobile_use import tool_schema, tools_system_prompt

INTERACT = {"interact": "Ask the user a question when the task leaves out something only they know; `text` is the "
                        "question."}


class GUIOwl15(GUIOwlV3):
    name = "gui-owl-1.5"
    title = "GUI-Owl 1.5 (Mobile-Agent-v3.5)"
    served = (r"gui-?owl-?1\.5", r"mobile-?agent-?v3\.5")
    source = "X-PLUG/MobileAgent: Mobile-Agent-v3.5/ (GUI-Owl-1.5: relative 0-1000; key, open, interact)"
    coordinates = "relative"
    scale = 1000
    min_pixels = 3136
    max_pixels = 16384 * 28 * 28

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        return tools_system_prompt(tool_schema(self.resolution(frame), self.actions, INTERACT if ask_user else None),
                                   OWL_FORMAT)
