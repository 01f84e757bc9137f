"""One element of the screen, whoever found it.

The accessibility tree (``perception/hybrid.py``: a uiautomator dump's nodes) and the pixels (OCR's
text lines, the detector's icon boxes, the numbered marks a planner chooses among) each say what is
on the screen; each is turned into the same :class:`Element` here, and every reader of "what is
there" reads that one shape: the MCP server's ``screen_elements`` and ``tap_element``
(:func:`list_screen`, :meth:`Element.to_json`), its confirm gate (``mcpserver/gates.py``
``touched_at``), the agent's gates (``agent/risk.py`` ``tree_label_at``) and what a point operation
records (``agent/points.py``), through :func:`smallest_at`.

``Element.to_json`` is the one JSON form (the MCP server's answer; ``from_json`` reads it back).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Sequence

from mobile_agent.perception.hybrid import FLAGS, ScreenTree, TreeNode, parse_ui_tree
from mobile_agent.perception.results import Candidate, IconBox, ParseResult, TextLine
from mobile_agent.perception.textmatch import compact
from mobile_agent.types import Box, Point

#: What an element is: a node of the tree (a view: its class in ``cls``), a line of text, an icon.
KINDS = ("node", "text", "icon")
#: Who found it, and who finds each kind unless said otherwise (the JSON names ``source`` only then).
SOURCES = ("tree", "ocr", "icon", "mark")
DEFAULT_SOURCE = {"node": "tree", "text": "ocr", "icon": "icon"}
#: The tree's flags as the JSON writes them, in this order (``checked`` after them, for a checkable one).
JSON_FLAGS = ("clickable", "checkable", "scrollable", "focused", "selected")


@dataclass(frozen=True, slots=True)
class Element:
    """One thing on the screen, as the tree or the pixels found it."""

    #: where it is, in screen pixels (x1, y1, x2, y2)
    box: Box
    #: what it is, one of :data:`KINDS`
    kind: str
    #: who found it, one of :data:`SOURCES`
    source: str
    #: its words: a node's text, an OCR line
    text: str = ""
    #: what it shows, in words: a node's content-desc
    description: str = ""
    #: the tree says a tap acts on it (a mark: a place to act)
    clickable: bool = False
    #: on the page behind a dialog (its scrim, or a popup menu's window), where a tap closes the
    #: dialog or does nothing
    behind_dialog: bool = False
    #: its number, where a list or the marks number it
    n: int | None = None
    #: a node's class, short (``Button``), and its resource id
    cls: str = ""
    rid: str = ""
    #: a node's other states that are set (``hybrid.FLAGS``: checkable, checked, focused...)
    flags: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        """Its text, else its description ("" where it has neither)."""
        return self.text or self.description

    @property
    def center(self) -> Point:
        return self.box.center

    def numbered(self, n: int) -> Element:
        return replace(self, n=n)

    def to_json(self) -> dict[str, Any]:
        """The one JSON form (the MCP server's ``screen_elements`` entries, its schema
        ``mcpserver.server.Element``; docs/mcp.md); keys without a value are left out."""
        out: dict[str, Any] = {} if self.n is None else {"n": self.n}
        out["kind"] = self.kind
        if self.source != DEFAULT_SOURCE.get(self.kind):
            out["source"] = self.source
        if self.text:
            out["text"] = self.text
        if self.description:
            out["description"] = self.description
        if self.kind == "node":
            out["class"] = self.cls
        if self.rid:
            out["id"] = self.rid
        for flag in JSON_FLAGS:
            if self.clickable if flag == "clickable" else flag in self.flags:
                out[flag] = True
        if "checkable" in self.flags:
            out["checked"] = "checked" in self.flags
        if self.behind_dialog:
            out["behind_dialog"] = True
        c = self.center
        out["box"] = list(self.box.as_tuple())
        out["center"] = [int(c.x), int(c.y)]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Element:
        """An element back from :meth:`to_json`'s form; ``ValueError`` says what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError(f"an element is a JSON object, got {type(data).__name__}")
        kind = data.get("kind")
        if kind not in KINDS:
            raise ValueError(f"an element's kind is one of {', '.join(KINDS)}, got {kind!r}")
        source = data.get("source", DEFAULT_SOURCE[kind])
        if source not in SOURCES:
            raise ValueError(f"an element's source is one of {', '.join(SOURCES)}, got {source!r}")
        box = data.get("box")
        if not (isinstance(box, (list, tuple)) and len(box) == 4 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                        for v in box)):
            raise ValueError(f"an element's box is four whole numbers [x1, y1, x2, y2], got {box!r}")
        n = data.get("n")
        if n is not None and (isinstance(n, bool) or not isinstance(n, int)):
            raise ValueError(f"an element's number n is a whole number, got {n!r}")
        words = {k: data.get(k, "") for k in ("text", "description", "class", "id")}
        for k, v in words.items():
            if not isinstance(v, str):
                raise ValueError(f"an element's {k} is a string, got {v!r}")
        return cls(Box(*box), kind, source, words["text"], words["description"], bool(data.get("clickable")),
                   bool(data.get("behind_dialog")), n, words["class"], words["id"],
                   frozenset(f for f in FLAGS if data.get(f)))


