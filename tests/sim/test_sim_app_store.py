"""Store on the simulated phone: search, app page, Install with progress, Open, Uninstall."""

from __future__ import annotations

from mobile_agent.device.sim.apps.store import CATALOG, INSTALL_STEPS, INSTALLABLE_APPS, find_item, search_catalog
from mobile_agent.device.sim.phone import SimPhone
from mobile_agent.device.uitree import TreeDriver


def _open(seed: int = 1, dark: bool = False) -> tuple[SimPhone, TreeDriver]:
    phone = SimPhone(seed=seed, dark=dark)
    phone.launch("Store")
    return phone, TreeDriver(phone)


def _search(d: TreeDriver, query: str) -> None:
    d.tap(text="Search for apps & games")
    d.type(query + "\n")


def test_search_whatsapp_lists_it_first_then_other_messengers() -> None:
    phone, d = _open()
    _search(d, "WhatsApp")
    assert phone.state.store.searches == ["WhatsApp"]
    names = [n.text for n in d.find_all(rid="app_name")]
    assert names[0] == "WhatsApp" and len(names) >= 4
    assert all(find_item(n).kind == "messenger" for n in names)


def test_install_progresses_over_gestures_then_open() -> None:
    phone, d = _open()
    _search(d, "WhatsApp")
    d.tap(text="WhatsApp", rid="app_name")
    assert d.find(rid="title").text == "WhatsApp"
    assert "WhatsApp" not in phone.app_names()
    d.tap(text="Install")
    seen = []
    for _ in INSTALL_STEPS:
        status = d.find(rid="install_status")
        assert status is not None
        seen.append(status.text)
        assert "WhatsApp" not in phone.state.store.installed
        phone.swipe(500, 1500, 500, 1450)  # any gesture lets the download go on
    assert seen == [f"Installing… {p}%" for p in INSTALL_STEPS]
    assert d.find(text="Open") is not None and d.find(text="Uninstall") is not None
    assert phone.state.store.installed == ["WhatsApp"] and phone.state.store.installing == {}
    d.tap(text="Open")
    assert phone.state.foreground == "WhatsApp"
    assert d.find(text="Welcome to WhatsApp") is not None
    d.tap(text="Agree and continue")
    assert d.find(text="Enter your phone number") is not None
    phone.home()
    assert d.find(desc="WhatsApp") is not None  # on the home screen now


def test_install_finishes_in_background_after_leaving_the_store() -> None:
    phone, d = _open()
    d.scroll_to(text="Instagram", rid="app_name")
    d.tap(text="Instagram", rid="app_name")
    d.tap(text="Install")
    phone.home()
    assert d.find(desc="Instagram") is None  # still downloading
    for _ in range(len(INSTALL_STEPS)):
        phone.swipe(540, 1800, 540, 1200)
    assert d.find(desc="Instagram") is not None
    assert "Instagram" in phone.state.store.installed
    d.tap(desc="Instagram")
    assert d.find(text="Welcome to Instagram") is not None
    phone.back()
    assert phone.state.foreground is None


def test_cancel_and_uninstall_and_top_chart_install_button() -> None:
    phone, d = _open()
    d.tap(text="Install", index=0)  # first Top charts row
    first = phone.state.store.installing
    assert list(first) == ["WhatsApp"]
    d.tap(text="WhatsApp", rid="app_name")
    d.tap(text="Cancel")
    assert phone.state.store.installing == {} and phone.state.store.installed == []
    d.tap(text="Install")
    for _ in range(len(INSTALL_STEPS)):
        phone.swipe(500, 1500, 500, 1450)
    d.tap(text="Uninstall")
    assert phone.state.store.installed == [] and "WhatsApp" not in phone.app_names()
    phone.back()
    phone.back()
    assert phone.state.foreground is None


def test_no_results_and_games_tab() -> None:
    phone, d = _open()
    d.tap(desc="Games")
    assert d.find(text="Sky Runner") is not None
    _search(d, "zzqx")
    assert d.find(contains="No results found") is not None


def test_catalog_and_apps() -> None:
    names = {i.name for i in CATALOG}
    assert {"WhatsApp", "Instagram"} <= names and len(names) == len(CATALOG) >= 10
    assert {a.name for a in INSTALLABLE_APPS} == names
    assert all(a.installable for a in INSTALLABLE_APPS)
    assert search_catalog("Instagram")[0].name == "Instagram"
    assert search_catalog("photo sharing")[0].kind == "photo"
    assert search_catalog("") == []


def test_dark_theme() -> None:
    phone, d = _open(dark=True)
    img = phone.screenshot()
    assert sum(img.getpixel((img.width // 2, img.height - phone.nav_h - phone.dp(90)))) < 150
