"""Named notes: what the manager saves for later subgoals (the date read in Calendar, five
temperatures from Weather, a price), shown in every later prompt, written to the trajectory, and
usable in Type as ``{name}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

#: A note's name: letters, digits, spaces, ``_`` and ``-`` (compared without case and outer space).
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _\-]{0,39}$")
_PLACEHOLDER = re.compile(r"\{([A-Za-z0-9][A-Za-z0-9 _\-]{0,39})\}")


def note_key(name: str) -> str:
    """How names are compared: lower case, runs of space, ``_`` and ``-`` as one ``_``."""
    return re.sub(r"[\s_\-]+", "_", name.strip().lower())


def valid_name(name: str) -> bool:
    return bool(_NAME.match(name.strip()))


@dataclass(frozen=True)
class NoteChange:
    """One write to the store: at which step, which note, its new value (None: deleted)."""

    step: int
    name: str
    value: str | None


class UnknownNoteError(KeyError):
    """A ``{name}`` in a Type text names no note."""

    def __init__(self, names: list[str], known: list[str]) -> None:
        super().__init__(names[0])
        self.names, self.known = names, known

    def __str__(self) -> str:
        have = ", ".join(self.known) if self.known else "none yet"
        return f"no note named {', '.join(repr(n) for n in self.names)} (notes: {have})"


class Notes:
    """The notes of one run, in the order they were first written, with their history of changes."""

    def __init__(self) -> None:
        self._values: dict[str, tuple[str, str]] = {}  # key -> (name as first written, value)
        self.changes: list[NoteChange] = []

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and note_key(name) in self._values

    def get(self, name: str) -> str | None:
        v = self._values.get(note_key(name))
        return None if v is None else v[1]

    def set(self, name: str, value: str, step: int = 0) -> bool:
        """Save ``value`` under ``name``; True when that changed something."""
        if not valid_name(name):
            raise ValueError(f"a note's name is 1 to 40 letters, digits, spaces, '_' or '-', got {name!r}")
        key = note_key(name)
        value = value.strip()
        old = self._values.get(key)
        if old is not None and old[1] == value:
            return False
        self._values[key] = (old[0] if old else name.strip(), value)
        self.changes.append(NoteChange(step, name.strip(), value))
        return True

    def delete(self, name: str, step: int = 0) -> bool:
        key = note_key(name)
        if key not in self._values:
            return False
        shown = self._values.pop(key)[0]
        self.changes.append(NoteChange(step, shown, None))
        return True

    def as_dict(self) -> dict[str, str]:
        """``{name: value}`` in the order first written (for the trajectory)."""
        return {name: value for name, value in self._values.values()}

    def prompt_lines(self) -> str:
        """The notes as prompt text, one ``- name: value`` a line, or ``(none yet)``."""
        if not self._values:
            return "(none yet)"
        return "\n".join(f"- {name}: {value}" for name, value in self._values.values())

    def placeholders(self, text: str) -> list[str]:
        """The ``{name}`` placeholders in ``text`` that name a note."""
        return [m.group(1) for m in _PLACEHOLDER.finditer(text) if m.group(1) in self]

    def expand(self, text: str) -> str:
        """``text`` with every ``{name}`` replaced by that note's value. A ``{name}`` that names no
        note raises :class:`UnknownNoteError`, so a misspelt name is never typed literally."""
        missing = [m.group(1) for m in _PLACEHOLDER.finditer(text) if m.group(1) not in self]
        if missing:
            raise UnknownNoteError(missing, [n for n, _ in self._values.values()])
        return _PLACEHOLDER.sub(lambda m: self.get(m.group(1)) or "", text)

    def history(self) -> list[dict[str, Any]]:
        return [{"step": c.step, "name": c.name, "value": c.value} for c in self.changes]
