"""The simulated phone's framework: rendering, tree, gestures, navigation, keyboard, scrolling,
themes, determinism, disturbances and bad input. App flows have their own test files."""

from __future__ import annotations

import io
from dataclasses import asdict

import numpy as np
import pytest
from PIL import Image

from mobile_agent.device.base import Device
from mobile_agent.device.sim import SimPhone
from mobile_agent.device.sim.phone import KEYBOARD_PACKAGE
from mobile_agent.device.sim.ui import paint_tree
from mobile_agent.device.sim.render import Canvas
from mobile_agent.device.uitree import TreeDriver, parse_tree
from mobile_agent.errors import ConfigError, InvalidGestureError


def png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def test_is_a_device_with_phone_resolution():
    phone = SimPhone()
    assert isinstance(phone, Device)
    assert phone.size() == (1080, 2400)
    img = phone.screenshot()
    assert img.size == (1080, 2400) and img.mode == "RGB"
    small = SimPhone(width=720, height=1600)
    assert small.screenshot().size == (720, 1600)
    TreeDriver(small).tap(text="Settings")
    assert small.state.foreground == "Settings"


def test_same_seed_same_gestures_same_pixels():
    def run(seed: int) -> list[bytes]:
        p = SimPhone(seed=seed)
        d = TreeDriver(p)
        shots = [png(p.screenshot())]
        d.tap(text="Notes")
        d.tap(text="New note")
        d.type("Groceries")
        shots.append(png(p.screenshot()))
        p.home()
        d.tap(text="Settings")
        d.page_down()
        shots.append(png(p.screenshot()))
        return shots

    a, b = run(3), run(3)
    assert a == b
    assert run(4)[0] != a[0]  # another seed: another clock, wallpaper and weather


def test_home_lists_every_installed_app_with_label_and_launches_it():
    phone = SimPhone()
    d = TreeDriver(phone)
    labels = {n.text for n in d.nodes() if n.clickable and n.text}
    assert set(phone.app_names()) <= labels
    d.tap(text="Settings")
    assert phone.state.foreground == "Settings"
    assert d.find(text="Network & internet") is not None


def test_back_follows_the_stack_then_leaves_the_app_and_home_resumes():
    phone = SimPhone()
    d = TreeDriver(phone)
    d.tap(text="Settings")
    d.tap(text="Display")
    assert d.find(text="Dark theme") is not None
    phone.back()
    assert d.find(text="Search settings") is not None
    d.tap(text="Display")
    phone.home()
    assert phone.state.foreground is None
    d.tap(text="Settings")
    assert d.find(text="Dark theme") is not None, "relaunch resumes the task where it was"
    d.tap(desc="Navigate up")
    phone.back()
    assert phone.state.foreground is None
    phone.back()  # back on the home screen changes nothing
    assert phone.state.foreground is None


def test_dark_theme_switch_turns_every_screen_dark():
    phone = SimPhone()
    d = TreeDriver(phone)
    d.tap(text="Settings")
    light = np.asarray(phone.screenshot(), dtype=float).mean()
    d.tap(text="Display")
    d.tap(text="Dark theme")
    assert phone.state.settings.dark_mode is True
    node = [n for n in d.nodes() if n.cls == "android.widget.Switch" and n.checked]
    assert node, "the switch shows checked"
    phone.back()
    dark = np.asarray(phone.screenshot(), dtype=float).mean()
    assert dark < light * 0.4
    phone.home()
    d.tap(text="Notes")
    assert np.asarray(phone.screenshot(), dtype=float).mean() < 80


def test_tree_bounds_match_the_pixels_each_node_draws():
    """Remove one node from the frame and repaint: every changed pixel lies inside its bounds."""
    phone = SimPhone()
    phone.launch("Settings")
    frame = phone._current()
    base = np.asarray(phone.screenshot(), dtype=np.int16)
    checked = 0
    for parent in list(frame.root.walk()):
        for child in list(parent.children):
            if child.cls not in ("android.widget.TextView", "android.widget.ImageView", "android.widget.Switch"):
                continue
            index = parent.children.index(child)
            parent.children.remove(child)
            img = Image.new("RGB", phone.size(), phone.theme.bg)
            paint_tree(Canvas(img), frame.root)
            parent.children.insert(index, child)  # back in its place: paint order unchanged
            diff = np.abs(np.asarray(img, dtype=np.int16) - base).sum(axis=2) > 0
            ys, xs = np.nonzero(diff)
            assert len(xs) > 0, f"{child.text or child.desc or child.cls} draws nothing"
            v = child.visible
            assert xs.min() >= v.x1 - 1 and xs.max() <= v.x2 and ys.min() >= v.y1 - 1 and ys.max() <= v.y2, (
                f"{child.text or child.desc}: ink {xs.min(), ys.min(), xs.max(), ys.max()} outside {v}")
            checked += 1
            if checked >= 25:
                return
    assert checked >= 10


