"""Shop: a B2B marketplace. Home with a search bar, category chips and recommended products;
search results with price ranges, minimum orders and suppliers; an item page with price tiers,
"Add to cart" and "Chat now"; a cart; a chat with the supplier.

The catalog is module data (:data:`PRODUCTS`, :func:`search_products`, :func:`is_cap`) so that
benchmark checks can tell which products are caps.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from mobile_agent.device.sim.apps._kit import (QueryResults, QueryScreen, avatar, by_words, chip_row, fmt_count,
                                               offscreen, query_bar, rect, results_bar, rounded_picture, search_pill,
                                               stars)
from mobile_agent.device.sim.phone import App, Screen
from mobile_agent.device.sim.render import mix, text_width, wrap
from mobile_agent.device.sim.state import CartItem
from mobile_agent.device.sim.ui import UI
from mobile_agent.types import Box

ORANGE = (255, 102, 0)
CAPS = "Hats & Caps"


@dataclass(frozen=True)
class Product:
    """One listing of the marketplace."""

    id: str
    title: str
    category: str
    keywords: tuple[str, ...]
    price_lo: float
    price_hi: float
    moq: int  # minimum order quantity
    unit: str
    supplier: str
    country: str
    years: int  # years on the marketplace
    rating: float
    sold: int

    @property
    def price_range(self) -> str:
        return f"US${self.price_lo:.2f}-{self.price_hi:.2f}"

    @property
    def min_order(self) -> str:
        return f"Min. order: {self.moq} {self.unit}"

    def tiers(self) -> list[tuple[str, float]]:
        """Price tiers: (quantity range, unit price), cheaper for larger orders."""
        mid = round((self.price_lo + self.price_hi) / 2, 2)
        a, b = self.moq, self.moq * 5
        return [(f"{a}-{b - 1} {self.unit}", self.price_hi), (f"{b}-{b * 4 - 1} {self.unit}", mid),
                (f">= {b * 4} {self.unit}", self.price_lo)]


def _p(id: str, title: str, category: str, keywords: str, lo: float, hi: float, moq: int, supplier: str,
       years: int, rating: float, sold: int, unit: str = "pieces", country: str = "CN") -> Product:
    return Product(id, title, category, tuple(keywords.split()), lo, hi, moq, unit, supplier, country, years,
                   rating, sold)


PRODUCTS: list[Product] = [
    _p("cap-001", "Custom Embroidered Baseball Cap", CAPS, "cap hat baseball headwear embroidery custom logo",
       1.20, 2.50, 100, "Yiwu Sunrise Headwear Co., Ltd.", 9, 4.8, 12840),
    _p("cap-002", "Unisex Cotton Dad Hat Plain Adjustable", CAPS, "cap hat dad cotton plain headwear", 0.85, 1.60,
       200, "Baoding Evergreen Caps Factory", 6, 4.6, 8311),
    _p("cap-003", "Trucker Mesh Snapback Cap with Printed Logo", CAPS, "cap hat trucker mesh snapback headwear",
       1.50, 3.20, 50, "Guangzhou Topline Garments Co., Ltd.", 12, 4.9, 5120),
    _p("cap-004", "Kids Cartoon Sun Hat Wide Brim", CAPS, "hat cap kids sun children summer", 1.10, 2.00, 100,
       "Ningbo Little Star Apparel Co.", 4, 4.5, 2210),
    _p("cap-005", "Winter Knitted Beanie Hat Cuffed", CAPS, "hat beanie cap knitted winter wool", 0.95, 1.80,
       300, "Hebei Warmwool Knitting Co., Ltd.", 8, 4.7, 9930),
    _p("cap-006", "Quick Dry Sports Running Cap", CAPS, "cap hat sports running quick dry outdoor", 1.80, 3.50,
       100, "Xiamen Fleet Sportswear Co., Ltd.", 5, 4.6, 3405),
    _p("cap-007", "Cotton Twill Bucket Hat", CAPS, "hat bucket cap fisherman cotton", 1.30, 2.40, 100,
       "Yiwu Sunrise Headwear Co., Ltd.", 9, 4.7, 6120),
    _p("cap-008", "5-Panel Flat Brim Hip Hop Cap", CAPS, "cap hat flat brim hip hop snapback", 1.60, 2.90, 50,
       "Guangzhou Topline Garments Co., Ltd.", 12, 4.8, 4015),
    _p("tee-001", "Blank Cotton T-Shirt 180gsm Unisex", "Apparel", "t shirt tshirt tee cotton blank apparel",
       1.90, 3.40, 100, "Shaoxing Keqiao Textile Co.", 7, 4.7, 20410),
    _p("tee-002", "Custom Logo Polo Shirt for Company Uniform", "Apparel", "polo shirt uniform apparel custom",
       3.80, 6.50, 50, "Dongguan Unique Garment Co., Ltd.", 10, 4.8, 7302),
    _p("hoodie-001", "Heavyweight Fleece Hoodie Oversized", "Apparel", "hoodie sweatshirt fleece apparel", 6.90,
       11.50, 50, "Dongguan Unique Garment Co., Ltd.", 10, 4.7, 3144),
    _p("bag-001", "Reusable Canvas Tote Bag with Print", "Bags", "bag tote canvas shopping reusable", 0.65, 1.45,
       500, "Wenzhou Greenway Bags Co.", 11, 4.6, 15880),
    _p("bottle-001", "Stainless Steel Vacuum Water Bottle 500ml", "Home & Garden",
       "bottle water flask thermos stainless cup", 2.10, 3.90, 100, "Yongkang Coolcup Industry Co.", 6, 4.8, 11270),
    _p("mug-001", "Ceramic Coffee Mug with Custom Print", "Home & Garden", "mug cup coffee ceramic", 0.70, 1.50,
       300, "Liling Porcelain Works", 15, 4.5, 9021),
    _p("case-001", "Shockproof Silicone Phone Case", "Electronics", "phone case cover silicone mobile", 0.45, 1.10,
       100, "Shenzhen Bright Mobile Accessories", 8, 4.6, 25110),
    _p("cable-001", "USB-C Fast Charging Cable 1m Braided", "Electronics", "cable usb charger charging type c",
       0.55, 1.20, 200, "Shenzhen Bright Mobile Accessories", 8, 4.7, 30220),
    _p("earbud-001", "Wireless Bluetooth Earbuds with Charging Case", "Electronics",
       "earbuds earphone headphone bluetooth wireless", 4.90, 8.70, 20, "Shenzhen Soundwave Tech Co., Ltd.", 5,
       4.4, 6002),
    _p("led-001", "LED Strip Lights 5m RGB with Remote", "Electronics", "led light strip lamp rgb", 1.80, 3.60,
       50, "Zhongshan Lumen Lighting Co.", 9, 4.6, 8450),
    _p("box-001", "Kraft Paper Mailer Box Custom Size", "Packaging", "box packaging carton mailer kraft paper",
       0.08, 0.35, 1000, "Xiamen Packwell Packaging Co.", 13, 4.8, 50210),
    _p("sneaker-001", "Casual Canvas Sneakers Low Top", "Shoes", "shoe sneaker canvas casual footwear", 4.50,
       7.80, 60, "Jinjiang Stride Footwear Co.", 14, 4.5, 4410, unit="pairs"),
    _p("sock-001", "Cotton Crew Socks Assorted Colours", "Apparel", "sock cotton crew", 0.25, 0.60, 500,
       "Zhuji Happy Socks Factory", 10, 4.6, 33010, unit="pairs"),
    _p("sunglass-001", "Polarized Sunglasses UV400 Retro", "Accessories", "sunglass glass eyewear polarized uv",
       1.40, 2.80, 100, "Taizhou Clearview Optical Co.", 7, 4.5, 7230),
    _p("umbrella-001", "Windproof Automatic Folding Umbrella", "Accessories", "umbrella rain folding windproof",
       2.30, 4.10, 100, "Shangyu Skyshield Umbrella Co.", 16, 4.7, 5320),
    _p("yoga-001", "TPE Yoga Mat 6mm Non-Slip", "Sports", "yoga mat fitness exercise gym sport", 3.20, 5.60, 50,
       "Nantong Flexfit Sports Co.", 6, 4.6, 4780),
]

CATEGORIES = ["Hats & Caps", "Apparel", "Electronics", "Home & Garden", "Packaging", "Bags", "Shoes",
              "Accessories", "Sports"]
CATEGORY_ICONS = {"Hats & Caps": "hat-fedora", "Apparel": "tshirt-crew-outline", "Electronics": "cellphone",
                  "Home & Garden": "home-outline", "Packaging": "package-variant-closed", "Bags": "bag-personal-outline",
                  "Shoes": "shoe-sneaker", "Accessories": "sunglasses", "Sports": "basketball"}
POPULAR_SEARCHES = ["baseball cap", "t-shirt", "phone case", "water bottle", "tote bag", "led strip"]
_STOP = {"i", "a", "an", "the", "to", "for", "want", "buy", "some", "find", "me", "of", "with", "and", "cheap", "on"}
_BY_ID = {p.id: p for p in PRODUCTS}


def product(product_id: str) -> Product:
    """The product with ``product_id`` (KeyError if unknown)."""
    return _BY_ID[product_id]


def is_cap(product_id: str) -> bool:
    """True for caps and hats (what the "find caps" tasks look for)."""
    p = _BY_ID.get(product_id)
    return p is not None and p.category == CAPS


def search_products(query: str) -> list[Product]:
    """Products matching ``query``: by words of title, keywords, category or supplier, best first."""
    return by_words(query, PRODUCTS, _STOP, lambda p: (p.title, " ".join(p.keywords), p.category, p.supplier))


# ---------------------------------------------------------------------------------------------- screens
def _price_text(p: Product) -> str:
    return p.price_range


class HomeScreen(Screen):
    def build(self, ui: UI) -> None:
        app: ShopApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        y = a.y1
        ui.text(ui.left, y + ui.dp(14), "Shop", 24, ui.accent, 700, rid="logo")
        ui.text(ui.left + ui.dp(70), y + ui.dp(22), "Wholesale for business", 12, t.on_bg2)
        _cart_button(ui, app, a.x2 - ui.dp(28), y + ui.dp(28))
        ui.icon_button(a.x2 - ui.dp(76), y + ui.dp(28), "message-text-outline", "Messages", app.open_messages)
        y += ui.dp(56)
        search_pill(ui, Box(ui.left, y, ui.right, y + ui.dp(48)), "Search products or suppliers", app.open_search,
                    fill=t.field)
        y += ui.dp(60)
        chip_row(ui, y, [(c, CATEGORY_ICONS[c], lambda c=c: app.run_search(c)) for c in CATEGORIES], "chips")
        y += ui.dp(44)
        view = Box(a.x1, y, a.x2, a.y2)
        with ui.scroll(view, "feed", rid="recommend_list") as y2:
            banner = Box(ui.left, y2 + ui.dp(4), ui.right, y2 + ui.dp(92))
            rect(ui, banner, mix(ui.accent, t.bg, 0.82), radius=16)
            ui.text(banner.x1 + ui.dp(16), banner.y1 + ui.dp(16), "Top deals from verified suppliers", 16, t.on_bg,
                    500)
            ui.text(banner.x1 + ui.dp(16), banner.y1 + ui.dp(44), "Low minimum orders · Trade Assurance", 13,
                    t.on_bg2)
            yy = banner.y2 + ui.dp(20)
            ui.text(ui.left, yy, "Recommended for you", 18, t.on_bg, 500)
            yy += ui.dp(36)
            order = app.recommended()
            yy = _grid(ui, app, order, yy, view)
            ui.spacer(yy, yy + ui.dp(8))


def _cart_button(ui: UI, app: "ShopApp", cx: int, cy: int) -> None:
    ui.icon_button(cx, cy, "cart-outline", "Cart", app.open_cart)
    n = len(app.phone.state.shop.cart)
    if n:
        r = ui.dp(8)
        bx, by = cx + ui.dp(10), cy - ui.dp(10)
        rect(ui, Box(bx - r, by - r, bx + r, by + r), ORANGE, radius=8)
        ui.text(bx, by - ui.dp(7), str(n), 10, (255, 255, 255), 700, align="center")


def _grid(ui: UI, app: "ShopApp", items: list[Product], y: int, view: Box) -> int:
    t = ui.theme
    gap = ui.dp(12)
    w = (ui.right - ui.left - gap) // 2
    for i, p in enumerate(items):
        col = i % 2
        x = ui.left + col * (w + gap)
        card = Box(x, y, x + w, y + w + ui.dp(112))
        if offscreen(ui, view, card.y1, card.y2):
            if col == 1 or i == len(items) - 1:
                y = card.y2 + gap
            continue
        with ui.card(card, on_tap=lambda p=p: app.open_item(p.id), rid="product_card", fill=t.surface):
            rounded_picture(ui, Box(card.x1, card.y1, card.x2, card.y1 + w), p.id, "product", t.bg, desc=p.title,
                            top_only=True)
            ui.text(card.x1 + ui.dp(10), card.y1 + w + ui.dp(8), p.title, 14, t.on_bg, lines=2,
                    max_width=w - ui.dp(20), rid="product_title")
            ui.text(card.x1 + ui.dp(10), card.y1 + w + ui.dp(50), _price_text(p), 15, t.on_bg, 700, rid="price")
            ui.text(card.x1 + ui.dp(10), card.y1 + w + ui.dp(74), p.min_order, 12, t.on_bg2, max_width=w - ui.dp(20))
        if col == 1 or i == len(items) - 1:
            y = card.y2 + gap
    return y


class SearchScreen(QueryScreen):
    def build(self, ui: UI) -> None:
        app: ShopApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        bar = query_bar(ui, app.pop, "Search products or suppliers", self.submit, rid="search_src_text")
        with ui.scroll(Box(a.x1, bar.y2, a.x2, a.y2), "suggest") as y:
            recent = list(dict.fromkeys(reversed(app.phone.state.shop.searches)))[:4]
            if recent:
                ui.text(ui.left, y + ui.dp(12), "Recent searches", 14, t.on_bg2, 500)
                y += ui.dp(40)
                for q in recent:
                    y = ui.list_row(y, q, icon="history", on_tap=lambda q=q: app.run_search(q, replace=True)).y2
            ui.text(ui.left, y + ui.dp(12), "Popular searches", 14, t.on_bg2, 500)
            y += ui.dp(40)
            for q in POPULAR_SEARCHES:
                y = ui.list_row(y, q, icon="trending-up", on_tap=lambda q=q: app.run_search(q, replace=True)).y2

    def submit(self) -> None:
        self.app.run_search(self.fields.get("q", ""), replace=True)  # type: ignore[attr-defined]


class ResultsScreen(QueryResults):
    def __init__(self, app: "ShopApp", query: str) -> None:
        super().__init__(app, query)
        self.results = search_products(query)

    def build(self, ui: UI) -> None:
        app: ShopApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        bar = results_bar(ui, app.pop, "Search products or suppliers", lambda: app.open_search(self.query), self.query,
                          margin=10, right=60)
        _cart_button(ui, app, bar.x2 - ui.dp(28), bar.center.y)
        y = bar.y2 + ui.dp(4)
        chip_row(ui, y, [("Verified suppliers", "check-decagram", lambda: None),
                         ("Ready to ship", "truck-delivery-outline", lambda: None),
                         ("Min. order", None, lambda: None), ("Price", None, lambda: None)], "filters")
        y += ui.dp(44)
        view = Box(a.x1, y, a.x2, a.y2)
        with ui.scroll(view, "results", rid="result_list") as yy:
            if not self.results:
                ui.icon(a.center.x, yy + ui.dp(120), "magnify-close", 64, t.on_bg2)
                ui.text(a.center.x, yy + ui.dp(168), f"No results for “{self.query.strip()}”", 18, t.on_bg,
                        align="center")
                ui.text(a.center.x, yy + ui.dp(200), "Check the spelling or try more general keywords", 14,
                        t.on_bg2, align="center")
                return
            ui.text(ui.left, yy + ui.dp(4), f"{len(self.results)} products found", 13, t.on_bg2)
            yy += ui.dp(28)
            for p in self.results:
                if offscreen(ui, view, yy, yy + ui.dp(148)):
                    yy += ui.dp(148)
                    continue
                yy = _result_row(ui, app, p, yy)


def _result_row(ui: UI, app: "ShopApp", p: Product, y: int) -> int:
    t = ui.theme
    h = ui.dp(148)
    box = Box(ui.area.x1, y, ui.area.x2, y + h)
    pic = ui.dp(124)
    with ui.group(box, on_tap=lambda: app.open_item(p.id), rid="product_item"):
        rounded_picture(ui, Box(ui.left, y + ui.dp(12), ui.left + pic, y + ui.dp(12) + pic), p.id, "product",
                        t.bg, radius=10, desc=p.title)
        x = ui.left + pic + ui.dp(12)
        mw = ui.right - x
        ui.text(x, y + ui.dp(10), p.title, 15, t.on_bg, lines=2, max_width=mw, rid="product_title")
        ui.text(x, y + ui.dp(54), p.price_range, 17, t.on_bg, 700, rid="price")
        ui.text(x, y + ui.dp(80), p.min_order, 13, t.on_bg2, max_width=mw, rid="min_order")
        ui.text(x, y + ui.dp(100), f"{fmt_count(p.sold)} sold", 12, t.on_bg2)
        ui.text(x, y + ui.dp(118), p.supplier, 12, t.on_bg2, max_width=mw, rid="supplier")
    ui.divider(box.y2 - 1, ui.left, ui.right)
    return box.y2


class ItemScreen(Screen):
    def __init__(self, app: "ShopApp", product_id: str) -> None:
        super().__init__(app)
        self.product = product(product_id)
        self.photo = 0

    def build(self, ui: UI) -> None:
        app: ShopApp = self.app  # type: ignore[assignment]
        p = self.product
        t = ui.theme
        a = ui.area
        ui.top_bar("", back=app.pop, actions=(("cart-outline", "Cart", app.open_cart),
                                              ("share-variant-outline", "Share", lambda: app.toast("Link copied"))))
        bottom_h = ui.dp(72)
        body = Box(a.x1, a.y1 + ui.dp(64), a.x2, a.y2 - bottom_h)
        with ui.scroll(body, "item", rid="item_detail") as y:
            side = ui.right - ui.left
            main = Box(ui.left, y, ui.right, y + side * 3 // 4)
            rounded_picture(ui, main, f"{p.id}" if self.photo == 0 else f"{p.id}-{self.photo}", "product", t.bg,
                            radius=16, desc=f"{p.title}, photo {self.photo + 1} of 4")
            badge = Box(main.x2 - ui.dp(52), main.y2 - ui.dp(36), main.x2 - ui.dp(12), main.y2 - ui.dp(12))
            rect(ui, badge, (60, 62, 68), radius=12)
            ui.text(badge.center.x, badge.y1 + ui.dp(4), f"{self.photo + 1}/4", 12, (255, 255, 255), align="center")
            y = main.y2 + ui.dp(8)
            s = ui.dp(56)
            for i in range(4):
                b = Box(ui.left + i * (s + ui.dp(8)), y, ui.left + i * (s + ui.dp(8)) + s, y + s)
                ui.picture(b, p.id if i == 0 else f"{p.id}-{i}", "product", desc=f"Photo {i + 1}",
                           on_tap=lambda i=i: setattr(self, "photo", i), radius=8)
            y += s + ui.dp(16)
            tiers = p.tiers()
            tw = (ui.right - ui.left) // 3
            for i, (qty, price) in enumerate(tiers):
                x = ui.left + i * tw
                ui.text(x, y, f"US${price:.2f}", 18, ORANGE if i == 0 else t.on_bg, 700)
                ui.text(x, y + ui.dp(28), qty, 12, t.on_bg2, max_width=tw - ui.dp(4))
            y += ui.dp(56)
            ui.text(ui.left, y, p.title, 20, t.on_bg, 500, lines=2, rid="item_title")
            y += ui.dp(60)
            ui.text(ui.left, y, f"{p.min_order} · {fmt_count(p.sold)} sold", 14, t.on_bg2)
            y += ui.dp(28)
            stars(ui, ui.left, y, p.rating)
            ui.text(ui.left + ui.dp(80), y - ui.dp(2), f"{p.rating:.1f} product rating", 13, t.on_bg2)
            y += ui.dp(32)
            ui.divider(y)
            y += ui.dp(12)
            sup = Box(ui.left, y, ui.right, y + ui.dp(72))
            avatar(ui, sup.x1 + ui.dp(24), sup.center.y, 22, p.supplier)
            ui.text(sup.x1 + ui.dp(60), sup.y1 + ui.dp(12), p.supplier, 15, t.on_bg, 500,
                    max_width=sup.width - ui.dp(60), rid="supplier_name")
            ui.text(sup.x1 + ui.dp(60), sup.y1 + ui.dp(38), f"Verified · {p.years} yrs · {p.country}", 13, t.on_bg2)
            y = sup.y2 + ui.dp(8)
            ui.divider(y)
            y += ui.dp(16)
            ui.text(ui.left, y, "Key attributes", 16, t.on_bg, 500)
            y += ui.dp(32)
            for k, v in (("Category", p.category), ("Place of origin", "Zhejiang, China" if "Yiwu" in p.supplier
                                                     else "Guangdong, China"),
                         ("Customization", "Logo, packaging, graphics"), ("Lead time", "15-25 days"),
                         ("Sample", "Available")):
                ui.text(ui.left, y, k, 14, t.on_bg2)
                ui.text(ui.left + ui.dp(140), y, v, 14, t.on_bg, max_width=ui.right - ui.left - ui.dp(140))
                y += ui.dp(28)
            ui.spacer(y, y + ui.dp(16))
        bar = Box(a.x1, a.y2 - bottom_h, a.x2, a.y2)
        rect(ui, bar, t.surface)
        half = (ui.right - ui.left - ui.dp(12)) // 2
        ui.button(Box(ui.left, bar.y1 + ui.dp(14), ui.left + half, bar.y2 - ui.dp(14)), "Chat now",
                  lambda: app.open_chat(p.supplier, p.id), style="outlined", icon="message-text-outline")
        ui.button(Box(ui.right - half, bar.y1 + ui.dp(14), ui.right, bar.y2 - ui.dp(14)), "Add to cart",
                  lambda: app.add_to_cart(p.id), color=ORANGE, icon="cart-plus")


class CartScreen(Screen):
    def build(self, ui: UI) -> None:
        app: ShopApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        cart = app.phone.state.shop.cart
        ui.top_bar(f"Cart ({len(cart)})" if cart else "Cart", back=app.pop)
        top = a.y1 + ui.dp(64)
        if not cart:
            ui.icon(a.center.x, top + ui.dp(160), "cart-outline", 72, t.on_bg2)
            ui.text(a.center.x, top + ui.dp(212), "Your cart is empty", 18, t.on_bg, align="center")
            ui.button(Box(a.center.x - ui.dp(90), top + ui.dp(256), a.center.x + ui.dp(90), top + ui.dp(296)),
                      "Start sourcing", lambda: app.reset())
            return
        bottom_h = ui.dp(76)
        with ui.scroll(Box(a.x1, top, a.x2, a.y2 - bottom_h), "cart", rid="cart_list") as y:
            for i, item in enumerate(cart):
                p = _BY_ID.get(item.product_id)
                h = ui.dp(128)
                box = Box(a.x1, y, a.x2, y + h)
                with ui.group(box, on_tap=lambda pid=item.product_id: app.open_item(pid), rid="cart_item"):
                    ui.picture(Box(ui.left, y + ui.dp(12), ui.left + ui.dp(96), y + ui.dp(108)), item.product_id,
                               "product", desc=item.title, radius=10)
                    x = ui.left + ui.dp(108)
                    ui.text(x, y + ui.dp(12), item.title, 15, t.on_bg, lines=2, max_width=ui.right - x - ui.dp(40))
                    ui.text(x, y + ui.dp(56), f"US${item.price:.2f} / {p.unit[:-1] if p else 'piece'}", 15, t.on_bg, 700)
                    ui.text(x, y + ui.dp(82), f"Qty: {item.quantity}", 13, t.on_bg2)
                    if p is not None:
                        ui.text(x + ui.dp(80), y + ui.dp(82), p.supplier, 12, t.on_bg2,
                                max_width=ui.right - x - ui.dp(80))
                    ui.icon_button(ui.right - ui.dp(16), y + ui.dp(24), "delete-outline", "Remove",
                                   lambda i=i: app.remove_from_cart(i), size=22)
                ui.divider(box.y2 - 1, ui.left, ui.right)
                y = box.y2
        total = sum(i.price * i.quantity for i in cart)
        bar = Box(a.x1, a.y2 - bottom_h, a.x2, a.y2)
        rect(ui, bar, t.surface)
        ui.text(ui.left, bar.y1 + ui.dp(14), "Subtotal", 13, t.on_bg2)
        ui.text(ui.left, bar.y1 + ui.dp(34), f"US${total:,.2f}", 18, t.on_bg, 700, rid="subtotal")
        ui.button(Box(ui.right - ui.dp(140), bar.y1 + ui.dp(16), ui.right, bar.y2 - ui.dp(16)), "Check out",
                  lambda: app.toast("Order request sent to suppliers"), color=ORANGE)


class ChatScreen(Screen):
    def __init__(self, app: "ShopApp", supplier: str, product_id: str | None) -> None:
        super().__init__(app)
        self.supplier = supplier
        self.product_id = product_id

    def build(self, ui: UI) -> None:
        app: ShopApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        ui.top_bar("", back=app.pop, actions=(("phone-outline", "Call", lambda: app.toast("Calling is not available")),))
        avatar(ui, a.x1 + ui.dp(80), a.y1 + ui.dp(32), 18, self.supplier)
        ui.text(a.x1 + ui.dp(108), a.y1 + ui.dp(12), self.supplier, 16, t.on_bg, 500, max_width=ui.dp(230),
                rid="chat_title")
        ui.text(a.x1 + ui.dp(108), a.y1 + ui.dp(34), "Online · replies within 2 hours", 12, t.on_bg2)
        comp_h = ui.dp(72)
        chips_h = ui.dp(44)
        body = Box(a.x1, a.y1 + ui.dp(64), a.x2, a.y2 - comp_h - chips_h)
        mine = [m for s, m in app.phone.state.shop.messages if s == self.supplier]
        greeting = "Hello! Thanks for visiting our store. How can we help you today?"
        if self.product_id:
            greeting = f"Hello! Thanks for your interest in “{product(self.product_id).title}”. How can we help you?"
        bubbles = [(False, greeting)]
        for m in mine:
            bubbles.append((True, m))
        if mine:
            bubbles.append((False, "Thank you for your message! Our sales manager will reply with a quotation soon."))
        with ui.scroll(body, "chat", rid="message_list") as y:
            y += ui.dp(12)
            for me, text in bubbles:
                y = _bubble(ui, y, text, me) + ui.dp(10)
        chip_row(ui, a.y2 - comp_h - chips_h + ui.dp(6),
                 [(q, None, lambda q=q: self.fields.__setitem__("msg", q)) for q in
                  ("Is this product in stock?", "Can you print my logo?", "What is the lead time?")], "quick")
        comp = Box(a.x1, a.y2 - comp_h, a.x2, a.y2)
        rect(ui, comp, t.surface)
        ui.text_field(Box(ui.left, comp.y1 + ui.dp(12), ui.right - ui.dp(56), comp.y2 - ui.dp(12)), "msg",
                      "Type a message…", on_submit=self.send, rid="message_input")
        ui.icon_button(ui.right - ui.dp(22), comp.center.y, "send", "Send", self.send, color=ui.accent)

    def send(self) -> None:
        text = self.fields.get("msg", "").strip()
        if not text:
            return
        self.phone.state.shop.messages.append((self.supplier, text))
        self.fields["msg"] = ""


def _bubble(ui: UI, y: int, text: str, mine: bool) -> int:
    t = ui.theme
    px = ui.dp(15)
    maxw = ui.dp(260)
    lines = wrap(text, px, 400, maxw - ui.dp(24))
    w = max(text_width(ln, px, 400) for ln in lines) + ui.dp(24)
    h = len(lines) * int(px * 1.3) + ui.dp(20)
    x1 = ui.right - w if mine else ui.left
    box = Box(x1, y, x1 + w, y + h)
    fill = mix(ui.accent, t.bg, 0.2) if mine else t.surface2
    fg = (255, 255, 255) if mine else t.on_bg
    rect(ui, box, fill, radius=16)
    ui.text(box.x1 + ui.dp(12), box.y1 + ui.dp(10), text, 15, fg, lines=len(lines), max_width=maxw - ui.dp(24),
            rid="message_text")
    return box.y2


class MessagesScreen(Screen):
    def build(self, ui: UI) -> None:
        app: ShopApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        ui.top_bar("Messages", back=app.pop)
        convs: dict[str, str] = {}
        for s, m in app.phone.state.shop.messages:
            convs[s] = m
        top = a.y1 + ui.dp(64)
        if not convs:
            ui.icon(a.center.x, top + ui.dp(160), "message-text-outline", 64, t.on_bg2)
            ui.text(a.center.x, top + ui.dp(210), "No messages yet", 18, t.on_bg, align="center")
            ui.text(a.center.x, top + ui.dp(240), "Chat with suppliers from any product page", 14, t.on_bg2,
                    align="center")
            return
        with ui.scroll(Box(a.x1, top, a.x2, a.y2), "convs") as y:
            for s, last in reversed(list(convs.items())):
                box = Box(a.x1, y, a.x2, y + ui.dp(76))
                with ui.group(box, on_tap=lambda s=s: app.open_chat(s, None), rid="conversation"):
                    avatar(ui, ui.left + ui.dp(24), box.center.y, 22, s)
                    ui.text(ui.left + ui.dp(60), y + ui.dp(14), s, 16, t.on_bg, 500, max_width=ui.dp(300))
                    ui.text(ui.left + ui.dp(60), y + ui.dp(42), f"You: {last}", 14, t.on_bg2, max_width=ui.dp(300))
                y = box.y2


class ShopApp(App, name="Shop", package="com.sim.shop", icon="shopping-outline", color=(255, 102, 0),
              root=HomeScreen):
    def recommended(self) -> list[Product]:
        """The home feed: every product, in an order that depends on the phone's seed."""
        seed = self.phone.seed
        return sorted(PRODUCTS, key=lambda p: (hash_key(p.id, seed)))

    def open_search(self, query: str = "") -> None:
        screen = SearchScreen(self, query)
        self.push(screen)
        self.phone.focus_field(screen, "q", on_submit=screen.submit)

    def run_search(self, query: str, replace: bool = False) -> None:
        query = query.strip()
        if not query:
            return
        self.phone.state.shop.searches.append(query)
        if replace and isinstance(self.screen, SearchScreen):
            self.stack.pop()
            # coming from a results page: replace it too, as the search box edits that query
            if isinstance(self.screen, ResultsScreen):
                self.stack.pop()
        self.push(ResultsScreen(self, query))

    def open_item(self, product_id: str) -> None:
        self.phone.state.shop.viewed.append(product_id)
        self.push(ItemScreen(self, product_id))

    def add_to_cart(self, product_id: str) -> None:
        p = product(product_id)
        cart = self.phone.state.shop.cart
        for item in cart:
            if item.product_id == product_id:
                item.quantity += p.moq
                break
        else:
            cart.append(CartItem(p.id, p.title, p.price_hi, p.moq))
        self.toast("Added to cart")

    def remove_from_cart(self, index: int) -> None:
        cart = self.phone.state.shop.cart
        if 0 <= index < len(cart):
            del cart[index]
            self.toast("Removed from cart")

    def open_cart(self) -> None:
        self.push(CartScreen(self))

    def open_messages(self) -> None:
        self.push(MessagesScreen(self))

    def open_chat(self, supplier: str, product_id: str | None) -> None:
        screen = ChatScreen(self, supplier, product_id)
        self.push(screen)


def hash_key(key: str, seed: int) -> int:
    """A stable pseudo-random number for (key, seed), for seed-dependent orderings."""
    return int(hashlib.sha1(f"{seed}|{key}".encode()).hexdigest()[:8], 16)


APPS = [ShopApp]
