"""Maps: a map of Hangzhou around the phone's location, search ("Search here") and nearby
categories, place pages, directions with travel modes, and turn-by-turn navigation.

The places catalog is module data (:data:`PLACES`, :data:`WEST_LAKE_ID`, :data:`GAS_STATION_IDS`,
:func:`distance_km`, :func:`search_places`, :func:`nearby`) so benchmark checks know which
place ids are gas stations and which one is West Lake.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from PIL import Image, ImageOps

from mobile_agent.device.sim.apps._kit import (QueryResults, QueryScreen, SearchApp, chip_row, fmt_count, offscreen,
                                               query_bar, rect, results_bar, rounded_picture, stars, words)
from mobile_agent.device.sim.phone import Screen
from mobile_agent.device.sim.render import Canvas, cached_image, mix, picture, text_width
from mobile_agent.device.sim.state import Route
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box

ROUTE_BLUE = (26, 115, 232)
NAV_GREEN = (15, 110, 72)
PIN_RED = (234, 67, 53)


@dataclass(frozen=True)
class Place:
    id: str
    name: str
    category: str  # landmark, gas_station, restaurant, hotel, coffee, transit
    kind: str  # shown under the name: "Scenic spot", "Gas station"...
    address: str
    rating: float
    reviews: int
    base_km: float  # distance from the phone's location before the seed's variation
    hours: str
    keywords: tuple[str, ...] = ()
    phone: str = ""


def _pl(id: str, name: str, category: str, kind: str, address: str, rating: float, reviews: int, km: float,
        hours: str = "Open 24 hours", keywords: str = "", phone: str = "") -> Place:
    return Place(id, name, category, kind, address, rating, reviews, km, hours, tuple(keywords.split()), phone)


PLACES: list[Place] = [
    _pl("west-lake", "West Lake", "landmark", "Scenic spot", "Longjing Rd, Xihu District, Hangzhou, Zhejiang",
        4.8, 48213, 3.4, "Open 24 hours", "hangzhou xihu lake scenic park sight", "+86 571 8796 9691"),
    _pl("west-lake-square", "West Lake Cultural Square", "landmark", "Plaza",
        "Zhongshan North Rd, Xiacheng District, Hangzhou", 4.3, 5120, 4.6, "Open 24 hours", "hangzhou square"),
    _pl("leifeng-pagoda", "Leifeng Pagoda", "landmark", "Historical landmark",
        "15 Nanshan Rd, Xihu District, Hangzhou", 4.6, 20144, 5.1, "Open · Closes 17:30",
        "hangzhou pagoda west lake tower"),
    _pl("broken-bridge", "Broken Bridge", "landmark", "Bridge", "Beishan St, Xihu District, Hangzhou", 4.5, 9822,
        3.0, "Open 24 hours", "hangzhou duanqiao west lake"),
    _pl("lingyin-temple", "Lingyin Temple", "landmark", "Buddhist temple",
        "1 Fayun Ln, Xihu District, Hangzhou", 4.7, 15480, 8.2, "Open · Closes 18:00", "hangzhou temple"),
    _pl("xixi-wetland", "Xixi National Wetland Park", "landmark", "Park", "518 Tianmushan Rd, Xihu District, Hangzhou",
        4.6, 7340, 9.5, "Open · Closes 17:30", "hangzhou park wetland"),
    _pl("east-station", "Hangzhou East Railway Station", "transit", "Train station",
        "Tiancheng Rd, Shangcheng District, Hangzhou", 4.2, 11890, 7.8, "Open 24 hours",
        "hangzhou railway train station east"),
    _pl("gas-wensan", "Greenway Gas Station (Wensan Rd)", "gas_station", "Gas station",
        "218 Wensan Rd, Xihu District, Hangzhou", 4.1, 312, 0.9, "Open 24 hours", "gas fuel petrol station"),
    _pl("gas-tianmushan", "Star Energy Gas Station", "gas_station", "Gas station",
        "77 Tianmushan Rd, Xihu District, Hangzhou", 4.3, 540, 1.6, "Open 24 hours", "gas fuel petrol station"),
    _pl("gas-moganshan", "Eastline Fuel (Moganshan Rd)", "gas_station", "Gas station",
        "1020 Moganshan Rd, Gongshu District, Hangzhou", 3.9, 188, 2.4, "Open · Closes 23:00",
        "gas fuel petrol station"),
    _pl("gas-gudun", "Zhejiang Petro Gas Station (Gudun Rd)", "gas_station", "Gas station",
        "560 Gudun Rd, Xihu District, Hangzhou", 4.0, 275, 3.1, "Open 24 hours", "gas fuel petrol station"),
    _pl("gas-qiutao", "Riverside Gas & Charging", "gas_station", "Gas station",
        "89 Qiutao Rd, Shangcheng District, Hangzhou", 4.4, 421, 4.2, "Open 24 hours",
        "gas fuel petrol station charging ev"),
    _pl("rest-louwailou", "Lakeside Hangzhou Cuisine", "restaurant", "Zhejiang restaurant",
        "30 Gushan Rd, Xihu District, Hangzhou", 4.5, 6211, 3.6, "Open · Closes 21:30",
        "restaurant food dinner lunch hangzhou cuisine"),
    _pl("rest-noodle", "Old Street Noodle House", "restaurant", "Noodle shop", "12 Hefang St, Shangcheng District",
        4.4, 2310, 1.2, "Open · Closes 22:00", "restaurant noodles food lunch"),
    _pl("rest-dumpling", "Jade Dumpling Kitchen", "restaurant", "Dumpling restaurant",
        "45 Jiefang Rd, Shangcheng District", 4.6, 1894, 1.9, "Open · Closes 21:00", "restaurant dumplings food"),
    _pl("rest-hotpot", "Red Lantern Hot Pot", "restaurant", "Hot pot restaurant", "301 Yan'an Rd, Gongshu District",
        4.3, 3422, 2.7, "Open · Closes 02:00", "restaurant hotpot food dinner"),
    _pl("hotel-lakeview", "Lakeview Garden Hotel", "hotel", "4-star hotel", "8 Beishan St, Xihu District",
        4.6, 2204, 3.2, "Check-in 14:00", "hotel stay room"),
    _pl("hotel-citizen", "Citizen Inn Wulin", "hotel", "3-star hotel", "66 Wulin Rd, Gongshu District", 4.2, 980,
        1.4, "Check-in 14:00", "hotel stay room"),
    _pl("hotel-bamboo", "Bamboo Courtyard Hotel", "hotel", "Boutique hotel", "21 Manjuelong Rd, Xihu District",
        4.8, 611, 6.3, "Check-in 15:00", "hotel stay room"),
    _pl("coffee-leaf", "Tea Leaf & Coffee", "coffee", "Coffee shop", "5 Baochu Rd, Xihu District", 4.5, 812, 0.6,
        "Open · Closes 20:00", "coffee cafe tea"),
    _pl("coffee-morning", "Morning Roast Café", "coffee", "Coffee shop", "112 Fengqi Rd, Xiacheng District", 4.4,
        1320, 1.1, "Open · Closes 21:00", "coffee cafe"),
    _pl("coffee-dock", "The Dock Coffee Bar", "coffee", "Coffee shop", "3 Hubin Rd, Shangcheng District", 4.7, 954,
        2.2, "Open · Closes 22:00", "coffee cafe"),
]

WEST_LAKE_ID = "west-lake"
_PLACE = {p.id: p for p in PLACES}
GAS_STATION_IDS = [p.id for p in PLACES if p.category == "gas_station"]
CATEGORY_CHIPS = [("Restaurants", "silverware-fork-knife", "restaurant"), ("Gas stations", "gas-station", "gas_station"),
                  ("Hotels", "bed-outline", "hotel"), ("Coffee", "coffee-outline", "coffee")]
_CHIP_CAT = {label.lower(): cat for label, _, cat in CATEGORY_CHIPS}
_STREETS = ["Shuguang Rd", "Beishan St", "Tianmushan Rd", "Wensan Rd", "Yan'an Rd", "Hubin Rd", "Nanshan Rd",
            "Moganshan Rd", "Jiefang Rd", "Fengqi Rd"]
_CATEGORY_WORDS = {"gas": "gas_station", "petrol": "gas_station", "fuel": "gas_station", "restaurant": "restaurant",
                   "food": "restaurant", "hotel": "hotel", "coffee": "coffee", "cafe": "coffee", "café": "coffee"}
_CATEGORY_FILLER = {"station", "nearest", "closest", "shop", "place"}
_STOP = {"the", "a", "to", "near", "me", "nearby", "navigate", "go", "find", "in", "at", "way", "route"}
MODES = [("drive", "Drive", "car"), ("transit", "Transit", "bus"), ("walk", "Walk", "walk")]


def place(place_id: str) -> Place:
    return _PLACE[place_id]


def _h(key: str, seed: int) -> int:
    return int(hashlib.sha1(f"{seed}|{key}".encode()).hexdigest()[:8], 16)


def distance_km(place_id: str, seed: int) -> float:
    """Distance from the phone's location to the place for this seed (km, one decimal)."""
    p = _PLACE[place_id]
    return round(p.base_km * (0.75 + (_h(place_id, seed) % 50) / 100), 1)


