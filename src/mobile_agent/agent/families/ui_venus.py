"""UI-Venus, by version: UI-Venus-Navi (1.0: ``inclusionAI/UI-Venus-Navi-7B``, ``-72B``) after inclusionAI/UI-Venus
``models/navigation/ui_venus_navi_agent.py`` (``_build_query``, ``_rescale_coordinate``) and ``models/navigation/utils.py``
(``parse_answer``, the mobile prompt); UI-Venus 1.5 (``inclusionAI/UI-Venus-1.5-*``) after
``Venus_framework/policy/ui_venus_policy.py`` (``_parse_response``, ``normalize_to_screen``).

Reply: ``<think>...</think><action>Click(box=(x,y))</action><conclusion>...</conclusion>``. Actions:
Click(box), LongPress(box), Drag(start, end), Scroll(start, end) or Scroll(direction=) (where the view goes),
Type(content), Launch(app), Wait(), Finished(content), CallUser(content), PressBack(), PressHome(), PressEnter(),
PressRecent(). ``CallUser(content=...)`` is how the authors' prompt has the model reply to a user's question
("use the CallUser action to reply to user explicitly before finishing"): it is our Answer.

Coordinates by version: the navigation agent of 1.0 reads absolute pixels of the image as its processor
resized it (``smart_resize``, factor 28, at the pixel budget the authors serve the 7B with), ``int(x * w /
resized_w)``; the 1.5 policy reads a 0-1000 grid, ``int(x * width / 1000)``. Both truncate. A served name
that says neither (``ui-venus``) is not guessed (registry.py).

The request is the authors' one user message: the prompt with the task and the history of the last 5 steps,
``Step i: <think>...</think><action>...</action>`` (numbered from 0, as ``_build_query`` numbers them), and
the screenshot.
"""

from __future__ import annotations

import re
from typing import Any

from mobile_agent.agent.families.actions import Act, StrictArgs, to_operation, written
from mobile_agent.agent.families.base import Family, Frame, Parsed, PointWriter, any_call, single_call, tag
from mobile_agent.errors import ParseError

PROMPT = """**You are a GUI agent on a phone.**
Read the user's task, the current screenshot and your previous actions, and decide the one next action.

### User Task
{task}

### Previous Actions
{previous}

### Available Actions
Choose one of these functions:
Click(box=(x1, y1))
Drag(start=(x1, y1), end=(x2, y2))
Scroll(start=(x1, y1), end=(x2, y2), direction='down/up/right/left')
Type(content='')
Launch(app='')
Wait()
Finished(content='')
CallUser(content='')
LongPress(box=(x1, y1))
PressBack()
PressHome()
PressEnter()
PressRecent()
{coordinates}
### Instruction
- Be sure of the task's goal before you act.
- Look at the current screenshot with care: the history may claim more than what happened.
- When the task is a question or a chat message, answer the user with `CallUser` first, then end with `Finished`.
- Scroll in other directions to see more of the screen.
- Think first, then act: the reasoning goes in <think></think>, the action in <action></action>, and a summary of the action in <conclusion></conclusion>.
"""

#: What the prompt says of the coordinates, by version (1.0: nothing; it reads pixels of the image it is sent).
GRID_NOTE = "Coordinates go from (0,0) at the top left to (999,999) at the bottom right of the screen.\n"


#: UI-Venus's actions (``_parse_response``): points in ``box``, ``start`` and ``end``.
ACTS: dict[str, Act] = {
    "Click": Act("tap", (("box",),)),
    "LongPress": Act("long_press", (("box",),)),
    "Scroll": Act("swipe", (("start",), ("end",)), direction="direction", content=True),
    "Drag": Act("drag", (("start",), ("end",))),
    "Type": Act("type", text="content"),
    "Launch": Act("open", text="app"),
    "Wait": Act("wait"),
    "Finished": Act("finish", text="content"),
    "CallUser": Act("answer", text="content"),
    "PressBack": Act("key", key="back"),
    "PressHome": Act("key", key="home"),
    "PressEnter": Act("key", key="enter"),
    "PressRecent": Act("key", key="recent"),
}

