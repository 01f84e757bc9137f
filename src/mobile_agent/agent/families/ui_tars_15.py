"""UI-TARS-1.5 (``ByteDance-Seed/UI-TARS-1.5-7B``), after bytedance/UI-TARS ``codes/ui_tars/action_parser.py``
(``smart_resize``, ``parse_action_to_structure_output``) and the mobile prompt of its README / ``prompt.py``
(``MOBILE_USE``).

Reply: ``Thought: ...`` then ``Action: click(point='<point>x y</point>')``; older checkpoints write
``start_box='(x,y)'``, with or without the ``<|box_start|>`` / ``<|box_end|>`` tokens, or a
``<bbox>x1 y1 x2 y2</bbox>`` (its centre). Actions: click, left_double, long_press, type(content=)
(a trailing ``\\n`` submits), scroll(point, direction), open_app(app_name=), drag(start_point, end_point),
press_home(), press_back(), wait(), finished(content=), call_user().

Coordinates: absolute pixels of the image after Qwen2.5-VL ``smart_resize`` (factor 28, at least
100x28x28 and at most 16384x28x28 pixels); the parser divides by the resized width and height and the
runtime multiplies by the screen's (``round``).
"""

from __future__ import annotations

import re
from typing import Any

from mobile_agent.agent import operations as ops
from mobile_agent.agent.families.actions import Act, Args, to_operation, written
from mobile_agent.agent.families.base import (Family, Frame, Parsed, PointWriter, any_call, key_name, point_of,
                                               single_call)
from mobile_agent.errors import ParseError

PROMPT = """You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task.
## Output Format
```
Thought: ...
Action: ...
```
## Action Space

click(point='<point>x1 y1</point>')
long_press(point='<point>x1 y1</point>')
type(content='') #If you want to submit your input, use "\\n" at the end of `content`.
scroll(point='<point>x1 y1</point>', direction='down or up or right or left')
open_app(app_name='')
drag(start_point='<point>x1 y1</point>', end_point='<point>x2 y2</point>')
press_home()
press_back()
finished(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format.
{extra}
## Note
- Use English in `Thought` part.
- Write a small plan and finally summarize your next action (with its target element) in one sentence in `Thought` part.
"""

CALL_USER = "call_user() # Submit the task and call the user when the task is unsolvable, or when you need the user's help.\n"


#: Where a point may be (``point=`` in 1.5's prompt; older checkpoints' ``start_box=``; ``start_point=``).
AT = ("point", "start_box", "start_point")

#: UI-TARS's actions (1.5's and v1's; the authors' parser reads them all).
ACTS: dict[str, Act] = {
    "click": Act("tap", (AT,)),
    "left_double": Act("double_tap", (AT,)),
    "double_click": Act("double_tap", (AT,)),
    "long_press": Act("long_press", (AT,)),
    "type": Act("type", text="content"),
    # a point (the screen's centre without one) and where the view goes
    "scroll": Act("swipe", (AT,), direction="direction", content=True),
    "drag": Act("drag", (("start_point", "start_box"), ("end_point", "end_box"))),
    "select": Act("drag", (("start_point", "start_box"), ("end_point", "end_box"))),
    "open_app": Act("open", text="app_name"),
    "press_home": Act("key", key="home"),
    "press_back": Act("key", key="back"),
    "wait": Act("wait"),
    "finished": Act("finish", text="content"),
    "call_user": Act("take_over", fallback="the model calls the user"),
    # the Android operator of UI-TARS-desktop (and v1 checkpoints): a swipe from a box to a box, a key
    "swipe": Act("swipe", (AT, ("end_box", "end_point")), direction="direction"),
    "press_enter": Act("key", key="enter"),
}

#: The argument names a UI-TARS call may hold (the lenient reading splits at them only).
KEYS = ("point", "start_box", "start_point", "end_box", "end_point", "content", "text", "app_name", "direction",
        "key", "time")

#: Where the action begins: the first ``Action:`` (or the full-width ``Action：``) that starts a line, so that
#: a typed text holding "Action: wait()" stays the text.
_ACTION = re.compile(r"(?:^|\n)\s*Action\s*[:：]\s*")
_THOUGHT = re.compile(r"(?:Thought|Reflection|Action_Summary)\s*[:：]\s*(.+?)(?=\n\s*Action\s*[:：]|$)", re.DOTALL)

#: The oracle's replies (:func:`written`'s forms; ``{key}``: the family's point argument); a swipe is a page
#: scroll: where the view goes, at the middle of the finger's path.
FORMS = {"tap": "click({key}='{at}')", "long_press": "long_press({key}='{at}')",
         "swipe": "scroll({key}='{middle}', direction='{direction}')", "type": "type(content={text})",
         "open": "open_app(app_name={app})", "back": "press_back()", "home": "press_home()", "wait": "wait()",
         "answer": "finished(content={text})", "stop": "finished(content='')"}


