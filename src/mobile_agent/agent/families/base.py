"""What every family adapter shares: Qwen2.5-VL's ``smart_resize``, the two ways coordinates map back
to the phone (absolute in the resized image, relative on a 0-N grid), the reply's syntax markers (to
refuse a reply that mixes two formats), and the :class:`Family` every module fills in.

A family turns a reply into :class:`Parsed` (the thought and one typed operation, its points already in
the phone's pixels) and raises :class:`~mobile_agent.errors.ParseError` saying what is wrong; the
planner (:mod:`.planner`) sends that back to the model, as the ReAct planner does.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from mobile_agent.agent.operations import Operation
from mobile_agent.errors import ParseError

# Qwen2.5-VL's image processor (qwen-vl-utils ``smart_resize``; UI-TARS's action_parser.py has the same):
IMAGE_FACTOR = 28
MIN_PIXELS = 4 * 28 * 28            # qwen-vl-utils' default (3136)
MAX_PIXELS = 16384 * 28 * 28        # 12,845,056: the processor's default, and UI-TARS's
MAX_RATIO = 200


def round_by_factor(number: float, factor: int) -> int:
    return round(number / factor) * factor


def ceil_by_factor(number: float, factor: int) -> int:
    return math.ceil(number / factor) * factor


def floor_by_factor(number: float, factor: int) -> int:
    return math.floor(number / factor) * factor


def smart_resize(height: int, width: int, factor: int = IMAGE_FACTOR, min_pixels: int = MIN_PIXELS,
                 max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """(height, width) of the image the model sees, as Qwen2.5-VL's processor resizes it: both sides
    multiples of ``factor`` (each rounded to the nearest; Python's round), the pixel count within
    [min_pixels, max_pixels] (scaled down by sqrt(h*w/max) and floored, or up and ceiled), the aspect
    ratio kept as closely as that allows. A ratio over 200 is refused, as there."""
    if min(height, width) <= 0:
        raise ValueError(f"an image of {width}x{height} pixels has no area")
    if max(height, width) / min(height, width) > MAX_RATIO:
        raise ValueError(f"absolute aspect ratio must be smaller than {MAX_RATIO}, "
                         f"got {max(height, width) / min(height, width)}")
    h_bar = max(factor, round_by_factor(height, factor))
    w_bar = max(factor, round_by_factor(width, factor))
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = floor_by_factor(height / beta, factor)
        w_bar = floor_by_factor(width / beta, factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = ceil_by_factor(height * beta, factor)
        w_bar = ceil_by_factor(width * beta, factor)
    return h_bar, w_bar


@dataclass(frozen=True)
class Frame:
    """The two sizes a reply's coordinates are read between: the phone's screenshot and the image the
    request carried (the family's size of it)."""

    screen_w: int
    screen_h: int
    image_w: int
    image_h: int


@dataclass(frozen=True)
class Parsed:
    """A reply read: the model's thought and one operation (points in the phone's pixels). ``gave_up``: the
    model ended the task as failed (``terminate(status="failure")``): the run ends failed, not done."""

    thought: str
    operation: Operation
    gave_up: bool = False


#: The syntaxes replies come in, each recognised by its own marks (for a reply that mixes two).
SYNTAXES: dict[str, re.Pattern[str]] = {
    "mobile_use tool call": re.compile(r"<tool_call>|\"name\"\s*:\s*\"mobile_use\"|\"coordinate\"\s*:\s*\[",
                                       re.IGNORECASE),
    "AutoGLM do()/finish()": re.compile(r"\bdo\(\s*action\s*=|\bfinish\(\s*message\s*="),
    "UI-TARS call": re.compile(r"\b(?:click|long_press|left_double|scroll|drag|type|open_app|press_home|press_back|"
                               r"finished|call_user|wait|hotkey|swipe)\((?:\s*\)|\s*(?:start_box|point|start_point|content|"
                               r"app_name|direction|end_box|text|key)\s*=)"),
    "UI-Venus call": re.compile(r"<action>|\b(?:Click|LongPress)\(\s*box\s*=|\b(?:Launch\(\s*app|Finished\(\s*content|"
                                r"CallUser\(\s*content)\s*="),
    # the paper's operations as its parser reads them: a name with its parenthesis (no key=value inside: that
    # is a UI-TARS call), or a bare name ending the line; an "Action: Stop the download" summary line (Qwen3-VL's, GUI-Owl 1.5's) is no ReAct action
    "Mobile-Agent ReAct": re.compile(r"^\s*Action\s*[:：]\s*(?:(?:Open App|Click Text|Click Icon|Long Press|Type)\s*\((?!\s*\w+\s*=)|"
                                     r"(?:Page Up|Page Down|Back|Exit|Stop)\s*$)",
                                     re.IGNORECASE | re.MULTILINE),
}


def syntaxes_in(reply: str) -> list[str]:
    """The syntaxes whose marks ``reply`` holds."""
    return [name for name, pat in SYNTAXES.items() if pat.search(reply)]


def check_syntax(reply: str, own: str, family: str) -> None:
    """Raise :class:`ParseError` when ``reply`` holds another syntax's marks beside or instead of ``own``."""
    found = syntaxes_in(reply)
    others = [s for s in found if s != own]
    if not others:
        return
    if own in found:
        raise ParseError(f"your reply mixes two formats ({own} and {others[0]}): answer with one action in "
                         f"{family}'s format only")
    raise ParseError(f"your reply is written as a {others[0]}, not as {family}'s {own}")


#: A number in a reply (an int or a float, signs included).
NUMBER = r"-?\d+(?:\.\d+)?"


def numbers(text: Any) -> list[float]:
    """The numbers of a point written as a string (``<point>x y</point>``, ``(x,y)``, ``<|box_start|>(x,y)
    <|box_end|>``, ``<bbox>x1 y1 x2 y2</bbox>``, ``[x1, y1, x2, y2]``) or as a list."""
    if isinstance(text, (list, tuple)):
        vals = []
        for v in text:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ParseError(f"a coordinate must be a number, got {v!r}")
            vals.append(float(v))
        return vals
    if not isinstance(text, str):
        raise ParseError(f"a point must be written as numbers, got {text!r}")
    return [float(v) for v in re.findall(NUMBER, text)]


def point_of(value: Any, what: str = "point") -> tuple[float, float]:
    """One point from a value of two numbers, or the centre of a box of four (as the authors' parsers
    take a box's centre). Raises :class:`ParseError`."""
    vals = numbers(value)
    if len(vals) == 2:
        return vals[0], vals[1]
    if len(vals) == 4:
        return (vals[0] + vals[2]) / 2, (vals[1] + vals[3]) / 2
    raise ParseError(f"the {what} {value!r} is not a point: write two numbers (x, y)")


def call_of(text: str) -> tuple[str, dict[str, Any]]:
    """``name(key=value, ...)`` read as Python syntax (never evaluated): (name, keyword values). Values
    are constants, tuples and lists of constants. Raises :class:`ParseError`."""
    src = text.strip().replace("\r", "\\r")
    src = re.sub(r"\n", r"\\n", src)
    try:
        node = ast.parse(src, mode="eval").body
    except SyntaxError as exc:
        raise ParseError(f"the action {text.strip()[:80]!r} is not a call such as click(point='<point>x y</point>'): "
                         f"{exc.msg}") from None
    if not isinstance(node, ast.Call):
        raise ParseError(f"the action {text.strip()[:80]!r} is not a call")
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name is None:
        raise ParseError(f"the action {text.strip()[:80]!r} has no name")
    kwargs: dict[str, Any] = {}
    _no_repeat(name, [str(kw.arg) for kw in node.keywords if kw.arg is not None])
    for kw in node.keywords:
        try:
            kwargs[str(kw.arg)] = ast.literal_eval(kw.value)
        except (ValueError, SyntaxError):
            raise ParseError(f"{name}: the value of {kw.arg!r} is not a constant") from None
    if node.args:
        try:
            kwargs["_args"] = [ast.literal_eval(a) for a in node.args]
        except (ValueError, SyntaxError):
            raise ParseError(f"{name}: its arguments are not constants") from None
    return name, kwargs


def lenient_call(text: str, keys: Sequence[str] = ()) -> tuple[str, dict[str, Any]]:
    """``name(key=value, ...)`` read the way the authors' regular-expression parsers read it, for what Python's
    syntax refuses: an apostrophe inside ``content='it's'``, unescaped quotes inside ``text="say "hi""``.
    A value runs from its ``key=`` to the next ``, key=`` of a name in ``keys`` (any word where ``keys`` is
    empty) or to the closing parenthesis; one quote pair around it is taken off; ``(x,y)`` and ``[x,y]``
    stay texts (the point readers take their numbers). Raises :class:`ParseError`."""
    m = re.match(r"\s*(\w+)\s*\((.*)\)\s*$", text, re.DOTALL)
    if m is None:
        raise ParseError(f"the action {text.strip()[:80]!r} is not a call name(key=value, ...)")
    name, body = m.group(1), m.group(2)
    word = "|".join(re.escape(k) for k in keys) if keys else r"\w+"
    starts = list(re.finditer(rf"(?:^|,)\s*({word})\s*=\s*", body))
    _no_repeat(name, [km.group(1) for km in starts])
    kwargs: dict[str, Any] = {}
    for i, km in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(body)
        value = body[km.end():end].strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1].replace("\\n", "\n").replace("\\'", "'").replace('\\"', '"')
        kwargs[km.group(1)] = value
    if body.strip() and not starts:
        raise ParseError(f"the action {text.strip()[:80]!r} has no key=value argument")
    return name, kwargs


def single_call(text: str, names: Sequence[str]) -> None:
    """Refuse ``text`` where it holds more than one action: a call of one of ``names`` that begins a line
    (or follows another call's closing parenthesis) after the first. The authors' parsers split such a
    reply into several actions; this agent takes one a step and looks at the screen before the next, so
    the model is told which calls it wrote instead of one being taken and the others dropped unsaid."""
    word = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    starts = [m.group(1) for m in re.finditer(rf"(?:^|\n|\))\s*(?:Action\s*[:：]\s*)?({word})\s*\(", text)]
    if len(starts) > 1:
        raise ParseError(f"your reply holds {len(starts)} actions ({', '.join(n + '(...)' for n in starts)}): "
                         "write one action a step; the next screenshot comes after it")


def _no_repeat(name: str, keys: Sequence[str]) -> None:
    seen: set[str] = set()
    for k in keys:
        if k in seen:
            raise ParseError(f"{name}: {k}= is given twice; give each argument once")
        seen.add(k)


def any_call(text: str, keys: Sequence[str] = ()) -> tuple[str, dict[str, Any]]:
    """:func:`call_of`, or where Python's syntax refuses the call, :func:`lenient_call` (the authors'
    parsers split at the keys, not at Python's quotes)."""
    try:
        return call_of(text)
    except ParseError:
        return lenient_call(text, keys)


def key_name(text: str) -> str:
    """An adb or a hotkey key name as Press Key's: ``KEYCODE_ENTER``, ``Enter`` and ``enter`` are ``enter``."""
    k = text.strip().lower().removeprefix("keycode_")
    return re.sub(r"[^a-z0-9_]", "_", k)[:32] or "unknown"


def text_arg(kwargs: dict[str, Any], key: str, action: str) -> str:
    v = kwargs.get(key)
    if not isinstance(v, str):
        raise ParseError(f"{action} needs {key}= with a text, got {v!r}")
    return v


def tag(reply: str, name: str) -> str | None:
    """The text inside ``<name>...</name>``, or None."""
    m = re.search(rf"<{name}>(.*?)</{name}>", reply, re.DOTALL)
    return m.group(1).strip() if m else None


class Family:
    """One model family and version. Subclasses set the class attributes and write :meth:`parse_action`
    and :meth:`system_prompt`; coordinates, image size and the reply writer for the oracle follow from
    the attributes.

    ``coordinates``: ``"absolute"`` (pixels of the image the request carried, which is the family's
    ``smart_resize`` of the screenshot) or ``"relative"`` (a grid of ``scale`` a side: 1000 or 999).
    ``rounding``: how the authors' code turns the mapped coordinate into a pixel (``"round"`` or
    ``"floor"``, Python's int of a positive float).
    """

    name: str = ""                       # what --model-family takes: "ui-tars-1.5"
    title: str = ""                      # for people: "UI-TARS-1.5"
    served: tuple[str, ...] = ()         # regular expressions matched against the served model name
    source: str = ""                     # the authors' repository and files the adapter follows
    syntax: str = ""                     # its key in SYNTAXES
    coordinates: str = "absolute"
    scale: int = 1000
    rounding: str = "round"
    factor: int = IMAGE_FACTOR
    min_pixels: int = MIN_PIXELS
    max_pixels: int = MAX_PIXELS
    point_form: str = "[x,y]"            # how a point argument is written, for the error on a missing one
    example: str = ""                    # one action in the family's own syntax, for the feedback on a bad reply

    # --- the conversation, as the authors keep it (families/planner.py builds it) ---------------------
    prompt_role: str = "system"          # "system": the prompt is a system message; "user": it opens the first
    #                                      user message (UI-TARS, UI-Venus)
    turns: bool = False                  # earlier replies as assistant turns; else as history text in the request
    turn_window: int = 0                 # with turns: how many earlier steps are turns (0: all kept), older ones
    #                                      are history text (GUI-Owl 1.5: 4)
    images_kept: int = 1                 # screenshots a request carries, the current one included
    instruction_apart: bool = False      # with turns: the instruction is a user message of its own (MAI-UI)
    dropped_image: str = "(the screenshot of step {step}, no longer sent)"  # a user turn whose image is no longer
    #                                      sent keeps this text; "": no user turn at all (MAI-UI: assistant turns follow)
    history_kept: int = 0                # earlier steps the request holds at all (0: up to HISTORY_MOST)
    image_format: str = "PNG"            # how the authors' runtime encodes the screenshot
    conversation_source: str = ""        # the authors' file that keeps the conversation so (docs/models.md)

    def history_item(self, reply: str, thought: str, operation: Any) -> str:
        """An earlier step as the authors' history text writes it, from the model's own reply (its own
        coordinates); a step no model wrote (a replayed one) falls back on our operation's words."""
        return thought or str(operation) if not reply else reply.strip()

    # --- the image ---------------------------------------------------------------------------------
    def image_size(self, width: int, height: int) -> tuple[int, int]:
        """(width, height) of the image sent for a screenshot of ``width`` x ``height``: the family's
        ``smart_resize`` (for relative families too, so the server's own resize changes nothing)."""
        h, w = smart_resize(height, width, self.factor, self.min_pixels, self.max_pixels)
        return w, h

    # --- coordinates ---------------------------------------------------------------------------------
    def _extent(self, frame: Frame) -> tuple[float, float]:
        return ((frame.image_w, frame.image_h) if self.coordinates == "absolute" else (self.scale, self.scale))

    def to_phone(self, x: float, y: float, frame: Frame) -> tuple[int, int]:
        """The phone's pixel of the model's (x, y), as the authors' code maps it. A point outside the
        image (or the grid) raises :class:`ParseError`; one on its far edge is the last pixel."""
        ex, ey = self._extent(frame)
        if not (0 <= x <= ex and 0 <= y <= ey):
            kind = (f"the image you were sent ({frame.image_w}x{frame.image_h})" if self.coordinates == "absolute"
                    else f"the 0-{self.scale} grid of the screen")
            raise ParseError(f"the point ({x:g}, {y:g}) is outside {kind}")
        fx, fy = x / ex * frame.screen_w, y / ey * frame.screen_h
        if self.rounding == "floor":
            px, py = int(fx), int(fy)
        else:
            px, py = int(round(fx)), int(round(fy))
        return min(px, frame.screen_w - 1), min(py, frame.screen_h - 1)

    def point(self, kw: dict[str, Any], key: str, frame: Frame, action: str) -> tuple[int, int]:
        """The phone's pixel of the point argument ``key`` of a call's keyword arguments ``kw``."""
        if key not in kw:
            raise ParseError(f"{action} needs {key}={self.point_form}")
        x, y = point_of(kw[key], f"{action}'s {key}")
        return self.to_phone(x, y, frame)

    def to_model(self, px: int, py: int, frame: Frame) -> tuple[int, int]:
        """The model's coordinates of the phone's pixel (px, py): what the family would write for it
        (the oracle's replies). ``to_phone(to_model(p))`` is ``p`` within a pixel or two."""
        ex, ey = self._extent(frame)
        x, y = (px + 0.5) / frame.screen_w * ex, (py + 0.5) / frame.screen_h * ey
        return min(int(x), int(ex) - 1), min(int(y), int(ey) - 1)

    # --- prompt and reply ---------------------------------------------------------------------------
    def system_prompt(self, frame: Frame, ask_user: bool) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def user_text(self, instruction: str, history: Sequence[str], feedback: Sequence[str]) -> str:
        """The request's text beside the screenshot: the instruction, the earlier actions as the
        family wrote them, and what went wrong last (each family may write its own)."""
        lines = [f"Instruction: {instruction}"]
        if history:
            lines.append("Previous actions:")
            lines += [f"Step {i}: {h}" for i, h in enumerate(history, start=1)]
        if feedback:
            lines.append("Feedback on your last action: " + " ".join(feedback))
        return "\n".join(lines)

    def parse(self, reply: str, frame: Frame) -> Parsed:
        """The reply as one operation; :class:`ParseError` for anything else (a mixed format, an unknown
        action, a point outside the image)."""
        if not reply or not reply.strip():
            raise ParseError("your reply is empty: answer with one action")
        check_syntax(reply, self.syntax, self.title)
        return self.parse_action(reply, frame)

    def parse_action(self, reply: str, frame: Frame) -> Parsed:  # pragma: no cover - abstract
        raise NotImplementedError

    def retry_text(self, error: str) -> str:
        """What goes back to the model after an unreadable reply: the error and one action written in the
        family's own syntax (never another family's)."""
        example = f", for example {self.example}" if self.example else ""
        return (f"Your reply could not be read: {error}. Answer again with exactly one action in the format "
                f"given above{example}.")

    def write(self, action: str, args: dict[str, Any], thought: str, frame: Frame,
              point: PointWriter | None = None) -> str:  # pragma: no cover
        """A reply of this family for ``action`` (tap, long_press, swipe, type, open, back, home, wait,
        finish, answer) with ``args`` in the phone's pixels: what the oracle planner sends through the
        family's own parser. ``point`` turns a phone pixel into the model's coordinates (the oracle passes
        the authors' conventions, ``bench/family_conventions.py``); without it, :meth:`to_model`."""
        raise NotImplementedError

    def model_point(self, frame: Frame, point: PointWriter | None) -> PointWriter:
        """``point``, or this adapter's own :meth:`to_model` in ``frame``."""
        return point if point is not None else (lambda x, y: self.to_model(x, y, frame))


#: A phone pixel (x, y) to the model's coordinates.
PointWriter = Callable[[int, int], tuple[int, int]]

#: How far a scroll or a swipe by direction moves the finger, as a part of the screen's side.
SWIPE_SPAN = 0.4
_DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def swipe_toward(x: int, y: int, direction: Any, frame: Frame, *, content: bool) -> tuple[int, int, int, int]:
    """A finger's path through (x, y) for a direction: ``content=True`` where the direction names where
    the view scrolls (UI-TARS's ``scroll``: down shows what is below, so the finger moves up),
    ``False`` where it names the finger's motion (a ``swipe`` up moves the finger up). The path spans
    :data:`SWIPE_SPAN` of the screen, centred on the point, kept on the screen."""
    d = str(direction or "").strip().lower()
    if d not in _DIRECTIONS:
        raise ParseError(f"the direction {direction!r} is not one of up, down, left, right")
    dx, dy = _DIRECTIONS[d]
    if content:
        dx, dy = -dx, -dy
    w, h = frame.screen_w, frame.screen_h
    span = SWIPE_SPAN * (h if dy else w)
    x1, y1 = x - dx * span / 2, y - dy * span / 2
    x2, y2 = x + dx * span / 2, y + dy * span / 2

    def clamp(v: float, hi: int) -> int:
        return int(min(max(v, 1), hi - 2))
    return clamp(x1, w), clamp(y1, h), clamp(x2, w), clamp(y2, h)


def finger_direction(args: dict[str, Any]) -> str:
    """The direction a finger moves along ``args``' path (x1, y1) -> (x2, y2)."""
    dx, dy = args["x2"] - args["x1"], args["y2"] - args["y1"]
    if abs(dy) >= abs(dx):
        return "up" if dy < 0 else "down"
    return "left" if dx < 0 else "right"


def content_direction(args: dict[str, Any]) -> str:
    """Where the view scrolls for that finger's path (the opposite of the finger)."""
    return {"up": "down", "down": "up", "left": "right", "right": "left"}[finger_direction(args)]