def test_scrolling_reveals_more_rows_and_cuts_partly_visible_ones():
    phone = SimPhone()
    d = TreeDriver(phone)
    d.tap(text="Settings")
    assert d.find(text="About phone") is None
    lst = d.find(rid="recycler_view")
    assert lst is not None and lst.scrollable
    cut = [n for n in d.nodes() if n.bounds.y2 == lst.bounds.y2 and n.cls == "android.widget.LinearLayout"]
    assert cut, "the last row is partly visible and clipped at the list's edge"
    d.page_down()
    assert d.find(text="About phone") is not None
    d.page_down()  # at the end: no further movement
    before = png(phone.screenshot())
    d.page_down()
    assert png(phone.screenshot()) == before
    d.page_up()
    d.page_up()
    assert d.find(text="Network & internet") is not None


def test_keyboard_appears_on_focus_types_and_back_hides_it():
    phone = SimPhone()
    d = TreeDriver(phone)
    d.tap(text="Notes")
    assert not any(n.package == KEYBOARD_PACKAGE for n in d.nodes())
    d.tap(text="New note")
    keys = [n for n in d.nodes() if n.package == KEYBOARD_PACKAGE]
    assert keys and any(n.text == "q" for n in keys)
    d.type("Hi")
    d.tap(text="q")  # the on-screen keys type too
    title = d.find(rid="note_title_input")
    assert title is not None and title.text == "Hiq" and title.focused
    phone.back()
    assert not any(n.package == KEYBOARD_PACKAGE for n in d.nodes())
    assert phone.state.foreground == "Notes" and d.find(rid="note_title_input") is not None
    phone.back()  # leaving the editor saves the note
    assert phone.state.notes.notes[-1].title == "Hiq"


def test_enter_submits_search_fields():
    phone = SimPhone()
    d = TreeDriver(phone)
    d.tap(text="Settings")
    d.tap(text="Search settings")
    d.type("network speed\n")
    d.tap(text="Show network speed")
    d.tap(text="Show network speed")
    assert phone.state.settings.show_network_speed
    assert d.find(rid="network_speed") is not None and d.find(rid="network_speed").text.endswith("KB/s")


def test_airplane_mode_changes_the_status_bar():
    phone = SimPhone()
    d = TreeDriver(phone)
    d.tap(text="Settings")
    d.tap(text="Network & internet")
    assert d.find(desc="Airplane mode on") is None
    d.tap(text="Airplane mode")
    assert phone.state.settings.airplane_mode and not phone.state.settings.wifi
    assert d.find(desc="Airplane mode on") is not None
    d.tap(text="Airplane mode")
    assert phone.state.settings.wifi


def test_bad_input_is_refused_or_harmless():
    phone = SimPhone()
    for x, y in [(-1, 10), (1080, 10), (10, 2400), (5000, -3)]:
        with pytest.raises(InvalidGestureError, match="off the screen"):
            phone.tap(x, y)
    with pytest.raises(InvalidGestureError):
        phone.swipe(10, 10, 10, 99999)
    with pytest.raises(ConfigError, match="no app named"):
        phone.launch("Nonexistent")
    d = TreeDriver(phone)
    d.tap(text="Settings")
    state = asdict(phone.state)
    phone.type_text("hello")  # nothing focused: nothing changes
    assert asdict(phone.state) == state
    # a swipe of zero length is a press: it taps what is under it
    node = d.find(text="Display")
    phone.swipe(node.bounds.center.x, node.bounds.center.y, node.bounds.center.x, node.bounds.center.y, 100)
    assert d.find(text="Dark theme") is not None


def test_disturbances_permission_loading_and_ads():
    phone = SimPhone(disturbances=("permission", "loading", "ads"))
    d = TreeDriver(phone)
    d.tap(text="Notes")
    assert d.find(text="Loading…") is not None
    for _ in range(3):
        if d.find(text="Loading…") is None:
            break
        phone.screenshot()  # seen once more, then a tap: time passes
        phone.tap(540, 1200)
    assert d.find(text="Loading…") is None
    assert d.find(text="Allow") is not None
    d.tap(text="Allow")
    assert d.find(text="Allow") is None
    assert d.find(rid="ad_banner") is not None
    d.tap(desc="Close ad")
    assert d.find(rid="ad_banner") is None
    with pytest.raises(ConfigError):
        SimPhone(disturbances=("earthquake",))


def test_tree_is_uiautomator_format():
    phone = SimPhone()
    xml = phone.ui_tree()
    assert xml.startswith("<?xml") and "<hierarchy rotation=\"0\">" in xml
    nodes = parse_tree(xml)
    assert nodes[0].bounds.as_tuple() == (0, 0, 1080, 2400)
    assert all(n.bounds.x1 >= 0 and n.bounds.y2 <= 2400 for n in nodes)
    assert any(n.rid == "clock" and ":" in n.text for n in nodes)


def test_navigation_bar_buttons_are_one_gesture_each():
    phone = SimPhone()
    d = TreeDriver(phone)
    d.tap(text="Settings")
    d.tap(text="Display")
    before = phone.gestures
    d.tap(desc="Back")
    assert phone.gestures == before + 1
    assert d.find(text="Search settings") is not None
    d.tap(desc="Home")
    assert phone.gestures == before + 2 and phone.state.foreground is None
