"""UI-Venus (``inclusionAI/UI-Venus-Navi-7B``, ``-72B``), after inclusionAI/UI-Venus
``Venus_framework/processor/uivenus_processor.py`` (the prompt) and ``Venus_framework/policy/ui_venus_policy.py``
(``_parse_response``: ``normalize_to_screen``, ``int(x * width / 1000)``).

Reply: ``<think>...</think><action>Click(box=(x,y))</action><conclusion>...</conclusion>``. Actions:
Click(box), LongPress(box), Drag(start, end), Scroll(start, end), Type(content), Launch(app), Wait(),
Finished(content), CallUser(content), PressBack(), PressHome(), PressEnter(), PressRecent().

The repository disagrees with itself: the prompt says the coordinates go from (0,0) to (999,999), while
the policy that turns them into taps divides by 1000 (and the navigation README of the first release
describes absolute pixels of the resized image). This adapter follows the policy's code, ``x * width /
1000`` truncated: it is what the authors' own runtime does with a reply, so a model trained against that
runtime lands where it was rewarded to land.
"""

from __future__ import annotations

import re
from typing import Any

from mobile_agent.agent.families.actions import Act, StrictArgs, read_call, written
from mobile_agent.agent.families.base import Family, Frame, Parsed, tag
from mobile_agent.errors import ParseError

PROMPT = """**You are a mobile GUI agent.**
Carry out the user's task step by step from the history and the current screen.

### The actions you can use
- Click(box=(x1,y1))
>> Tap a point on the screen. Coordinates go from (0,0) at the top left to (999,999) at the bottom right.
- Drag(start=(x1,y1), end=(x2,y2))
>> Press at start for a moment, then drag to end.
- Scroll(start=(x1,y1), end=(x2,y2))
>> Slide from start to end: to scroll for content, switch tabs, pull down the notification shade.
- Type(content='')
>> Type into the active input field.
- Launch(app='')
>> Open the app.
- Wait()
>> Wait for the page to load.
- Finished(content='')
>> The task is done; content is what the user gets back.
{extra}- LongPress(box=(x1,y1))
>> Press and hold a point.
- PressBack()
>> Back to the previous screen.
- PressHome()
>> To the home screen.
- PressEnter()
>> Press Enter (search after typing).
- PressRecent()
>> Open the recent apps.

### Output format
<think>your reasoning</think>
<action>the action</action>
<conclusion>a summary of this action</conclusion>
"""

CALL_USER = ("- CallUser(content='')\n>> Answer the user's question, or ask the user when several options fit or "
             "only they can go on.\n")


#: UI-Venus's actions (``_parse_response``): points in ``box``, ``start`` and ``end``.
ACTS: dict[str, Act] = {
    "Click": Act("tap", (("box",),)),
    "LongPress": Act("long_press", (("box",),)),
    "Scroll": Act("swipe", (("start",), ("end",))),
    "Drag": Act("drag", (("start",), ("end",))),
    "Type": Act("type", text="content"),
    "Launch": Act("open", text="app"),
    "Wait": Act("wait"),
    "Finished": Act("finish", text="content"),
    "CallUser": Act("ask", text="content", fallback="the model calls the user"),
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


class UIVenus(Family):
    name = "ui-venus"
    title = "UI-Venus"
    served = (r"ui-?venus",)
    source = ("inclusionAI/UI-Venus: Venus_framework/processor/uivenus_processor.py, "
              "Venus_framework/policy/ui_venus_policy.py")
    syntax = "UI-Venus call"
    coordinates = "relative"
    scale = 1000
    rounding = "floor"
    point_form = "(x,y)"

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        return PROMPT.replace("{extra}", CALL_USER if ask_user else "")

    def parse_action(self, reply: str, frame: Frame) -> Parsed:
        thought = tag(reply, "think") or ""
        action = tag(reply, "action")
        if action is None:
            m = re.match(r"\s*\w+\(.*\)\s*$", reply, re.DOTALL)
            if m is None:
                raise ParseError("your reply has no <action>...</action>")
            action = reply.strip()
        return read_call(self, action, ACTS, _Args, frame, thought, "Click, LongPress, Scroll, Drag, Type, Launch, "
                         "Wait, Finished, PressBack, PressHome, PressEnter")

    def write(self, action: str, args: dict[str, Any], thought: str, frame: Frame) -> str:
        a = written(action, args, FORMS, lambda x, y: "({},{})".format(*self.to_model(x, y, frame)))
        return f"<think>{thought}</think>\n<action>{a}</action>\n<conclusion>{thought}</conclusion>"
