"""Typing text on Android: ``input text`` for ASCII, the ADBKeyboard IME for everything else.

``input text`` cannot take a space as such; it turns the two characters ``%s`` into a space. So a
space is sent as ``%s`` and a literal ``%`` followed by ``s`` is sent in two calls, broken between
the two characters. Each argument is single-quoted for the device's POSIX shell (``mksh``/``toybox
sh``), so quotes, ``&;|<>()$``, backticks and backslashes reach ``input`` unchanged.
"""

from __future__ import annotations

import base64
import shlex
import unicodedata
from dataclasses import dataclass

__all__ = [
    "ADBKEYBOARD_IME",
    "ADBKEYBOARD_HELP",
    "BROADCAST_KEYBOARDS",
    "broadcast_keyboard",
    "KEYCODE_ENTER",
    "KEYCODE_TAB",
    "TextPart",
    "is_input_text_safe",
    "split_text",
    "input_text_chunks",
    "input_text_command",
    "adbkeyboard_command",
    "unicode_pieces",
    "batch_commands",
]

ADBKEYBOARD_IME = "com.android.adbkeyboard/.AdbIME"
#: keyboards that type the text of an ``ADB_INPUT_B64`` broadcast (their ids as ``ime list -s``
#: prints them), in the order they are chosen
BROADCAST_KEYBOARDS = (ADBKEYBOARD_IME,)
KEYCODE_ENTER = 66
KEYCODE_TAB = 61

ADBKEYBOARD_HELP = (
    "typing non-ASCII text (Chinese, emoji, accents...) on a real phone needs the ADBKeyboard input "
    "method: install it once from https://github.com/senzhk/ADBKeyBoard (`adb install ADBKeyboard.apk`); "
    "mobile-agent then selects it for each typing and gives your keyboard back afterwards"
)


def broadcast_keyboard(installed: list[str]) -> str | None:
    """The first of :data:`BROADCAST_KEYBOARDS` among ``installed`` (``ime list -a -s``), or None."""
    return next((ime for ime in BROADCAST_KEYBOARDS if ime in installed), None)


def is_input_text_safe(text: str) -> bool:
    """True when every character is printable ASCII (space to ``~``), which ``input text`` can type."""
    return all(" " <= ch <= "~" for ch in text)


@dataclass(frozen=True)
class TextPart:
    """One piece of what ``type_text`` sends: text (``kind="text"``) or a key event (``kind="key"``)."""

    kind: str
    value: str | int


def split_text(text: str) -> list[TextPart]:
    """Split text into runs of characters and key presses: ``\\n`` is Enter, ``\\t`` is Tab.

    Raises ValueError for any other control character.
    """
    parts: list[TextPart] = []
    run: list[str] = []
    for ch in text:
        if ch in "\n\t":
            if run:
                parts.append(TextPart("text", "".join(run)))
                run = []
            parts.append(TextPart("key", KEYCODE_ENTER if ch == "\n" else KEYCODE_TAB))
        elif ch == "\r":
            continue  # "\r\n" is one Enter
        elif ord(ch) < 32 or ord(ch) == 127:
            raise ValueError(f"cannot type the control character {ch!r} (code {ord(ch)})")
        else:
            run.append(ch)
    if run:
        parts.append(TextPart("text", "".join(run)))
    return parts


def input_text_chunks(text: str, max_len: int = 200) -> list[str]:
    """The arguments of successive ``input text`` calls that together type ``text`` (printable ASCII).

    Spaces become ``%s``; a literal ``%s`` is split between ``%`` and ``s``; long text is cut
    into pieces of at most about ``max_len`` characters (never inside a ``%s``).
    """
    if not is_input_text_safe(text):
        raise ValueError("input text can only type printable ASCII; use the ADBKeyboard path for other text")
    chunks: list[str] = []
    current: list[str] = []
    for i, ch in enumerate(text):
        if len(current) >= max_len:
            chunks.append("".join(current))
            current = []
        if ch == "s" and i > 0 and text[i - 1] == "%" and current:
            # "%" then "s" in one call would be read as a space: end the call after the "%".
            chunks.append("".join(current))
            current = []
        current.append("%s" if ch == " " else ch)
    if current:
        chunks.append("".join(current))
    return chunks


def input_text_command(chunk: str) -> str:
    """The device shell command that types one chunk made by :func:`input_text_chunks`."""
    return "input text " + shlex.quote(chunk)


def adbkeyboard_command(text: str) -> str:
    """The device shell command that makes the ADBKeyboard IME type ``text`` (any Unicode)."""
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return "am broadcast -a ADB_INPUT_B64 --es msg " + shlex.quote(payload)


def unicode_pieces(text: str, max_chars: int = 200) -> list[str]:
    """Cut text for successive ADBKeyboard broadcasts, never inside a character sequence
    (before a combining mark, a variation selector or a zero-width joiner, or after a joiner)."""
    pieces: list[str] = []
    start = 0
    while len(text) - start > max_chars:
        cut = start + max_chars
        while cut > start + 1 and _joins(text[cut - 1], text[cut]):
            cut -= 1
        pieces.append(text[start:cut])
        start = cut
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def _joins(before: str, after: str) -> bool:
    return (before == "\u200d" or after == "\u200d" or unicodedata.combining(after) > 0
            or "\ufe00" <= after <= "\ufe0f" or "\U0001f3fb" <= after <= "\U0001f3ff")


def batch_commands(commands: list[str], max_len: int = 1000) -> list[list[str]]:
    """Group shell commands so that each ``a && b && ...`` line stays under ``max_len`` characters
    (old adbd versions cut a shell command near 4 KiB); a longer single command stays alone."""
    batches: list[list[str]] = []
    current: list[str] = []
    size = 0
    for command in commands:
        extra = len(command) + (4 if current else 0)
        if current and size + extra > max_len:
            batches.append(current)
            current, size = [], 0
            extra = len(command)
        current.append(command)
        size += extra
    if current:
        batches.append(current)
    return batches
