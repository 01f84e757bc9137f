"""UI-TARS (v1, ``bytedance-research/UI-TARS-7B-SFT`` / ``-DPO``), after bytedance/UI-TARS
``codes/ui_tars/action_parser.py``: the same calls as UI-TARS-1.5, points written
``start_box='<|box_start|>(x1,y1)<|box_end|>'`` on a relative 0-1000 grid (the parser's ``factor=1000``:
``num / 1000``, then times the screen's side, rounded).
"""

from __future__ import annotations

from mobile_agent.agent.families.base import Frame
from mobile_agent.agent.families.ui_tars_15 import UITars15

PROMPT = """You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task.

## Output Format
Thought: ...
Action: ...

## Action Space
click(start_box='<|box_start|>(x1,y1)<|box_end|>')
long_press(start_box='<|box_start|>(x1,y1)<|box_end|>', time='')
type(content='')
scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left')
drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')
open_app(app_name='')
press_home()
press_back()
finished(content='') # Submit the task regardless of whether it succeeds or fails.
{extra}
## Note
- Use English in Thought part.
- Write a small plan and finally summarize your next action (with its target element) in one sentence in Thought part.
"""


class UITarsV1(UITars15):
    name = "ui-tars-v1"
    title = "UI-TARS (v1)"
    served = (r"ui-?tars-(?:2b|7b|72b)-(?:sft|dpo)", r"ui-?tars-v1")
    source = "bytedance/UI-TARS: codes/ui_tars/action_parser.py (model_type other than qwen25vl: factor 1000)"
    coordinates = "relative"
    scale = 1000
    max_pixels = 2700 * 28 * 28  # UI-TARS-desktop packages/ui-tars/shared/src/constants/vlm.ts MAX_PIXELS_V1_0
    example = "Thought: ...\nAction: click(start_box='<|box_start|>(x1,y1)<|box_end|>')"

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        from mobile_agent.agent.families.ui_tars_15 import CALL_USER

        return PROMPT.replace("{extra}", CALL_USER if ask_user else "")

    _point_key = "start_box"

    def _pt(self, xy: tuple[int, int]) -> str:
        return "<|box_start|>({},{})<|box_end|>".format(*xy)
