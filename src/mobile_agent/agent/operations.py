"""The eight operations of Mobile-Agent, as one typed representation.

``Open App (name)``, ``Click Text (text)``, ``Click Icon (description, position)``, ``Type (text)``,
``Page Up`` / ``Page Down``, ``Back``, ``Exit`` (to the home screen), ``Stop``.

``str(op)`` gives the canonical grammar form, which the parser in :mod:`mobile_agent.agent.parser`
reads back to an equal operation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Union

# Positions are shared with perception, so they live with the shared value types.
from mobile_agent.types import POSITIONS, normalize_position  # noqa: F401 (re-exported)


@dataclass(frozen=True)
class OpenApp:
    name: str
    op: ClassVar[str] = "Open App"

    def __str__(self) -> str:
        return f"Open App ({self.name})"


@dataclass(frozen=True)
class ClickText:
    text: str
    op: ClassVar[str] = "Click Text"

    def __str__(self) -> str:
        return f"Click Text ({self.text})"


@dataclass(frozen=True)
class ClickIcon:
    description: str
    position: tuple[str, ...] = field(default=())
    op: ClassVar[str] = "Click Icon"

    def __post_init__(self) -> None:
        object.__setattr__(self, "position", normalize_position(self.position))

    def __str__(self) -> str:
        if self.position:
            return f"Click Icon ({self.description}, {' '.join(self.position)})"
        return f"Click Icon ({self.description})"


@dataclass(frozen=True)
class Type:
    text: str
    op: ClassVar[str] = "Type"

    def __str__(self) -> str:
        return f"Type ({self.text})"


@dataclass(frozen=True)
class PageUp:
    """Scroll so that content above comes into view (a swipe downwards)."""

    op: ClassVar[str] = "Page Up"

    def __str__(self) -> str:
        return "Page Up"


@dataclass(frozen=True)
class PageDown:
    """Scroll so that content below comes into view (a swipe upwards)."""

    op: ClassVar[str] = "Page Down"

    def __str__(self) -> str:
        return "Page Down"


@dataclass(frozen=True)
class Back:
    op: ClassVar[str] = "Back"

    def __str__(self) -> str:
        return "Back"


@dataclass(frozen=True)
class Exit:
    """Go to the home screen."""

    op: ClassVar[str] = "Exit"

    def __str__(self) -> str:
        return "Exit"


@dataclass(frozen=True)
class Stop:
    """The instruction is complete."""

    op: ClassVar[str] = "Stop"

    def __str__(self) -> str:
        return "Stop"


Operation = Union[OpenApp, ClickText, ClickIcon, Type, PageUp, PageDown, Back, Exit, Stop]
OPERATION_TYPES: tuple[type, ...] = (OpenApp, ClickText, ClickIcon, Type, PageUp, PageDown, Back, Exit, Stop)


def operation_to_dict(op: Operation) -> dict:
    """A JSON-ready form: ``{"op": "Click Icon", "description": ..., "position": [...]}``."""
    d: dict = {"op": op.op}
    if isinstance(op, (OpenApp,)):
        d["name"] = op.name
    elif isinstance(op, (ClickText, Type)):
        d["text"] = op.text
    elif isinstance(op, ClickIcon):
        d["description"] = op.description
        d["position"] = list(op.position)
    return d


def operation_from_dict(d: dict) -> Operation:
    kind = d.get("op")
    for t in OPERATION_TYPES:
        if t.op == kind:
            if t is OpenApp:
                return OpenApp(d["name"])
            if t in (ClickText, Type):
                return t(d["text"])
            if t is ClickIcon:
                return ClickIcon(d["description"], tuple(d.get("position") or ()))
            return t()
    raise ValueError(f"unknown operation {kind!r}")
