"""Small widgets shared by the Shop, Music, Maps, Clips and Video apps: a search pill, a
horizontally scrolling chip row, avatars, rating stars, icon+label pills and number formatting;
and :class:`SearchApp`, the search navigation of Maps, Music and Video.

Not an app module (the leading underscore keeps it out of app discovery)."""

from __future__ import annotations

import re
from typing import Callable, Iterable, Sequence, TypeVar

from PIL import Image

from mobile_agent.device.sim.phone import App, Screen
from mobile_agent.device.sim.render import RGB, Canvas, cached_image, mix, draw_picture, rounded_mask, seeded_color, text_width
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box

Action = Callable[[], None]
T = TypeVar("T")


def fmt_count(n: int) -> str:
    """Compact counts as apps show them: 950, 1.2K, 35K, 4.1M."""
    if n < 1000:
        return str(n)
    if n < 10_000:
        return f"{n / 1000:.1f}K".replace(".0K", "K")
    if n < 1_000_000:
        return f"{n // 1000}K"
    if n < 10_000_000:
        return f"{n / 1_000_000:.1f}M".replace(".0M", "M")
    return f"{n // 1_000_000}M"


def words(text: str) -> list[str]:
    """Lower-case word tokens with a plural ``s`` dropped (``caps`` -> ``cap``)."""
    out = []
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.append(w)
    return out


def by_words(query: str, items: Sequence[T], stop: set[str], texts: Callable[[T], Iterable[str]]) -> list[T]:
    """The items that share words with ``query`` (its ``stop`` words left out) among their ``texts``, the
    most words shared first, then in their order (the Shop's and the Video's search)."""
    q = [w for w in words(query) if w not in stop]
    if not q:
        return []
    scored = []
    for i, item in enumerate(items):
        hay = {w for text in texts(item) for w in words(text)}
        score = sum(1 for w in q if w in hay)
        if score:
            scored.append((-score, i))
    return [items[i] for _, i in sorted(scored)]


