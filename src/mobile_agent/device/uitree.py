"""Reading uiautomator XML dumps, and driving any device by the nodes of its tree.

The tree is ground truth for tests and benchmarks (where each text and icon really is); the agent
itself never reads it unless the user turns that on.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mobile_agent.types import Box

if TYPE_CHECKING:
    from mobile_agent.device.base import Device


@dataclass(frozen=True)
class UINode:
    text: str
    desc: str
    rid: str
    cls: str
    package: str
    bounds: Box
    clickable: bool
    checkable: bool
    checked: bool
    focused: bool
    scrollable: bool
    selected: bool
    depth: int

    @property
    def label(self) -> str:
        return self.text or self.desc


def parse_tree(xml: str) -> list[UINode]:
    """Every ``<node>`` of a uiautomator dump, in document order. Raises ``ValueError`` on bad XML."""
    try:
        root = ET.fromstring(xml.encode("utf-8") if isinstance(xml, str) else xml)
    except ET.ParseError as exc:
        raise ValueError(f"not a uiautomator XML dump: {exc}") from exc
    out: list[UINode] = []

    def visit(el: ET.Element, depth: int) -> None:
        for child in el:
            if child.tag != "node":
                continue
            a = child.attrib
            try:
                bounds = Box.from_bounds(a.get("bounds", "[0,0][0,0]"))
            except ValueError:
                bounds = Box(0, 0, 0, 0)
            t = lambda k: a.get(k, "false") == "true"  # noqa: E731
            out.append(UINode(a.get("text", ""), a.get("content-desc", ""), a.get("resource-id", ""),
                              a.get("class", ""), a.get("package", ""), bounds, t("clickable"), t("checkable"),
                              t("checked"), t("focused"), t("scrollable"), t("selected"), depth))
            visit(child, depth + 1)

    visit(root, 0)
    return out


class TreeDriver:
    """Operate a device by its ui tree: find nodes by text, content-desc or resource id, tap their
    centres, type, scroll until something appears. For tests, benchmarks and recorded plans."""

    def __init__(self, device: "Device") -> None:
        self.device = device

    def nodes(self) -> list[UINode]:
        xml = self.device.ui_tree()
        if xml is None:
            raise RuntimeError("this device gives no ui tree")
        return parse_tree(xml)

    def find_all(self, text: str | None = None, desc: str | None = None, rid: str | None = None,
                 contains: str | None = None, cls: str | None = None) -> list[UINode]:
        out = []
        for n in self.nodes():
            if n.bounds.is_empty():
                continue
            if text is not None and n.text != text:
                continue
            if desc is not None and n.desc != desc:
                continue
            if rid is not None and n.rid != rid:
                continue
            if cls is not None and n.cls != cls:
                continue
            if contains is not None and contains.lower() not in (n.text + " " + n.desc).lower():
                continue
            out.append(n)
        return out

    def find(self, text: str | None = None, desc: str | None = None, rid: str | None = None,
             contains: str | None = None, cls: str | None = None) -> UINode | None:
        found = self.find_all(text, desc, rid, contains, cls)
        return found[0] if found else None

    def visible_labels(self) -> list[str]:
        return [n.label for n in self.nodes() if n.label]

    def tap(self, text: str | None = None, desc: str | None = None, rid: str | None = None,
            contains: str | None = None, cls: str | None = None, index: int = 0) -> UINode:
        """Tap the centre of the ``index``-th matching node; ``LookupError`` names what is visible."""
        found = self.find_all(text, desc, rid, contains, cls)
        if len(found) <= index:
            what = ", ".join(f"{k}={v!r}" for k, v in
                             dict(text=text, desc=desc, rid=rid, contains=contains, cls=cls).items() if v is not None)
            raise LookupError(f"no node with {what} on screen; visible: {self.visible_labels()}")
        node = found[index]
        c = node.bounds.center
        self.device.tap(c.x, c.y)
        return node

    def type(self, text: str) -> None:
        self.device.type_text(text)

    def page_down(self) -> None:
        w, h = self.device.size()
        self.device.swipe(w // 2, h * 7 // 10, w // 2, h * 3 // 10, 300)

    def page_up(self) -> None:
        w, h = self.device.size()
        self.device.swipe(w // 2, h * 3 // 10, w // 2, h * 7 // 10, 300)

    def scroll_to(self, max_pages: int = 8, **query) -> UINode:
        """Page down until a node matching ``query`` is on screen, even in part (at most ``max_pages``)."""
        for _ in range(max_pages + 1):
            n = self.find(**query)
            if n is not None:
                return n
            self.page_down()
        raise LookupError(f"no node matching {query} after {max_pages} pages; visible: {self.visible_labels()}")
