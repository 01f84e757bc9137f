"""The one parse table of the families: what an action name of a family's reply becomes among our typed
operations, and which of its arguments carry the point, the text or the app.

The facts several families share are written once here: a tap, a double tap and a long press at a
point; a swipe from one point to another, or by a direction from an optional point (the finger's
motion, or where the view scrolls: ``content``); a drag; typing; opening an app; a key; waiting; a
finish whose text, when there is one, is the answer; a question to the user and a hand-over, whose
text falls back on the thought. Each family's module keeps its own table (``ACTS``: an :class:`Act` by action
name) and what is its own: how a point is written and read, how its errors are worded (its
:class:`Args`), and the few actions no other family has (``mobile_use``'s key, system_button and
terminate; AutoGLM's Note and Call_API).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from mobile_agent.agent import operations as ops
from mobile_agent.agent.families.base import Frame, Parsed, call_of, content_direction, swipe_toward, text_arg
from mobile_agent.errors import ParseError

#: The operations a table entry may name (``Act.op``).
OPS = ("tap", "double_tap", "long_press", "swipe", "drag", "type", "open", "key", "wait", "finish", "answer",
       "ask", "take_over")


@dataclass(frozen=True)
class Act:
    """One action of a family: our operation ``op`` (one of :data:`OPS`) and its arguments' names.

    ``at``: the point arguments, each a tuple of names tried in order (one for a tap, a start and an end
    for a swipe or a drag; a swipe by direction has an empty end, or reads its end only where present);
    ``text``: the argument holding the text typed, the app opened, the answer, or the question;
    ``key``: the key pressed; ``direction``: the argument of a swipe by direction, ``content`` true where
    it names where the view scrolls (the finger moves the other way); ``sensitive``: the argument that
    makes a tap a sensitive act; ``fallback``: a question's or a hand-over's words where neither the
    text nor the thought gives any; ``clear``: a type that empties the field first (AutoGLM's).
    """

    op: str
    at: tuple[tuple[str, ...], ...] = ()
    text: str = ""
    key: str = ""
    direction: str = ""
    content: bool = False
    sensitive: str = ""
    fallback: str = ""
    clear: bool = False

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"unknown operation {self.op!r} in a family's table; one of {', '.join(OPS)}")


class Args:
    """A reply's arguments as a call's keyword arguments (``click(point=...)``, ``do(action=..., element=...)``),
    read by ``family``: a point through :meth:`Family.point` (its first name), a text with ``text_arg``'s
    error. Families that read or word otherwise subclass it."""

    def __init__(self, family: Any, values: dict[str, Any], frame: Frame, action: str) -> None:
        self.family, self.values, self.frame, self.action = family, values, frame, action

    def has(self, key: str) -> bool:
        return key in self.values

    def words(self, key: str) -> str | None:
        """The argument's text where it is a text that is not blank, else None."""
        v = self.values.get(key) if key else None
        return v if isinstance(v, str) and v.strip() else None

    def point(self, keys: tuple[str, ...]) -> tuple[int, int]:
        return self.family.point(self.values, keys[0], self.frame, self.action)

    def text(self, key: str) -> str:
        return text_arg(self.values, key, self.action)

    def app(self, key: str) -> str:
        return text_arg(self.values, key, self.action)

    def quote(self, key: str) -> str:
        return key


class StrictArgs(Args):
    """Arguments whose text must be a string (a blank one too) and whose app's name is stripped and may not
    be blank; a missing one's error in the family's words (:meth:`needs`)."""

    def needs(self, key: str, app: bool) -> str:
        raise NotImplementedError

    def text(self, key: str) -> str:
        v = self.values.get(key)
        if not isinstance(v, str):
            raise ParseError(self.needs(key, False))
        return v

    def app(self, key: str) -> str:
        v = self.words(key)
        if v is None:
            raise ParseError(self.needs(key, True))
        return v.strip()


def to_operation(act: Act, args: Args, thought: str) -> ops.Operation:
    """The typed operation of ``act`` with the reply's ``args`` (points in the phone's pixels). Raises
    :class:`ParseError` (in the family's words) for a missing or malformed argument."""
    op = act.op
    if op in ("tap", "double_tap", "long_press"):
        x, y = args.point(act.at[0])
        if op == "tap":
            msg = args.values.get(act.sensitive) if act.sensitive else None
            return ops.TapPoint(x, y, sensitive=msg if isinstance(msg, str) else "")
        return (ops.DoubleTapPoint if op == "double_tap" else ops.LongPressPoint)(x, y)
    if op == "drag":
        return ops.Drag(*args.point(act.at[0]), *args.point(act.at[1]))
    if op == "swipe":
        start, end = act.at[0], (act.at[1] if len(act.at) > 1 else ())
        if end and (not act.direction or any(args.has(k) for k in end)):
            return ops.SwipePoints(*args.point(start), *args.point(end))
        if end and not args.has(act.direction):
            raise ParseError(f"{args.action} needs {args.quote(start[0])} and {args.quote(end[0])} "
                             f"(or a {args.quote(act.direction)})")
        f = args.frame
        x, y = args.point(start) if any(args.has(k) for k in start) else (f.screen_w // 2, f.screen_h // 2)
        return ops.SwipePoints(*swipe_toward(x, y, args.values.get(act.direction), f, content=act.content))
    if op == "type":
        return ops.Type(args.text(act.text), clear=act.clear)
    if op == "open":
        return ops.OpenApp(args.app(act.text))
    if op == "key":
        return ops.PressKey(act.key)
    if op == "wait":
        return ops.Wait()
    if op == "finish":
        said = args.words(act.text)
        return ops.Answer(said) if said is not None else ops.Stop()
    if op == "answer":
        return ops.Answer(args.text(act.text))
    said = args.words(act.text) or thought or act.fallback
    return ops.AskUser(said) if op == "ask" else ops.TakeOver(said)


def read_call(family: Any, call: str, acts: dict[str, Act], args: type[Args], frame: Frame, thought: str,
              known: str) -> Parsed:
    """A call ``name(key=value, ...)`` read by the family's table ``acts``, its arguments by ``args``; a name
    the table lacks is refused with the actions the family's prompt names (``known``)."""
    name, kw = call_of(call)
    act = acts.get(name)
    if act is None:
        raise ParseError(f"{name}() is not one of {family.title}'s actions ({known})")
    return Parsed(thought, to_operation(act, args(family, kw, frame, name), thought))


def written(action: str, args: dict[str, Any], forms: dict[str, str], point: Callable[[int, int], str],
            quote: Callable[[str], str] = repr, **extra: str) -> str:
    """The oracle's ``action`` (``bench/family_oracle.py``: tap, long_press, swipe, type, open, back, home,
    wait, answer, stop) in a family's words: its form in ``forms`` (``forms["stop"]`` where it has none)
    with the phone's points written by ``point`` and texts quoted by ``quote``: ``{at}`` a tap's or a long
    press's point; a swipe's ``{start}``, ``{end}``, the middle of the finger's path ``{middle}`` and where
    the view goes ``{direction}``; ``{text}`` (typed or answered) and ``{app}``; and ``extra``."""
    values = dict(extra)
    if action in ("tap", "long_press"):
        values["at"] = point(args["x"], args["y"])
    elif action == "swipe":
        values.update(start=point(args["x1"], args["y1"]), end=point(args["x2"], args["y2"]),
                      middle=point((args["x1"] + args["x2"]) // 2, (args["y1"] + args["y2"]) // 2),
                      direction=content_direction(args))
    values.update({k: quote(args[k]) for k in ("text", "app") if k in args})
    return forms.get(action, forms["stop"]).format(**values)


__all__ = ["OPS", "Act", "Args", "StrictArgs", "read_call", "to_operation", "written"]
