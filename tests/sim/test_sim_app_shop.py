"""Shop app flows driven by taps on ui-tree nodes, with the typed state checked after."""

from __future__ import annotations

import numpy as np

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.sim.apps import shop
from mobile_agent.device.uitree import TreeDriver


def _open(seed: int = 0, dark: bool = False) -> tuple[SimPhone, TreeDriver]:
    phone = SimPhone(seed=seed, dark=dark)
    drv = TreeDriver(phone)
    drv.tap(text="Shop")
    return phone, drv


def test_search_caps_lists_cap_products_with_price_and_min_order() -> None:
    phone, drv = _open()
    drv.tap(text="Search products or suppliers")
    drv.type("caps\n")
    assert phone.state.shop.searches == ["caps"]
    titles = [n.text for n in drv.find_all(rid="product_title")]
    assert titles and all(shop.is_cap(p.id) for p in shop.search_products("caps"))
    assert "Custom Embroidered Baseball Cap" in titles
    assert drv.find(text="US$1.20-2.50") is not None
    assert drv.find(text="Min. order: 100 pieces") is not None
    assert drv.find(desc="Custom Embroidered Baseball Cap", cls="android.widget.ImageView") is not None


def test_add_cap_to_cart_and_see_it_in_cart() -> None:
    phone, drv = _open()
    drv.tap(text="Search products or suppliers")
    drv.type("hat\n")
    drv.tap(text="Custom Embroidered Baseball Cap")
    assert phone.state.shop.viewed == ["cap-001"]
    assert drv.find(text="Chat now") is not None
    drv.tap(text="Add to cart")
    assert [c.product_id for c in phone.state.shop.cart] == ["cap-001"]
    assert drv.find(text="Added to cart") is not None  # the toast
    drv.tap(desc="Cart")
    assert drv.find(text="Cart (1)") is not None
    assert drv.find(text="Custom Embroidered Baseball Cap") is not None
    drv.tap(desc="Remove")
    assert phone.state.shop.cart == []


def test_chat_with_supplier_records_message() -> None:
    phone, drv = _open()
    drv.tap(text="Hats & Caps")
    drv.tap(text="Custom Embroidered Baseball Cap")
    drv.tap(text="Chat now")
    drv.tap(text="Type a message…")
    drv.type("Can you do 500 pieces with my logo?")
    drv.tap(desc="Send")
    supplier = shop.product("cap-001").supplier
    assert phone.state.shop.messages == [(supplier, "Can you do 500 pieces with my logo?")]
    assert drv.find(contains="my logo?") is not None


def test_unknown_query_shows_no_results_and_back_returns_home() -> None:
    phone, drv = _open()
    drv.tap(text="Search products or suppliers")
    drv.type("zzqx\n")
    assert drv.find(contains="No results for") is not None
    phone.back()
    assert drv.find(text="Recommended for you") is not None
    phone.back()
    assert phone.state.foreground is None


def test_results_scroll_reveals_more_products() -> None:
    phone, drv = _open()
    drv.tap(text="Search products or suppliers")
    drv.type("cap\n")
    node = drv.scroll_to(text="5-Panel Flat Brim Hip Hop Cap")
    drv.tap(text=node.text)
    assert phone.state.shop.viewed == ["cap-008"]


def test_dark_theme_renders_dark_background() -> None:
    phone, drv = _open(dark=True)
    img = np.asarray(phone.screenshot().convert("L"))
    h = img.shape[0]
    assert np.median(img[h // 10: h * 9 // 10]) < 80
    assert drv.find(text="Search products or suppliers") is not None
