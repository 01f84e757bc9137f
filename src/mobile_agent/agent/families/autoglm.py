"""AutoGLM-Phone (``zai-org/AutoGLM-Phone-9B``, served as ``autoglm-phone-9b``), after zai-org/Open-AutoGLM
``phone_agent/config/prompts_en.py`` (the action space), ``phone_agent/actions/handler.py`` (``parse_action``,
``_convert_relative_to_absolute``: ``int(x / 1000 * width)``) and ``phone_agent/model/client.py`` (the reply
split at ``<answer>``).

Reply: ``<think>...</think><answer>do(action="Tap", element=[x,y])</answer>`` or ``finish(message="...")``.
A Tap with ``message=`` is a sensitive act: with ``--confirm`` the user is asked first. Take_over is our
Take Over, Interact our Ask User; Note and Call_API (the authors' placeholders) are not carried out here.
"""

from __future__ import annotations

import re
from typing import Any

from mobile_agent.agent.families.actions import Act, Args, to_operation, written
from mobile_agent.agent.families.base import Family, Frame, Parsed, call_of, tag
from mobile_agent.errors import ParseError

PROMPT = """You are an intelligent agent analysis expert who executes operations step by step on a phone based on the user's task, the history and the current screenshot.
You must output in this format:
<think>{think}</think>
<answer>{action}</answer>

where {think} is a short reasoning about why you choose this action, and {action} is exactly one instruction from the list below.

Operation instructions:
- do(action="Launch", app="xxx")  Launch an app. Use it instead of looking for the app on the home screen.
- do(action="Tap", element=[x,y])  Tap a point. Coordinates go from (0,0) at the top left to (999,999) at the bottom right.
- do(action="Tap", element=[x,y], message="important operation")  Tap that is sensitive (payment, privacy): the user confirms it first.
- do(action="Type", text="xxx")  Type into the focused input field.
- do(action="Swipe", start=[x1,y1], end=[x2,y2])  Swipe from start to end (0-999 coordinates).
- do(action="Long Press", element=[x,y])  Press and hold.
- do(action="Double Tap", element=[x,y])  Tap twice quickly.
- do(action="Back")  Go back.
- do(action="Home")  Go to the home screen.
- do(action="Wait", duration="x seconds")  Wait for the page to load.
{extra}- finish(message="xxx")  The task is complete; message is what the user gets back.
"""

EXTRA = ('- do(action="Take_over", message="xxx")  Hand the phone to the user (login, captcha).\n'
         '- do(action="Interact")  Several options fit: ask the user to choose.\n')


#: AutoGLM's ``do(action=...)`` (``handler.py``): points in ``element``, ``start`` and ``end``; a Tap's
#: ``message`` makes it sensitive.
ACTS: dict[str, Act] = {
    "Tap": Act("tap", (("element",),), sensitive="message"),
    "Double Tap": Act("double_tap", (("element",),)),
    "Long Press": Act("long_press", (("element",),)),
    "Swipe": Act("swipe", (("start",), ("end",))),
    "Type": Act("type", text="text"),
    "Type_Name": Act("type", text="text"),
    "Launch": Act("open", text="app"),
    "Back": Act("key", key="back"),
    "Home": Act("key", key="home"),
    "Wait": Act("wait"),
    "Take_over": Act("take_over", text="message", fallback="take over"),
    "Interact": Act("ask", fallback="which of the options on the screen?"),
}

#: The oracle's replies (:func:`written`'s forms).
FORMS = {"tap": 'do(action="Tap", element={at})', "long_press": 'do(action="Long Press", element={at})',
         "swipe": 'do(action="Swipe", start={start}, end={end})', "type": 'do(action="Type", text={text})',
         "open": 'do(action="Launch", app={app})', "back": 'do(action="Back")', "home": 'do(action="Home")',
         "wait": 'do(action="Wait", duration="2 seconds")', "answer": "finish(message={text})",
         "stop": 'finish(message="")'}
#: ``finish(message=...)``.
FINISH = Act("finish", text="message")


class AutoGLM(Family):
    name = "autoglm-phone"
    title = "AutoGLM-Phone"
    served = (r"autoglm",)
    source = ("zai-org/Open-AutoGLM: phone_agent/config/prompts_en.py, phone_agent/actions/handler.py, "
              "phone_agent/model/client.py")
    syntax = "AutoGLM do()/finish()"
    coordinates = "relative"
    scale = 1000
    rounding = "floor"

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        return PROMPT.replace("{extra}", EXTRA if ask_user else "")

    def parse_action(self, reply: str, frame: Frame) -> Parsed:
        thought = tag(reply, "think") or reply.split("<answer>")[0].replace("<think>", "").replace("</think>", "").strip()
        answer = tag(reply, "answer")
        if answer is None:
            m = re.search(r"(do\(.*|finish\(.*)", reply, re.DOTALL)
            if m is None:
                raise ParseError('your reply has no action: write <answer>do(action="...", ...)</answer> '
                                 'or finish(message="...")')
            answer = m.group(1).strip()
        name, kw = call_of(answer)
        if name == "finish":
            return Parsed(thought, to_operation(FINISH, Args(self, kw, frame, name), thought))
        if name != "do":
            raise ParseError(f"{name}() is neither do(action=...) nor finish(message=...)")
        action = kw.get("action")
        act = ACTS.get(action) if isinstance(action, str) else None
        if act is not None:
            return Parsed(thought, to_operation(act, Args(self, kw, frame, str(action)), thought))
        if action in ("Note", "Call_API"):
            raise ParseError(f'do(action="{action}") is not carried out by this agent: choose an action on the '
                             f"phone, or finish(message=...) with what you found")
        raise ParseError(f"{action!r} is not one of {self.title}'s actions (Launch, Tap, Type, Swipe, Long Press, "
                         f"Double Tap, Back, Home, Wait)")

    def write(self, action: str, args: dict[str, Any], thought: str, frame: Frame) -> str:
        a = written(action, args, FORMS, lambda x, y: "[{},{}]".format(*self.to_model(x, y, frame)), _q)
        return f"<think>{thought}</think>\n<answer>{a}</answer>"


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
