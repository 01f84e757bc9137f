"""The simulated phone's view toolkit: a tree of nodes, each with bounds, accessibility attributes,
a painter and a tap handler, built afresh from the app's state for every frame.

Screens describe themselves with :class:`UI`, a builder whose methods add widgets (text, buttons,
list rows, switches, text fields, pictures, scroll areas, dialogs) and return their boxes. The same
nodes are drawn, dumped as the uiautomator tree and hit by taps, so the tree's bounds match the
pixels by construction.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol
from xml.sax.saxutils import quoteattr

from mobile_agent.device.sim.render import RGB, Canvas, Theme, ellipsize, mix, on_color, picture, text_width, wrap
from mobile_agent.types import Box

Painter = Callable[[Canvas, Box], None]
Action = Callable[[], None]


class ScreenState(Protocol):
    """What the toolkit keeps in a screen (:class:`~mobile_agent.device.sim.phone.Screen`): its text
    fields' values and its scroll offsets."""

    fields: dict[str, str]
    scroll: dict[str, int]


class Phone(Protocol):
    """What the toolkit asks of the phone it builds a screen for
    (:class:`~mobile_agent.device.sim.phone.SimPhone`, which imports this module: named by its shape)."""

    home_scroll: dict[str, int]

    def dp(self, v: float) -> int: ...

    def full_box(self) -> Box: ...

    def is_focused(self, screen: Any, key: str) -> bool: ...

    def focus_field(self, screen: Any, key: str, on_submit: Action | None = None, multiline: bool = False) -> None: ...


@dataclass(eq=False)
class Node:
    box: Box
    cls: str = "android.view.View"
    text: str = ""
    desc: str = ""
    rid: str = ""
    package: str = ""
    clickable: bool = False
    checkable: bool = False
    checked: bool = False
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    selected: bool = False
    enabled: bool = True
    password: bool = False
    on_tap: Action | None = None
    on_long_press: Action | None = None  # without one, a long press clicks on release, as on Android
    paint: Painter | None = None
    children: list["Node"] = field(default_factory=list)
    clip: Box | None = None  # visible region (inside a scroll area)
    scroll_key: str | None = None  # for scrollable containers
    swipe: Callable[[int, int, int, int], bool] | None = None  # custom swipe handler (pagers)

    @property
    def visible(self) -> Box:
        return self.box.intersect(self.clip) if self.clip is not None else self.box

    def walk(self) -> Iterator["Node"]:
        yield self
        for c in self.children:
            yield from c.walk()


def tree_xml(root: Node, rotation: int = 0) -> str:
    """Serialise a node tree in the format of ``uiautomator dump``."""
    out = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>", f'<hierarchy rotation="{rotation}">']

    def emit(node: Node, index: int, depth: int) -> None:
        vis = node.visible
        if vis.is_empty():
            return
        b = lambda v: "true" if v else "false"  # noqa: E731
        attrs = (
            f'index="{index}" text={quoteattr(node.text)} resource-id={quoteattr(node.rid)} '
            f'class={quoteattr(node.cls)} package={quoteattr(node.package)} content-desc={quoteattr(node.desc)} '
            f'checkable="{b(node.checkable)}" checked="{b(node.checked)}" clickable="{b(node.clickable)}" '
            f'enabled="{b(node.enabled)}" focusable="{b(node.focusable or node.clickable)}" '
            f'focused="{b(node.focused)}" scrollable="{b(node.scrollable)}" '
            f'long-clickable="{b(node.on_long_press is not None)}" '
            f'password="{b(node.password)}" selected="{b(node.selected)}" bounds="{vis.to_bounds()}"'
        )
        pad = "  " * (depth + 1)
        kids = [c for c in node.children if not c.visible.is_empty()]
        if not kids:
            out.append(f"{pad}<node {attrs} />")
            return
        out.append(f"{pad}<node {attrs}>")
        for i, c in enumerate(kids):
            emit(c, i, depth + 1)
        out.append(f"{pad}</node>")

    emit(root, 0, 0)
    out.append("</hierarchy>")
    return "\n".join(out) + "\n"


