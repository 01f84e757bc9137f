"""What receives a touch at a point: the one judgement every gate makes (``--confirm``'s risk, the
MCP server's gates, ``--allow-app`` on the home screen).

A phone does not deliver a touch to the smallest text under the finger: Android hands it to the
topmost, innermost view that contains the point and takes clicks (``View.dispatchTouchEvent``: the
last-drawn child first, down to a clickable one), so a tap right of a menu's word "Delete", inside
its row, deletes. :func:`receiver` answers as the phone would:

- **with the screen's tree** (a uiautomator dump, or an iPhone's source read into one): the
  clickable or long-clickable node that contains the point and comes last in drawing order (an
  overlay's row before the page under it, a child before its parent), with the texts and
  descriptions of its whole subtree, the words the element shows;
- **without a tree** (vision): the band of the text line the point lies beside. Each OCR line owns
  the rows from the midpoints to the lines above and below it (at most a line and a half either
  way, as a menu item or a list row extends around its label); a point in a band belongs to the
  line nearest it across, unless an icon box is nearer (then that icon's glyph is judged);
- neither: nothing readable, only the point.

The receiver holds what a gate reads: ``texts``, ``descriptions``, ``icon_boxes`` (icons inside it
with no text of their own, whose glyph the gate reads) and ``box``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from mobile_agent.types import Box

#: How far a text line's band reaches above and below it, in line heights, where no other line is
#: nearer: a menu item or a list row is about two and a half lines tall around its label.
BAND_REACH = 1.5
#: A text line this short is a glyph OCR read as letters (parse lists such readings as icons too).
GLYPH_CHARS = 2


#: the labels of a keyboard's Backspace key
KEYBOARD_ERASERS = frozenset({"delete", "backspace", "del", "删除", "⌫"})
#: A clickable node larger than this share of the screen is a page, not an element (a scrim that
#: closes its dialog, a list's whole-page click handler): :func:`in_tree` does not judge by its words.
PAGE_SHARE = 0.4


@dataclass(frozen=True)
class Receiver:
    """The element that receives a touch at ``point``: ``source`` says how it was found (``tree``:
    the innermost clickable node; ``vision``: a text line's band or an icon; ``point``: nothing
    readable there)."""

    point: tuple[int, int]
    source: str
    box: Box | None = None
    texts: tuple[str, ...] = ()
    descriptions: tuple[str, ...] = ()
    icon_boxes: tuple[Box, ...] = field(default=())
    #: the app the receiving node belongs to, where the tree says (the system UI's bars, a launcher)
    package: str = ""

    @property
    def on_keyboard(self) -> bool:
        """Whether it is a key of the on-screen keyboard (an input method's node)."""
        return "inputmethod" in self.package or "keyboard" in self.package.lower()

    @property
    def words(self) -> tuple[str, ...]:
        """Its texts and descriptions, each once, in order; a keyboard's Backspace (its label is
        "Delete" on Android's keyboards) deletes a character of what is being typed, nothing kept,
        and is left out."""
        words = dict.fromkeys(w for w in (*self.texts, *self.descriptions) if w.strip())
        if self.on_keyboard:
            words = {w: None for w in words if w.strip().lower() not in KEYBOARD_ERASERS}
        return tuple(words)

    def summary(self) -> str:
        return ", ".join(repr(w) for w in self.words) or "nothing readable"


def _inside(box: Box, x: int, y: int) -> bool:
    return box.x1 <= x <= box.x2 and box.y1 <= y <= box.y2


def takes_touch(node: Any) -> bool:
    """Whether a tree node consumes a touch: clickable or long-clickable, as ``View.onTouchEvent``
    counts it (a long-clickable view that does nothing on a tap still takes the tap from its parent)."""
    return bool(node.clickable or getattr(node, "long_clickable", False))


#: The last dump read by :func:`_parsed` and what it holds: every gate of one step (the risk
#: decision, its label, the allow-list, each point of a gesture) asks about the same dump.
_LAST: tuple[Any, Any] | None = None


def _parsed(tree: str | bytes | None) -> tuple[list[Any], dict[int, list[int]], int] | None:
    """The nodes of the dump ``tree`` in drawing order, each node's children, and the screen's area;
    None where the dump is unreadable or empty. The last dump's reading is kept."""
    global _LAST
    last = _LAST
    if last is not None and last[0] == tree:
        return last[1]
    from mobile_agent.perception.hybrid import parse_ui_tree

    nodes, problem = parse_ui_tree(tree)
    if problem is not None or not nodes:
        result = None
    else:
        children: dict[int, list[int]] = {}
        for n in nodes:
            if n.parent is not None:
                children.setdefault(n.parent, []).append(n.index)
        screen = max((n.box.area for n in nodes if n.parent is None), default=0) or max(n.box.area for n in nodes)
        result = (nodes, children, screen)
    _LAST = (tree, result)
    return result


def in_tree(tree: str | bytes | None, x: int, y: int) -> Receiver | None:
    """The clickable node of the uiautomator dump ``tree`` that receives a touch at (x, y), with
    the words of its subtree; None where the dump is unreadable or no clickable node holds the
    point (the screen's own tree says nothing takes it)."""
    parsed = _parsed(tree)
    if parsed is None:
        return None
    nodes, children, screen = parsed
    hits = [n for n in nodes if takes_touch(n) and n.enabled and not n.box.is_empty() and _inside(n.box, x, y)]
    if not hits:
        return None
    target = hits[-1]  # drawing order: the last one drawn over the point, the innermost of its ancestors
    if target.box.area > PAGE_SHARE * screen:
        # a page-sized element (a dialog's scrim, a whole-page click handler): what a tap on it does
        # is not said by every word it holds; the pixels at the point are read instead
        return None
    texts: list[str] = []
    descs: list[str] = []
    icons: list[Box] = []
    stack = [target.index]
    while stack:
        n = nodes[stack.pop(0)]
        if n.text.strip():
            texts.append(n.text.strip())
        if n.desc.strip():
            descs.append(n.desc.strip())
        if n.index != target.index and not n.text.strip() and n.cls.endswith(("ImageView", "ImageButton")):
            icons.append(n.box)
        stack[:0] = children.get(n.index, [])
    if not texts and not descs and not icons and target.cls.endswith(("ImageView", "ImageButton")):
        icons.append(target.box)
    return Receiver((x, y), "tree", target.box, tuple(texts), tuple(descs), tuple(icons), target.package)


def in_picture(lines: Sequence[Any], icons: Sequence[Any], x: int, y: int) -> Receiver:
    """What receives a touch at (x, y) read from the pixels alone: ``lines`` (OCR lines, with
    ``box`` and ``text``) and ``icons`` (icon boxes, with ``box``). See the module's words."""
    def band(i: int) -> tuple[float, float]:
        b = lines[i].box
        h = max(1, b.y2 - b.y1)
        top, bottom = b.y1 - BAND_REACH * h, b.y2 + BAND_REACH * h
        for j, other in enumerate(lines):
            if j == i:
                continue
            o = other.box
            if o.x2 < b.x1 - 3 * h or o.x1 > b.x2 + 3 * h:
                continue  # another column: it does not bound this line's row
            if o.y2 <= b.y1:
                top = max(top, (o.y2 + b.y1) / 2)
            elif o.y1 >= b.y2:
                bottom = min(bottom, (b.y2 + o.y1) / 2)
        return top, bottom

    def across(box: Box) -> float:
        return 0.0 if box.x1 <= x <= box.x2 else float(min(abs(x - box.x1), abs(x - box.x2)))

    under = [ic for ic in icons if _inside(ic.box, x, y)]
    on_line = [ln for ln in lines if _inside(ln.box, x, y)]
    def glyph_of(line: Any) -> list[Box]:
        """A line of one or two characters is a glyph OCR read as letters (a paper plane as "V"):
        the icon boxes on it, smallest first, so that the gate reads what it looks like."""
        if len(str(line.text).strip()) > GLYPH_CHARS:
            return []
        on = [ic.box for ic in icons if _inside(line.box, *_centre(ic.box)) or _inside(ic.box, *_centre(line.box))]
        return sorted(on, key=lambda b: b.area)

    if on_line:
        line = min(on_line, key=lambda ln: ln.box.area)
        inner = [ic.box for ic in under if ic.box.area < line.box.area and not _inside(line.box, *_centre(ic.box))]
        return Receiver((x, y), "vision", line.box, (str(line.text),), (), tuple(glyph_of(line) + inner))
    banded = [(across(ln.box), i) for i, ln in enumerate(lines)
              if band(i)[0] <= y <= band(i)[1]]
    icon = min(under, key=lambda ic: ic.box.area) if under else None
    if banded:
        dist, i = min(banded)
        line = lines[i]
        if icon is None or dist < across(icon.box) or (icon.box.x1 <= line.box.x2 and line.box.x1 <= icon.box.x2
                                                      and dist == 0):
            top, bottom = band(i)
            row = Box(min(line.box.x1, x), int(top), max(line.box.x2, x), int(bottom))
            glyphs = tuple(glyph_of(line) + [ic.box for ic in icons if ic.box.y1 <= y <= ic.box.y2
                                             and across(ic.box) <= dist and ic.box.area < line.box.area])
            return Receiver((x, y), "vision", row, (str(line.text),), (), glyphs)
    if icon is not None:
        return Receiver((x, y), "vision", icon.box, (), (), (icon.box,))
    return Receiver((x, y), "point")


def _centre(box: Box) -> tuple[int, int]:
    return (box.x1 + box.x2) // 2, (box.y1 + box.y2) // 2


def receiver(perception: Any, image: Any, x: int, y: int, tree: str | bytes | None = None) -> Receiver:
    """What receives a touch at (x, y) of ``image``: the tree's clickable node where ``tree`` holds
    one there, else what the pixels show (:func:`in_picture`, from ``perception``'s parse, icons
    included); a screen that cannot be read is the point alone."""
    found = in_tree(tree, x, y) if tree else None
    if found is not None:
        return found
    parse = getattr(perception, "parse", None)
    if not callable(parse) or image is None:
        return Receiver((x, y), "point")
    try:
        res = parse(image, icons=True)
        card = perception.dialog(image) if callable(getattr(perception, "dialog", None)) else None
    except Exception:  # noqa: BLE001 - a screen that cannot be read: the point alone
        return Receiver((x, y), "point")
    lines, icons = list(res.lines), list(res.icons or [])
    if card is not None:  # a dialog over a page its scrim dims: the scrim takes a touch outside it
        if not _inside(card, x, y):
            return Receiver((x, y), "vision", card)
        lines = [ln for ln in lines if _inside(card, *_centre(ln.box))]
        icons = [ic for ic in icons if _inside(card, *_centre(ic.box))]
    return in_picture(lines, icons, x, y)