def search_pill(ui: UI, box: Box, hint: str, on_tap: Action | None, rid: str = "search_bar",
                leading: str = "magnify", fill: RGB | None = None, text: str = "") -> None:
    """A rounded search bar that opens a search screen when tapped; shows ``text`` or the hint."""
    t = ui.theme
    col = fill or t.field
    with ui.group(box, cls="android.widget.LinearLayout", rid=rid, on_tap=on_tap,
                  paint=lambda c, b: c.rect(b, fill=col, radius=b.height // 2)):
        ui.icon(box.x1 + ui.dp(26), box.center.y, leading, 22, t.on_bg2)
        ui.text(box.x1 + ui.dp(52), box.center.y - ui.dp(10), text or hint, 16, t.on_bg if text else t.on_bg2,
                max_width=box.width - ui.dp(64))


def back_bar(ui: UI, on_back: Action, height: float = 72) -> Box:
    """The top bar of a search or results screen: ``height`` dp at the top of the area, with a
    Navigate-up arrow at its left (``on_back``); returns the bar's box."""
    a = ui.area
    bar = Box(a.x1, a.y1, a.x2, a.y1 + ui.dp(height))
    ui.icon_button(bar.x1 + ui.dp(28), bar.center.y, "arrow-left", "Navigate up", on_back)
    return bar


def query_bar(ui: UI, on_back: Action, hint: str, on_submit: Action | None, rid: str = "", height: float = 72,
              margin: float = 12, right: float = 16) -> Box:
    """A search screen's top bar: :func:`back_bar` with the query field (the screen's ``fields["q"]``)
    beside the arrow, ``margin`` dp inside the bar and ``right`` dp from its end."""
    bar = back_bar(ui, on_back, height)
    ui.text_field(Box(bar.x1 + ui.dp(56), bar.y1 + ui.dp(margin), bar.x2 - ui.dp(right), bar.y2 - ui.dp(margin)), "q",
                  hint, on_submit=on_submit, rid=rid)
    return bar


def results_bar(ui: UI, on_back: Action, hint: str, on_tap: Action | None, query: str, margin: float = 8,
                right: float = 16) -> Box:
    """A results screen's top bar (64 dp): :func:`back_bar` with a :func:`search_pill` showing the
    query, which opens the search again when tapped."""
    bar = back_bar(ui, on_back, 64)
    search_pill(ui, Box(bar.x1 + ui.dp(56), bar.y1 + ui.dp(margin), bar.x2 - ui.dp(right), bar.y2 - ui.dp(margin)),
                hint, on_tap, text=query)
    return bar


def chip_row(ui: UI, y: int, items: Sequence[tuple[str, str | None, Action | None]], key: str,
             selected: str | None = None, fill: RGB | None = None) -> Box:
    """A row of chips ``(label, icon, on_tap)`` that scrolls sideways when wider than the screen.

    Its offset lives in the screen's ``scroll[key]``; chips past the edge are cut, as on a phone."""
    t = ui.theme
    screen = ui.screen
    assert screen is not None
    h = ui.dp(32)
    row = Box(ui.area.x1, y, ui.area.x2, y + h)
    px = ui.dp(14)
    widths = [text_width(label, px, 500) + ui.dp(32 if not icon else 52) for label, icon, _ in items]
    gap = ui.dp(8)
    total = sum(widths) + gap * (len(items) - 1) + ui.dp(32)
    max_off = max(0, total - row.width)
    off = min(screen.scroll.get(key, 0), max_off)

    def swipe(x1: int, y1: int, x2: int, y2: int) -> bool:
        if abs(x2 - x1) < abs(y2 - y1):
            return False
        screen.scroll[key] = min(max_off, max(0, screen.scroll.get(key, 0) + (x1 - x2)))
        return True

    holder = ui.add(Node(row, cls="android.widget.HorizontalScrollView", scrollable=max_off > 0,
                         swipe=swipe if max_off > 0 else None))
    x = row.x1 + ui.dp(16) - off
    for (label, icon, fn), w in zip(items, widths):
        box = Box(x, y, x + w, y + h)
        sel = label == selected
        bg = fill

        def paint(c: Canvas, b: Box, label=label, icon=icon, sel=sel, bg=bg) -> None:
            if sel:
                c.rect(b, fill=mix(ui.accent, t.bg, 0.75), radius=ui.dp(8))
            elif bg is not None:
                c.rect(b, fill=bg, radius=ui.dp(8))
            else:
                c.rect(b, fill=t.bg, outline=t.divider, width=max(1, ui.dp(1)), radius=ui.dp(8))
            tx = b.x1 + ui.dp(16)
            if icon:
                c.icon(tx + ui.dp(9), b.center.y, icon, ui.dp(18), ui.accent if not sel else t.on_bg)
                tx += ui.dp(26)
            c.text(tx, b.center.y, label, px, t.on_bg, 500, anchor="lm")

        clip = row if holder.clip is None else row.intersect(holder.clip)
        node = Node(box, cls="android.widget.CompoundButton", text=label, clickable=fn is not None, on_tap=fn,
                    selected=sel, paint=paint, clip=clip, package=ui.package)
        if not node.visible.is_empty():
            holder.children.append(node)
        x += w + gap
    return row


def avatar(ui: UI, cx: int, cy: int, radius_dp: float, name: str, desc: str = "",
           on_tap: Action | None = None, ring: RGB | None = None) -> Box:
    """A round avatar: a stable colour for ``name`` and its initial."""
    r = ui.dp(radius_dp)
    box = Box(cx - r, cy - r, cx + r, cy + r)
    col = seeded_color(name, 0.45, 0.75)
    initial = (name.lstrip("@")[:1] or "?").upper()
    px = int(r * 0.95)

    pad = max(1, ui.dp(2)) if ring is not None else 0

    def paint(c: Canvas, b: Box) -> None:
        inner = b.expand(-pad)
        if ring is not None:
            c.ellipse(b, fill=ring)
        c.ellipse(inner, fill=col)
        c.text(inner.center.x, inner.center.y, initial, px, (255, 255, 255), 500, anchor="mm")

    box = box.expand(pad)
    ui.add(Node(box, cls="android.widget.ImageView" if on_tap is None else "android.widget.ImageButton",
                desc=desc, paint=paint, clickable=on_tap is not None, on_tap=on_tap))
    return box


def stars(ui: UI, x: int, y: int, rating: float, size: float = 14, color: RGB = (251, 188, 4)) -> Box:
    """Five rating stars (full, half, empty) from (x, y) top-left; decorative."""
    px = ui.dp(size)
    box = Box(x, y, x + px * 5, y + px)

    def paint(c: Canvas, b: Box) -> None:
        for i in range(5):
            v = rating - i
            name = "star" if v >= 0.75 else ("star-half-full" if v >= 0.25 else "star-outline")
            c.icon(b.x1 + i * px + px // 2, b.center.y, name, px, color)

    ui.add(Node(box, cls="android.widget.RatingBar", desc=f"Rated {rating:.1f} out of 5", paint=paint))
    return box


def pill(ui: UI, box: Box, icon: str | None, label: str, on_tap: Action | None, desc: str = "",
         fill: RGB | None = None, fg: RGB | None = None, icon_color: RGB | None = None, rid: str = "",
         selected: bool = False, weight: int = 500) -> Box:
    """A rounded button with an icon and a label (Like 1.2K, Share, Directions)."""
    t = ui.theme
    bg = fill if fill is not None else t.surface2
    col = fg or t.on_bg
    px = ui.dp(14)

    def paint(c: Canvas, b: Box) -> None:
        c.rect(b, fill=bg, radius=b.height // 2)
        tw = text_width(label, px, weight) if label else 0
        isz = ui.dp(20) if icon else 0
        gap = ui.dp(6) if icon and label else 0
        x0 = b.center.x - (tw + isz + gap) // 2
        if icon:
            c.icon(x0 + isz // 2, b.center.y, icon, isz, icon_color or col)
        if label:
            c.text(x0 + isz + gap, b.center.y, label, px, col, weight, anchor="lm")

    ui.add(Node(box, cls="android.widget.Button", text=label, desc=desc, rid=rid, clickable=on_tap is not None,
                on_tap=on_tap, paint=paint, selected=selected))
    return box


def pill_width(ui: UI, label: str, icon: bool = True) -> int:
    return text_width(label, ui.dp(14), 500) + ui.dp(32) + (ui.dp(26) if icon else 0)


def rect(ui: UI, box: Box, fill: RGB, radius: float = 0) -> None:
    """A decorative filled (rounded) rectangle."""
    r = ui.dp(radius)
    ui.add(Node(box, paint=lambda c, b: c.rect(b, fill=fill, radius=r)))


def offscreen(ui: UI, viewport: Box, y1: int, y2: int) -> bool:
    """True when content from ``y1`` to ``y2`` lies outside ``viewport`` (a scroll area's box): the
    caller then skips building it and only reserves its room, which keeps long lists cheap."""
    if y2 <= viewport.y1 or y1 >= viewport.y2:
        ui.spacer(y1, y2)
        return True
    return False


def _composite(key: str, width: int, height: int, kind: str, radius: int, bg: RGB, top_only: bool) -> Image.Image:
    img = draw_picture(key, width, height, kind)  # drawn here, held only by the caches below
    if radius <= 0:
        return img
    if top_only:
        mask = rounded_mask(width, height + radius, radius).crop((0, 0, width, height))
    else:
        mask = rounded_mask(width, height, radius)
    return Image.composite(img, Image.new("RGB", (width, height), bg), mask)


def _composited(key: str, width: int, height: int, kind: str, radius: int, bg: RGB, top_only: bool) -> Image.Image:
    return cached_image(("composite", key, width, height, kind, radius, bg, top_only),
                        lambda: _composite(key, width, height, kind, radius, bg, top_only))


def rounded_picture(ui: UI, box: Box, key: str, kind: str, bg: RGB, radius: float = 12, desc: str = "",
                    top_only: bool = False, on_tap: Action | None = None, rid: str = "") -> Box:
    """Like ``ui.picture`` with rounded corners, but the corners are pre-blended with ``bg`` (the
    colour behind the picture) once and cached, so each frame pastes it without a mask (cheaper)."""
    r = ui.dp(radius)

    def paint(c: Canvas, b: Box) -> None:
        make = _composited
        c.paste(make(key, b.width, b.height, kind, r, bg, top_only), b.x1, b.y1)

    ui.add(Node(box, cls="android.widget.ImageView", desc=desc, rid=rid, paint=paint,
                clickable=on_tap is not None, on_tap=on_tap))
    return box


class QueryScreen(Screen):
    """A search screen: the query in its field ``q`` (a results page's query, when it opens from
    there), run by the app's ``run_search`` on Enter (:meth:`submit`)."""

    def __init__(self, app: App, query: str = "") -> None:
        super().__init__(app)
        self.fields["q"] = query

    def submit(self) -> None:
        self.app.run_search(self.fields.get("q", ""))  # type: ignore[attr-defined]


class QueryResults(Screen):
    """A results screen: the query whose results it shows."""

    def __init__(self, app: App, query: str) -> None:
        super().__init__(app)
        self.query = query


class SearchApp(App):
    """An app whose search screen (query field ``q``, submitted by its ``submit``) gives way to a
    results screen: Maps, Music and Video. Subclasses name the two screens (built as
    ``cls(app, query)``) and the list that logs the searches run."""

    search_screen: type[Screen]
    results_screen: type[Screen]

    def search_log(self) -> list[str]:  # pragma: no cover - abstract
        raise NotImplementedError

    def open_search(self, query: str = "") -> None:
        """The search screen with ``query`` in its focused field; opened from a results page (with its
        query) it takes that page's place."""
        if query and isinstance(self.screen, self.results_screen):
            self.stack.pop()
        screen = self.search_screen(self, query)  # type: ignore[call-arg]
        self.push(screen)
        self.phone.focus_field(screen, "q", on_submit=screen.submit)  # type: ignore[attr-defined]

    def run_search(self, query: str) -> None:
        """Log ``query`` (stripped; nothing happens when empty) and show its results in place of the search screen."""
        query = query.strip()
        if not query:
            return
        self.search_log().append(query)
        if isinstance(self.screen, self.search_screen):
            self.stack.pop()
        self.push(self.results_screen(self, query))  # type: ignore[call-arg]