def paint_tree(canvas: Canvas, node: Node) -> None:
    """Paint a node then its children; a scroll area's children are drawn into a clipped layer."""
    if node.paint is not None:
        node.paint(canvas, node.box)
    if not node.children:
        return
    if node.scrollable and node.scroll_key is not None:
        vp = node.box.intersect(node.clip) if node.clip is not None else node.box
        if vp.is_empty():
            return
        crop = (vp.x1 - canvas.ox, vp.y1 - canvas.oy, vp.x2 - canvas.ox, vp.y2 - canvas.oy)
        layer = canvas.image.crop(crop)
        sub = Canvas(layer, (vp.x1, vp.y1))
        for c in node.children:
            paint_tree(sub, c)
        canvas.image.paste(layer, (crop[0], crop[1]))
        return
    for c in node.children:
        paint_tree(canvas, c)


def hit(root: Node, x: int, y: int) -> Node | None:
    """The topmost clickable node under (x, y): the last one in paint order."""
    found: Node | None = None
    for n in root.walk():
        if n.clickable and n.enabled and n.visible.contains(x, y):
            found = n
    return found


def scroll_target(root: Node, x: int, y: int) -> Node | None:
    """The innermost scrollable (or custom-swipe) node under (x, y)."""
    found: Node | None = None
    for n in root.walk():
        if (n.scrollable or n.swipe is not None) and n.visible.contains(x, y):
            found = n
    return found


