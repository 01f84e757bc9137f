"""The operations of Mobile-Agent, one class each, and everything that follows from the classes.

``Open App (name)``, ``Click Text (text)``, ``Click Icon (description, position)``, ``Long Press
(text or icon description, position)``, ``Type (text)``, ``Page Up`` / ``Page Down``, ``Back``,
``Exit`` (to the home screen), ``Wait`` (for a loading screen), ``Ask User (question)``, ``Take Over
(reason)`` (the last two only where the run can reach a person: ``needs = "user"``), ``Stop``.

Each class carries what the rest of the system needs to know about it:

- ``op`` (its name), ``grammar`` (the form in :data:`GRAMMAR` and the prompt) and ``help`` (the
  prompt's sentence about it), from which :func:`prompt_lines` and :data:`GRAMMAR` are derived;
- ``pattern``: the regular expression the parser matches at the start of an action line,
  ``chinese``: the names the Chinese prompts of the Mobile-Agent family use, ``json_names``: the
  ``"action"`` values of JSON-shaped actions that name it, ``argument``: how its parameter is read
  (``none``, ``text`` or ``target``: a description with an optional position);
- ``grammar`` and ``argument`` follow from ``op`` and the fields (``Click Icon (description,
  position)``, ``target`` for a class with a ``position``); a class writes its own only where the
  fields' names are not the words for people (Long Press);
- ``grounds``: what perception must find on the screen (``text``, ``icon``, ``app``, ``target``:
  text, else an icon; or None), and ``needs``: the device capability it uses (or None);
- how it becomes a gesture: :meth:`gesture` for operations that ground nothing (Page Up and Page
  Down through :class:`_Scroll`'s ``swipe``, Back and Exit through :class:`_Press`'s ``key``),
  :meth:`at` for those that do (the point grounding found).

The dataclass fields are the parameters; :func:`operation_to_dict` / :func:`operation_from_dict`
are derived from them. ``str(op)`` is the canonical grammar form, which the parser reads back to
an equal operation. Adding an operation: a class here (and in :data:`OPERATION_TYPES`), its
gesture in :mod:`mobile_agent.device.gestures` if it needs a new one, the devices that perform it,
and the report's overlay; docs/design.md lists the files.
"""

from __future__ import annotations

import re
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Union

from mobile_agent.device import gestures as g
from mobile_agent.device.gestures import Gesture
# Positions are shared with perception, so they live with the shared value types.
from mobile_agent.types import POSITIONS, normalize_position  # noqa: F401 (re-exported)


@dataclass(frozen=True)
class Geometry:
    """What operations that ground nothing need to become a gesture: the screen size and the
    durations the agent's settings choose."""

    width: int
    height: int
    swipe_ms: int = 400
    long_press_ms: int = g.LONG_PRESS_MS
    wait_s: float = 5.0


