"""The iPhone device end to end against the WebDriverAgent of tests/fakes/wda_server.py: WDA's HTTP
routes and JSON on a localhost socket, in front of a simulated phone of 540x1170 pixels at scale 3
(180x390 points). Every gesture is checked in the points WDA received."""

from __future__ import annotations

import socket
from typing import Iterator

import numpy as np
import pytest

from mobile_agent.device import open_device
from mobile_agent.device.ios import IosDevice, wda_source_to_hierarchy, wda_status
from mobile_agent.device.uitree import TreeDriver, parse_tree
from mobile_agent.errors import ConfigError, DeviceError, DeviceNotFoundError, InvalidGestureError
from mobile_agent.perception.elements import tree_elements
from tests.fakes.wda_server import FakeWda


@pytest.fixture
def wda() -> Iterator[FakeWda]:
    with FakeWda() as fake:
        yield fake


def ios(wda: FakeWda, **options) -> IosDevice:
    dev = open_device(f"ios:{wda.url}", timeout_s=5.0, **options)
    assert isinstance(dev, IosDevice)
    return dev


def _network_page(dev: IosDevice) -> TreeDriver:
    assert dev.launch("Settings")
    d = TreeDriver(dev)
    d.tap(text="Network & internet")
    assert d.find(text="Airplane mode") is not None
    return d


def test_scale_and_sizes_are_read_from_wda(wda):
    dev = ios(wda)
    assert dev.scale == 3 and dev.size() == (540, 1170)
    shot = dev.screenshot()
    assert shot.size == (540, 1170)
    assert np.array_equal(np.asarray(shot), np.asarray(wda.phone.screenshot()))  # the phone's own pixels
    assert ("GET", "/wda/screen", None) in wda.requests


def test_every_gesture_reaches_wda_in_points(wda):
    dev = ios(wda)
    dev.tap(300, 600)
    dev.double_tap(90, 33)
    dev.long_press(3, 6, 900)
    dev.swipe(270, 900, 270, 300, 400)
    dev.swipe(30, 300, 300, 300, 1500)  # held: a drag
    assert wda.gestures == [("tap", 100.0, 200.0), ("double_tap", 30.0, 11.0), ("long_press", 1.0, 2.0, 900),
                            ("swipe", 90.0, 300.0, 90.0, 100.0, 400), ("drag", 10.0, 100.0, 100.0, 100.0, 0.5)]
    with pytest.raises(InvalidGestureError):
        dev.tap(540, 10)  # one pixel past the right edge: refused here, nothing sent
    assert len(wda.gestures) == 5


def test_the_source_tree_becomes_the_one_tree_in_pixels(wda):
    dev = ios(wda)
    _network_page(dev)
    xml = dev.ui_tree()
    nodes = parse_tree(xml)
    switch = next(n for n in nodes if n.cls == "XCUIElementTypeSwitch" and n.bounds.y1 > 300)
    assert switch.checkable and not switch.checked and switch.clickable
    # the frame WDA gave in points, back in pixels (the phone's own switch is at [451,318][519,360])
    assert abs(switch.bounds.x1 - 451) <= 1 and abs(switch.bounds.y2 - 360) <= 1
    els = tree_elements(xml)
    label = next(e for e in els if e.text == "Airplane mode")
    assert label.cls == "XCUIElementTypeStaticText" and label.kind == "node"
    back = next(e for e in els if e.cls == "XCUIElementTypeButton" and e.description == "" and e.text == "Back")
    assert back.rid == "BackButton" and back.clickable
    assert all(n.package == "com.apple.Preferences" for n in nodes)


def test_source_reading_keeps_fields_values_and_hides_the_invisible():
    src = ('<?xml version="1.0" encoding="UTF-8"?><XCUIElementTypeApplication type="XCUIElementTypeApplication" '
           'name="Mail" label="Mail" enabled="true" visible="true" x="0" y="0" width="390" height="844">'
           '<XCUIElementTypeTextField type="XCUIElementTypeTextField" value="anna@example.com" name="to" label="To:" '
           'enabled="true" visible="true" x="10" y="100" width="200" height="30"/>'
           '<XCUIElementTypeButton type="XCUIElementTypeButton" name="Send" label="Send" enabled="false" '
           'visible="false" x="300" y="50" width="60" height="30"/></XCUIElementTypeApplication>')
    nodes = parse_tree(wda_source_to_hierarchy(src, 3.0, "com.apple.mobilemail"))
    field = next(n for n in nodes if n.cls == "XCUIElementTypeTextField")
    assert (field.text, field.desc, field.rid, field.bounds.as_tuple()) == ("anna@example.com", "To:", "to",
                                                                            (30, 300, 630, 390))
    send = next(n for n in nodes if n.cls == "XCUIElementTypeButton")
    assert send.bounds.is_empty() and not send.clickable and send.rid == ""
    assert nodes[0].label == ""  # the application's node names no thing to tap
    with pytest.raises(ValueError):
        wda_source_to_hierarchy("<hierarchy/>", 3.0)