# ---------------------------------------------------------------------------------------- producers
def node_element(node: TreeNode, behind_dialog: bool = False) -> Element:
    """A node of the tree as an element (its class short: ``android.widget.Button`` -> ``Button``)."""
    return Element(node.box, "node", "tree", node.text, node.desc, node.clickable, behind_dialog,
                   cls=node.cls.rsplit(".", 1)[-1], rid=node.rid, flags=node.flags)


def tree_elements(tree: ScreenTree | str | bytes | None) -> list[Element]:
    """The tree's nodes that are on the screen and say or do something (a text, a description, or
    clickable, checkable, scrollable), in document (drawing) order. From a :class:`ScreenTree`,
    ``behind_dialog`` as its :meth:`~ScreenTree.behind_dialog` says (after its ``set_dialog``);
    from a dump alone (a string; a broken or missing one gives no elements), never."""
    if isinstance(tree, ScreenTree):
        nodes, behind = tree.nodes, tree.behind_dialog
    else:
        nodes, behind = parse_ui_tree(tree)[0], (lambda n: False)
    return [node_element(n, behind(n)) for n in nodes
            if not n.box.is_empty() and (n.text or n.desc or n.clickable or {"checkable", "scrollable"} & n.flags)]


def line_element(line: TextLine, behind_dialog: bool = False) -> Element:
    return Element(line.box, "text", "ocr", line.text, behind_dialog=behind_dialog)


def icon_element(icon: IconBox, behind_dialog: bool = False) -> Element:
    return Element(icon.box, "icon", "icon", behind_dialog=behind_dialog)


def parse_elements(res: ParseResult) -> list[Element]:
    """What a parse read: its text lines, then its icon boxes (none where icons were not asked for)."""
    return [line_element(line) for line in res.lines] + [icon_element(ic) for ic in res.icons or []]


def mark_elements(candidates: Sequence[Candidate], start: int = 0) -> list[Element]:
    """Grounding's candidates as the numbered marks drawn for a planner to choose among
    (``perception/marks.py`` ``draw_marks``: ``start``, ``start + 1``...): a text where OCR or the
    tree read one there, else an icon."""
    return [Element(c.box, "text" if c.text else "icon", "mark", c.text or "", clickable=True, n=start + i)
            for i, c in enumerate(candidates)]


# ---------------------------------------------------------------------------------------- readers
def smallest_at(elements: Iterable[Element], x: int, y: int, *, edges: bool = True) -> list[Element]:
    """The elements whose box holds (x, y), smallest first (in their order where equal); ``edges``:
    a point on a box's right or bottom edge is in it (the gates' reading), else not (``Box.contains``)."""
    hits = [e for e in elements
            if e.box.x1 <= x and e.box.y1 <= y and ((x <= e.box.x2 and y <= e.box.y2) if edges
                                                   else (x < e.box.x2 and y < e.box.y2))]
    return sorted(hits, key=lambda e: e.box.area)


def list_screen(size: tuple[int, int], lines: Sequence[TextLine], icons: Sequence[IconBox],
                tree: ScreenTree | None, dialog: Box | None, *, max_icon_width: float) -> list[Element]:
    """What is on the screen, each thing once, numbered from 1 (the MCP server's ``screen_elements``):
    the tree's elements (:func:`tree_elements`, where ``tree`` was read: its ``set_dialog`` done);
    the text lines that no labelled node already names, and not a glyph read as a character or two
    (inside an icon or a labelled icon-sized node, or, where the tree was read, not ASCII); the icons
    no labelled node, listed line or listed icon already covers (the outer box where a glyph sits in a
    circle), and none wider and taller than ``max_icon_width`` of the screen's width (a panel, a
    picture). With a ``dialog``, the lines and icons outside its box are behind it."""
    w, h = size
    read = tree is not None and tree.read
    nodes = tree_elements(tree) if read else []
    labelled = [e for e in nodes if e.text or e.description]
    small_labelled = [e.box for e in labelled if e.box.area < max(1, w * h) / 8]
    kept_lines = []
    for line in lines:
        c = line.box.center
        words = compact(line.text)
        named = any(e.box.contains(c.x, c.y) and words and any(
            words in compact(v) or compact(v) in words for v in (e.text, e.description) if v) for e in labelled)
        short = len(line.text.strip()) <= 2
        glyph = short and (any(ic.box.contains(c.x, c.y) for ic in icons)
                           or any(b.contains(c.x, c.y) for b in small_labelled)
                           or (read and not line.text.strip().isascii()))
        if not named and not glyph:
            kept_lines.append(line)
    kept_icons: list[IconBox] = []
    for ic in sorted(icons, key=lambda i: -i.box.area):
        c = ic.box.center
        if ic.box.width > max_icon_width * w and ic.box.height > max_icon_width * w:
            continue  # a panel or a picture, not an icon
        if any(b.contains(c.x, c.y) for b in small_labelled):
            continue  # the node that names it is listed
        if any(line.box.contains(c.x, c.y) for line in kept_lines):
            continue  # text, listed as such
        if any(k.box.contains(c.x, c.y) for k in kept_icons):
            continue  # a glyph inside a circle or a button already listed
        kept_icons.append(ic)

    def behind(box: Box) -> bool:
        return dialog is not None and not dialog.contains_point(box.center)

    found = nodes + [line_element(line, behind(line.box)) for line in kept_lines]
    found += [icon_element(ic, behind(ic.box)) for ic in sorted(kept_icons, key=lambda i: (i.box.y1, i.box.x1))]
    return [e.numbered(i) for i, e in enumerate(found, 1)]
