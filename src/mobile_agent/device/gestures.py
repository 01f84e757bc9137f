"""Gestures: what the agent does to a phone, as frozen values.

One operation of the planner becomes one gesture (a tap at the point grounding found, a swipe for
Page Down, a key press for Back). Each gesture knows its JSON form (the ``gesture`` field of a step
record in ``steps.jsonl``), a one-line description for people, and how to perform itself on a
:class:`~mobile_agent.device.base.Device`.

```python
g = Tap(540, 1200)
g.to_dict()            # {"kind": "tap", "x": 540, "y": 1200}
gesture_from_dict(g.to_dict()) == g
g.describe()           # "tap at (540, 1200)"
g.perform(device)
```

The JSON form is the one docs/interfaces.md fixes for ``steps.jsonl``; :func:`gesture_from_dict`
also reads every form written before these types existed.
"""

from __future__ import annotations

import math
from dataclasses import MISSING, dataclass, fields
from typing import Any, Callable, ClassVar, Union

#: Keys a :class:`Key` gesture presses.
KEYS = ("back", "home", "enter")

#: How long a long press holds, by default (Android's long-press timeout is 400-500 ms).
LONG_PRESS_MS = 800
#: Android's touch slop: a finger that moves less than this many dp is a press, not a swipe (the
#: simulated phone takes it the same way).
TOUCH_SLOP_DP = 8
#: The narrowest common phone's width in dp: pixels per dp are taken as ``width / PHONE_WIDTH_DP``,
#: which errs towards a larger slop (a gesture judged as a press rather than missed as one).
PHONE_WIDTH_DP = 360
#: A press held this long is a long press (Android's long-press timeout).
LONG_PRESS_TIMEOUT_MS = 400


def _int(d: dict[str, Any], key: str) -> int:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"gesture field {key!r} must be a number, got {v!r}")
    return int(v)


def _str(d: dict[str, Any], key: str, default: Any = None) -> str:
    v = d.get(key, default)
    if not isinstance(v, str):
        raise ValueError(f"gesture field {key!r} must be a string, got {v!r}")
    return v


def _bool(d: dict[str, Any], key: str) -> bool:
    v = d.get(key)
    if not isinstance(v, bool):
        raise ValueError(f"gesture field {key!r} must be true or false, got {v!r}")
    return v


_READERS: dict[str, Callable[[dict[str, Any], str], Any]] = {"int": _int, "str": _str, "bool": _bool}


class _Fields:
    """A gesture whose JSON form is its kind, then its fields in their order; read back field by field
    (a whole number or a text; a field with a default may be absent)."""

    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **{f.name: getattr(self, f.name) for f in fields(self)}}  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Any:
        return cls(*(f.default if f.name not in d and f.default is not MISSING else _READERS[str(f.type)](d, f.name)
                     for f in fields(cls)))  # type: ignore[arg-type]


@dataclass(frozen=True)
class Tap(_Fields):
    x: int
    y: int
    kind: ClassVar[str] = "tap"

    def describe(self) -> str:
        return f"tap at ({self.x}, {self.y})"

    def perform(self, device: Any) -> None:
        device.tap(self.x, self.y)


@dataclass(frozen=True)
class DoubleTap(Tap):
    """Two taps at one point in quick succession (drawn as a tap)."""

    kind: ClassVar[str] = "double_tap"

    def describe(self) -> str:
        return f"double tap at ({self.x}, {self.y})"

    def perform(self, device: Any) -> None:
        double = getattr(device, "double_tap", None)  # a device that taps twice as one gesture (an iPhone)
        if callable(double):
            double(self.x, self.y)
            return
        device.tap(self.x, self.y)
        device.tap(self.x, self.y)


@dataclass(frozen=True)
class LongPress(_Fields):
    x: int
    y: int
    duration_ms: int = LONG_PRESS_MS
    kind: ClassVar[str] = "long_press"

    def describe(self) -> str:
        return f"long press at ({self.x}, {self.y}) for {self.duration_ms} ms"

    def perform(self, device: Any) -> None:
        device.long_press(self.x, self.y, self.duration_ms)


@dataclass(frozen=True)
class Swipe:
    x1: int
    y1: int
    x2: int
    y2: int
    duration_ms: int | None = 300
    kind: ClassVar[str] = "swipe"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "x1": self.x1, "y1": self.y1, "x2": self.x2, "y2": self.y2}
        if self.duration_ms is not None:
            d["duration_ms"] = self.duration_ms
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Swipe:
        duration = _int(d, "duration_ms") if d.get("duration_ms") is not None else None
        return cls(_int(d, "x1"), _int(d, "y1"), _int(d, "x2"), _int(d, "y2"), duration)

    def describe(self) -> str:
        return (f"swipe ({self.x1}, {self.y1}) → ({self.x2}, {self.y2})"
                + (f" in {self.duration_ms} ms" if self.duration_ms is not None else ""))

    def perform(self, device: Any) -> None:
        device.swipe(self.x1, self.y1, self.x2, self.y2, 300 if self.duration_ms is None else self.duration_ms)