def test_back_taps_the_apps_back_button_else_swipes_from_the_edge(wda):
    dev = ios(wda)
    _network_page(dev)
    n = len(wda.gestures)
    dev.back()
    tap = wda.gestures[n]
    assert tap[0] == "tap" and tap[1] < 30 and 10 < tap[2] < 40  # the navigation bar's BackButton, in points
    assert TreeDriver(dev).find(text="Network & internet") is not None  # the Settings list again
    dev.back()  # the list has no back button: the edge swipe, which leaves the app here
    assert wda.gestures[-1] == ("back_swipe",)
    assert dev.foreground_app() is None
    dev.back()  # the home screen: nothing to do
    assert wda.gestures[-1] == ("back_swipe",)
    assert "no Back button" in " ".join(dev.notes)


def test_unicode_typing_and_clearing_the_field(wda):
    dev = ios(wda)
    assert dev.launch("Settings")
    TreeDriver(dev).tap(text="Search settings")
    dev.type_text("café 你好")
    assert wda.gestures[-1] == ("keys", "café 你好")
    assert TreeDriver(dev).find(contains="café 你好") is not None
    dev.clear_text()
    assert wda.gestures[-1] == ("clear",)
    assert TreeDriver(dev).find(contains="café") is None


def test_launch_by_name_bundle_id_and_icon(wda):
    dev = ios(wda)
    assert dev.launch("com.sim.notes") and dev.foreground_app() == "com.sim.notes"
    dev.home()
    assert dev.foreground_app() is None
    # "Notes" is Apple's com.apple.mobilenotes, which this phone lacks: its icon on the home screen is tapped
    assert dev.launch("Notes") and dev.foreground_app() == "com.sim.notes"
    assert ("launch", "com.apple.mobilenotes") not in wda.gestures and wda.gestures[-1][0] == "tap"
    assert dev.launch("com.example.absent") is False
    assert dev.launch("No Such App") is False
    assert dev.launch("Settings") and dev.foreground_app() == "com.apple.Preferences"
    assert dev.stop_app("com.apple.Preferences") and dev.foreground_app() is None


def test_a_session_wda_forgot_is_created_again(wda):
    dev = ios(wda)
    first = dev.session_id
    wda.restart()
    dev.tap(300, 600)
    assert dev.session_id != first and wda.sessions_created == 2
    assert wda.gestures == [("tap", 100.0, 200.0)]


def test_no_wda_running_says_how_to_start_it():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(DeviceNotFoundError) as exc:
        open_device(f"ios:http://127.0.0.1:{port}")
    assert "no WebDriverAgent answers" in str(exc.value) and "iproxy 8100 8100" in str(exc.value)
    status = wda_status(f"http://127.0.0.1:{port}")
    assert not status.ready and "no WebDriverAgent" in str(status.problem)
    with pytest.raises(DeviceError, match="http://HOST:PORT"):
        open_device("ios:ftp://phone")


def test_a_locked_phone_is_said_and_unlocked_on_request():
    with FakeWda(locked=True) as wda:
        with pytest.raises(DeviceError, match="is locked: unlock it"):
            ios(wda)
        assert ios(wda, unlock=True).size() == (540, 1170)


def test_an_alert_over_the_app_is_named_with_its_buttons(wda):
    dev = ios(wda)
    wda.alert = ("“Maps” Would Like to Use Your Location", ["Allow Once", "Don’t Allow"])
    with pytest.raises(DeviceError) as exc:
        dev.type_text("hi")
    text = str(exc.value)
    assert "an alert is over the app" in text and "Would Like to Use Your Location" in text
    assert '"Allow Once"' in text and "tap one of its buttons" in text


def test_devices_status_names_the_phone(wda):
    status = wda_status(wda.url)
    assert (status.ready, status.name, status.ios) == (True, "Test iPhone", "17.4")


def test_unknown_device_kind_names_ios():
    with pytest.raises(ConfigError, match="'ios:URL'"):
        open_device("iphone")


def test_the_gates_read_an_iphone_as_any_phone(wda):
    from mobile_agent.agent.allowlist import is_allowed
    from mobile_agent.agent.risk import tree_label_at

    dev = ios(wda)
    _network_page(dev)
    # --confirm's reading of what lies at a point: the source tree's label there, in pixels
    assert tree_label_at(dev.ui_tree(), (162, 339)) == "Airplane mode"
    # --allow-app Settings knows Settings' bundle id; another app's is refused
    apps = dev.installed_apps()
    assert is_allowed("com.apple.Preferences", ["Settings"], apps)
    assert not is_allowed("com.apple.mobilesafari", ["Settings"], apps)


def test_keys_urls_and_the_still_frame(wda):
    dev = ios(wda)
    dev.press_key("volume_up")
    assert wda.gestures[-1] == ("button", "volumeUp")
    with pytest.raises(InvalidGestureError, match="no 'tab' key"):
        dev.press_key("tab")
    dev.open_url("https://example.com/menu")
    assert dev.foreground_app() == "com.apple.mobilesafari"
    shots = lambda: sum(1 for m, p, _ in wda.requests if p == "/screenshot")  # noqa: E731
    assert dev.wait_still(timeout_s=2.0)
    n = shots()
    dev.screenshot()  # the still frame: no capture
    assert shots() == n
    dev.tap(270, 600)
    dev.screenshot()  # something was sent since: a new capture
    assert shots() == n + 1
