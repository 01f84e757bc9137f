"""Hybrid grounding: the screen's accessibility tree (uiautomator XML) beside the pixels.

Where a device gives a tree, its nodes' text, content-desc, resource-id and clickable bounds are
candidates beside OCR lines and icon boxes. The tree is trusted only while it agrees with the
picture: its texts must be read by OCR where the tree puts them. A tree that is missing, empty,
not XML, sized for another screen, or whose texts are not on the picture (stale: the screen moved
on since the dump; a game or a canvas drawn by itself) leaves grounding to vision.

This module takes the XML as a string; it imports nothing of the device layer.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Sequence

from rapidfuzz import fuzz

from mobile_agent.perception.results import TextLine
from mobile_agent.perception.textmatch import compact, normalize_text
from mobile_agent.types import Box, quote_screen_text

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
#: A node's other states a dump writes as ``"true"``/``"false"`` (``TreeNode.flags``).
FLAGS = ("checkable", "checked", "focused", "scrollable", "selected")
#: What :func:`parse_ui_tree` says of a dump that is XML but has no node on the screen.
NO_NODES = "the accessibility tree has no nodes on the screen"
#: The system's own bars (status bar, navigation bar): drawn over a dialog's scrim, their buttons work.
SYSTEM_UI = "com.android.systemui"


@dataclass(frozen=True, slots=True)
class TreeNode:
    """One node of a uiautomator dump, with what grounding needs."""

    index: int
    parent: int | None
    text: str
    desc: str
    rid: str
    cls: str
    box: Box
    clickable: bool
    enabled: bool = True
    package: str = ""
    #: which of :data:`FLAGS` the dump sets ``true``
    flags: frozenset[str] = frozenset()
    #: the dump's ``long-clickable``: such a node takes a touch as a clickable one does (agent/touch.py)
    long_clickable: bool = False

    @property
    def rid_words(self) -> str:
        """The resource id's name as words: ``com.app:id/action_search`` -> ``action search``."""
        name = self.rid.rpartition("/")[2]
        name = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
        return " ".join(w for w in re.split(r"[_\W]+", name) if w).lower()


def parse_ui_tree(xml: str | bytes | None) -> tuple[list[TreeNode], str | None]:
    """The nodes of a uiautomator dump in document (drawing) order, and what is wrong with it
    (``None`` when nothing is). Never raises: a missing or broken dump is an empty list and a reason."""
    if xml is None:
        return [], "the device gave no accessibility tree"
    if isinstance(xml, bytes):
        xml = xml.decode("utf-8", "replace")
    if not xml.strip():
        return [], "the accessibility tree is empty"
    try:
        root = ET.fromstring(xml.encode("utf-8"))
    except ET.ParseError as exc:
        return [], f"the accessibility tree is not XML ({exc})"
    nodes: list[TreeNode] = []

    def visit(el: ET.Element, parent: int | None) -> None:
        for child in el:
            if child.tag != "node":
                continue
            a = child.attrib
            m = _BOUNDS.fullmatch(a.get("bounds", "").strip())
            box = Box(*(int(v) for v in m.groups())) if m else Box(0, 0, 0, 0)
            idx = len(nodes)
            nodes.append(TreeNode(idx, parent, a.get("text", "") or "", a.get("content-desc", "") or "",
                                  a.get("resource-id", "") or "", a.get("class", "") or "", box,
                                  a.get("clickable") == "true", a.get("enabled", "true") != "false",
                                  a.get("package", "") or "", frozenset(f for f in FLAGS if a.get(f) == "true"),
                                  a.get("long-clickable") == "true"))
            visit(child, idx)

    visit(root, None)
    if not any(not n.box.is_empty() for n in nodes):
        return [], NO_NODES
    return nodes, None


