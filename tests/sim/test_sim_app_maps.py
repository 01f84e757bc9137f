"""Maps app flows driven by taps on ui-tree nodes, with the typed state checked after."""

from __future__ import annotations

import numpy as np

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.sim.apps import maps
from mobile_agent.device.uitree import TreeDriver


def _open(seed: int = 0, dark: bool = False) -> tuple[SimPhone, TreeDriver]:
    phone = SimPhone(seed=seed, dark=dark)
    drv = TreeDriver(phone)
    drv.tap(text="Maps")
    return phone, drv


def test_navigate_to_west_lake_via_directions() -> None:
    phone, drv = _open()
    drv.tap(text="Search here")
    drv.type("Hangzhou West Lake\n")
    st = phone.state.maps
    assert st.searches == ["Hangzhou West Lake"]
    names = [n.text for n in drv.find_all(rid="place_name")]
    assert names[0] == "West Lake"
    drv.tap(text="West Lake")
    assert st.viewed_places == [maps.WEST_LAKE_ID]
    for label in ("Directions", "Start", "Save", "Share"):
        assert drv.find(text=label) is not None
    drv.tap(text="Directions")
    assert st.route is not None and st.route.place_id == maps.WEST_LAKE_ID and not st.route.started
    drv.tap(text="Walk")
    assert st.route.mode == "walk"
    assert drv.find(rid="route_eta").text.endswith("min")
    drv.tap(text="Start")
    assert st.route.started and st.navigating and st.route.mode == "walk"
    assert drv.find(rid="instruction").text.startswith("Head north on")
    drv.tap(text="Exit")
    assert not st.navigating and st.route.started


def test_nearby_gas_station_sorted_by_distance_and_start_from_place_page() -> None:
    phone, drv = _open(seed=3)
    drv.tap(text="Gas stations")
    st = phone.state.maps
    rows = [n.text for n in drv.find_all(rid="place_distance")]
    kms = [float(r.split("·")[-1].strip().split()[0]) for r in rows]
    assert kms == sorted(kms) and len(kms) >= 3
    first = drv.find_all(rid="place_name")[0].text
    drv.tap(text=first)
    pid = st.viewed_places[-1]
    assert pid in maps.GAS_STATION_IDS and maps.place(pid).name == first
    assert pid == maps.nearby("gas_station", 3)[0].id
    drv.tap(text="Start")  # straight from the place page
    assert st.navigating and st.route is not None and st.route.place_id == pid and st.route.started
    phone.back()  # Back during navigation ends it
    assert not st.navigating
    assert drv.find(rid="place_title") is not None


def test_save_and_back_behaviour() -> None:
    phone, drv = _open()
    drv.tap(text="Search here")
    drv.type("Leifeng Pagoda\n")
    drv.tap(rid="place_name", text="Leifeng Pagoda")  # not the search box, which shows the query too
    drv.tap(text="Save")
    assert phone.state.maps.saved == ["leifeng-pagoda"]
    assert drv.find(text="Saved") is not None
    phone.back()
    phone.back()
    assert drv.find(text="Search here") is not None and drv.find(text="Restaurants") is not None
    phone.back()
    assert phone.state.foreground is None


def test_typed_category_query_lists_nearest_first() -> None:
    phone, drv = _open(seed=1)
    drv.tap(text="Search here")
    drv.type("nearest gas station\n")
    assert drv.find(contains="sorted by distance") is not None
    names = [n.text for n in drv.find_all(rid="place_name")]
    assert names[0] == maps.nearby("gas_station", 1)[0].name
    assert all(maps.place(p.id).category == "gas_station" for p in maps.search_places("petrol", 1))


def test_unknown_place_shows_no_results() -> None:
    phone, drv = _open()
    drv.tap(text="Search here")
    drv.type("Qwzx Zzyv\n")
    assert drv.find(contains="No results for") is not None


def test_dark_theme_darkens_map_and_panels() -> None:
    light, _ = _open()
    dark, drv = _open(dark=True)
    a = np.asarray(light.screenshot().convert("L")).astype(float)
    b = np.asarray(dark.screenshot().convert("L")).astype(float)
    assert b.mean() < a.mean() - 60
    assert drv.find(text="Gas stations") is not None
