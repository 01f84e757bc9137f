"""Parsers of what an Android device and the adb server print.

Pure functions over text, so that each can be tested on real output kept as fixtures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = [
    "DeviceEntry",
    "WmSize",
    "parse_devices",
    "parse_wm_size",
    "parse_rotation",
    "parse_wm_density",
    "parse_packages",
    "parse_ime_list",
    "uiautomator_dump_ok",
    "uiautomator_idle_error",
    "monkey_launched",
    "classify_adb_failure",
]


@dataclass(frozen=True)
class DeviceEntry:
    """One line of ``adb devices -l``: serial, state and the ``key:value`` tags that follow."""

    serial: str
    state: str
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def model(self) -> str | None:
        """The model tag with underscores as spaces (adb writes ``Pixel_7``), or None."""
        model = self.tags.get("model")
        return model.replace("_", " ") if model else None


_STATE_RE = re.compile(
    r"^(?P<state>no permissions.*?(?:\]|$)|no device|"
    r"device|offline|unauthorized|authorizing|connecting|bootloader|recovery|rescue|sideload|host|unknown)"
    r"(?:\s+(?P<rest>.*))?$"
)


def parse_devices(text: str) -> list[DeviceEntry]:
    """Parse the output of ``adb devices -l`` (or the server's ``host:devices-l`` answer).

    The header ``List of devices attached`` and daemon messages are skipped. A state of several
    words (``no permissions (...); see [...]``) is kept whole.
    """
    entries: list[DeviceEntry] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("List of devices") or line.startswith("*"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            continue
        serial, rest = parts
        m = _STATE_RE.match(rest.strip())
        if m:
            state, tail = m.group("state"), m.group("rest") or ""
        else:
            state, _, tail = rest.partition(" ")
        tags: dict[str, str] = {}
        for token in tail.split():
            key, sep, value = token.partition(":")
            if sep and key and value:
                tags[key] = value
        entries.append(DeviceEntry(serial=serial, state=state.strip(), tags=tags))
    return entries


@dataclass(frozen=True)
class WmSize:
    """The answer of ``wm size``: the panel's physical size and an override set by ``wm size WxH``."""

    physical: tuple[int, int] | None
    override: tuple[int, int] | None

    @property
    def effective(self) -> tuple[int, int]:
        """The size apps and input use: the override when there is one, else the physical size."""
        size = self.override or self.physical
        assert size is not None
        return size


_PHYSICAL_RE = re.compile(r"Physical size:\s*(\d+)\s*x\s*(\d+)")
_OVERRIDE_RE = re.compile(r"Override size:\s*(\d+)\s*x\s*(\d+)")


def parse_wm_size(text: str) -> WmSize | None:
    """Parse ``wm size``; None when the text holds no size (an error message, an empty answer)."""
    p = _PHYSICAL_RE.search(text)
    o = _OVERRIDE_RE.search(text)
    if not p and not o:
        return None
    physical = (int(p.group(1)), int(p.group(2))) if p else None
    override = (int(o.group(1)), int(o.group(2))) if o else None
    return WmSize(physical=physical, override=override)


def parse_wm_density(text: str) -> int | None:
    """The screen density in dpi from ``wm density`` (its override when set), or None."""
    o = re.search(r"Override density:\s*(\d+)", text)
    p = re.search(r"Physical density:\s*(\d+)", text)
    m = o or p
    return int(m.group(1)) if m else None


_ROTATION_WORDS = {"0": 0, "90": 1, "180": 2, "270": 3}
# Most specific first: the internal display's viewport, then the older touch-device line.
_ROTATION_RES = [
    # dumpsys input, Android 13+: "Viewport INTERNAL: displayId=0, ... orientation=1, ..."
    # (Android 14 writes orientation=ROTATION_90)
    re.compile(r"Viewport INTERNAL:[^\n]*?\borientation=(?:ROTATION_)?(\d+)"),
    # dumpsys display: "DisplayViewport{type=INTERNAL, valid=true, ... orientation=1, ..."
    re.compile(r"DisplayViewport\{type=INTERNAL, valid=true,[^\n]*?\borientation=(?:ROTATION_)?(\d+)"),
    # dumpsys input, Android 12 and older: "SurfaceOrientation: 1"
    re.compile(r"SurfaceOrientation:\s*(\d+)"),
    # dumpsys window displays: "mRotation=1" / "mCurrentRotation=ROTATION_90"
    re.compile(r"\bmCurrentRotation=(?:ROTATION_)?(\d+)"),
    re.compile(r"\bmRotation=(?:ROTATION_)?(\d+)"),
]


def parse_rotation(text: str) -> int | None:
    """The display rotation (0..3, quarter turns counter-clockwise) from ``dumpsys input``,
    ``dumpsys display`` or ``dumpsys window displays``; None when no known line is there."""
    for pattern in _ROTATION_RES:
        m = pattern.search(text)
        if not m:
            continue
        value = m.group(1)
        if value in ("0", "1", "2", "3"):
            return int(value)
        if value in _ROTATION_WORDS:
            return _ROTATION_WORDS[value]
    return None


def parse_packages(text: str) -> list[str]:
    """Package names from ``pm list packages`` (lines ``package:com.example``)."""
    return [m.group(1) for m in re.finditer(r"^package:(\S+?)\s*$", text, re.M)]


def parse_ime_list(text: str) -> list[str]:
    """Input method ids from ``ime list -s`` (one id a line, ``pkg/.Class``)."""
    return [line.strip() for line in text.splitlines() if "/" in line and " " not in line.strip()]


def uiautomator_dump_ok(text: str) -> bool:
    """True when ``uiautomator dump`` reported that it wrote the file."""
    return "dumped to:" in text and "ERROR" not in text


def uiautomator_idle_error(text: str) -> bool:
    """True when ``uiautomator dump`` failed only because the screen never became idle (worth a retry)."""
    return "could not get idle state" in text or "null root node" in text


def monkey_launched(text: str) -> bool:
    """True when ``monkey -p PKG -c android.intent.category.LAUNCHER 1`` started the app."""
    return "Events injected: 1" in text and "monkey aborted" not in text


# The adb server's FAIL messages, by kind. Keys are matched in order against the lowercased text.
_FAILURES: list[tuple[str, str]] = [
    ("unauthorized", "unauthorized"),
    ("still authorizing", "authorizing"),
    ("insufficient permissions", "no_permissions"),
    ("no permissions", "no_permissions"),
    ("device offline", "offline"),
    ("still connecting", "offline"),
    ("more than one", "several"),
    ("no devices/emulators", "none"),
    ("no devices found", "none"),
    ("not found", "gone"),
]


def classify_adb_failure(message: str) -> str:
    """Sort a FAIL message of the adb server into ``unauthorized``, ``authorizing``,
    ``no_permissions``, ``offline``, ``several``, ``none``, ``gone`` or ``other``."""
    low = message.lower()
    for needle, kind in _FAILURES:
        if needle in low:
            return kind
    return "other"
