"""Store: an app store with a search bar, Top charts, search results, app pages with screenshots,
and Install with progress that advances over the next gestures, then Open and Uninstall.

The catalog (:data:`CATALOG`) holds the apps the Mobile-Eval tasks ask for ("WhatsApp", a
messenger, and "Instagram", photo sharing) among plausible fictional ones. Every catalog app is an
installable :class:`App` (see :data:`INSTALLABLE_APPS`) that appears on the home screen once
installed and opens on a simple first screen of its own. Icons are generic MDI glyphs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mobile_agent.device.sim.apps._kit import query_bar
from mobile_agent.device.sim.phone import App, Screen
from mobile_agent.device.sim.render import RGB, Canvas, mix
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box

if TYPE_CHECKING:
    from mobile_agent.device.sim.phone import SimPhone

#: Progress shown after Install, one value per gesture; the gesture after the last one finishes it.
INSTALL_STEPS = (12, 35, 64, 91)


@dataclass(frozen=True)
class StoreItem:
    """One app of the store's catalog."""

    name: str
    developer: str
    category: str
    kind: str  # what it is: messenger, photo, game, finance... (similar apps share it)
    rating: float
    reviews: str
    downloads: str
    size_mb: int
    icon: str  # MDI glyph
    color: RGB
    tagline: str
    description: str
    keywords: tuple[str, ...] = ()

    @property
    def package(self) -> str:
        return "com.sim.store." + re.sub(r"[^a-z0-9]", "", self.name.lower())


CATALOG: tuple[StoreItem, ...] = (
    StoreItem("WhatsApp", "WhatsApp LLC", "Communication", "messenger", 4.3, "198M", "5B+", 38,
              "chat-processing", (37, 180, 95), "Simple. Reliable. Private.",
              "Free messaging and calling to friends and family around the world. Send text and voice messages, "
              "share photos and videos, and make voice and video calls over your phone's internet connection. "
              "Messages and calls are end-to-end encrypted.",
              ("chat", "message", "messenger", "calls", "whats app", "whatsapp")),
    StoreItem("ChatWave", "ChatWave Inc.", "Communication", "messenger", 4.4, "2.1M", "100M+", 31,
              "message-outline", (30, 136, 229), "Group chats that feel like a wave",
              "ChatWave is a fast messenger for groups and friends: stickers, voice notes, and group calls with "
              "up to 32 people.", ("chat", "message", "messenger", "group")),
    StoreItem("Signalry", "Signalry Foundation", "Communication", "messenger", 4.5, "1.4M", "50M+", 27,
              "message-lock-outline", (58, 118, 240), "Private messenger",
              "Say hello to privacy. Signalry encrypts every message and call and keeps no logs.",
              ("chat", "message", "messenger", "private", "secure")),
    StoreItem("TalkTime", "TalkTime Labs", "Communication", "messenger", 4.0, "860K", "10M+", 22,
              "phone-in-talk-outline", (0, 150, 136), "Free calls & texts",
              "Call and text anyone for free over Wi-Fi or mobile data. Crystal clear HD voice.",
              ("calls", "chat", "message", "messenger", "voip")),
    StoreItem("Pigeon", "Pigeon Apps", "Communication", "messenger", 3.9, "120K", "1M+", 15,
              "bird", (255, 143, 0), "Lightweight messenger",
              "A tiny messenger that works on slow networks: text, photos and voice notes.",
              ("chat", "message", "messenger", "lite")),
    StoreItem("Instagram", "Instagram", "Social", "photo", 4.1, "154M", "1B+", 52,
              "camera-outline", (214, 41, 118), "Photos, videos and reels from friends",
              "Share what you are up to with photos, videos and reels. Follow friends, discover creators, and "
              "message the people you care about. Edit photos with filters and share them to your feed or stories.",
              ("photo", "photos", "pictures", "social", "share", "reels", "insta")),
    StoreItem("Pixgram", "Pixgram Studio", "Photography", "photo", 4.2, "980K", "50M+", 44,
              "image-filter-hdr", (124, 77, 255), "Share photos with style",
              "Pixgram turns your photos into stories: collages, filters and a feed for your friends.",
              ("photo", "photos", "share", "social", "filters")),
    StoreItem("Lumo Camera", "Lumo", "Photography", "photo", 4.0, "410K", "10M+", 36,
              "camera-iris", (255, 112, 67), "Beauty camera & filters",
              "A camera with live filters, portrait blur and a one-tap photo editor.",
              ("camera", "photo", "editor", "filters")),
    StoreItem("FrameUp", "FrameUp Apps", "Photography", "photo", 4.3, "260K", "10M+", 24,
              "view-grid-plus-outline", (0, 172, 193), "Photo collage maker",
              "Make collages from up to 16 photos with layouts, stickers and backgrounds.",
              ("collage", "photo", "editor", "frames")),
    StoreItem("Budget Buddy", "Coinwise Ltd", "Finance", "finance", 4.6, "320K", "5M+", 18,
              "wallet-outline", (67, 160, 71), "Track spending, save more",
              "See where your money goes: budgets, bills and savings goals in one place.",
              ("money", "budget", "expenses", "finance")),
    StoreItem("Sky Runner", "Nimbus Games", "Action", "game", 4.5, "3.2M", "100M+", 148,
              "rocket-launch-outline", (94, 53, 177), "Run, jump, fly!",
              "An endless runner across floating islands. Collect stars, unlock rockets and beat your friends.",
              ("game", "runner", "arcade")),
    StoreItem("Word Quest", "Puzzlebox", "Word", "game", 4.7, "890K", "10M+", 61,
              "alphabet-latin", (255, 179, 0), "Daily word puzzles",
              "Find the hidden words in hundreds of relaxing puzzles. A new challenge every day.",
              ("game", "puzzle", "word", "crossword")),
    StoreItem("Fit Streak", "Streak Health", "Health & Fitness", "fitness", 4.4, "510K", "10M+", 47,
              "run-fast", (229, 57, 53), "Workouts in 7 minutes",
              "Short home workouts with a coach, step counter and streaks that keep you going.",
              ("fitness", "workout", "health", "running")),
    StoreItem("Recipe Box", "Kitchen Stories Co", "Food & Drink", "food", 4.6, "270K", "5M+", 33,
              "chef-hat", (244, 81, 30), "Easy recipes for every day",
              "Thousands of step-by-step recipes with videos, shopping lists and meal plans.",
              ("recipes", "cooking", "food")),
    StoreItem("Metro Transit", "CityMove", "Maps & Navigation", "travel", 4.2, "150K", "1M+", 29,
              "train", (0, 121, 107), "Live bus and subway times",
              "Plan trips with live departures, maps of every line and service alerts.",
              ("bus", "subway", "transit", "maps")),
)

