"""The ``mobile_use`` tool call that Qwen2.5-VL, Qwen3-VL, GUI-Owl (Mobile-Agent-v3 / v3.5) and MAI-UI
answer with: ``<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}
</tool_call>``, after the thought (bare, or in ``<thinking>`` / ``<think>``) and before GUI-Owl's
``<conclusion>``. The families differ in their coordinates, their image size and a few actions; each
module sets those (see :class:`MobileUseFamily`).

Actions read: click, double_click, long_press, swipe (``coordinate`` to ``coordinate2``, or a
``direction`` with an optional ``coordinate``: the finger's motion), drag (``start_coordinate`` to
``end_coordinate``), type, key (``text``: an adb key name), system_button (Back, Home, Menu, Enter),
open / awake (an app), wait, terminate (``status``), answer, and the questions to the user (ask_user,
interact, call_user, INFO). A coordinate of four numbers is a box: its centre.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mobile_agent.agent import operations as ops
from mobile_agent.agent.families.actions import Act, StrictArgs, to_operation
from mobile_agent.agent.families.base import Family, Frame, Parsed, PointWriter, finger_direction, key_name, point_of, tag
from mobile_agent.errors import ParseError

#: The tool's description, as Qwen's cookbook (QwenLM/Qwen2.5-VL cookbooks/utils/agent_function_call.py,
#: ``MobileUse``) defines it; ``{resolution}`` is the screen as the model is told it.
TOOL_DESCRIPTION = (
    "Use a touchscreen to interact with a mobile device, and take screenshots.\n"
    "* This is an interface to a mobile device with touchscreen. You can perform actions like clicking, typing, "
    "swiping, etc.\n"
    "* Some applications may take time to start or process actions, so you may need to wait and take successive "
    "screenshots to see the results of your actions.\n"
    "* The screen's resolution is {resolution}.\n"
    "* Make sure to click any buttons, links, icons, etc with the cursor tip in the center of the element. Don't "
    "click boxes on their edges unless asked.")

ACTIONS = {
    "key": "Perform a key event on the mobile device.\n    - This supports adb's `keyevent` syntax.\n    - Examples: "
           "\"volume_up\", \"volume_down\", \"power\", \"camera\", \"clear\".",
    "click": "Click the point on the screen with coordinate (x, y).",
    "long_press": "Press the point on the screen with coordinate (x, y) for specified seconds.",
    "swipe": "Swipe from the starting point with coordinate (x, y) to the end point with coordinates2 (x2, y2).",
    "type": "Input the specified text into the activated input box.",
    "answer": "Output the answer.",
    "system_button": "Press the system button.",
    "open": "Open an app on the device.",
    "wait": "Wait specified seconds for the change to happen.",
    "terminate": "Terminate the current task and report its completion status.",
}


def tool_schema(resolution: str, actions: tuple[str, ...], extra: dict[str, str] | None = None) -> dict[str, Any]:
    """The ``mobile_use`` function as the Qwen chat template lists it."""
    described = {**{a: ACTIONS[a] for a in actions if a in ACTIONS}, **(extra or {})}
    action_text = "The action to perform. The available actions are:\n" + "\n".join(
        f"* `{a}`: {d}" for a, d in described.items())
    point = ("(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the "
             "mouse to.")
    return {"type": "function", "function": {
        "name_for_human": "mobile_use", "name": "mobile_use",
        "description": TOOL_DESCRIPTION.format(resolution=resolution),
        "parameters": {"properties": {
            "action": {"description": action_text, "enum": list(described), "type": "string"},
            "coordinate": {"description": point + " Required only by `action=click`, `action=long_press`, and "
                                                  "`action=swipe`.", "type": "array"},
            "coordinate2": {"description": point + " Required only by `action=swipe`.", "type": "array"},
            "text": {"description": "Required only by `action=key`, `action=type`, and `action=open`.",
                     "type": "string"},
            "time": {"description": "The seconds to wait. Required only by `action=long_press` and `action=wait`.",
                     "type": "number"},
            "button": {"description": "Back means returning to the previous interface, Home means returning to "
                                      "the desktop, Menu means opening the application background menu, and Enter "
                                      "means pressing the enter. Required only by `action=system_button`",
                       "enum": ["Back", "Home", "Menu", "Enter"], "type": "string"},
            "status": {"description": "The status of the task. Required only by `action=terminate`.",
                       "type": "string", "enum": ["success", "failure"]}},
            "required": ["action"], "type": "object"},
        "args_format": "Format the arguments as a JSON object."}}


def tools_system_prompt(schema: dict[str, Any], answer_format: str) -> str:
    """The system message as Qwen's chat template renders a tool (``# Tools``), then the reply's form."""
    return ("You are a helpful assistant.\n\n# Tools\n\nYou may call one or more functions to assist with the user "
            "query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
            + json.dumps(schema, ensure_ascii=False) + "\n</tools>\n\n" + answer_format)


QWEN_FORMAT = ("For each function call, return a json object with function name and arguments within "
               "<tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": "
               "<args-json-object>}\n</tool_call>")

#: The response format of the models that write an ``Action:`` sentence before the tool call (Qwen3-VL's
#: cookbook, GUI-Owl 1.5's ``SYSTEM_PROMPT`` "# Response format"): ours, saying what theirs says in its order.
RESPONSE_FORMAT = """# Response format