class UI:
    """Builder of one screen's nodes. Sizes are given in dp and scaled to the phone's density."""

    def __init__(self, phone: Phone, screen: ScreenState | None, area: Box, theme: Theme, package: str,
                 accent: RGB | None = None) -> None:
        self.phone = phone
        self.screen = screen
        self.area = area
        self.theme = theme
        self.package = package
        self.accent = accent or theme.primary
        look = getattr(phone, "look", None)
        self.tr: Callable[[str], str] = look.tr if look is not None else (lambda s: s)  # labels in the look's language
        # The screenshot starts filled with the theme's background, so the root paints nothing.
        self.root = Node(area, cls="android.widget.FrameLayout", package=package)
        self._stack: list[Node] = [self.root]
        self._clip: Box | None = None
        self._bottoms: list[int] = []  # lowest content edge seen in each open scroll area

    # -- units and basics -------------------------------------------------------------------
    def dp(self, v: float) -> int:
        return self.phone.dp(v)

    @property
    def width(self) -> int:
        return self.area.width

    @property
    def left(self) -> int:
        return self.area.x1 + self.dp(16)

    @property
    def right(self) -> int:
        return self.area.x2 - self.dp(16)

    def add(self, node: Node) -> Node:
        node.package = node.package or self.package
        if self._clip is not None:
            node.clip = self._clip
            self._bottoms[-1] = max(self._bottoms[-1], node.box.y2)
            if node.visible.is_empty():
                return node  # scrolled out of view: neither drawn nor in the tree
        self._stack[-1].children.append(node)
        return node

    @contextmanager
    def group(self, box: Box, cls: str = "android.widget.LinearLayout", on_tap: Action | None = None,
              desc: str = "", rid: str = "", paint: Painter | None = None, **attrs) -> Iterator[Node]:
        node = self.add(Node(box, cls=cls, on_tap=on_tap, clickable=on_tap is not None, desc=desc, rid=rid,
                             paint=paint, **attrs))
        self._stack.append(node)
        try:
            yield node
        finally:
            self._stack.pop()

    @contextmanager
    def scroll(self, box: Box, key: str, rid: str = "") -> Iterator[int]:
        """A vertical scroll area. Yields the y of the content's top (already scrolled); children
        are laid out from it in screen coordinates. The content height is measured at the end, and
        vertical swipes that start inside the area scroll it (content follows the finger)."""
        store = self.screen.scroll if self.screen is not None else self.phone.home_scroll
        offset = store.get(key, 0)
        node = self.add(Node(box, cls="androidx.recyclerview.widget.RecyclerView", scrollable=True,
                             scroll_key=key, rid=rid))
        outer_clip = self._clip
        self._clip = box if outer_clip is None else box.intersect(outer_clip)
        self._stack.append(node)
        top = box.y1 - offset
        self._bottoms.append(top)
        try:
            yield top
        finally:
            self._stack.pop()
            self._clip = outer_clip
            bottom = self._bottoms.pop()
            if self._bottoms:
                self._bottoms[-1] = max(self._bottoms[-1], bottom)
            content_h = bottom - top + self.dp(8)
            max_offset = max(0, content_h - box.height)
            node.scrollable = max_offset > 0

            def swipe(x1: int, y1: int, x2: int, y2: int) -> bool:
                if abs(y2 - y1) < abs(x2 - x1):
                    return False
                new = min(max_offset, max(0, store.get(key, 0) + (y1 - y2)))
                moved = new != store.get(key, 0)
                store[key] = new
                return moved

            node.swipe = swipe

    def spacer(self, y1: int, y2: int) -> None:
        """Empty room in a scroll area (counts towards its content height, draws nothing)."""
        if self._bottoms:
            self._bottoms[-1] = max(self._bottoms[-1], y2)

    # -- text ---------------------------------------------------------------------------------
    def text(self, x: int, y: int, s: str, size: float = 14, color: RGB | None = None, weight: int = 400,
             max_width: int | None = None, align: str = "left", rid: str = "", on_tap: Action | None = None,
             lines: int = 1, desc: str = "") -> Box:
        """A TextView with its top-left (or top-centre / top-right per ``align``) at (x, y)."""
        s = self.tr(s)
        px = self.dp(size)
        color = color or self.theme.on_bg
        max_width = max_width or (self.area.x2 - self.dp(16) - x if align == "left" else self.width)
        if lines == 1:
            shown = [ellipsize(s, px, weight, max_width)]
        else:
            shown = wrap(s, px, weight, max_width)
            if len(shown) > lines:
                shown = shown[:lines]
                shown[-1] = ellipsize(shown[-1] + "…", px, weight, max_width)
        line_h = int(px * 1.3)
        w = max(text_width(t, px, weight) for t in shown) if shown else 0
        h = line_h * len(shown)
        x1 = x if align == "left" else (x - w // 2 if align == "center" else x - w)
        box = Box(x1, y, x1 + max(w, 1), y + h)

        def paint(c: Canvas, b: Box, shown=shown) -> None:
            for i, t in enumerate(shown):
                c.text(b.x1, b.y1 + i * line_h + (line_h - px) // 2, t, px, color, weight, anchor="lt")

        self.add(Node(box, cls="android.widget.TextView", text=s, rid=rid,
                      desc=desc, paint=paint, on_tap=on_tap, clickable=on_tap is not None))
        return box

    # -- controls -----------------------------------------------------------------------------
    def button(self, box: Box, label: str, on_tap: Action | None, style: str = "filled", rid: str = "",
               icon: str | None = None, enabled: bool = True, color: RGB | None = None) -> Box:
        """A Button: ``filled`` (accent background), ``tonal``, ``outlined`` or ``text``."""
        label = self.tr(label)
        t = self.theme
        accent = color or self.accent
        px = self.dp(14)

        def paint(c: Canvas, b: Box) -> None:
            radius = b.height // 2
            if style == "filled":
                fg = on_color(accent) if enabled else t.on_bg2
                c.rect(b, fill=accent if enabled else t.surface2, radius=radius)
            elif style == "tonal":
                fg = t.on_bg
                c.rect(b, fill=mix(accent, t.bg, 0.8), radius=radius)
            elif style == "outlined":
                fg = accent
                c.rect(b, outline=t.divider, width=max(1, self.dp(1)), radius=radius)
            else:
                fg = accent
            tw = text_width(label, px, 500)
            if icon:
                isz = self.dp(18)
                gap = self.dp(8)
                x0 = b.center.x - (tw + isz + gap) // 2
                c.icon(x0 + isz // 2, b.center.y, icon, isz, fg)
                c.text(x0 + isz + gap, b.center.y, label, px, fg, 500, anchor="lm")
            else:
                c.text(b.center.x, b.center.y, label, px, fg, 500, anchor="mm")

        self.add(Node(box, cls="android.widget.Button", text=label, rid=rid, clickable=enabled, enabled=enabled,
                      on_tap=on_tap, paint=paint))
        return box

    def icon_button(self, cx: int, cy: int, icon: str, desc: str, on_tap: Action | None, size: float = 24,
                    color: RGB | None = None, rid: str = "", touch: float = 48, bg: RGB | None = None) -> Box:
        """An ImageButton: an MDI glyph with a 48dp touch target; ``desc`` is its content-desc."""
        half = self.dp(touch) // 2
        box = Box(cx - half, cy - half, cx + half, cy + half)
        color = color or self.theme.on_bg
        px = self.dp(size)

        def paint(c: Canvas, b: Box) -> None:
            if bg is not None:
                r = int(px * 0.85)
                c.ellipse(Box(cx - r, cy - r, cx + r, cy + r), fill=bg)
            c.icon(cx, cy, icon, px, color)

        self.add(Node(box, cls="android.widget.ImageButton", desc=desc, rid=rid, clickable=on_tap is not None,
                      on_tap=on_tap, paint=paint))
        return box

    def icon(self, cx: int, cy: int, icon: str, size: float = 24, color: RGB | None = None, desc: str = "") -> Box:
        """A decorative ImageView glyph (not clickable)."""
        px = self.dp(size)
        color = color or self.theme.on_bg
        box = Box(cx - px // 2, cy - px // 2, cx + px // 2, cy + px // 2)
        self.add(Node(box, cls="android.widget.ImageView", desc=desc, paint=lambda c, b: c.icon(cx, cy, icon, px, color)))
        return box

    def switch(self, cx: int, cy: int, checked: bool, on_tap: Action | None, rid: str = "", desc: str = "") -> Box:
        w, h = self.dp(52), self.dp(32)
        box = Box(cx - w // 2, cy - h // 2, cx + w // 2, cy + h // 2)
        t = self.theme

        def paint(c: Canvas, b: Box) -> None:
            if checked:
                c.rect(b, fill=self.accent, radius=h // 2)
                r = h // 2 - self.dp(4)
                kx = b.x2 - h // 2
                c.ellipse(Box(kx - r, cy - r, kx + r, cy + r), fill=(255, 255, 255))
            else:
                c.rect(b, fill=t.surface2, outline=t.on_bg2, width=max(1, self.dp(2)), radius=h // 2)
                r = h // 2 - self.dp(8)
                kx = b.x1 + h // 2
                c.ellipse(Box(kx - r, cy - r, kx + r, cy + r), fill=t.on_bg2)

        self.add(Node(box, cls="android.widget.Switch", rid=rid, desc=desc, checkable=True, checked=checked,
                      clickable=on_tap is not None, on_tap=on_tap, paint=paint, text="ON" if checked else "OFF"))
        return box

    def divider(self, y: int, x1: int | None = None, x2: int | None = None) -> None:
        x1 = self.area.x1 if x1 is None else x1
        x2 = self.area.x2 if x2 is None else x2
        th = max(1, self.dp(1) // 2)
        col = self.theme.divider
        self.add(Node(Box(x1, y, x2, y + th), paint=lambda c, b: c.rect(b, fill=col)))

    def picture(self, box: Box, key: str, kind: str = "scene", desc: str = "", on_tap: Action | None = None,
                radius: float = 8, rid: str = "") -> Box:
        """A procedural picture (thumbnail, cover, photo, map tile)."""
        r = self.dp(radius)

        def paint(c: Canvas, b: Box) -> None:
            img = picture(key, b.width, b.height, kind)
            if r > 0:
                from mobile_agent.device.sim.render import rounded_mask

                c.paste(img, b.x1, b.y1, rounded_mask(b.width, b.height, r))
            else:
                c.paste(img, b.x1, b.y1)

        self.add(Node(box, cls="android.widget.ImageView", desc=desc, rid=rid, paint=paint,
                      clickable=on_tap is not None, on_tap=on_tap))
        return box

    def text_field(self, box: Box, key: str, hint: str = "", on_submit: Action | None = None,
                   multiline: bool = False, rid: str = "", style: str = "filled", size: float = 16,
                   leading_icon: str | None = None, password: bool = False) -> Box:
        """An EditText whose value lives in the screen's ``fields[key]``. Tapping focuses it and shows
        the keyboard; Enter calls ``on_submit`` (search fields) or adds a line (``multiline``)."""
        screen = self.screen
        assert screen is not None, "text fields belong to a screen"
        hint = self.tr(hint)
        value = screen.fields.get(key, "")
        focused = self.phone.is_focused(screen, key)
        t = self.theme
        px = self.dp(size)
        pad = self.dp(16)

        def paint(c: Canvas, b: Box) -> None:
            if style == "filled":
                c.rect(b, fill=t.field, radius=self.dp(28) if not multiline else self.dp(12))
            elif style == "underline":
                c.rect(Box(b.x1, b.y2 - self.dp(2 if focused else 1), b.x2, b.y2),
                       fill=self.accent if focused else t.divider)
            elif style == "outlined":
                c.rect(b, outline=self.accent if focused else t.on_bg2, width=self.dp(2 if focused else 1),
                       radius=self.dp(6))
            x = b.x1 + (pad if style != "underline" else 0)
            if leading_icon:
                c.icon(x + self.dp(12), b.center.y if not multiline else b.y1 + self.dp(24), leading_icon,
                       self.dp(22), t.on_bg2)
                x += self.dp(36)
            maxw = b.x2 - x - pad
            shown_value = "•" * len(value) if password else value
            if multiline:
                lines = wrap(shown_value, px, 400, maxw) if value else []
                line_h = int(px * 1.35)
                y = b.y1 + self.dp(12)
                if not value:
                    c.text(x, y, hint, px, t.on_bg2, anchor="lt")
                for i, ln in enumerate(lines):
                    if y + (i + 1) * line_h > b.y2:
                        break
                    c.text(x, y + i * line_h, ln, px, t.on_bg, anchor="lt")
                if focused:
                    last = lines[-1] if lines else ""
                    cx = x + text_width(last, px, 400) + 2
                    cy = y + max(0, len(lines) - 1) * line_h
                    c.rect(Box(cx, cy, cx + max(2, self.dp(1.5)), cy + px + self.dp(2)), fill=self.accent)
            else:
                shown = value
                if text_width(shown_value, px, 400) > maxw:  # keep the end visible while typing
                    while shown and text_width(("•" * len(shown)) if password else shown, px, 400) > maxw:
                        shown = shown[1:]
                    shown_value = "•" * len(shown) if password else shown
                if value:
                    c.text(x, b.center.y, shown_value, px, t.on_bg, anchor="lm")
                else:
                    c.text(x, b.center.y, hint, px, t.on_bg2, anchor="lm")
                if focused:
                    cx = x + (text_width(shown_value, px, 400) if value else 0) + 2
                    c.rect(Box(cx, b.center.y - px * 6 // 10, cx + max(2, self.dp(1.5)), b.center.y + px * 6 // 10),
                           fill=self.accent)

        def tap() -> None:
            self.phone.focus_field(screen, key, on_submit=on_submit, multiline=multiline)

        self.add(Node(box, cls="android.widget.EditText", text=value if value else hint, rid=rid, clickable=True,
                      focusable=True, focused=focused, password=password, on_tap=tap, paint=paint))
        return box

    # -- composite widgets --------------------------------------------------------------------
    def top_bar(self, title: str, back: Action | None = None, actions: tuple = (), color: RGB | None = None,
                height: float = 64) -> Box:
        """A top app bar: optional "Navigate up" arrow, title, action icons ``(icon, desc, on_tap)``."""
        t = self.theme
        box = Box(self.area.x1, self.area.y1, self.area.x2, self.area.y1 + self.dp(height))
        bg = color if color is not None else t.bg
        self.add(Node(box, cls="android.view.ViewGroup", rid="toolbar", paint=lambda c, b: c.rect(b, fill=bg)))
        cy = box.center.y
        x = box.x1 + self.dp(16)
        if back is not None:
            self.icon_button(box.x1 + self.dp(28), cy, "arrow-left", "Navigate up", back)
            x = box.x1 + self.dp(60)
        ax = box.x2 - self.dp(28)
        for icon, desc, fn in actions:
            self.icon_button(ax, cy, icon, desc, fn)
            ax -= self.dp(48)
        if title:
            self.text(x, cy - self.dp(11), title, 22, t.on_bg, 400, max_width=ax + self.dp(20) - x)
        return box

    def list_row(self, y: int, title: str, subtitle: str = "", on_tap: Action | None = None, icon: str | None = None,
                 icon_color: RGB | None = None, switch: bool | None = None, on_switch: Action | None = None,
                 height: float | None = None, rid: str = "", trailing_text: str = "", chevron: bool = False) -> Box:
        """A list item: optional leading icon, title, subtitle, and a trailing switch, text or chevron."""
        t = self.theme
        h = self.dp(height or (72 if subtitle else 56))
        box = Box(self.area.x1, y, self.area.x2, y + h)
        x = self.area.x1 + self.dp(16)
        with self.group(box, on_tap=on_tap or on_switch, rid=rid):
            if icon:
                self.icon(x + self.dp(12), box.center.y, icon, 24, icon_color or t.on_bg2)
                x += self.dp(56)
            right = self.area.x2 - self.dp(16)
            if switch is not None:
                self.switch(right - self.dp(26), box.center.y, switch, on_switch or on_tap)
                right -= self.dp(64)
            elif chevron:
                self.icon(right - self.dp(12), box.center.y, "chevron-right", 24, t.on_bg2)
                right -= self.dp(40)
            if trailing_text:
                tw = text_width(trailing_text, self.dp(14), 400)
                self.text(right - tw, box.center.y - self.dp(9), trailing_text, 14, t.on_bg2)
                right -= tw + self.dp(12)
            if subtitle:
                self.text(x, box.y1 + self.dp(13), title, 16, t.on_bg, max_width=right - x)
                self.text(x, box.y1 + self.dp(38), subtitle, 14, t.on_bg2, max_width=right - x)
            else:
                self.text(x, box.center.y - self.dp(10), title, 16, t.on_bg, max_width=right - x)
        return box

    def card(self, box: Box, on_tap: Action | None = None, desc: str = "", rid: str = "", radius: float = 12,
             fill: RGB | None = None, on_long_press: Action | None = None):
        col = fill or self.theme.surface
        r = self.dp(radius)
        return self.group(box, cls="android.widget.FrameLayout", on_tap=on_tap, desc=desc, rid=rid,
                          paint=lambda c, b: c.rect(b, fill=col, radius=r), on_long_press=on_long_press)

    def chip(self, x: int, y: int, label: str, on_tap: Action | None = None, selected: bool = False) -> Box:
        label = self.tr(label)
        t = self.theme
        px = self.dp(14)
        w = text_width(label, px, 500) + self.dp(32)
        box = Box(x, y, x + w, y + self.dp(32))

        def paint(c: Canvas, b: Box) -> None:
            if selected:
                c.rect(b, fill=mix(self.accent, t.bg, 0.75), radius=self.dp(8))
            else:
                c.rect(b, outline=t.divider, width=max(1, self.dp(1)), radius=self.dp(8))
            c.text(b.center.x, b.center.y, label, px, t.on_bg, 500, anchor="mm")

        self.add(Node(box, cls="android.widget.CompoundButton", text=label, clickable=on_tap is not None,
                      selected=selected, on_tap=on_tap, paint=paint))
        return box

    def bottom_nav(self, items: list[tuple[str, str, Action | None]], selected: int) -> Box:
        """A bottom navigation bar of ``(icon, label, on_tap)``; returns its box."""
        t = self.theme
        h = self.dp(72)
        box = Box(self.area.x1, self.area.y2 - h, self.area.x2, self.area.y2)
        self.add(Node(box, cls="android.widget.FrameLayout", rid="bottom_navigation",
                      paint=lambda c, b: c.rect(b, fill=t.surface)))
        n = len(items)
        for i, (icon, label, fn) in enumerate(items):
            cell = Box(box.x1 + box.width * i // n, box.y1, box.x1 + box.width * (i + 1) // n, box.y2)
            sel = i == selected
            with self.group(cell, cls="android.widget.FrameLayout", on_tap=fn, desc=label, selected=sel):
                if sel:
                    pill = Box(cell.center.x - self.dp(32), box.y1 + self.dp(10), cell.center.x + self.dp(32),
                               box.y1 + self.dp(42))
                    col = mix(self.accent, t.bg, 0.7)
                    self.add(Node(pill, paint=lambda c, b, col=col: c.rect(b, fill=col, radius=b.height // 2)))
                self.icon(cell.center.x, box.y1 + self.dp(26), icon, 24, t.on_bg if sel else t.on_bg2)
                self.text(cell.center.x, box.y1 + self.dp(46), label, 12, t.on_bg if sel else t.on_bg2,
                          500 if sel else 400, align="center")
        return box

    def tabs(self, y: int, labels: list[str], selected: int, on_select: Callable[[int], None]) -> Box:
        t = self.theme
        h = self.dp(48)
        box = Box(self.area.x1, y, self.area.x2, y + h)
        self.add(Node(box, cls="android.widget.HorizontalScrollView", paint=lambda c, b: c.rect(
            Box(b.x1, b.y2 - max(1, self.dp(1)), b.x2, b.y2), fill=t.divider)))
        n = len(labels)
        for i, label in enumerate(labels):
            cell = Box(box.x1 + box.width * i // n, y, box.x1 + box.width * (i + 1) // n, y + h)
            sel = i == selected
            with self.group(cell, cls="android.widget.LinearLayout", on_tap=lambda i=i: on_select(i), selected=sel):
                self.text(cell.center.x, y + self.dp(14), label, 14, self.accent if sel else t.on_bg2, 500,
                          align="center")
                if sel:
                    acc = self.accent
                    self.add(Node(Box(cell.x1 + self.dp(16), cell.y2 - self.dp(3), cell.x2 - self.dp(16), cell.y2),
                                  paint=lambda c, b, acc=acc: c.rect(b, fill=acc)))
        return box

    def fab(self, icon: str, desc: str, on_tap: Action, label: str = "", bottom: int | None = None) -> Box:
        """A floating action button at the bottom right (extended with ``label``)."""
        t = self.theme
        size = self.dp(56)
        y2 = (bottom if bottom is not None else self.area.y2) - self.dp(16)
        px = self.dp(14)
        w = size if not label else self.dp(56) + text_width(label, px, 500)
        box = Box(self.area.x2 - self.dp(16) - w, y2 - size, self.area.x2 - self.dp(16), y2)
        acc = self.accent
        fg = on_color(acc)

        def paint(c: Canvas, b: Box) -> None:
            # a soft shadow under the button, inside the node's bounds
            c.rect(b, fill=mix(t.bg, (0, 0, 0), 0.15), radius=self.dp(16))
            c.rect(Box(b.x1, b.y1, b.x2, b.y2 - self.dp(2)), fill=acc, radius=self.dp(16))
            if label:
                c.icon(b.x1 + self.dp(28), b.center.y, icon, self.dp(24), fg)
                c.text(b.x1 + self.dp(44), b.center.y, label, px, fg, 500, anchor="lm")
            else:
                c.icon(b.center.x, b.center.y, icon, self.dp(24), fg)

        self.add(Node(box, cls="android.widget.ImageButton" if not label else "android.widget.Button", desc=desc,
                      text=label, clickable=True, on_tap=on_tap, paint=paint))
        return box

    def scrim(self, on_tap: Action | None = None, alpha: float = 0.45) -> None:
        """Dim everything below (a dialog or sheet follows); tapping outside calls ``on_tap``."""
        a = self.phone.full_box()

        def paint(c: Canvas, b: Box) -> None:
            from PIL import Image

            region = (b.x1 - c.ox, b.y1 - c.oy, b.x2 - c.ox, b.y2 - c.oy)
            under = c.image.crop(region)
            dark = Image.new("RGB", under.size, (0, 0, 0))
            c.image.paste(Image.blend(under, dark, alpha), region[:2])

        self.add(Node(a, cls="android.view.View", clickable=True, on_tap=on_tap or (lambda: None), paint=paint))

    def dialog(self, title: str, message: str, buttons: list[tuple[str, Action]], on_dismiss: Action | None = None) -> Box:
        """A modal alert dialog with text buttons on the right."""
        t = self.theme
        self.scrim(on_dismiss)
        w = self.area.width - self.dp(48)
        px = self.dp(14)
        msg_lines = wrap(message, px, 400, w - self.dp(48))
        title_lines = wrap(title, self.dp(22), 400, w - self.dp(48))
        title_h = int(self.dp(22) * 1.3) * len(title_lines)
        h = self.dp(24 + 16 + 24 + 52) + title_h + len(msg_lines) * int(px * 1.3)
        cy = self.area.center.y
        box = Box(self.area.x1 + self.dp(24), cy - h // 2, self.area.x2 - self.dp(24), cy + h // 2)
        with self.group(box, cls="android.widget.FrameLayout", rid="dialog",
                        paint=lambda c, b: c.rect(b, fill=t.surface, radius=self.dp(28))):
            self.text(box.x1 + self.dp(24), box.y1 + self.dp(24), title, 22, t.on_bg, max_width=w - self.dp(48),
                      rid="alertTitle", lines=len(title_lines))
            self.text(box.x1 + self.dp(24), box.y1 + self.dp(40) + title_h, message, 14, t.on_bg2,
                      lines=len(msg_lines), max_width=w - self.dp(48), rid="message")
            x = box.x2 - self.dp(24)
            for label, fn in reversed(buttons):
                bw = text_width(label, px, 500) + self.dp(24)
                self.button(Box(x - bw, box.y2 - self.dp(64), x, box.y2 - self.dp(24)), label, fn, style="text")
                x -= bw + self.dp(8)
        return box