@dataclass(frozen=True)
class TypeText(_Fields):
    """Type into the focused field; a trailing newline presses Enter. With ``clear``, what the field
    holds is cleared first (where the device declares ``clear_text``), as AutoGLM's authors' Type does;
    its JSON form names ``clear`` only when it is set, so that earlier records read the same."""

    text: str
    clear: bool = False
    kind: ClassVar[str] = "type"

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        if not self.clear:
            del d["clear"]
        return d

    def describe(self) -> str:
        return f"clear the field, then type {self.text!r}" if self.clear else f"type {self.text!r}"

    def perform(self, device: Any) -> None:
        if self.clear:
            from mobile_agent.device.base import device_capabilities

            if "clear_text" in device_capabilities(device):
                device.clear_text()
        device.type_text(self.text)


@dataclass(frozen=True)
class Key:
    """Press a key: ``back``, ``home`` or ``enter``. Its JSON kind is the key's name."""

    key: str

    def __post_init__(self) -> None:
        if self.key not in KEYS:
            raise ValueError(f"unknown key {self.key!r}; keys: {', '.join(KEYS)}")

    @property
    def kind(self) -> str:
        return self.key

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.key}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Key:
        return cls(str(d.get("kind")))

    def describe(self) -> str:
        return f"press {self.key}"

    def perform(self, device: Any) -> None:
        if self.key == "back":
            device.back()
        elif self.key == "home":
            device.home()
        else:
            device.type_text("\n")


@dataclass(frozen=True)
class Launch(_Fields):
    """Open an app by name or package through the device itself (no tap on the screen)."""

    app: str
    kind: ClassVar[str] = "launch"

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Launch:
        return cls(_str(d, "app", d.get("launch")))

    def describe(self) -> str:
        return f"launch {self.app!r}"

    def perform(self, device: Any) -> bool:
        return bool(device.launch(self.app))


@dataclass(frozen=True)
class Wait(_Fields):
    """Touch nothing; wait until the screen is still (a loading screen), at most ``timeout_s``."""

    timeout_s: float = 5.0
    kind: ClassVar[str] = "wait"

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Wait:
        v = d.get("timeout_s", 5.0)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            raise ValueError(f"gesture field 'timeout_s' must be a number of seconds, got {v!r}")
        return cls(float(v))

    def describe(self) -> str:
        return f"wait up to {self.timeout_s:g} s"

    def perform(self, device: Any) -> None:
        device.wait_still(timeout_s=self.timeout_s)


@dataclass(frozen=True)
class NoGesture(_Fields):
    """Nothing done to the phone (Stop, a dry run, nothing found to tap)."""

    kind: ClassVar[str] = "none"

    def describe(self) -> str:
        return "no gesture"

    def perform(self, device: Any) -> None:
        return None


Gesture = Union[Tap, DoubleTap, LongPress, Swipe, TypeText, Key, Launch, Wait, NoGesture]
GESTURE_TYPES: tuple[type, ...] = (Tap, DoubleTap, LongPress, Swipe, TypeText, Key, Launch, Wait, NoGesture)
_BY_KIND: dict[str, type] = {t.kind: t for t in GESTURE_TYPES if isinstance(t.__dict__.get("kind"), str)}
_BY_KIND.update({k: Key for k in KEYS})


def gesture_from_dict(d: Any) -> Gesture:
    """The gesture of a JSON form. Raises ``ValueError`` (saying what is wrong) for anything else.

    Reads the forms written before these types: ``{"kind": "none", "launch": NAME}`` (a launch
    fallback) is a :class:`Launch`.
    """
    if not isinstance(d, dict):
        raise ValueError(f"a gesture is a JSON object, got {type(d).__name__}")
    kind = d.get("kind")
    if kind == "none" and isinstance(d.get("launch"), str):
        return Launch(d["launch"])
    t = _BY_KIND.get(kind) if isinstance(kind, str) else None
    if t is None:
        raise ValueError(f"unknown gesture kind {kind!r}; kinds: {', '.join(sorted(_BY_KIND))}")
    return t.from_dict(d)


def touch_slop_px(width: int) -> int:
    """The touch slop in pixels of a screen ``width`` pixels wide (:data:`TOUCH_SLOP_DP`)."""
    return max(1, math.ceil(TOUCH_SLOP_DP * max(1, width) / PHONE_WIDTH_DP))


def as_press(g: Gesture, width: int) -> Tap | LongPress | None:
    """What ``g`` presses, as the device takes it: a tap or a long press at its point, and a swipe
    that moves less than the touch slop (:func:`touch_slop_px`) as a tap at its start (a long press
    when held :data:`LONG_PRESS_TIMEOUT_MS` or more); None for a gesture that presses nothing on
    the screen (a scroll, a key, typing). The confirm gates judge a gesture by this, never by its
    name: a one-pixel "swipe" on a Delete icon deletes."""
    if isinstance(g, (Tap, LongPress)):
        return g
    if isinstance(g, Swipe):
        slop = touch_slop_px(width)
        if abs(g.x2 - g.x1) < slop and abs(g.y2 - g.y1) < slop:
            held = g.duration_ms if g.duration_ms is not None else 300
            return LongPress(g.x1, g.y1, held) if held >= LONG_PRESS_TIMEOUT_MS else Tap(g.x1, g.y1)
    return None


def gesture_point(g: Gesture) -> tuple[int, int] | None:
    """The point a gesture touches first, if it touches the screen."""
    if isinstance(g, (Tap, LongPress)):
        return (g.x, g.y)
    if isinstance(g, Swipe):
        return (g.x1, g.y1)
    return None
