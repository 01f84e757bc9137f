"""MAI-UI (``Tongyi-MAI/MAI-UI-8B``, ``-2B``), after Tongyi-MAI/MAI-UI ``src/mai_naivigation_agent.py``
(``SCALE_FACTOR = 999``, ``parse_tagged_text``, ``parse_action_to_structure_output``) and ``src/prompt.py``:
``<thinking>...</thinking>`` then the ``mobile_use`` tool call; coordinates relative on a 0-999 grid
(``x / 999``, then times the screen's side; a four-number coordinate is a box, its centre). Actions beside
Qwen's: double_click, drag (start_coordinate, end_coordinate), swipe by ``direction`` (the finger's),
ask_user, answer.
"""

from __future__ import annotations

from mobile_agent.agent.families.base import Frame
from mobile_agent.agent.families.mobile_use import MobileUseFamily

PROMPT = """You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task.

## Output Format
For each function call, return the thinking process in <thinking> </thinking> tags, and a json object with function name and arguments within <tool_call></tool_call> XML tags:
```
<thinking>
...
</thinking>
<tool_call>
{"name": "mobile_use", "arguments": <args-json-object>}
</tool_call>
```

## Action Space

{"action": "click", "coordinate": [x, y]}
{"action": "long_press", "coordinate": [x, y]}
{"action": "double_click", "coordinate": [x, y]}
{"action": "type", "text": ""}
{"action": "swipe", "direction": "up or down or left or right", "coordinate": [x, y]} # "coordinate" is optional. Use the "coordinate" if you want to swipe a specific UI element.
{"action": "open", "text": "app_name"}
{"action": "drag", "start_coordinate": [x1, y1], "end_coordinate": [x2, y2]}
{"action": "system_button", "button": "button_name"} # Options: back, home, menu, enter
{"action": "wait"}
{"action": "terminate", "status": "success or fail"}
{"action": "answer", "text": "xxx"} # Use escape characters \\', \\", and \\n in text part to ensure we can parse the text in normal python string format.
{extra}
## Note
- Coordinates are on a 0-999 grid: (0, 0) is the top left of the screen, (999, 999) the bottom right.
- Write a small plan and finally summarize your next action (with its target element) in one sentence in <thinking> part.
"""

ASK = '{"action": "ask_user", "text": "xxx"} # you can ask user for more information to complete the task.\n'


class MAIUI(MobileUseFamily):
    name = "mai-ui"
    title = "MAI-UI"
    served = (r"mai-?ui",)
    source = "Tongyi-MAI/MAI-UI: src/mai_naivigation_agent.py (SCALE_FACTOR 999), src/prompt.py"
    coordinates = "relative"
    scale = 999
    rounding = "floor"
    example = ('<thinking>\n...\n</thinking>\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
               '"coordinate": [x, y]}}\n</tool_call>')
    # mai_naivigation_agent.py _build_messages: the system prompt, the instruction alone, every earlier step as
    # the model's own reply (<thinking> + tool call, on its 0-999 scale), the last history_n = 3 screenshots (each
    # before its reply; the older replies follow one another)
    turns = True
    images_kept = 3
    instruction_apart = True
    dropped_image = ""
    history_kept = 20
    conversation_source = "Tongyi-MAI/MAI-UI: src/mai_naivigation_agent.py (_build_messages, history_n 3)"
    actions = ("click", "long_press", "double_click", "type", "swipe", "open", "drag", "system_button", "wait",
               "terminate", "answer", "ask_user")

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        return PROMPT.replace("{extra}", ASK if ask_user else "")

    def user_text(self, instruction, history, feedback) -> str:
        text = instruction
        if history:
            text += "\n\nPrevious actions:\n" + "\n".join(f"Step {i}: {h}" for i, h in enumerate(history, 1))
        if feedback:
            text += "\n\nFeedback on your last action: " + " ".join(feedback)
        return text

    def wrap(self, thought, arguments) -> str:
        return f"<thinking>\n{thought}\n</thinking>\n" + super().wrap("", arguments).lstrip()