def nearby(category: str, seed: int) -> list[Place]:
    """Places of a category (``gas_station``, ``restaurant``, ``hotel``, ``coffee``), nearest first."""
    return sorted((p for p in PLACES if p.category == category), key=lambda p: distance_km(p.id, seed))


def query_category(query: str) -> str | None:
    """The category a query asks for ("Gas stations", "nearest petrol station" -> ``gas_station``), if any."""
    qn = query.strip().lower()
    if qn in _CHIP_CAT:
        return _CHIP_CAT[qn]
    qs = {w for w in words(query) if w not in _STOP}
    cats = {_CATEGORY_WORDS[w] for w in qs if w in _CATEGORY_WORDS}
    if len(cats) == 1 and qs <= set(_CATEGORY_WORDS) | _CATEGORY_FILLER:
        return cats.pop()
    return None


def search_places(query: str, seed: int) -> list[Place]:
    """Places matching ``query`` (a name, an address word or a category), best first."""
    cat = query_category(query)
    if cat is not None:
        return nearby(cat, seed)
    q = [w for w in words(query) if w not in _STOP]
    if not q:
        return []
    qs = set(q)
    scored = []
    for p in PLACES:
        name = set(words(p.name))
        other = set(words(p.address)) | set(words(" ".join(p.keywords))) | set(words(p.kind))
        score = sum(2 for w in q if w in name) + sum(1 for w in q if w not in name and w in other)
        if not score:
            continue
        if name <= qs:
            score += 5  # the whole name was asked for
        scored.append((-score, distance_km(p.id, seed), p.id, p))
    return [p for *_, p in sorted(scored)]