TOP_CHARTS: tuple[str, ...] = ("WhatsApp", "Instagram", "ChatWave", "Sky Runner", "Budget Buddy", "Word Quest",
                               "Fit Streak", "Pixgram", "Recipe Box", "Signalry", "Lumo Camera", "Metro Transit",
                               "TalkTime", "FrameUp", "Pigeon")


def find_item(name: str) -> StoreItem | None:
    """The catalog entry named ``name`` (case-insensitive), or None."""
    key = name.strip().lower()
    return next((i for i in CATALOG if i.name.lower() == key), None)


def search_catalog(query: str) -> list[StoreItem]:
    """Search results for ``query``: name matches first (exact, then partial), then apps of the same
    kind as the best match (similar apps), then keyword, category and description matches."""
    q = query.strip().lower()
    if not q:
        return []
    words = [w for w in re.split(r"\W+", q) if w]
    scored: list[tuple[int, int, StoreItem]] = []
    for order, item in enumerate(CATALOG):
        name = item.name.lower()
        squashed = q.replace(" ", "")
        if q == name or squashed == name.replace(" ", ""):
            score = 100
        elif name.startswith(q) or q in name:
            score = 80
        elif any(w in name for w in words if len(w) > 2):
            score = 60
        elif any(w in item.keywords or w == item.kind for w in words) or squashed in item.keywords:
            score = 40
        elif any(w in item.category.lower() for w in words if len(w) > 2):
            score = 30
        elif all(w in item.description.lower() for w in words if len(w) > 2) and len(q) > 2:
            score = 20
        else:
            score = 0
        scored.append((score, order, item))
    best = max(scored, key=lambda s: (s[0], -s[1]))
    if best[0] == 0:
        return []
    similar_kind = best[2].kind if best[0] >= 60 else None
    out = []
    for score, order, item in scored:
        if score == 0 and similar_kind is not None and item.kind == similar_kind:
            score = 35
        if score > 0:
            out.append((score, order, item))
    out.sort(key=lambda s: (-s[0], s[1]))
    return [s[2] for s in out]