#: The oracle's replies (:func:`written`'s forms).
FORMS = {"tap": "Click(box={at})", "long_press": "LongPress(box={at})", "swipe": "Scroll(start={start}, end={end})",
         "type": "Type(content={text})", "open": "Launch(app={app})", "back": "PressBack()", "home": "PressHome()",
         "wait": "Wait()", "answer": "Finished(content={text})", "stop": "Finished(content='')"}


class _Args(StrictArgs):
    """UI-Venus's own words for a missing text; an app's name is stripped and may not be blank."""

    def needs(self, key: str, app: bool) -> str:
        return f"{self.action} needs {key}=''"


#: The argument names of UI-Venus's calls (the lenient reading splits at them only, as ``_split_parameters``).
KEYS = ("box", "start", "end", "content", "app", "url", "direction")


class UIVenus(Family):
    """What both versions share: the syntax, the actions, the prompt, the history; their coordinates differ."""

    syntax = "UI-Venus call"
    point_form = "(x,y)"
    example = "<think>...</think><action>Click(box=(x,y))</action><conclusion>...</conclusion>"
    rounding = "floor"
    prompt_role = "user"
    history_kept = 5
    conversation_source = "inclusionAI/UI-Venus: models/navigation/ui_venus_navi_agent.py (_build_query, history_length 5)"

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        return ""  # the prompt is the user message (user_text)

    def user_text(self, instruction, history, feedback) -> str:
        previous = "\n".join(f"Step {i}: {h}" for i, h in enumerate(history))
        text = PROMPT.format(task=instruction, previous=previous,
                             coordinates=GRID_NOTE if self.coordinates == "relative" else "")
        if feedback:
            text += "\n### Feedback on your last action\n" + " ".join(feedback)
        return text

    def history_item(self, reply: str, thought: str, operation: Any) -> str:
        think, action = tag(reply, "think"), tag(reply, "action")
        if action is None:
            return super().history_item(reply, thought, operation)
        return f"<think>{think or ''}</think><action>{action}</action>"

    def parse_action(self, reply: str, frame: Frame) -> Parsed:
        thought = tag(reply, "think") or ""
        action = tag(reply, "action")
        if action is None:
            m = re.match(r"\s*\w+\(.*\)\s*$", reply, re.DOTALL)
            if m is None:
                raise ParseError("your reply has no <action>...</action>")
            action = reply.strip()
        single_call(action, list(ACTS))
        name, kw = any_call(action, KEYS)
        act = ACTS.get(name)
        if act is None:
            raise ParseError(f"{name}() is not one of {self.title}'s actions (Click, LongPress, Scroll, Drag, Type, "
                             f"Launch, Wait, Finished, CallUser, PressBack, PressHome, PressEnter, PressRecent)")
        return Parsed(thought, to_operation(act, _Args(self, kw, frame, name), thought))

    def write(self, action: str, args: dict[str, Any], thought: str, frame: Frame,
              point: PointWriter | None = None) -> str:
        pt = self.model_point(frame, point)
        a = written(action, args, FORMS, lambda x, y: "({},{})".format(*pt(x, y)))
        return f"<think>{thought}</think>\n<action>{a}</action>\n<conclusion>{thought}</conclusion>"


class UIVenusNavi(UIVenus):
    """UI-Venus-Navi (1.0): absolute pixels of the image at the authors' pixel budget."""

    name = "ui-venus-navi"
    title = "UI-Venus-Navi (1.0)"
    served = (r"ui-?venus-?navi", r"ui-?venus-?1\.0")
    source = ("inclusionAI/UI-Venus: models/navigation/ui_venus_navi_agent.py (_rescale_coordinate: int(x * o_w / r_w)), "
              "models/navigation/utils.py (parse_answer), scripts/run_navi_7b.sh of the first release (830,000 to "
              "937,664 pixels)")
    coordinates = "absolute"
    min_pixels = 830_000
    max_pixels = 937_664


class UIVenus15(UIVenus):
    """UI-Venus 1.5: a 0-1000 grid of the screen."""

    name = "ui-venus-1.5"
    title = "UI-Venus 1.5"
    served = (r"ui-?venus-?1\.5",)
    source = "inclusionAI/UI-Venus: Venus_framework/policy/ui_venus_policy.py (normalize_to_screen: int(x * width / 1000))"
    coordinates = "relative"
    scale = 1000