class _Op:
    """What every operation class declares (see the module's docstring)."""

    op: ClassVar[str]
    grammar: ClassVar[str]
    help: ClassVar[str]
    pattern: ClassVar[str]
    chinese: ClassVar[tuple[str, ...]] = ()
    json_names: ClassVar[tuple[str, ...]] = ()
    argument: ClassVar[str]
    grounds: ClassVar[str | None] = None
    needs: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Derive ``grammar`` and ``argument`` from ``op`` and the fields, where the class does not
        write its own (runs before ``@dataclass``: the fields are the class's own annotations)."""
        super().__init_subclass__(**kwargs)
        if "op" not in cls.__dict__:  # a base such as _Scroll, not an operation
            return
        params = list(cls.__dict__.get("__annotations__", {}))
        if "grammar" not in cls.__dict__:
            cls.grammar = f"{cls.op} ({', '.join(params)})" if params else cls.op
        if "argument" not in cls.__dict__:
            # a base that is not an operation itself (_PointOp) may fix it for its subclasses
            fixed = next((b.__dict__["argument"] for b in cls.__mro__[1:]
                          if "argument" in b.__dict__ and "op" not in b.__dict__), None)
            cls.argument = fixed or ("none" if not params else "target" if "position" in params else "text")

    def __post_init__(self) -> None:
        if hasattr(self, "position"):
            from mobile_agent.perception.positions import read_position  # "右上角" as well as "top right"

            object.__setattr__(self, "position", read_position(self.position))

    def __str__(self) -> str:
        """The canonical grammar form: ``Stop``, ``Click Text (Wi-Fi)``, ``Click Icon (a cog, top right)``."""
        if self.argument == "none":
            return self.op
        position = getattr(self, "position", ())
        return f"{self.op} ({self.words()}, {' '.join(position)})" if position else f"{self.op} ({self.words()})"

    def words(self) -> str:
        """The words of its parameter (what it names on the screen), or ``""``."""
        return "" if self.argument == "none" else getattr(self, fields(self)[0].name)  # type: ignore[arg-type]

    def gesture(self, geo: Geometry) -> Gesture:
        """The gesture of an operation that grounds nothing."""
        return g.NoGesture()

    def at(self, x: int, y: int, geo: Geometry | None = None) -> Gesture:
        """The gesture of a grounded operation at the point grounding found."""
        return g.Tap(x, y)


@dataclass(frozen=True)
class OpenApp(_Op):
    name: str
    op = "Open App"
    help = "open an app by the name written under its icon on the home screen."
    pattern = r"open[\s_-]*(?:the\s+|an?\s+)?app(?:lication)?"
    chinese = ("打开应用", "打开")
    json_names = ("open_app", "launch_app", "launch")
    grounds = "app"


@dataclass(frozen=True)
class ClickText(_Op):
    text: str
    op = "Click Text"
    help = ("tap the text on the screen. Use this whenever the thing to tap shows text; write "
            "the text exactly as it appears on the screen, as short as is unambiguous.")
    pattern = r"(?:click|tap)[\s_-]*(?:on\s+)?(?:the\s+)?text"
    chinese = ("点击文本", "点击文字")
    json_names = ("click_text", "tap_text")
    grounds = "text"


@dataclass(frozen=True)
class ClickIcon(_Op):
    description: str
    position: tuple[str, ...] = field(default=())
    op = "Click Icon"
    help = ("tap an icon that has no text. Describe its colour and shape; the position is one "
            "or two of top, bottom, left, right, center, e.g. Click Icon (white magnifier on a "
            "blue circle, top right).")
    pattern = r"(?:click|tap)[\s_-]*(?:on\s+)?(?:the\s+|an?\s+)?icon"
    chinese = ("点击图标",)
    json_names = ("click_icon", "tap_icon")
    grounds = "icon"


@dataclass(frozen=True)
class LongPress(_Op):
    """Press and hold a text or an icon (a context menu, selection mode)."""

    target: str
    position: tuple[str, ...] = field(default=())
    op = "Long Press"
    grammar = "Long Press (text or icon description, position)"
    help = ("press and hold a text or an icon, for its menu of actions (delete, share, pin...). "
            "Write the text as it appears, or describe the icon; the position is optional, "
            "as for Click Icon.")
    pattern = r"long[\s_-]*(?:press|click|tap)(?:[\s_-]*on)?(?:\s+the)?"
    chinese = ("长按",)
    json_names = ("long_press", "long_click")
    grounds = "target"
    needs = "long_press"

    def at(self, x: int, y: int, geo: Geometry | None = None) -> Gesture:
        return g.LongPress(x, y, geo.long_press_ms if geo is not None else g.LONG_PRESS_MS)


@dataclass(frozen=True)
class Type(_Op):
    text: str
    #: Empty the field before typing (AutoGLM's authors' Type: ``phone_agent/actions/handler.py``
    #: ``_handle_type`` calls ``clear_text`` first). The paper's Type types at the cursor; the
    #: parameter is not in the grammar, and records name it only when it is set.
    clear: bool = field(default=False, metadata={"omit_default": True})
    op = "Type"
    grammar = "Type (text)"
    help = ("type into the input field that has the focus. Use it only after clicking an input "
            "field, when it shows a cursor or the keyboard. End the text with \\n to press Enter.")
    pattern = r"type(?:[\s_-]*(?:the\s+)?text)?"
    chinese = ("输入文本", "输入")
    json_names = ("type", "input_text", "type_text", "input")

    def gesture(self, geo: Geometry) -> Gesture:
        return g.TypeText(self.text, clear=self.clear)


class _Scroll(_Op):
    """A page scroll: a swipe down the middle of the screen, ``swipe`` giving where the finger
    starts and ends as fractions of the screen's height."""

    swipe: ClassVar[tuple[float, float]]

    def gesture(self, geo: Geometry) -> Gesture:
        w, h = geo.width, geo.height
        start, end = self.swipe
        return g.Swipe(w // 2, int(h * start), w // 2, int(h * end), geo.swipe_ms)


@dataclass(frozen=True)
class PageUp(_Scroll):
    """Scroll so that content above comes into view (a swipe downwards)."""

    op = "Page Up"
    help = "scroll to see content above."
    pattern = r"page[\s_-]*up|scroll[\s_-]*up"
    # 下滑: the finger slides down, the content above comes into view.
    chinese = ("向上翻页", "上翻", "下滑")
    json_names = ("page_up", "scroll_up", "swipe_down")
    swipe = (0.3, 0.7)


@dataclass(frozen=True)
class PageDown(_Scroll):
    """Scroll so that content below comes into view (a swipe upwards)."""

    op = "Page Down"
    help = "scroll to see content below."
    pattern = r"page[\s_-]*down|scroll[\s_-]*down"
    # 上滑: the finger slides up, the content below comes into view.
    chinese = ("向下翻页", "下翻", "上滑")
    json_names = ("page_down", "scroll_down", "swipe_up")
    swipe = (0.7, 0.3)


class _Press(_Op):
    """A press of a system key (``key``: ``back`` or ``home``)."""

    key: ClassVar[str]

    def gesture(self, geo: Geometry) -> Gesture:
        return g.Key(self.key)


@dataclass(frozen=True)
class Back(_Press):
    op = "Back"
    help = "go back to the previous screen."
    pattern = r"back"
    chinese = ("返回",)
    json_names = ("back", "go_back", "navigate_back")
    key = "back"


@dataclass(frozen=True)
class Exit(_Press):
    """Go to the home screen."""

    op = "Exit"
    help = "go to the home screen."
    pattern = r"exit"
    chinese = ("退出", "回到主页")
    json_names = ("exit", "home", "go_home", "navigate_home")
    key = "home"


@dataclass(frozen=True)
class Wait(_Op):
    """Touch nothing and wait until the screen is still (a loading screen, an animation)."""

    op = "Wait"
    help = "touch nothing and wait, when the screen is loading or still changing."
    pattern = r"wait"
    chinese = ("等待",)
    json_names = ("wait",)
    needs = "wait_still"

    def gesture(self, geo: Geometry) -> Gesture:
        return g.Wait(geo.wait_s)


@dataclass(frozen=True)
class AskUser(_Op):
    """Ask the user something only they know; the answer comes back into the history as their words.
    Offered only where the run can reach a person (``needs = "user"``: the run's ``ask`` callback)."""

    question: str
    op = "Ask User"
    help = ("ask the user a question when the instruction leaves out something only they know (which of "
            "two contacts, which size, a code sent to them). Their answer comes back in the history. Never "
            "ask what the screen shows, and ask once.")
    pattern = r"ask[\s_-]*(?:the\s+)?(?:user|human|person)"
    chinese = ("询问用户", "询问")
    json_names = ("ask_user", "ask", "ask_human", "question")
    needs = "user"


@dataclass(frozen=True)
class TakeOver(_Op):
    """Hand the phone to the user for something only they may do (log in, a captcha, a payment);
    when they say they are done the agent looks at the screen again."""

    reason: str
    op = "Take Over"
    help = ("hand the phone to the user for what only they may do (log in, a captcha, a payment), "
            "saying what. When they say they are done you see the screen again.")
    pattern = r"take[\s_-]*over|hand[\s_-]*over"
    chinese = ("请求接管", "接管")
    json_names = ("take_over", "takeover", "hand_over", "call_user")
    needs = "user"


#: The operations that wait for a person (offered only where the run has an ``ask`` callback).
USER_OPERATIONS: tuple[type, ...] = (AskUser, TakeOver)

#: What the run itself declares beside the device's capabilities when a person can be reached.
USER = "user"


@dataclass(frozen=True)
class Stop(_Op):
    """The instruction is complete."""

    op = "Stop"
    help = "the instruction is completely done. You will be asked to confirm with the final screen."
    pattern = r"stop"
    chinese = ("停止", "完成")
    json_names = ("stop", "finish", "done", "complete")


@dataclass(frozen=True)
class Answer(Stop):
    """The instruction is done, and ``text`` is what the user gets back (a question's answer, what was
    found): kept in the step's record and in ``summary.json`` (``answer``). A point-output model's
    ``answer`` / ``finished(content=...)`` / ``finish(message=...)`` becomes one; the loop treats it as Stop."""

    text: str
    op = "Answer"
    help = "the instruction is done; the text is what the user gets back (an answer, what was found)."
    pattern = r"answer"
    json_names = ("answer",)


# --- point operations: what point-output GUI models (UI-TARS, Qwen-VL, GUI-Owl, AutoGLM...) do ----------------

#: How long a drag holds before it moves (a press-and-drag on Android: a swipe held this long).
DRAG_MS = 1500
#: The keys Press Key names: the three every device presses (back, home, enter) and the app menu key.
PRESS_KEYS = ("back", "home", "enter", "menu")


class _PointOp(_Op):
    """An operation at pixels of the screenshot the model saw (already mapped to the phone's pixels by
    its family's adapter, agent/families/). ``grounds = "point"``: the loop records what lies at the point
    (the OCR line, the icon box, the tree's label) and every gate judges the point by it."""

    argument = "point"
    grounds = "point"

    def __str__(self) -> str:
        return f"{self.op} ({', '.join(str(v) for v in self.coordinates())})"

    def coordinates(self) -> list[int]:
        return [int(getattr(self, f.name)) for f in fields(self) if f.type == "int"]  # type: ignore[arg-type]

    def words(self) -> str:
        return ""

    def points(self) -> list[tuple[int, int]]:
        """The points it touches, first the one the finger goes down on."""
        v = self.coordinates()
        return [(v[i], v[i + 1]) for i in range(0, len(v) - 1, 2)]


@dataclass(frozen=True)
class TapPoint(_PointOp):
    """A tap at (x, y). ``sensitive``: the model's own words that the tap is a sensitive act
    (AutoGLM's ``Tap`` with ``message=``): with ``--confirm`` the user is asked first, whatever is there."""

    x: int
    y: int
    sensitive: str = ""
    op = "Tap"
    help = "tap the point (x, y) of the screenshot."
    pattern = r"tap"

    def __str__(self) -> str:
        return f"Tap ({self.x}, {self.y})" + (f" [sensitive: {self.sensitive}]" if self.sensitive else "")

    def gesture(self, geo: Geometry) -> Gesture:
        return g.Tap(self.x, self.y)


@dataclass(frozen=True)
class DoubleTapPoint(_PointOp):
    x: int
    y: int
    op = "Double Tap"
    help = "tap the point (x, y) twice in quick succession."
    pattern = r"double[\s_-]*tap"

    def gesture(self, geo: Geometry) -> Gesture:
        return g.DoubleTap(self.x, self.y)


@dataclass(frozen=True)
class LongPressPoint(_PointOp):
    x: int
    y: int
    op = "Long Press At"
    help = "press and hold the point (x, y)."
    pattern = r"long[\s_-]*press[\s_-]*at"
    needs = "long_press"

    def gesture(self, geo: Geometry) -> Gesture:
        return g.LongPress(self.x, self.y, geo.long_press_ms)


@dataclass(frozen=True)
class SwipePoints(_PointOp):
    x1: int
    y1: int
    x2: int
    y2: int
    op = "Swipe"
    help = "slide the finger from (x1, y1) to (x2, y2)."
    pattern = r"swipe"

    def gesture(self, geo: Geometry) -> Gesture:
        return g.Swipe(self.x1, self.y1, self.x2, self.y2, geo.swipe_ms)


@dataclass(frozen=True)
class Drag(_PointOp):
    x1: int
    y1: int
    x2: int
    y2: int
    op = "Drag"
    help = "press (x1, y1), hold, and move to (x2, y2) (an item moved, a slider)."
    pattern = r"drag"

    def gesture(self, geo: Geometry) -> Gesture:
        return g.Swipe(self.x1, self.y1, self.x2, self.y2, DRAG_MS)


@dataclass(frozen=True)
class PressKey(_Op):
    """A system button or key: back, home, enter, menu (and the other names a family writes: recent,
    volume_up...). Back, home and enter every device presses; any other key K needs the capability
    ``key_K``, which no device declares yet: the step is not carried out, says so, and the model is told."""

    key: str
    op = "Press Key"
    help = "press a system button: back, home, enter or menu."
    pattern = r"press[\s_-]*key"

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,31}", self.key):
            raise ValueError(f"a key is a lower-case name such as {', '.join(PRESS_KEYS)}; got {self.key!r}")

    @property  # type: ignore[override]
    def needs(self) -> str | None:  # noqa: D401 - what the key needs of the device
        return None if self.key in g.KEYS else f"key_{self.key}"

    def gesture(self, geo: Geometry) -> Gesture:
        return g.Key(self.key)


Operation = Union[OpenApp, ClickText, ClickIcon, LongPress, Type, PageUp, PageDown, Back, Exit, Wait, AskUser,
                  TakeOver, Stop, Answer, TapPoint, DoubleTapPoint, LongPressPoint, SwipePoints, Drag, PressKey]

#: Every operation, in the order of the grammar and the prompt.
OPERATION_TYPES: tuple[type, ...] = (OpenApp, ClickText, ClickIcon, LongPress, Type, PageUp, PageDown, Back,
                                     Exit, Wait, AskUser, TakeOver, Stop)

#: The operations of point-output models (agent/families/): never offered in the ReAct prompt, read from
#: records and replies of those families.
POINT_OPERATION_TYPES: tuple[type, ...] = (TapPoint, DoubleTapPoint, LongPressPoint, SwipePoints, Drag, PressKey,
                                           Answer)

#: Every operation a record may hold.
ALL_OPERATION_TYPES: tuple[type, ...] = OPERATION_TYPES + POINT_OPERATION_TYPES

#: The operations of the original Mobile-Agent, which every device supports.
BASIC_OPERATIONS: tuple[type, ...] = tuple(t for t in OPERATION_TYPES if t.needs is None)


def supported(capabilities: frozenset[str] | set[str] | None) -> tuple[type, ...]:
    """The operations a device with ``capabilities`` can carry out (all of them for None). Ask User
    and Take Over need ``"user"``, which the run adds where it can reach a person."""
    if capabilities is None:
        return OPERATION_TYPES
    return tuple(t for t in OPERATION_TYPES if t.needs is None or t.needs in capabilities)


def grammar(types: tuple[type, ...] = OPERATION_TYPES) -> str:
    """``Open App (name) | Click Text (text) | ...`` for ``types``."""
    return " | ".join(t.grammar for t in types)


def prompt_lines(types: tuple[type, ...] = OPERATION_TYPES) -> str:
    """The system prompt's list of operations: ``- Grammar: help`` a line."""
    return "\n".join(f"- {t.grammar}: {t.help}" for t in types)


#: The grammar of every operation, for error messages.
GRAMMAR = grammar()


def operation_to_dict(op: Operation) -> dict[str, Any]:
    """A JSON-ready form: ``{"op": "Click Icon", "description": ..., "position": [...]}``."""
    d: dict[str, Any] = {"op": op.op}
    for f in fields(op):
        v = getattr(op, f.name)
        if f.metadata.get("omit_default") and v == f.default:
            continue
        d[f.name] = list(v) if isinstance(v, tuple) else v
    return d


def operation_type(name: str) -> type:
    """The class of the operation called ``name`` (``"Click Text"``). Raises ``ValueError``."""
    for t in ALL_OPERATION_TYPES:
        if t.op == name:
            return t
    raise ValueError(f"unknown operation {name!r}; operations: {GRAMMAR}")


def operation_from_dict(d: dict[str, Any]) -> Operation:
    """The operation of :func:`operation_to_dict`'s form. Raises ``ValueError`` saying what is wrong."""
    if not isinstance(d, dict):
        raise ValueError(f"an operation is a JSON object, got {type(d).__name__}")
    t = operation_type(d.get("op"))  # type: ignore[arg-type]
    kwargs: dict[str, Any] = {}
    for f in fields(t):
        if f.name in d:
            v = d[f.name]
            if f.type == "str" and not isinstance(v, str):
                raise ValueError(f"{t.op}: {f.name!r} must be a string, got {v!r}")
            if f.type == "int" and (isinstance(v, bool) or not isinstance(v, int)):
                raise ValueError(f"{t.op}: {f.name!r} must be a whole number of pixels, got {v!r}")
            if f.type == "bool" and not isinstance(v, bool):
                raise ValueError(f"{t.op}: {f.name!r} must be true or false, got {v!r}")
            kwargs[f.name] = tuple(v) if isinstance(v, list) else v
        elif f.default is MISSING and f.default_factory is MISSING:
            raise ValueError(f"{t.op} needs {f.name!r}, got {d!r}")
    return t(**kwargs)

