"""Position hints (top, bottom, left, right, center and pairs) applied to candidate boxes."""

from __future__ import annotations

from typing import Sequence, TypeVar

from mobile_agent.errors import ConfigError
from mobile_agent.types import POSITION_WORDS, Box, normalize_position, position_parts

T = TypeVar("T")


def read_position(words: Sequence[str] | str | None) -> tuple[str, ...]:
    """:func:`mobile_agent.types.normalize_position`, the words of other languages read first ("右上角",
    "oben rechts": ``perception/icons/languages.toml``). Raises ``ValueError`` naming a word it does not know."""
    if words is None:
        return ()
    split = position_parts(words)
    if any(w.strip().lower() not in POSITION_WORDS for w in split):
        from mobile_agent.perception.icons import lexicon  # noqa: F401 (hands its words to icons.languages)
        from mobile_agent.perception.icons.languages import position_words

        split = position_words(split)
    return normalize_position(split)


def parse_position(position: Sequence[str] | str | None) -> tuple[str, ...]:
    """Canonical position words; raises :class:`ConfigError` naming the bad word."""
    try:
        return read_position(position)
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc


def in_region(box: Box, position: tuple[str, ...], width: int, height: int) -> bool:
    """Whether ``box``'s centre lies in the screen part that ``position`` names.

    Thirds of the screen: ``top`` the upper third, ``bottom`` the lower third, ``center`` the
    middle third (of each axis it applies to), ``left``/``right`` the outer 45% horizontally.
    """
    c = box.center
    fx, fy = c.x / max(1, width), c.y / max(1, height)
    words = set(position)
    horizontal = words & {"left", "right"}
    vertical = words & {"top", "bottom"}
    for w in words:
        if w == "top" and fy > 0.36:
            return False
        if w == "bottom" and fy < 0.64:
            return False
        if w == "left" and fx > 0.45:
            return False
        if w == "right" and fx < 0.55:
            return False
        if w == "center":
            if not horizontal and not (0.25 <= fx <= 0.75):
                return False
            if not vertical and not (0.25 <= fy <= 0.75):
                return False
    return True


def position_score(box: Box, position: tuple[str, ...], width: int, height: int) -> float:
    """How well ``box`` fits ``position``, in [0, 1] (1 at the extreme the words name)."""
    if not position:
        return 1.0
    c = box.center
    fx, fy = c.x / max(1, width), c.y / max(1, height)
    parts = []
    for w in position:
        if w == "top":
            parts.append(1.0 - fy)
        elif w == "bottom":
            parts.append(fy)
        elif w == "left":
            parts.append(1.0 - fx)
        elif w == "right":
            parts.append(fx)
        elif w == "center":
            horizontal = bool(set(position) & {"left", "right"})
            vertical = bool(set(position) & {"top", "bottom"})
            dx = 0.0 if horizontal else abs(fx - 0.5)
            dy = 0.0 if vertical else abs(fy - 0.5)
            parts.append(1.0 - (dx + dy))
    return sum(parts) / len(parts)


def filter_by_position(items: list[T], boxes: list[Box], position: tuple[str, ...], width: int,
                       height: int) -> list[T]:
    """The items whose box is in the region; when none is, all of them ordered by position score."""
    if not position:
        return list(items)
    inside = [it for it, b in zip(items, boxes) if in_region(b, position, width, height)]
    return inside


def _axes(position: tuple[str, ...]) -> tuple[str | None, str | None]:
    """The word naming each axis (vertical, horizontal); ``None`` for an axis no word names."""
    vertical = next((w for w in position if w in ("top", "bottom")), None)
    horizontal = next((w for w in position if w in ("left", "right")), None)
    return vertical, horizontal


def position_order(boxes: Sequence[Box], position: tuple[str, ...], width: int, height: int,
                   same_line: float = 0.04) -> list[int]:
    """The indexes of ``boxes`` (candidates equal in all else) in the order a user means by
    ``position``, best first.

    A hint picks among equals the way people read it: "top" is the topmost of the equals, "right"
    the rightmost, "top left" the one nearest that corner. Where the words name one axis only, the
    other axis is the middle: a planner that says "right" of a heart in the middle of the screen
    would have said "top right" of the one in the top row, so among hearts equally far right
    (within ``same_line`` of the screen: one column) the one nearest the middle of the screen's
    height is meant. "center" alone is the one nearest the screen's centre."""
    if not position or not boxes:
        return list(range(len(boxes)))
    vertical, horizontal = _axes(position)
    named = [position_score(b, position, width, height) for b in boxes]

    def off_axis(b: Box) -> float:
        c = b.center
        fx, fy = c.x / max(1, width), c.y / max(1, height)
        d = 0.0
        if vertical is None:
            d += abs(fy - 0.5)
        if horizontal is None:
            d += abs(fx - 0.5)
        return d

    if vertical is not None and horizontal is not None or "center" in position and len(position) == 1:
        return sorted(range(len(boxes)), key=lambda k: -named[k])
    best = max(named)
    line = [k for k in range(len(boxes)) if named[k] >= best - same_line]
    first = min(line, key=lambda k: (off_axis(boxes[k]), -named[k]))
    return [first] + sorted((k for k in range(len(boxes)) if k != first), key=lambda k: -named[k])