Each step answers in two parts:
1) Action: a short imperative sentence saying what to do on the screen.
2) One <tool_call>...</tool_call> block holding only the JSON {"name": <function-name>, "arguments": <args-json-object>}.

Rules:
- Write the two parts in this order: Action, then <tool_call>.
- Keep the Action to one sentence.
- Write nothing outside these two parts.
- To finish, call action=terminate."""

_TOOL_CALL = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)


#: The ``mobile_use`` actions every family of the tool call reads (its prompt offers a part of them):
#: points in ``coordinate`` (``coordinate2``: a swipe's end), a swipe by the finger's ``direction``.
ACTS: dict[str, Act] = {
    "click": Act("tap", (("coordinate",),)),
    "double_click": Act("double_tap", (("coordinate",),)),
    "double_tap": Act("double_tap", (("coordinate",),)),
    "long_press": Act("long_press", (("coordinate",),)),
    "swipe": Act("swipe", (("coordinate",), ("coordinate2",)), direction="direction"),
    "drag": Act("drag", (("start_coordinate",), ("end_coordinate",))),
    "type": Act("type", text="text"),
    "open": Act("open", text="text"),
    "awake": Act("open", text="text"),
    "open_app": Act("open", text="text"),
    "wait": Act("wait"),
    "answer": Act("answer", text="text"),
    "ask_user": Act("ask", text="text", fallback="the model asks"),
    "interact": Act("ask", text="text", fallback="the model asks"),
    "info": Act("ask", text="text", fallback="the model asks"),
    "call_user": Act("take_over", text="text", fallback="the model calls you"),
}


class _Args(StrictArgs):
    """The tool call's arguments: JSON names in quotes in its errors; an app's name stripped, not blank."""

    def point(self, keys: tuple[str, ...]) -> tuple[int, int]:
        return self.family.point(self.values, keys[0], self.frame)

    def needs(self, key: str, app: bool) -> str:
        return f'{self.action} needs "{key}"' + (": the app's name" if app else "")

    def quote(self, key: str) -> str:
        return f'"{key}"'


class MobileUseFamily(Family):
    """A family that answers with the ``mobile_use`` tool call."""

    syntax = "mobile_use tool call"
    example = '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}\n</tool_call>'
    #: the actions of its prompt
    actions: tuple[str, ...] = ("key", "click", "long_press", "swipe", "type", "system_button", "open", "wait",
                                "terminate")

    def resolution(self, frame: Frame) -> str:
        """The screen's resolution as the prompt states it: the image's size (absolute families) or the
        grid's (relative ones)."""
        if self.coordinates == "absolute":
            return f"{frame.image_w}x{frame.image_h}"
        return f"{self.scale}x{self.scale}"

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        return tools_system_prompt(tool_schema(self.resolution(frame), self.actions), QWEN_FORMAT)

    def user_text(self, instruction, history, feedback) -> str:
        text = f"The user query: {instruction}"
        if history:
            text += ("\nTask progress (You have done the following operation on the current device): "
                     + "; ".join(f"Step {i}: {h}" for i, h in enumerate(history, start=1)) + "; ")
        if feedback:
            text += "\nFeedback on your last action: " + " ".join(feedback)
        return text

    def thought_of(self, reply: str) -> str:
        for name in ("thinking", "think"):
            t = tag(reply, name)
            if t is not None:
                return t
        before = reply.split("<tool_call>")[0]
        if action_line(reply):
            return action_line(reply)
        return re.sub(r"</?(?:thinking|think|conclusion)>", "", before).strip()

    def arguments(self, reply: str) -> dict[str, Any]:
        calls = _TOOL_CALL.findall(reply)
        if not calls:
            raise ParseError('your reply has no <tool_call>: answer with <tool_call>{"name": "mobile_use", '
                             '"arguments": {"action": ...}}</tool_call>')
        if len(calls) > 1:
            raise ParseError("your reply holds several tool calls: give one action a step")
        try:
            call = json.loads(calls[0])
        except json.JSONDecodeError as exc:
            raise ParseError(f"the tool call is not valid JSON ({exc.msg} at character {exc.pos})") from None
        if not isinstance(call, dict) or not isinstance(call.get("arguments"), dict):
            raise ParseError('the tool call must be {"name": "mobile_use", "arguments": {...}}')
        if call.get("name") not in ("mobile_use", None):
            raise ParseError(f"{call.get('name')!r} is not a tool here: call mobile_use")
        args = call["arguments"]
        if not isinstance(args.get("action"), str):
            raise ParseError('the tool call\'s arguments have no "action"')
        return args

    def point(self, args: dict[str, Any], key: str, frame: Frame) -> tuple[int, int]:
        if key not in args:
            raise ParseError(f"{args.get('action')} needs \"{key}\": [x, y]")
        x, y = point_of(args[key], f"{args.get('action')}'s {key}")
        return self.to_phone(x, y, frame)

    def parse_action(self, reply: str, frame: Frame) -> Parsed:
        thought = self.thought_of(reply)
        args = self.arguments(reply)
        gave_up = str(args.get("action", "")).strip().lower() == "terminate" and \
            str(args.get("status", "")).strip().lower() in ("failure", "fail")
        return Parsed(thought, self.operation(args, thought, frame), gave_up)

    def operation(self, args: dict[str, Any], thought: str, frame: Frame) -> ops.Operation:
        action = args["action"].strip()
        a = action.lower()
        text = args.get("text")
        act = ACTS.get(a)
        if act is not None:
            return to_operation(act, _Args(self, args, frame, a), thought)
        # the tool's own actions, which no other family's table has
        if a == "key":
            if not isinstance(text, str) or not text.strip():
                raise ParseError('key needs "text": a key name such as "enter"')
            return ops.PressKey(key_name(text))
        if a == "system_button":
            button = args.get("button")
            if not isinstance(button, str) or button.strip().lower() not in ("back", "home", "menu", "enter"):
                raise ParseError(f'system_button needs "button": Back, Home, Menu or Enter; got {button!r}')
            return ops.PressKey(button.strip().lower())
        if a == "terminate":  # the run ends here; "failure" (MAI-UI: "fail") ends it failed (families/planner.py)
            status = str(args.get("status", "success")).lower()
            if status not in ("success", "failure", "fail"):
                raise ParseError(f'terminate needs "status": success or failure; got {status!r}')
            return ops.Stop()
        raise ParseError(f"{action!r} is not one of {self.title}'s actions ({', '.join(self.actions)})")

    # --- the oracle's replies ---------------------------------------------------------------------------
    def wrap(self, thought: str, arguments: dict[str, Any]) -> str:
        call = json.dumps({"name": "mobile_use", "arguments": arguments}, ensure_ascii=False)
        return f"{thought}\n<tool_call>\n{call}\n</tool_call>"

    def write(self, action: str, args: dict[str, Any], thought: str, frame: Frame,
              point: PointWriter | None = None) -> str:
        pt = self.model_point(frame, point)
        if action in ("tap", "long_press"):
            a = {"action": "click" if action == "tap" else "long_press", "coordinate": list(pt(args["x"], args["y"]))}
        elif action == "swipe":
            a = {"action": "swipe", "coordinate": list(pt(args["x1"], args["y1"])),
                 "coordinate2": list(pt(args["x2"], args["y2"]))}
        elif action == "type":
            a = {"action": "type", "text": args["text"]}
        elif action == "open":
            a = {"action": "open", "text": args["app"]}
        elif action in ("back", "home"):
            a = {"action": "system_button", "button": action.capitalize()}
        elif action == "wait":
            a = {"action": "wait", "time": 2}
        elif action == "answer" and "answer" in self.actions:
            a = {"action": "answer", "text": args["text"]}
        else:
            a = {"action": "terminate", "status": "success"}
        return self.wrap(thought, a)


def action_line(reply: str) -> str:
    """The ``Action: ...`` sentence before a tool call (Qwen3-VL's, GUI-Owl 1.5's), or ""."""
    m = re.search(r"Action\s*[:：]\s*(.*?)\s*(?=<tool_call>|$)", (reply or "").split("</tool_call>")[0], re.DOTALL)
    return m.group(1).strip() if m else ""


__all__ = ["MobileUseFamily", "action_line", "finger_direction", "tool_schema", "tools_system_prompt"]
