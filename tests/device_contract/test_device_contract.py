"""One contract for every ``Device``: the simulated phone, the adb device and the iPhone.

The adb device runs end to end against the fake adb server of tests/device_adb (the real adb host
protocol over a localhost socket); the iPhone against the WebDriverAgent of tests/fakes/wda_server.py
(WDA's HTTP API on localhost, in front of a simulated phone at scale 3); the HarmonyOS phone through the
``hdc`` stand-in of tests/fakes/bin (hdc's commands, answered by tests/fakes/hdc_server.py in front of a
simulated phone); the simulated phone runs as it is.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Callable, Iterator

import pytest
from PIL import Image

from mobile_agent.device.base import Device
from mobile_agent.errors import InvalidGestureError
from mobile_agent.types import Box
from tests.fakes.adb_server import FakeAdbServer
from tests.fakes.hdc_server import FakeHdc
from tests.fakes.wda_server import FakeWda

try:
    from mobile_agent.device.sim import SimPhone
except ImportError:  # the simulated phone is not there yet
    SimPhone = None  # type: ignore[assignment,misc]


def _adb_factory() -> Iterator[Device]:
    from mobile_agent.device import open_device

    with FakeAdbServer() as server:
        yield open_device("adb", adb_port=server.port, timeout_s=5.0, settle_timeout_s=1.0)


def _sim_factory() -> Iterator[Device]:
    assert SimPhone is not None
    yield SimPhone()


def _ios_factory() -> Iterator[Device]:
    from mobile_agent.device import open_device

    with FakeWda() as wda:
        yield open_device(f"ios:{wda.url}", timeout_s=5.0)


def _harmony_factory() -> Iterator[Device]:
    import os

    from mobile_agent.device import open_device

    with FakeHdc() as hdc, pytest.MonkeyPatch.context() as mp:
        for k, v in hdc.env(os.environ.get("PATH", "")).items():
            mp.setenv(k, v)
        yield open_device("harmony")


FACTORIES: dict[str, Callable[[], Iterator[Device]]] = {"adb": _adb_factory, "sim": _sim_factory,
                                                        "ios": _ios_factory, "harmony": _harmony_factory}


@pytest.fixture(params=[
    pytest.param("adb", id="adb"),
    pytest.param("ios", id="ios", marks=pytest.mark.skipif(SimPhone is None, reason="sim not available")),
    pytest.param("harmony", id="harmony", marks=pytest.mark.skipif(SimPhone is None, reason="sim not available")),
    pytest.param("sim", id="sim", marks=pytest.mark.skipif(SimPhone is None, reason="sim not available")),
])
def device(request) -> Iterator[Device]:
    yield from FACTORIES[request.param]()


def test_is_a_device(device: Device) -> None:
    assert isinstance(device, Device)


def test_screenshot_is_rgb_of_size(device: Device) -> None:
    w, h = device.size()
    assert isinstance(w, int) and isinstance(h, int) and w > 0 and h > 0
    shot = device.screenshot()
    assert isinstance(shot, Image.Image)
    assert shot.mode == "RGB"
    assert shot.size == (w, h)
    lo, hi = zip(*shot.getextrema())
    assert max(hi) - min(lo) > 32, "a screenshot should show something, not one flat colour"


def test_gestures_on_screen_are_accepted(device: Device) -> None:
    w, h = device.size()
    device.tap(w // 2, h // 2)
    device.tap(0, 0)
    device.tap(w - 1, h - 1)
    device.swipe(w // 2, int(h * 0.7), w // 2, int(h * 0.3), 300)
    device.swipe(w // 2, h // 2, w // 2, h // 2, 0)
    device.back()
    device.home()
    assert device.screenshot().size == device.size()


@pytest.mark.parametrize("where", ["left", "right", "above", "below"])
def test_tap_off_screen_is_invalid(device: Device, where: str) -> None:
    w, h = device.size()
    x, y = {"left": (-1, 10), "right": (w, 10), "above": (10, -1), "below": (10, h)}[where]
    with pytest.raises(InvalidGestureError):
        device.tap(x, y)


def test_bad_swipes_are_invalid(device: Device) -> None:
    w, h = device.size()
    with pytest.raises(InvalidGestureError):
        device.swipe(10, 10, w + 50, 10, 300)
    with pytest.raises(InvalidGestureError):
        device.swipe(10, 10, 20, 20, -1)


def test_type_text(device: Device) -> None:
    device.type_text("hello world")
    device.type_text("ok\n")


def test_ui_tree_is_uiautomator_xml_or_none(device: Device) -> None:
    xml = device.ui_tree()
    if xml is None:
        return
    root = ET.fromstring(xml)
    assert root.tag == "hierarchy"
    nodes = list(root.iter("node"))
    assert nodes
    w, h = device.size()
    for node in nodes:
        box = Box.from_bounds(node.get("bounds", ""))
        assert -1 <= box.x1 <= box.x2 <= w + 1 and -1 <= box.y1 <= box.y2 <= h + 1


def test_wait_still_when_offered(device: Device) -> None:
    wait_still = getattr(device, "wait_still", None)
    if wait_still is None:
        return
    assert wait_still(timeout_s=2.0) in (True, False)
