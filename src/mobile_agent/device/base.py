"""The ``Device`` protocol every phone implements: the simulated phone and real Android over adb."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from PIL import Image

#: What a device may declare in its ``capabilities``, beyond what every device does (screenshot,
#: tap, swipe, type, back, home): ``long_press`` (press and hold, the Long Press operation),
#: ``wait_still`` (wait until the screen stops changing: the Wait operation, and settling after
#: each gesture), ``launch`` (open an app by name without the launcher: the Open App fallback),
#: ``ui_tree`` (a uiautomator-style XML dump).
CAPABILITIES = frozenset({"long_press", "wait_still", "launch", "ui_tree", "clear_text"})


@runtime_checkable
class Device(Protocol):
    """A phone the agent operates. Coordinates are screenshot pixels.

    Implementations raise :class:`mobile_agent.errors.InvalidGestureError` for a gesture off the
    screen and :class:`mobile_agent.errors.DeviceError` (or a subclass) when the phone fails.
    ``capabilities`` declares which of the optional methods (see :data:`CAPABILITIES`) really work;
    the agent offers the model only the operations the device declares.
    """

    capabilities: frozenset[str]

    def screenshot(self) -> Image.Image:
        """The current screen as an RGB image of ``size()``."""
        ...

    def size(self) -> tuple[int, int]:
        """(width, height) of the screen in screenshot pixels, for the current rotation."""
        ...

    def tap(self, x: int, y: int) -> None: ...

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None: ...

    def type_text(self, text: str) -> None:
        """Type into the focused field. A trailing ``\\n`` presses Enter."""
        ...

    def back(self) -> None: ...

    def home(self) -> None: ...

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        """Press and hold at (x, y) for ``duration_ms``."""
        ...

    def wait_still(self, timeout_s: float = 3.0) -> bool:
        """Wait until the screen stops changing, at most ``timeout_s``; False on timeout."""
        ...

    def launch(self, app: str) -> bool:
        """Open an app by its launcher label (or package); False when no app matches."""
        ...

    def ui_tree(self) -> str | None:
        """A uiautomator-style XML dump of the screen, or ``None`` where it cannot be had."""
        ...

    def clear_text(self) -> None:
        """Empty the focused field (capability ``clear_text``): what a Type that replaces the field's
        text, AutoGLM's, does before typing."""
        ...


def device_capabilities(device: Any) -> frozenset[str]:
    """What ``device`` declares it can do beyond the basic gestures (empty for a device that
    declares nothing, such as a small test double)."""
    caps = getattr(type(device), "capabilities", None)
    if caps is None:
        caps = getattr(device, "capabilities", frozenset())
    return frozenset(caps) & CAPABILITIES


def check_point(device_size: tuple[int, int], x: int, y: int) -> None:
    """Raise :class:`InvalidGestureError` when (x, y) is not on a screen of ``device_size``."""
    from mobile_agent.errors import InvalidGestureError

    w, h = device_size
    if not (0 <= x < w and 0 <= y < h):
        raise InvalidGestureError(
            f"point ({x}, {y}) is off the screen (the screen is {w}x{h}; x must be in 0..{w - 1}, y in 0..{h - 1})"
        )
