"""Qwen2.5-VL (``Qwen/Qwen2.5-VL-7B-Instruct``, ``-72B-``...) as a phone agent, after QwenLM's cookbook
``mobile_agent.ipynb`` and ``cookbooks/utils/agent_function_call.py`` (``MobileUse``; the notebook is
also in QwenLM/Qwen3-VL ``cookbooks/mobile_agent.ipynb``).

The request carries the screenshot resized by ``smart_resize`` (factor 28, 3136 to 12,845,056 pixels:
the processor's defaults) and the tool's description states that size ("The screen's resolution is
1092x2408." for a 1080x2400 phone); the reply's ``coordinate`` is in those pixels, mapped back by
``x / resized_width * width`` (rounded).
"""

from __future__ import annotations

import re

from mobile_agent.agent.families.mobile_use import MobileUseFamily


class Qwen25VL(MobileUseFamily):
    name = "qwen2.5-vl"
    title = "Qwen2.5-VL"
    served = (r"qwen2\.5-vl", r"qwen2_5_vl", r"qwen-?vl-(?:max|plus)")
    source = ("QwenLM/Qwen2.5-VL: cookbooks/mobile_agent.ipynb, cookbooks/utils/agent_function_call.py "
              "(the notebook also in QwenLM/Qwen3-VL cookbooks/mobile_agent.ipynb)")
    coordinates = "absolute"
    conversation_source = ("QwenLM/Qwen2.5-VL: cookbooks/mobile_agent.ipynb (one user turn; 'Task progress': Step i: "
                           "the model's own tool call)")

    def history_item(self, reply, thought, operation) -> str:
        """The model's own tool call, as the cookbook's history line holds it."""
        m = re.search(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", reply or "", re.DOTALL)
        return m.group(1).strip() if m else super().history_item(reply, thought, operation)
