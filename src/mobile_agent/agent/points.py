"""What lies at a point operation's point: the step's grounding record for Tap (x, y), Double Tap,
Long Press At, Swipe and Drag, so that the gates (``--confirm`` through :func:`agent.risk.decide`,
``--dry-run``), the records and the reports judge a point by what is there, as MCP's gates do
(``mcpserver/gates.py`` ``touched_at``): the smallest OCR line under the point, else the smallest
icon box under it (whose glyph :func:`agent.risk.glyph_at` reads), and the tree's label there
(``risk.tree_label_at``, from the step's tree where hybrid perception gave one).

A point off the screenshot is not carried out: the step says so, and the model is told.
"""

from __future__ import annotations

from typing import Any, Sequence

from PIL import Image

from mobile_agent.agent.record import CandidateRecord, GroundingRecord
from mobile_agent.perception.elements import parse_elements, smallest_at

#: Half the side of the box recorded around a point where nothing readable lies under it.
POINT_BOX = 12


def off_screen(points: Sequence[tuple[int, int]], size: tuple[int, int]) -> str | None:
    """Why a point of ``points`` cannot be touched on a screenshot of ``size``, or None."""
    w, h = size
    for x, y in points:
        if not (0 <= x < w and 0 <= y < h):
            return (f"the point ({x}, {y}) is outside the screen ({w}x{h}: x from 0 to {w - 1}, y from 0 to "
                    f"{h - 1})")
    return None


def under_point(perception: Any, image: Image.Image, x: int, y: int) -> CandidateRecord:
    """What lies at (x, y) of ``image``: the smallest OCR line there (its box and text), else the
    smallest icon box there (no text: the gate reads its glyph), else a small box around the point."""
    box: list[int] | None = None
    text: str | None = None
    parse = getattr(perception, "parse", None)
    if callable(parse):
        try:
            lines = smallest_at([e for e in parse_elements(parse(image)) if e.kind == "text"], x, y)
            if lines:
                box, text = list(lines[0].box.as_tuple()), str(lines[0].text)
            else:
                icons = smallest_at([e for e in parse_elements(parse(image, icons=True)) if e.kind == "icon"], x, y)
                if icons:
                    box = list(icons[0].box.as_tuple())
        except Exception:  # noqa: BLE001 - a screen that cannot be read: the point alone is recorded
            box = None
    if box is None:
        w, h = image.size
        box = [max(0, x - POINT_BOX), max(0, y - POINT_BOX), min(w, x + POINT_BOX), min(h, y + POINT_BOX)]
    return CandidateRecord(box, [int(x), int(y)], 1.0, text)


def ground_point(op: Any, image: Image.Image, perception: Any) -> tuple[GroundingRecord, str | None]:
    """The grounding record of a point operation (its first point and what lies there, chosen) and,
    where it cannot be carried out (a point off the screen), why."""
    points = op.points()
    why = off_screen(points, image.size)
    if why is not None:
        return GroundingRecord("none", [], None, why), why
    x, y = points[0]
    cand = under_point(perception, image, x, y)
    what = f"on {cand.text!r}" if cand.text else "no text there"
    return GroundingRecord("found", [cand], 0, f"the model's point ({x}, {y}): {what}"), None
