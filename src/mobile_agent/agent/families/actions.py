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
from typing import Any

from mobile_agent.agent import operations as ops
from mobile_agent.agent.families.base import Frame, swipe_toward, text_arg
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
    text nor the thought gives any.
    """

    op: str
    at: tuple[tuple[str, ...], ...] = ()
    text: str = ""
    key: str = ""
    direction: str = ""
    content: bool = False
    sensitive: str = ""
    fallback: str = ""

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
        return ops.Type(args.text(act.text))
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


__all__ = ["OPS", "Act", "Args", "to_operation"]