def eta_minutes(place_id: str, mode: str, seed: int) -> int:
    km = distance_km(place_id, seed)
    speed, extra = {"drive": (28.0, 3), "transit": (16.0, 8), "walk": (4.8, 0)}[mode]
    return max(1, round(km / speed * 60 + extra))


def _fmt_min(m: int) -> str:
    return f"{m} min" if m < 60 else f"{m // 60} hr {m % 60} min"


def _pos(place_id: str) -> tuple[float, float]:
    """Where a place sits on the map, as fractions of the map's width and height."""
    h = _h(place_id, 7)
    return 0.1 + (h % 80) / 100, 0.12 + ((h >> 8) % 70) / 100


# ---------------------------------------------------------------------------------------------- drawing
def _map_image(key: str, width: int, height: int, night: bool) -> Image.Image:
    """The map picture; in night colours for the dark theme (as map apps darken their tiles)."""
    day = picture(key, width, height, "map")
    if not night:
        return day
    return cached_image(("night-map", key, width, height),
                        lambda: Image.blend(ImageOps.invert(day), Image.new("RGB", day.size, (24, 30, 44)), 0.55))


def _pin_node(ui: UI, x: int, y: int, label: str = "", color=PIN_RED, desc: str = "") -> None:
    s = ui.dp(34)

    def paint(c: Canvas, b: Box) -> None:
        c.icon(x, y - s // 2, "map-marker", s, color)
        if label:
            c.ellipse(Box(x - ui.dp(6), y - s // 2 - ui.dp(9), x + ui.dp(6), y - s // 2 + ui.dp(3)), fill=color)
            c.text(x, y - s // 2 - ui.dp(3), label, ui.dp(10), (255, 255, 255), 700, anchor="mm")

    ui.add(Node(Box(x - s // 2, y - s, x + s // 2, y), cls="android.widget.ImageView", desc=desc, paint=paint))


def _me_node(ui: UI, x: int, y: int) -> None:
    r = ui.dp(9)

    def paint(c: Canvas, b: Box) -> None:
        c.ellipse(Box(x - r * 2, y - r * 2, x + r * 2, y + r * 2), fill=mix(ROUTE_BLUE, (255, 255, 255), 0.75))
        c.ellipse(Box(x - r - 3, y - r - 3, x + r + 3, y + r + 3), fill=(255, 255, 255))
        c.ellipse(Box(x - r, y - r, x + r, y + r), fill=ROUTE_BLUE)

    ui.add(Node(Box(x - r * 2, y - r * 2, x + r * 2, y + r * 2), cls="android.widget.ImageView",
                desc="Your location", paint=paint))


def _map(ui: UI, box: Box, seed: int, pins: list[tuple[str, str]] = (), me: bool = True,
         route_to: str | None = None) -> None:
    """A map picture with the user's dot, pins ``(place_id, label)`` and an optional route line."""
    night = ui.theme.dark
    ui.add(Node(box, cls="android.widget.ImageView", desc="Map",
                paint=lambda c, b: c.paste(_map_image(f"hangzhou-{seed}", b.width, b.height, night), b.x1, b.y1)))
    mx, my = box.x1 + box.width // 2, box.y1 + box.height * 55 // 100

    def at(pid: str) -> tuple[int, int]:
        fx, fy = _pos(pid)
        return box.x1 + int(box.width * fx), box.y1 + int(box.height * fy)

    if route_to is not None:
        dx, dy = at(route_to)
        pts = [(mx, my), (mx, (my + dy) // 2), (dx, (my + dy) // 2), (dx, dy)]
        w = max(4, ui.dp(6))

        def paint(c: Canvas, b: Box) -> None:
            for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
                c.line(x1, y1, x2, y2, mix(ROUTE_BLUE, (0, 0, 0), 0.3), w + 4)
            for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
                c.line(x1, y1, x2, y2, ROUTE_BLUE, w)

        ui.add(Node(box, desc="", paint=paint))
        _pin_node(ui, dx, dy, desc=place(route_to).name)
    for pid, label in pins:
        x, y = at(pid)
        _pin_node(ui, x, y, label, desc=place(pid).name)
    if me:
        _me_node(ui, mx, my)


# ---------------------------------------------------------------------------------------------- screens
class MapScreen(Screen):
    def build(self, ui: UI) -> None:
        app: MapsApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        seed = app.phone.seed
        _map(ui, a, seed, pins=[(pid, "") for pid in ("west-lake", "leifeng-pagoda", "east-station", "lingyin-temple")])
        bar = Box(ui.left, a.y1 + ui.dp(12), ui.right, a.y1 + ui.dp(64))
        rect(ui, bar.offset(0, ui.dp(2)), mix(t.bg, (0, 0, 0), 0.2), radius=26)
        with ui.group(bar, cls="android.widget.LinearLayout", rid="search_bar", on_tap=app.open_search,
                      paint=lambda c, b: c.rect(b, fill=t.surface if t.dark else (255, 255, 255), radius=b.height // 2)):
            ui.icon(bar.x1 + ui.dp(28), bar.center.y, "map-marker", 24, PIN_RED)
            ui.text(bar.x1 + ui.dp(56), bar.center.y - ui.dp(11), "Search here", 17, t.on_bg2)
            ui.icon(bar.x2 - ui.dp(64), bar.center.y, "microphone", 22, t.on_bg2)
        ui.icon_button(bar.x2 - ui.dp(26), bar.center.y, "account-circle", "Account", lambda: app.toast("Signed in"),
                       size=32, color=(120, 90, 200))
        chip_row(ui, bar.y2 + ui.dp(12), [(label, icon, lambda label=label: app.run_search(label))
                                          for label, icon, _ in CATEGORY_CHIPS], "chips",
                 fill=t.surface if t.dark else (255, 255, 255))
        ui.fab("crosshairs-gps", "Your location", lambda: app.toast("Showing your location"),
               bottom=a.y2 - ui.dp(120))
        sheet = Box(a.x1, a.y2 - ui.dp(112), a.x2, a.y2)
        rect(ui, sheet, t.bg, radius=20)
        rect(ui, Box(a.center.x - ui.dp(16), sheet.y1 + ui.dp(8), a.center.x + ui.dp(16), sheet.y1 + ui.dp(12)),
             t.divider, radius=2)
        ui.text(ui.left, sheet.y1 + ui.dp(24), "Latest in Hangzhou", 18, t.on_bg, 500)
        ui.text(ui.left, sheet.y1 + ui.dp(52), f"{app.weather_line()} · Traffic is light", 14, t.on_bg2)
        ui.button(Box(ui.right - ui.dp(120), sheet.y1 + ui.dp(24), ui.right, sheet.y1 + ui.dp(64)), "Go",
                  lambda: app.run_search("West Lake"), icon="directions", style="tonal")


class SearchScreen(QueryScreen):
    SUGGESTIONS = ["West Lake", "Gas stations", "Hangzhou East Railway Station", "Lingyin Temple", "Coffee"]

    def build(self, ui: UI) -> None:
        app: MapsApp = self.app  # type: ignore[assignment]
        a = ui.area
        bar = query_bar(ui, app.pop, "Search here", self.submit, rid="search_src_text")
        y = bar.y2
        chip_row(ui, y + ui.dp(4), [(label, icon, lambda label=label: app.run_search(label))
                                    for label, icon, _ in CATEGORY_CHIPS], "chips")
        y += ui.dp(48)
        ui.divider(y)
        with ui.scroll(Box(a.x1, y, a.x2, a.y2), "recent") as yy:
            recent = list(dict.fromkeys(reversed(app.phone.state.maps.searches)))[:5]
            for q in recent:
                yy = ui.list_row(yy, q, icon="history", on_tap=lambda q=q: app.run_search(q)).y2
            for q in self.SUGGESTIONS:
                if q in recent:
                    continue
                sub = ""
                hits = search_places(q, app.phone.seed)
                if hits and hits[0].name == q:
                    sub = hits[0].address
                yy = ui.list_row(yy, q, sub, icon="map-marker-outline", on_tap=lambda q=q: app.run_search(q)).y2


class ResultsScreen(QueryResults):
    def __init__(self, app: "MapsApp", query: str) -> None:
        super().__init__(app, query)
        self.results = search_places(query, app.phone.seed)

    def build(self, ui: UI) -> None:
        app: MapsApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        seed = app.phone.seed
        bar = results_bar(ui, app.pop, "Search here", lambda: app.open_search(self.query), self.query)
        mbox = Box(a.x1, bar.y2, a.x2, bar.y2 + ui.dp(180))
        _map(ui, mbox, seed, pins=[(p.id, str(i + 1)) for i, p in enumerate(self.results[:9])])
        view = Box(a.x1, mbox.y2, a.x2, a.y2)
        rect(ui, view, t.bg)
        with ui.scroll(view, "results", rid="results_list") as y:
            if not self.results:
                ui.text(a.center.x, y + ui.dp(60), f"No results for “{self.query.strip()}”", 18, t.on_bg,
                        align="center")
                ui.text(a.center.x, y + ui.dp(90), "Make sure your search is spelled correctly.", 14, t.on_bg2,
                        align="center")
                return
            sorted_by = "distance" if query_category(self.query) else "relevance"
            ui.text(ui.left, y + ui.dp(12), f"{len(self.results)} results · sorted by {sorted_by}", 13, t.on_bg2)
            y += ui.dp(36)
            h = ui.dp(124)
            for p in self.results:
                if offscreen(ui, view, y, y + h):
                    y += h
                    continue
                box = Box(a.x1, y, a.x2, y + h)
                with ui.group(box, on_tap=lambda p=p: app.open_place(p.id), rid="place_result"):
                    ui.text(ui.left, y + ui.dp(10), p.name, 17, t.on_bg, 500, max_width=ui.dp(250),
                            rid="place_name")
                    ui.text(ui.left, y + ui.dp(36), f"{p.rating:.1f}", 14, t.on_bg2)
                    stars(ui, ui.left + ui.dp(26), y + ui.dp(38), p.rating, size=13)
                    ui.text(ui.left + ui.dp(96), y + ui.dp(36), f"({fmt_count(p.reviews)})", 14, t.on_bg2)
                    ui.text(ui.left, y + ui.dp(58), f"{p.kind} · {distance_km(p.id, seed):.1f} km", 14, t.on_bg2,
                            rid="place_distance")
                    ui.text(ui.left, y + ui.dp(80), p.hours, 14, (24, 128, 56) if p.hours.startswith("Open") else
                            t.on_bg2, max_width=ui.dp(240))
                    ui.picture(Box(ui.right - ui.dp(88), y + ui.dp(12), ui.right, y + ui.dp(78)), p.id, "scene",
                               radius=8)
                    ui.button(Box(ui.right - ui.dp(112), y + ui.dp(84), ui.right, y + ui.dp(116)), "Directions",
                              lambda p=p: app.open_directions(p.id), style="tonal", icon="directions")
                ui.divider(box.y2 - 1, ui.left, ui.right)
                y = box.y2


class _OnePlace(Screen):
    """A screen about one place: its page, the directions to it, the navigation there."""

    def __init__(self, app: "MapsApp", place_id: str) -> None:
        super().__init__(app)
        self.place = place(place_id)


class PlaceScreen(_OnePlace):
    def build(self, ui: UI) -> None:
        app: MapsApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        p = self.place
        seed = app.phone.seed
        saved = p.id in app.phone.state.maps.saved
        with ui.scroll(Box(a.x1, a.y1, a.x2, a.y2), "place", rid="place_page") as y:
            hero = Box(a.x1, y, a.x2, y + ui.dp(200))
            rounded_picture(ui, hero, p.id, "scene", t.bg, radius=0, desc=f"Photo of {p.name}")
            y = hero.y2 + ui.dp(16)
            ui.text(ui.left, y, p.name, 24, t.on_bg, 400, rid="place_title", lines=2)
            y += ui.dp(36) if text_width(p.name, ui.dp(24)) < ui.right - ui.left else ui.dp(66)
            ui.text(ui.left, y, f"{p.rating:.1f}", 14, t.on_bg, rid="place_rating")
            stars(ui, ui.left + ui.dp(26), y + ui.dp(2), p.rating, size=14)
            ui.text(ui.left + ui.dp(100), y, f"({p.reviews:,})", 14, t.on_bg2)
            y += ui.dp(24)
            ui.text(ui.left, y, f"{p.kind} · {distance_km(p.id, seed):.1f} km", 14, t.on_bg2, rid="place_kind")
            y += ui.dp(32)
            cols = [("Directions", "directions", lambda: app.open_directions(p.id), True),
                    ("Start", "navigation-variant", lambda: app.start(p.id), False),
                    ("Saved" if saved else "Save", "bookmark" if saved else "bookmark-outline",
                     lambda: app.toggle_save(p.id), False),
                    ("Share", "share-variant", lambda: app.toast("Link copied to clipboard"), False)]
            cw = (ui.right - ui.left) // 4
            for i, (label, icon, fn, primary) in enumerate(cols):
                cell = Box(ui.left + i * cw, y, ui.left + (i + 1) * cw, y + ui.dp(72))
                _round_action(ui, cell, label, icon, fn, primary)
            y += ui.dp(84)
            ui.divider(y)
            y += ui.dp(4)
            for icon, text in (("map-marker-outline", p.address), ("clock-outline", p.hours),
                               ("phone-outline", p.phone or "+86 571 8700 " + str(1000 + _h(p.id, 1) % 9000)),
                               ("web", p.id.replace("-", "") + ".example.cn")):
                y = ui.list_row(y, text, icon=icon, icon_color=ui.accent, on_tap=lambda: None).y2
            ui.divider(y)
            y += ui.dp(16)
            ui.text(ui.left, y, "Photos", 18, t.on_bg, 500)
            y += ui.dp(36)
            pw = (ui.right - ui.left - ui.dp(16)) // 3
            for i in range(3):
                ui.picture(Box(ui.left + i * (pw + ui.dp(8)), y, ui.left + i * (pw + ui.dp(8)) + pw, y + pw),
                           f"{p.id}-photo{i}", "scene", desc=f"Photo {i + 1} of {p.name}", radius=8)
            y += pw + ui.dp(20)
            ui.text(ui.left, y, "Review summary", 18, t.on_bg, 500)
            y += ui.dp(36)
            ui.text(ui.left, y, f"{p.rating:.1f}", 40, t.on_bg, 400)
            stars(ui, ui.left, y + ui.dp(52), p.rating, size=14)
            ui.text(ui.left, y + ui.dp(72), f"{p.reviews:,} reviews", 13, t.on_bg2)
            y += ui.dp(100)
            ui.spacer(y, y + ui.dp(16))
        ui.icon_button(a.x1 + ui.dp(32), a.y1 + ui.dp(32), "arrow-left", "Navigate up", app.pop, color=t.on_bg,
                       bg=t.bg)


def _round_action(ui: UI, cell: Box, label: str, icon: str, fn, primary: bool) -> None:
    t = ui.theme
    r = ui.dp(20)
    cx, cy = cell.center.x, cell.y1 + r + ui.dp(2)
    acc = ui.accent

    def paint(c: Canvas, b: Box) -> None:
        circle = Box(cx - r, cy - r, cx + r, cy + r)
        if primary:
            c.ellipse(circle, fill=acc)
            c.icon(cx, cy, icon, ui.dp(22), (255, 255, 255) if not t.dark else t.on_primary)
        else:
            c.ellipse(circle, outline=t.divider, width=max(1, ui.dp(1)))
            c.icon(cx, cy, icon, ui.dp(22), acc)
        c.text(cx, cy + r + ui.dp(14), label, ui.dp(13), acc, 500, anchor="mm")

    ui.add(Node(cell, cls="android.widget.Button", text=label, clickable=True, on_tap=fn, paint=paint,
                rid=f"action_{label.lower()}"))


class DirectionsScreen(_OnePlace):
    def build(self, ui: UI) -> None:
        app: MapsApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        p = self.place
        seed = app.phone.seed
        route = app.phone.state.maps.route
        mode = route.mode if route is not None and route.place_id == p.id else "drive"
        top = Box(a.x1, a.y1, a.x2, a.y1 + ui.dp(172))
        rect(ui, top, t.bg)
        ui.icon_button(a.x1 + ui.dp(28), a.y1 + ui.dp(36), "arrow-left", "Navigate up", app.pop)
        x = a.x1 + ui.dp(60)
        for i, (icon, text, rid) in enumerate((("crosshairs-gps", "Your location", "origin"),
                                               ("map-marker", p.name, "destination"))):
            fb = Box(x, a.y1 + ui.dp(12) + i * ui.dp(52), ui.right - ui.dp(40), a.y1 + ui.dp(56) + i * ui.dp(52))
            rect(ui, fb, t.field, radius=8)
            ui.icon(fb.x1 + ui.dp(18), fb.center.y, icon, 18, ROUTE_BLUE if i == 0 else PIN_RED)
            ui.text(fb.x1 + ui.dp(38), fb.center.y - ui.dp(10), text, 15, t.on_bg, rid=rid,
                    max_width=fb.width - ui.dp(46))
        ui.icon_button(ui.right - ui.dp(14), a.y1 + ui.dp(60), "swap-vertical", "Swap start and destination",
                       lambda: app.toast("Can't route from this place"))
        my = a.y1 + ui.dp(124)
        mw = (ui.right - ui.left - ui.dp(16)) // 3
        for i, (key, label, icon) in enumerate(MODES):
            b = Box(ui.left + i * (mw + ui.dp(8)), my, ui.left + i * (mw + ui.dp(8)) + mw, my + ui.dp(40))
            sel = key == mode
            eta = _fmt_min(eta_minutes(p.id, key, seed))
            _mode_button(ui, b, label, icon, eta, sel, lambda key=key: app.set_mode(key))
        mbox = Box(a.x1, top.y2, a.x2, a.y2 - ui.dp(168))
        _map(ui, mbox, seed, route_to=p.id)
        panel = Box(a.x1, mbox.y2, a.x2, a.y2)
        rect(ui, panel, t.bg)
        eta = eta_minutes(p.id, mode, seed)
        km = distance_km(p.id, seed) * (1.0 if mode != "walk" else 0.9)
        ui.text(ui.left, panel.y1 + ui.dp(16), _fmt_min(eta), 24, (24, 128, 56), 500, rid="route_eta")
        ui.text(ui.left + text_width(_fmt_min(eta), ui.dp(24), 500) + ui.dp(8), panel.y1 + ui.dp(22),
                f"({km:.1f} km)", 18, t.on_bg2, rid="route_distance")
        arrive = app.phone.now.replace(second=0)
        arrive = (arrive + dt.timedelta(minutes=eta)).strftime("%H:%M")
        ui.text(ui.left, panel.y1 + ui.dp(54), {"drive": "Fastest route now due to traffic conditions",
                                                "transit": "Metro Line 1 · then walk 6 min",
                                                "walk": "Mostly flat · sidewalks"}[mode] + f" · Arrive {arrive}", 14,
                t.on_bg2)
        ui.button(Box(ui.left, panel.y1 + ui.dp(96), ui.left + ui.dp(130), panel.y1 + ui.dp(140)), "Start",
                  lambda: app.start(p.id), icon="navigation-variant", rid="start_navigation")
        ui.button(Box(ui.left + ui.dp(142), panel.y1 + ui.dp(96), ui.left + ui.dp(262), panel.y1 + ui.dp(140)),
                  "Steps", lambda: app.toast(f"Head north on {app.street(p.id)}"), style="outlined",
                  icon="format-list-bulleted")


def _mode_button(ui: UI, b: Box, label: str, icon: str, eta: str, sel: bool, fn) -> None:
    t = ui.theme
    acc = ui.accent

    def paint(c: Canvas, bx: Box) -> None:
        if sel:
            c.rect(bx, fill=mix(acc, t.bg, 0.8), radius=bx.height // 2)
        else:
            c.rect(bx, outline=t.divider, width=max(1, ui.dp(1)), radius=bx.height // 2)
        c.icon(bx.x1 + ui.dp(20), bx.center.y, icon, ui.dp(20), acc if sel else t.on_bg2)
        c.text(bx.x1 + ui.dp(36), bx.center.y - ui.dp(8), label, ui.dp(12), t.on_bg, 500, anchor="lm")
        c.text(bx.x1 + ui.dp(36), bx.center.y + ui.dp(8), eta, ui.dp(12), t.on_bg2, 400, anchor="lm")

    ui.add(Node(b, cls="android.widget.Button", text=label, desc=f"{label}, {eta}", clickable=True, selected=sel,
                on_tap=fn, paint=paint, rid=f"mode_{label.lower()}"))


class NavigationScreen(_OnePlace):
    def build(self, ui: UI) -> None:
        app: MapsApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        p = self.place
        seed = app.phone.seed
        route = app.phone.state.maps.route
        mode = route.mode if route is not None else "drive"
        _map(ui, a, seed, route_to=p.id)
        banner = Box(ui.left - ui.dp(8), a.y1 + ui.dp(8), ui.right + ui.dp(8), a.y1 + ui.dp(112))
        rect(ui, banner, NAV_GREEN, radius=16)
        ui.icon(banner.x1 + ui.dp(36), banner.y1 + ui.dp(40), "arrow-up-bold", 40, (255, 255, 255))
        street = app.street(p.id)
        ui.text(banner.x1 + ui.dp(72), banner.y1 + ui.dp(14), f"Head north on {street}", 22, (255, 255, 255), 500,
                max_width=banner.width - ui.dp(84), rid="instruction")
        ui.text(banner.x1 + ui.dp(72), banner.y1 + ui.dp(48), f"toward {p.name}", 15, (220, 240, 228),
                max_width=banner.width - ui.dp(84))
        ui.text(banner.x1 + ui.dp(72), banner.y1 + ui.dp(74), "Then turn right in 300 m", 14, (220, 240, 228))
        panel = Box(a.x1, a.y2 - ui.dp(104), a.x2, a.y2)
        rect(ui, panel, t.bg, radius=20)
        eta = eta_minutes(p.id, mode, seed)
        arrive = (app.phone.now + dt.timedelta(minutes=eta)).strftime("%H:%M")
        ui.text(ui.left, panel.y1 + ui.dp(18), _fmt_min(eta), 26, (24, 128, 56), 500, rid="nav_eta")
        ui.text(ui.left, panel.y1 + ui.dp(56), f"{distance_km(p.id, seed):.1f} km · {arrive}", 15, t.on_bg2,
                rid="nav_distance")
        ui.button(Box(ui.right - ui.dp(104), panel.y1 + ui.dp(28), ui.right, panel.y1 + ui.dp(76)), "Exit",
                  app.exit_navigation, color=(217, 48, 37), rid="exit_navigation")
        ui.icon_button(ui.right - ui.dp(150), panel.y1 + ui.dp(52), "volume-high", "Sound on",
                       lambda: app.toast("Voice guidance on"))

    def on_back(self) -> bool:
        self.app.exit_navigation()  # type: ignore[attr-defined]
        return True


class MapsApp(SearchApp, name="Maps", package="com.sim.maps",
              icon="map-marker-radius", color=(52, 168, 83), root=MapScreen):
    search_screen = SearchScreen
    results_screen = ResultsScreen

    def weather_line(self) -> str:
        w = self.phone.state.weather
        return f"{w.current_temp}°C {w.condition.lower()}"

    def street(self, place_id: str) -> str:
        return _STREETS[_h(place_id, self.phone.seed) % len(_STREETS)]

    def search_log(self) -> list[str]:
        return self.phone.state.maps.searches

    def open_place(self, place_id: str) -> None:
        self.phone.state.maps.viewed_places.append(place_id)
        self.push(PlaceScreen(self, place_id))

    def open_directions(self, place_id: str) -> None:
        st = self.phone.state.maps
        p = place(place_id)
        st.route = Route(p.name, p.id, "drive", False)
        self.push(DirectionsScreen(self, place_id))

    def set_mode(self, mode: str) -> None:
        route = self.phone.state.maps.route
        if route is not None:
            route.mode = mode

    def start(self, place_id: str) -> None:
        st = self.phone.state.maps
        p = place(place_id)
        if st.route is None or st.route.place_id != place_id:
            st.route = Route(p.name, p.id, "drive", False)
        st.route.started = True
        st.navigating = True
        self.push(NavigationScreen(self, place_id))

    def exit_navigation(self) -> None:
        self.phone.state.maps.navigating = False
        self.pop()

    def toggle_save(self, place_id: str) -> None:
        saved = self.phone.state.maps.saved
        if place_id in saved:
            saved.remove(place_id)
            self.toast("Removed from Saved")
        else:
            saved.append(place_id)
            self.toast("Saved to Favourites")


APPS = [MapsApp]