class ScreenTree:
    """A parsed tree for one screenshot of ``width`` x ``height``, with the checks that decide
    whether grounding may use it."""

    def __init__(self, xml: str | bytes | None, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.nodes, self.problem = parse_ui_tree(xml)
        #: Whether the dump was read as XML (its nodes may still be unusable for grounding: another
        #: screen's size, none on the screen).
        self.read = bool(self.nodes) or self.problem == NO_NODES
        if self.problem is None:
            right = max(n.box.x2 for n in self.nodes)
            bottom = max(n.box.y2 for n in self.nodes)
            # A tree of another screen size or orientation than the picture (slack for nodes
            # that reach a little past the edges, as scrolled lists' do).
            if right > width * 1.1 + 8 or bottom > height * 1.1 + 8 or (right < width * 0.5 and bottom < height * 0.5):
                self.problem = (f"the accessibility tree is for a {right}x{bottom} screen, the screenshot is "
                                f"{width}x{height}")
        #: The dialog the picture shows over a page its scrim dims (``scrim.modal_card``), set by
        #: grounding once the tree agrees with the picture (:meth:`set_dialog`).
        self.dialog: Box | None = None
        self._under_dialog: set[int] = set()
        self._children: dict[int, list[int]] = {}
        for n in self.nodes:
            if n.parent is not None:
                self._children.setdefault(n.parent, []).append(n.index)

    @property
    def usable(self) -> bool:
        return self.problem is None

    @property
    def window(self) -> Box | None:
        """The window the dump holds where it is a dialog's or a popup menu's, not the app's: the
        box of its top-level nodes (the system's bars left aside) where it does not span the
        screen's width. A real device's ``uiautomator dump`` holds the focused window, and while a
        dialog or a popup menu is up that window is the dialog's or the menu's: what lies outside it
        is the page behind, where a tap closes the dialog or the menu (an Android popup menu is
        modal: a tap outside it dismisses it and reaches nothing else) or does nothing. ``None``
        for an app's own window (as wide as the screen) and for a tree that is not usable."""
        if self.problem is not None:
            return None
        tops = [n.box for n in self.nodes if n.parent is None and n.package != SYSTEM_UI and not n.box.is_empty()]
        if not tops:
            return None
        box = Box.enclosing(tops)
        if (box.x1 <= 0 and box.x2 >= self.width) or box.width < 0.2 * self.width or box.height < 0.05 * self.height:
            return None
        return box

    def set_dialog(self, card: Box | None) -> None:
        """The dialog the picture shows (``card``; ``None``: none): the page behind it is no longer
        visible to grounding. A device that dumps every window lists the page's nodes beside the
        dialog's, and no node for the scrim (the dim is the dialog window's, not a view); the tree
        then says nothing of what the dialog hides, and the picture does."""
        self.dialog = card
        self._under_dialog = set()
        if card is None:
            return
        # The dialog's own nodes: a node the card's box (its window's or its panel's) and what it holds;
        # the page's nodes drawn before it inside the card lie under the dialog.
        roots = [n.index for n in self.nodes if not n.box.is_empty() and n.box.iou(card) >= 0.8]
        if not roots:
            return
        own = set(roots)
        for r in roots:
            own.update(self._descendants(r))
        first = min(roots)
        own |= self._ancestors(first)  # the app's root holds the dialog: not under it
        self._under_dialog = {n.index for n in self.nodes[:first]
                              if n.index not in own and not n.box.is_empty() and card.contains_point(n.box.center)}

    def behind_dialog(self, n: TreeNode) -> bool:
        """Whether ``n`` lies on the page behind the dialog (:attr:`dialog`): its centre outside the
        dialog's card, or under the card where the tree names the dialog's own nodes (see
        :meth:`set_dialog`); never one of the system's bars (their buttons work over a scrim)."""
        if self.dialog is None or n.package == SYSTEM_UI or n.box.is_empty():
            return False
        return not self.dialog.contains_point(n.box.center) or n.index in self._under_dialog

    def visible(self, n: TreeNode) -> bool:
        """On the screen (its centre), not empty, not under a clickable node drawn after it
        (a scrim, a drawer, a dialog: a tap there reaches the overlay) and not on the page behind
        the dialog the picture shows (:meth:`behind_dialog`)."""
        if n.box.is_empty():
            return False
        if self.behind_dialog(n):
            return False
        c = n.box.center
        if not (0 <= c.x < self.width and 0 <= c.y < self.height):
            return False
        anc = self._ancestors(n.index)
        for m in self.nodes[n.index + 1:]:
            if m.clickable and m.box.contains_point(c) and n.index not in self._ancestors(m.index) \
                    and m.index not in anc and m.box.area >= n.box.area:
                return False
        return True

    def _ancestors(self, i: int) -> set[int]:
        out: set[int] = set()
        p = self.nodes[i].parent
        while p is not None:
            out.add(p)
            p = self.nodes[p].parent
        return out

    def tap_box(self, n: TreeNode) -> Box:
        """Where a tap on ``n`` should land: the node's own box, clipped to the screen."""
        b = n.box
        return Box(max(0, b.x1), max(0, b.y1), min(self.width, b.x2), min(self.height, b.y2))

    def check_against(self, lines: Sequence[TextLine], sample: int = 24) -> str | None:
        """Why the tree disagrees with the picture, or ``None`` when it agrees: of its visible
        texts (up to ``sample``), at least half must be read by OCR where the tree puts them."""
        if self.problem is not None:
            return self.problem
        texts = [n for n in self.nodes
                 if n.text and len(compact(n.text)) >= 3 and n.box.area >= 64 and self.visible(n)]
        if not texts:
            return None  # nothing to compare (a tree of icons only): its bounds were checked above
        step = max(1, len(texts) // sample)
        picked = texts[::step][:sample]
        seen = sum(_on_picture(n, lines) for n in picked)
        if seen * 2 < len(picked):
            missing = [n.text for n in picked if not _on_picture(n, lines)][:3]
            return (f"the accessibility tree disagrees with the screenshot (stale or drawn by the app itself): "
                    f"{len(picked) - seen} of its {len(picked)} texts are not on the picture, e.g. "
                    + ", ".join(quote_screen_text(t) for t in missing))
        return None

    def hidden(self, n: TreeNode) -> bool:
        """On the screen (its centre) and not empty, but not :meth:`visible`: on the page behind the
        dialog, or under an overlay drawn after it (a scrim, a popup menu's outside, a drawer),
        where a tap reaches the overlay."""
        if n.box.is_empty() or not (0 <= n.box.center.x < self.width and 0 <= n.box.center.y < self.height):
            return False
        return not self.visible(n)

    def label_lines(self, attr: str, behind: bool = False) -> list[tuple[TreeNode, TextLine]]:
        """Visible nodes with a non-empty ``attr`` (``text``, ``desc`` or ``rid_words``) as text
        lines boxed by the node, for the text matcher. ``behind``: instead, the :meth:`hidden`
        nodes, behind the dialog or under an overlay (what grounding leaves out, to say so, and
        where the picture's reading of them is no answer either)."""
        out = []
        for n in self.nodes:
            value = getattr(n, attr)
            if not (value and value.strip() and n.enabled):
                continue
            if self.hidden(n) if behind else self.visible(n):
                out.append((n, TextLine(value, self.tap_box(n), 1.0)))
        return out

    def icon_boxes(self) -> list[Box]:
        """Clickable nodes of icon size that carry no text of their own: icon candidates the
        picture's detector may have missed."""
        out = []
        for n in self.nodes:
            if not n.clickable or n.text or not self.visible(n):
                continue
            b = self.tap_box(n)
            side = min(self.width, self.height)
            if 0.03 * side <= b.width <= 0.3 * side and 0.03 * side <= b.height <= 0.3 * side \
                    and not any(self.nodes[c].text for c in self._descendants(n.index)):
                out.append(b)
        return out

    def _descendants(self, i: int) -> list[int]:
        out, stack = [], list(self._children.get(i, []))
        while stack:
            j = stack.pop()
            out.append(j)
            stack.extend(self._children.get(j, []))
        return out


def _on_picture(n: TreeNode, lines: Sequence[TextLine]) -> bool:
    """Whether OCR read ``n``'s text inside (or overlapping) the node's box."""
    target = normalize_text(n.text)
    area = n.box.expand(max(8, n.box.height // 2))
    for line in lines:
        if not area.contains_point(line.box.center) and line.box.iou(n.box) <= 0:
            continue
        got = normalize_text(line.text)
        if len(compact(got)) < 2:
            continue
        if target in got or got in target or fuzz.partial_ratio(target, got) >= 80:
            return True
    return False