class _Args(Args):
    """A point is the first of the names present, written ``<point>x y</point>``, ``(x,y)``, with or without
    the box tokens."""

    def point(self, keys: tuple[str, ...]) -> tuple[int, int]:
        return self.family.point(self.values, keys, self.frame, self.action)


def _unwrap(text: str) -> str:
    """``<point>x y</point>`` -> ``(x,y)``; the box tokens removed (as the authors' parser does)."""
    text = re.sub(r"<point>\s*(-?[\d.]+)\s+(-?[\d.]+)\s*</point>", r"(\1,\2)", text)
    return text.replace("<|box_start|>", "").replace("<|box_end|>", "")


class UITars15(Family):
    name = "ui-tars-1.5"
    title = "UI-TARS-1.5"
    served = (r"ui-?tars-1\.5",)
    source = "bytedance/UI-TARS: codes/ui_tars/action_parser.py, codes/tests/action_parser_test.py, README (MOBILE_USE)"
    syntax = "UI-TARS call"
    example = "Thought: ...\nAction: click(point='<point>x y</point>')"
    coordinates = "absolute"
    # the conversation of UI-TARS-desktop (packages/ui-tars/sdk: the prompt in the first user message, the
    # model's replies as assistant turns, MAX_IMAGE_LENGTH = 5 screenshots)
    prompt_role = "user"
    turns = True
    images_kept = 5
    history_kept = 15
    conversation_source = ("bytedance/UI-TARS-desktop: packages/ui-tars/shared/src/constants/vlm.ts line 7 "
                           "(MAX_IMAGE_LENGTH = 5)")
    min_pixels = 100 * 28 * 28
    max_pixels = 16384 * 28 * 28

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        return PROMPT.replace("{extra}", CALL_USER if ask_user else "")

    def user_text(self, instruction, history, feedback) -> str:
        text = "## User Instruction\n" + instruction
        if history:
            text += "\n## Action History\n" + "\n".join(f"Action: {h}" for h in history)
        if feedback:
            text += "\n## Feedback\n" + " ".join(feedback)
        return text

    def split(self, reply: str) -> tuple[str, str]:
        """(thought, the action's text)."""
        text = reply.strip()
        m = _ACTION.search(text)
        if m is None:
            raise ParseError("your reply has no 'Action:' line: write Thought: ... then Action: one call")
        t = _THOUGHT.search(text[:m.start()] + "\n")
        thought = t.group(1).strip() if t else text[:m.start()].strip()
        action = text[m.end():].strip()
        # the authors' parser splits several actions at ")\n\n" and runs each: one a step here, said
        single_call(action, [*ACTS, "hotkey"])
        return thought, action

    def point(self, kwargs: dict[str, Any], keys: tuple[str, ...], frame: Frame, action: str) -> tuple[int, int]:
        for k in keys:
            if k in kwargs:
                x, y = point_of(_unwrap(str(kwargs[k])) if isinstance(kwargs[k], str) else kwargs[k], f"{action}'s {k}")
                return self.to_phone(x, y, frame)
        raise ParseError(f"{action} needs {keys[0]}=")

    def parse_action(self, reply: str, frame: Frame) -> Parsed:
        thought, action = self.split(reply)
        name, kw = any_call(action, KEYS)
        if name == "type" and "content" not in kw and "text" in kw:  # v1's type(text=..., start_box=...)
            kw["content"] = kw["text"]
        if name == "hotkey":  # the Android operator's keys: hotkey(key='enter'), 'home', 'back'
            key = kw.get("key")
            if not isinstance(key, str) or not key.strip():
                raise ParseError("hotkey needs key='...': a key name such as enter, home or back")
            return Parsed(thought, ops.PressKey(key_name(key)))
        act = ACTS.get(name)
        if act is None:
            raise ParseError(f"{name}() is not one of {self.title}'s actions (click, long_press, type, scroll, open_app, "
                             f"drag, press_home, press_back, finished)")
        return Parsed(thought, to_operation(act, _Args(self, kw, frame, name), thought))

    _point_key = "point"

    def _pt(self, xy: tuple[int, int]) -> str:
        return "<point>{} {}</point>".format(*xy)

    def write(self, action: str, args: dict[str, Any], thought: str, frame: Frame,
              point: PointWriter | None = None) -> str:
        pt = self.model_point(frame, point)
        call = written(action, args, FORMS, lambda x, y: self._pt(pt(x, y)), key=self._point_key)
        return f"Thought: {thought}\nAction: {call}"