def settle_installs(phone: "SimPhone") -> None:
    """Bring the Store's installs up to date with the phone's gesture count (downloads carry on in the
    background, as on a phone, so this runs whenever the phone checks what is installed)."""
    store = phone.apps.get(StoreApp.name)
    if not isinstance(store, StoreApp) or not store.started:
        return
    st = phone.state.store
    for name, start in list(store.started.items()):
        k = phone.gestures - start
        if k >= len(INSTALL_STEPS):
            del store.started[name]
            st.installing.pop(name, None)
            if name not in st.installed:
                st.installed.append(name)
        else:
            st.installing[name] = INSTALL_STEPS[max(0, k)]


class _Installable:
    """``installable`` of store apps: True; read on an app (the phone asking whether it is on the
    phone) it first lets pending installs progress."""

    def __get__(self, obj: App | None, owner: type | None = None) -> bool:
        if obj is not None:
            settle_installs(obj.phone)
        return True


def _app_icon(ui: UI, box: Box, item: StoreItem, desc: str = "") -> None:
    col = item.color
    glyph_px = int(box.width * 0.58)

    def paint(c: Canvas, b: Box) -> None:
        c.rect(b, fill=col, radius=b.width // 4)
        c.icon(b.center.x, b.center.y, item.icon, glyph_px, (255, 255, 255))

    ui.add(Node(box, cls="android.widget.ImageView", desc=desc or f"{item.name} icon", paint=paint))


def _rating(ui: UI, x: int, y: int, rating: str, after: str, size: float) -> None:
    """``4.3`` and a star glyph (Roboto has no star), then ``after`` (e.g. ``· 38 MB``)."""
    t = ui.theme
    b = ui.text(x, y, rating, size, t.on_bg2, rid="rating", desc=f"Rated {rating} stars")
    ui.icon(b.x2 + ui.dp(size * 0.5), b.center.y, "star", size * 0.85, t.on_bg2)
    if after:
        ui.text(b.x2 + ui.dp(size * 1.1), y, after, size, t.on_bg2, rid="size")


def _status(phone: "SimPhone", item: StoreItem) -> tuple[str, int]:
    """``("installed", 100)``, ``("installing", percent)`` or ``("none", 0)``."""
    st = phone.state.store
    if item.name in st.installed:
        return "installed", 100
    if item.name in st.installing:
        return "installing", st.installing[item.name]
    return "none", 0


def _progress_bar(ui: UI, box: Box, pct: int) -> None:
    t = ui.theme
    acc = ui.accent

    def paint(c: Canvas, b: Box) -> None:
        c.rect(b, fill=t.surface2, radius=b.height // 2)
        c.rect(Box(b.x1, b.y1, b.x1 + b.width * pct // 100, b.y2), fill=acc, radius=b.height // 2)

    ui.add(Node(box, cls="android.widget.ProgressBar", desc=f"Installing {pct} percent", paint=paint,
                rid="install_progress"))


class StoreScreen(Screen["StoreApp"]):
    def _row(self, ui: UI, y: int, item: StoreItem, rank: int | None = None) -> int:
        """A list row: rank, icon, name, developer, rating, size, and Install / progress / Open."""
        t = ui.theme
        h = ui.dp(84)
        box = Box(ui.area.x1, y, ui.area.x2, y + h)
        state, pct = _status(self.phone, item)
        with ui.group(box, on_tap=lambda: self.app.open_item(item.name), rid="app_row", desc=item.name):
            x = ui.left
            if rank is not None:
                ui.text(x + ui.dp(8), box.center.y - ui.dp(10), str(rank), 15, t.on_bg2, align="center")
                x += ui.dp(24)
            _app_icon(ui, Box(x, y + ui.dp(14), x + ui.dp(56), y + ui.dp(70)), item)
            tx = x + ui.dp(68)
            bw = ui.dp(88)
            right = ui.right - bw - ui.dp(8)
            ui.text(tx, y + ui.dp(12), item.name, 16, t.on_bg, 500, max_width=right - tx, rid="app_name")
            ui.text(tx, y + ui.dp(34), item.developer, 13, t.on_bg2, max_width=right - tx, rid="developer")
            _rating(ui, tx, y + ui.dp(54), f"{item.rating}", f"· {item.size_mb} MB", 13)
            bb = Box(ui.right - bw, box.center.y - ui.dp(18), ui.right, box.center.y + ui.dp(18))
            if state == "installed":
                ui.button(bb, "Open", lambda: self.app.open_app(item.name), style="tonal")
            elif state == "installing":
                ui.text(bb.center.x, bb.y1 + ui.dp(2), f"{pct}%", 13, t.on_bg2, align="center")
                _progress_bar(ui, Box(bb.x1 + ui.dp(8), bb.y2 - ui.dp(10), bb.x2 - ui.dp(8), bb.y2 - ui.dp(6)), pct)
            else:
                ui.button(bb, "Install", lambda: self.app.install(item.name), color=StoreApp.color)
        return box.y2

    def _search_bar(self, ui: UI, on_tap) -> Box:
        t = ui.theme
        sb = Box(ui.left, ui.area.y1 + ui.dp(8), ui.right, ui.area.y1 + ui.dp(60))
        with ui.group(sb, cls="android.widget.LinearLayout", rid="search_bar", on_tap=on_tap,
                      paint=lambda c, b: c.rect(b, fill=t.field, radius=b.height // 2)):
            ui.icon(sb.x1 + ui.dp(28), sb.center.y, "magnify", 24, t.on_bg2)
            ui.text(sb.x1 + ui.dp(56), sb.center.y - ui.dp(10), "Search for apps & games", 16, t.on_bg2)
        ui.icon(sb.x2 - ui.dp(28), sb.center.y, "account-circle-outline", 30, t.on_bg2, desc="Account")
        return sb


class HomeScreen(StoreScreen):
    """Search bar, Recommended for you, and the Top charts (apps or games)."""

    def __init__(self, app: "StoreApp") -> None:
        super().__init__(app)
        self.tab = 1  # 0 Games, 1 Apps

    def build(self, ui: UI) -> None:
        settle_installs(self.phone)
        t = ui.theme
        sb = self._search_bar(ui, self.app.open_search)
        nav_top = ui.area.y2 - ui.dp(72)
        games = self.tab == 0
        items = [find_item(n) for n in TOP_CHARTS]
        charts = [i for i in items if i is not None and (i.kind == "game") == games]
        with ui.scroll(Box(ui.area.x1, sb.y2 + ui.dp(8), ui.area.x2, nav_top), f"home{self.tab}",
                       rid="home_list") as y:
            ui.text(ui.left, y + ui.dp(12), "Recommended for you", 18, t.on_bg, 500)
            y += ui.dp(48)
            cw = (ui.right - ui.left) // 4
            picks = [i for i in items if i is not None and (i.kind == "game") == games][::-1][:4]
            for k, item in enumerate(picks):
                cell = Box(ui.left + k * cw, y, ui.left + (k + 1) * cw, y + ui.dp(120))
                with ui.group(cell, on_tap=lambda n=item.name: self.app.open_item(n), desc=item.name,
                              rid="recommended"):
                    s = ui.dp(64)
                    _app_icon(ui, Box(cell.center.x - s // 2, y, cell.center.x + s // 2, y + s), item)
                    ui.text(cell.center.x, y + s + ui.dp(8), item.name, 13, t.on_bg, align="center",
                            max_width=cw - ui.dp(8))
                    _rating(ui, cell.center.x - ui.dp(16), y + s + ui.dp(28), f"{item.rating}", "", 12)
            y += ui.dp(132)
            ui.divider(y)
            ui.text(ui.left, y + ui.dp(16), "Top charts", 18, t.on_bg, 500, rid="top_charts")
            y += ui.dp(52)
            for rank, item in enumerate(charts, 1):
                y = self._row(ui, y, item, rank)
        ui.bottom_nav([("gamepad-variant-outline", "Games", lambda: self.set_tab(0)),
                       ("apps", "Apps", lambda: self.set_tab(1))], self.tab)

    def set_tab(self, tab: int) -> None:
        self.tab = tab


class SearchScreen(StoreScreen):
    """The search field (focused on open), suggestions while typing, results after Enter."""

    def __init__(self, app: "StoreApp") -> None:
        super().__init__(app)
        self.query: str | None = None  # the submitted query

    def build(self, ui: UI) -> None:
        settle_installs(self.phone)
        t = ui.theme
        bar = query_bar(ui, self.app.pop, "Search for apps & games", self.submit, rid="search_input")
        typed = self.fields.get("q", "").strip()
        area = Box(ui.area.x1, bar.y2, ui.area.x2, ui.area.y2)
        if self.query is None or typed != self.query:
            if not typed:
                return
            with ui.scroll(area, "suggest", rid="suggestions") as y:
                names = [i.name for i in search_catalog(typed)][:6]
                for s in [typed.lower()] + [n for n in names if n.lower() != typed.lower()]:
                    y = ui.list_row(y, s, icon="magnify", on_tap=lambda s=s: self.submit(s), rid="suggestion").y2
            return
        results = search_catalog(self.query)
        with ui.scroll(area, f"results:{self.query}", rid="results") as y:
            if not results:
                ui.text(ui.left, y + ui.dp(24), f"No results found for “{self.query}”", 16, t.on_bg, 500)
                ui.text(ui.left, y + ui.dp(52), "Check your spelling or try different keywords", 14, t.on_bg2)
                return
            y += ui.dp(8)
            for item in results:
                y = self._row(ui, y, item)

    def submit(self, text: str | None = None) -> None:
        q = (text if text is not None else self.fields.get("q", "")).strip()
        self.phone.clear_focus()
        if not q:
            return
        self.fields["q"] = q
        self.query = q
        self.phone.state.store.searches.append(q)


class DetailScreen(StoreScreen):
    """An app's page: icon, name, developer, rating, downloads, Install / progress / Open, screenshots,
    About this app."""

    def __init__(self, app: "StoreApp", item: StoreItem) -> None:
        super().__init__(app)
        self.item = item

    def build(self, ui: UI) -> None:
        settle_installs(self.phone)
        t = ui.theme
        item = self.item
        store = self.app
        ui.top_bar("", back=store.pop, actions=(("dots-vertical", "More options", lambda: None),
                                               ("magnify", "Search", store.open_search)))
        with ui.scroll(Box(ui.area.x1, ui.area.y1 + ui.dp(64), ui.area.x2, ui.area.y2), "detail") as y:
            s = ui.dp(72)
            _app_icon(ui, Box(ui.left, y + ui.dp(8), ui.left + s, y + ui.dp(8) + s), item)
            tx = ui.left + s + ui.dp(16)
            ui.text(tx, y + ui.dp(8), item.name, 24, t.on_bg, 500, rid="title")
            ui.text(tx, y + ui.dp(42), item.developer, 14, ui.accent, 500, rid="developer")
            ui.text(tx, y + ui.dp(62), "Contains ads · In-app purchases" if item.kind == "game" else item.category,
                    12, t.on_bg2)
            y += s + ui.dp(28)
            stats = [(f"{item.rating}", f"{item.reviews} reviews"), (item.downloads, "Downloads"),
                     (f"{item.size_mb} MB", "Size"), ("3+" if item.kind != "game" else "7+", "Rated for")]
            cw = (ui.right - ui.left) // len(stats)
            for k, (top, sub) in enumerate(stats):
                cx = ui.left + cw * k + cw // 2
                sb = ui.text(cx - (ui.dp(8) if k == 0 else 0), y, top, 15, t.on_bg, 500, align="center", rid="stat")
                if k == 0:
                    ui.icon(sb.x2 + ui.dp(9), sb.center.y, "star", 14, t.on_bg, desc="stars")
                ui.text(cx, y + ui.dp(22), sub, 12, t.on_bg2, align="center")
            y += ui.dp(56)
            state, pct = _status(self.phone, item)
            bh = ui.dp(40)
            if state == "installed":
                half = (ui.right - ui.left - ui.dp(12)) // 2
                ui.button(Box(ui.left, y, ui.left + half, y + bh), "Uninstall",
                          lambda: store.uninstall(item.name), style="outlined", rid="uninstall")
                ui.button(Box(ui.right - half, y, ui.right, y + bh), "Open", lambda: store.open_app(item.name),
                          rid="open", color=StoreApp.color)
            elif state == "installing":
                ui.text(ui.left, y, f"Installing… {pct}%", 14, t.on_bg, 500, rid="install_status")
                ui.text(ui.right - ui.dp(72), y, f"{item.size_mb * pct // 100} MB of {item.size_mb} MB", 12,
                        t.on_bg2, align="right")
                _progress_bar(ui, Box(ui.left, y + ui.dp(28), ui.right - ui.dp(64), y + ui.dp(34)), pct)
                ui.button(Box(ui.right - ui.dp(56), y + ui.dp(6), ui.right, y + ui.dp(42)), "Cancel",
                          lambda: store.cancel(item.name), style="text", rid="cancel")
            else:
                ui.button(Box(ui.left, y, ui.right, y + bh), "Install", lambda: store.install(item.name),
                          rid="install", color=StoreApp.color)
            y += bh + ui.dp(20)
            # screenshots, drawn procedurally
            sw, sh = ui.dp(108), ui.dp(192)
            for k in range(3):
                x = ui.left + k * (sw + ui.dp(12))
                self._screenshot(ui, Box(x, y, x + sw, y + sh), k)
            y += sh + ui.dp(24)
            ui.text(ui.left, y, "About this app", 18, t.on_bg, 500)
            y += ui.dp(32)
            ui.text(ui.left, y, item.tagline, 15, t.on_bg, 500)
            y += ui.dp(26)
            b = ui.text(ui.left, y, item.description, 14, t.on_bg2, lines=12, rid="description")
            y = b.y2 + ui.dp(16)
            ui.chip(ui.left, y, item.category)
            y += ui.dp(56)
            ui.text(ui.left, y, "Ratings and reviews", 18, t.on_bg, 500)
            ui.text(ui.left, y + ui.dp(32), f"{item.rating}", 44, t.on_bg, 400)
            for k in range(5):
                full = item.rating >= k + 0.75
                half = not full and item.rating >= k + 0.25
                ui.icon(ui.left + ui.dp(92 + 20 * k), y + ui.dp(52), "star" if full else
                        ("star-half-full" if half else "star-outline"), 18, ui.accent)
            ui.text(ui.left + ui.dp(82), y + ui.dp(66), f"{item.reviews} reviews", 13, t.on_bg2)
            ui.spacer(y, y + ui.dp(120))

    def _screenshot(self, ui: UI, box: Box, k: int) -> None:
        """A phone screenshot of the app: a top bar in its colour over a procedural picture and lines."""
        item = self.item
        t = ui.theme
        bar_h = ui.dp(22)
        kind = "abstract" if item.kind in ("game", "finance") else "scene"
        ui.picture(Box(box.x1, box.y1 + bar_h, box.x2, box.y1 + bar_h + box.height // 2), f"{item.name}:{k}", kind,
                   radius=0)
        col = item.color
        lines = mix(t.on_bg2, t.bg, 0.4)

        def frame(c: Canvas, b: Box) -> None:
            c.rect(Box(b.x1, b.y1, b.x2, b.y1 + bar_h), fill=col)
            y = b.y1 + bar_h + b.height // 2 + ui.dp(10)
            for i in range(4):
                c.rect(Box(b.x1 + ui.dp(8), y, b.x2 - ui.dp(8 + 14 * (i % 3)), y + ui.dp(6)), fill=lines,
                       radius=ui.dp(3))
                y += ui.dp(16)
            c.rect(b, outline=t.divider, width=max(1, ui.dp(1)), radius=ui.dp(10))

        ui.add(Node(box, cls="android.widget.ImageView", desc=f"Screenshot {k + 1} of {item.name}", paint=frame))


class StoreApp(App, name="Store", package="com.sim.store", icon="apps-box", color=(1, 135, 95)):
    def __init__(self, phone: "SimPhone") -> None:
        super().__init__(phone)
        self.started: dict[str, int] = {}  # app name -> gesture count when its install began

    def root(self) -> Screen:
        return HomeScreen(self)

    def open_search(self) -> None:
        screen = SearchScreen(self)
        self.push(screen)
        self.phone.focus_field(screen, "q", on_submit=screen.submit)

    def open_item(self, name: str) -> None:
        item = find_item(name)
        if item is not None:
            self.push(DetailScreen(self, item))

    def install(self, name: str) -> None:
        st = self.phone.state.store
        if name in st.installed or name in self.started:
            return
        self.started[name] = self.phone.gestures
        st.installing[name] = INSTALL_STEPS[0]

    def on_wait(self) -> None:
        """Waiting on the phone lets the downloads under way finish."""
        st = self.phone.state.store
        for name in list(self.started):
            del self.started[name]
            st.installing.pop(name, None)
            if name not in st.installed:
                st.installed.append(name)

    def cancel(self, name: str) -> None:
        self.started.pop(name, None)
        self.phone.state.store.installing.pop(name, None)

    def uninstall(self, name: str) -> None:
        st = self.phone.state.store
        if name in st.installed:
            st.installed.remove(name)
            app = self.phone.apps.get(name)
            if app is not None:
                app.stack.clear()
            self.toast(f"{name} uninstalled")

    def open_app(self, name: str) -> None:
        if self.phone.is_installed(name):
            self.phone.launch(name)


# ---------------------------------------------------------------- the apps the store installs
class WelcomeScreen(Screen):
    """First screen of a freshly installed app: logo, welcome text, one button to continue."""

    def build(self, ui: UI) -> None:
        app: InstalledApp = self.app  # type: ignore[assignment]
        item = app.item
        t = ui.theme
        c = ui.area.center.x
        y = ui.area.y1 + ui.dp(96)
        s = ui.dp(120)
        _app_icon(ui, Box(c - s // 2, y, c + s // 2, y + s), item, desc=f"{item.name} logo")
        y += s + ui.dp(40)
        ui.text(c, y, app.welcome_title, 26, t.on_bg, 500, align="center", rid="welcome_title")
        y += ui.dp(48)
        ui.text(ui.left + ui.dp(16), y, app.welcome_text, 15, t.on_bg2, lines=5,
                max_width=ui.right - ui.left - ui.dp(32))
        bw = ui.dp(240)
        by = ui.area.y2 - ui.dp(120)
        ui.button(Box(c - bw // 2, by, c + bw // 2, by + ui.dp(44)), app.welcome_button, app.proceed,
                  color=item.color, rid="continue")
        ui.text(c, by + ui.dp(64), f"from {item.developer}", 13, t.on_bg2, align="center")


class SignInScreen(Screen):
    """Second screen: sign in with a phone number or user name."""

    def build(self, ui: UI) -> None:
        app: InstalledApp = self.app  # type: ignore[assignment]
        t = ui.theme
        ui.top_bar(app.signin_title, back=app.pop)
        y = ui.area.y1 + ui.dp(88)
        ui.text(ui.left, y, app.signin_text, 15, t.on_bg2, lines=3)
        y += ui.dp(72)
        ui.text_field(Box(ui.left, y, ui.right, y + ui.dp(56)), "id", app.signin_hint, style="outlined",
                      rid="sign_in_id", on_submit=app.sign_in)
        y += ui.dp(80)
        ui.button(Box(ui.left, y, ui.right, y + ui.dp(44)), "Next", app.sign_in, color=app.item.color, rid="next")


class InstalledApp(App):
    """Base of the apps installed from the store: a welcome screen, then a sign-in screen."""

    item: StoreItem
    installable = _Installable()  # type: ignore[assignment]
    welcome_title = ""
    welcome_text = ""
    welcome_button = "Get started"
    signin_title = "Sign in"
    signin_text = "Enter your phone number or email to continue."
    signin_hint = "Phone number or email"

    def __init_subclass__(cls, **kwargs: object) -> None:
        """An installed app looks as its store item does: its package, icon and colour come from it."""
        super().__init_subclass__(**kwargs)
        cls.package, cls.icon, cls.color = cls.item.package, cls.item.icon, cls.item.color

    def root(self) -> Screen:
        return WelcomeScreen(self)

    def proceed(self) -> None:
        screen = SignInScreen(self)
        self.push(screen)

    def sign_in(self) -> None:
        self.toast("No internet connection. Try again later.")


class WhatsAppApp(InstalledApp):
    name = "WhatsApp"
    item = find_item("WhatsApp")  # type: ignore[assignment]
    welcome_title = "Welcome to WhatsApp"
    welcome_text = ("Read our Privacy Policy. Tap \"Agree and continue\" to accept the Terms of Service.")
    welcome_button = "Agree and continue"
    signin_title = "Enter your phone number"
    signin_text = "WhatsApp will need to verify your phone number. Carrier charges may apply."
    signin_hint = "Phone number"


class InstagramApp(InstalledApp):
    name = "Instagram"
    item = find_item("Instagram")  # type: ignore[assignment]
    welcome_title = "Welcome to Instagram"
    welcome_text = "Sign up to see photos and videos from your friends."
    welcome_button = "Log in"
    signin_title = "Log in"
    signin_text = "Log in with your phone number, username or email."
    signin_hint = "Phone number, username or email"


# ---------------------------------------------------------------- Budget Buddy: an app with settings
#: Budget Buddy's currencies: (name on screen, code).
CURRENCIES: tuple[tuple[str, str], ...] = (("US Dollar", "USD"), ("Euro", "EUR"), ("British Pound", "GBP"),
                                           ("Japanese Yen", "JPY"), ("Swiss Franc", "CHF"))
#: Budget Buddy's settings as a freshly installed app has them (the benchmark's checks read them).
BUDGET_DEFAULTS: dict[str, object] = {"currency": "US Dollar", "bill_reminders": False, "weekly_summary": True,
                                      "round_amounts": False}
#: Its switches: (setting, title on screen, subtitle).
BUDGET_SWITCHES: tuple[tuple[str, str, str], ...] = (
    ("bill_reminders", "Bill reminders", "A notification 3 days before a bill is due"),
    ("weekly_summary", "Weekly summary", "Your spending every Monday morning"),
    ("round_amounts", "Round amounts", "Show whole units, no cents"),
)


def budget_settings(phone: "SimPhone") -> dict[str, object]:
    """Budget Buddy's settings on this phone (its defaults until changed)."""
    return phone.state.store.app_settings.setdefault("Budget Buddy", dict(BUDGET_DEFAULTS))


class BudgetOverviewScreen(Screen):
    """Budget Buddy's first screen after the welcome: this month's spending, and a bottom bar whose
    Settings tab opens its settings."""

    def build(self, ui: UI) -> None:
        app: BudgetBuddyApp = self.app  # type: ignore[assignment]
        t = ui.theme
        cur = dict(CURRENCIES)[str(budget_settings(self.phone)["currency"])]
        ui.top_bar("Budget Buddy")
        y = ui.area.y1 + ui.dp(80)
        ui.text(ui.left, y, "Spent this month", 14, t.on_bg2)
        ui.text(ui.left, y + ui.dp(22), f"1,284.50 {cur}", 32, t.on_bg, 500, rid="spent")
        y += ui.dp(84)
        for title, amount, icon in (("Groceries", "412.30", "cart-outline"), ("Transport", "96.00", "train"),
                                    ("Eating out", "188.20", "silverware-fork-knife"), ("Bills", "588.00", "receipt")):
            y = ui.list_row(y, title, trailing_text=f"{amount} {cur}", icon=icon, icon_color=app.color).y2
        ui.bottom_nav([("chart-donut", "Overview", None), ("wallet-outline", "Budgets", None),
                       ("cog-outline", "Settings", app.open_settings)], selected=0)


class BudgetSettingsScreen(Screen):
    """Budget Buddy's settings: the currency (a list to choose from) and three switches."""

    def build(self, ui: UI) -> None:
        app: BudgetBuddyApp = self.app  # type: ignore[assignment]
        t = ui.theme
        st = budget_settings(self.phone)
        ui.top_bar("Settings", back=app.pop)
        y = ui.area.y1 + ui.dp(72)
        ui.text(ui.left, y, "General", 14, app.color, 500)
        y += ui.dp(28)
        y = ui.list_row(y, "Currency", str(st["currency"]), on_tap=app.open_currency, icon="currency-usd",
                        rid="currency", chevron=True).y2
        ui.divider(y)
        y += ui.dp(12)
        ui.text(ui.left, y, "Notifications and display", 14, app.color, 500)
        y += ui.dp(28)
        for key, title, sub in BUDGET_SWITCHES:
            y = ui.list_row(y, title, sub, switch=bool(st[key]), on_switch=lambda k=key: app.toggle(k), rid=key).y2


class BudgetCurrencyScreen(Screen):
    """The currencies, the chosen one marked; a tap chooses one and goes back to the settings."""

    def build(self, ui: UI) -> None:
        app: BudgetBuddyApp = self.app  # type: ignore[assignment]
        chosen = budget_settings(self.phone)["currency"]
        ui.top_bar("Currency", back=app.pop)
        y = ui.area.y1 + ui.dp(72)
        for name, code in CURRENCIES:
            y = ui.list_row(y, name, code, on_tap=lambda n=name: app.choose_currency(n),
                            icon="check" if name == chosen else "circle-small", rid=f"currency_{code.lower()}").y2


class BudgetBuddyApp(InstalledApp):
    name = "Budget Buddy"
    item = find_item("Budget Buddy")  # type: ignore[assignment]
    welcome_title = "Welcome to Budget Buddy"
    welcome_text = item.tagline + ". " + item.description

    def proceed(self) -> None:
        self.push(BudgetOverviewScreen(self))

    def open_settings(self) -> None:
        self.push(BudgetSettingsScreen(self))

    def open_currency(self) -> None:
        self.push(BudgetCurrencyScreen(self))

    def choose_currency(self, name: str) -> None:
        budget_settings(self.phone)["currency"] = name
        self.pop()

    def toggle(self, key: str) -> None:
        st = budget_settings(self.phone)
        st[key] = not st[key]


def _generic_app(item: StoreItem) -> type[InstalledApp]:
    ident = re.sub(r"[^A-Za-z0-9]", "", item.name) + "App"
    return type(ident, (InstalledApp,), {
        "__doc__": f"{item.name}: {item.tagline} (installed from the Store).",
        "__module__": __name__,
        "name": item.name, "item": item, "package": item.package, "icon": item.icon, "color": item.color,
        "welcome_title": f"Welcome to {item.name}", "welcome_text": item.tagline + ". " + item.description,
    })


#: One installable App class per catalog entry.
INSTALLABLE_APPS: list[type[InstalledApp]] = [WhatsAppApp, InstagramApp, BudgetBuddyApp] + [
    _generic_app(i) for i in CATALOG if i.name not in ("WhatsApp", "Instagram", "Budget Buddy")]

APPS = [StoreApp, *INSTALLABLE_APPS]
