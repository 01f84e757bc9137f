"""The ``Device`` protocol every phone implements: the simulated phone and real Android over adb."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PIL import Image


@runtime_checkable
class Device(Protocol):
    """A phone the agent operates. Coordinates are screenshot pixels.

    Implementations raise :class:`mobile_agent.errors.InvalidGestureError` for a gesture off the
    screen and :class:`mobile_agent.errors.DeviceError` (or a subclass) when the phone fails.
    """

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

    def ui_tree(self) -> str | None:
        """A uiautomator-style XML dump of the screen, or ``None`` where it cannot be had."""
        ...


def check_point(device_size: tuple[int, int], x: int, y: int) -> None:
    """Raise :class:`InvalidGestureError` when (x, y) is not on a screen of ``device_size``."""
    from mobile_agent.errors import InvalidGestureError

    w, h = device_size
    if not (0 <= x < w and 0 <= y < h):
        raise InvalidGestureError(
            f"point ({x}, {y}) is off the screen (the screen is {w}x{h}; x must be in 0..{w - 1}, y in 0..{h - 1})"
        )
