"""Parsers on device and adb server output kept as fixtures."""

from __future__ import annotations

import json

import pytest

from tests.fakes.adb_server import FIXTURES, fixture_text
from mobile_agent.device.adb import find_label
from mobile_agent.device.adb.parse import (
    classify_adb_failure,
    monkey_launched,
    parse_devices,
    parse_ime_list,
    parse_packages,
    parse_rotation,
    parse_wm_density,
    parse_wm_size,
    uiautomator_dump_ok,
    uiautomator_idle_error,
)
from mobile_agent.device.adb.server import state_error
from mobile_agent.types import Box

ERRORS = json.loads((FIXTURES / "error_texts.json").read_text())


def test_wm_size_physical_only() -> None:
    wm = parse_wm_size(fixture_text("wm_size_physical.txt"))
    assert wm is not None and wm.physical == (1080, 2400) and wm.override is None
    assert wm.effective == (1080, 2400)


def test_wm_size_override_wins() -> None:
    wm = parse_wm_size(fixture_text("wm_size_override.txt"))
    assert wm is not None and wm.physical == (1440, 3120) and wm.override == (1080, 2340)
    assert wm.effective == (1080, 2340)


@pytest.mark.parametrize("text", ["", ERRORS["device"]["wm_not_ready"], "Physical size: unknown"])
def test_wm_size_without_a_size(text: str) -> None:
    assert parse_wm_size(text) is None


@pytest.mark.parametrize("name, rotation", [
    ("dumpsys_input_android11.txt", 1),
    ("dumpsys_input_android14.txt", 0),
    ("dumpsys_display_rot3.txt", 3),
])
def test_rotation_from_dumpsys(name: str, rotation: int) -> None:
    assert parse_rotation(fixture_text(name)) == rotation


@pytest.mark.parametrize("line, rotation", [
    ("      SurfaceOrientation: 2", 2),
    ("    Viewport INTERNAL: displayId=0, uniqueId=local:1, port=0, orientation=ROTATION_270, logicalFrame=[0, 0, 2400, 1080]", 3),
    ("  mCurrentRotation=ROTATION_90", 1),
    ("nothing about rotation here", None),
])
def test_rotation_lines(line: str, rotation: int | None) -> None:
    assert parse_rotation(line) == rotation


def test_devices_l() -> None:
    entries = parse_devices(fixture_text("devices_l.txt"))
    assert [(e.serial, e.state) for e in entries] == [
        ("emulator-5554", "device"),
        ("35281FDH2000A3", "device"),
        ("R58M12ABCDE", "unauthorized"),
        ("192.168.1.20:5555", "offline"),
        ("0123456789ABCDEF", "no permissions (missing udev rules? user is in the plugdev group); "
                             "see [http://developer.android.com/tools/device.html]"),
    ]
    assert entries[1].model == "Pixel 7" and entries[1].tags["usb"] == "1-4"
    assert entries[0].tags["transport_id"] == "1"
    assert entries[4].tags == {"usb": "1-2", "transport_id": "7"}


def test_state_errors_name_the_fix() -> None:
    assert state_error("X", "device") is None
    assert "Allow USB debugging" in str(state_error("X", "unauthorized"))
    assert "replug" in str(state_error("X", "offline"))
    assert "udev" in str(state_error("X", parse_devices(fixture_text("devices_l.txt"))[4].state))
    assert "reboot" in str(state_error("X", "bootloader"))


@pytest.mark.parametrize("kind", list(ERRORS["server"]))
def test_server_failures_are_classified(kind: str) -> None:
    assert classify_adb_failure(ERRORS["server"][kind]) == kind


def test_uiautomator_answers() -> None:
    dev = ERRORS["device"]
    assert uiautomator_dump_ok(dev["uiautomator_ok"])
    assert not uiautomator_dump_ok(dev["uiautomator_idle"])
    assert uiautomator_idle_error(dev["uiautomator_idle"]) and uiautomator_idle_error(dev["uiautomator_null_root"])
    assert not uiautomator_idle_error(dev["not_found"])


def test_monkey_and_packages_and_imes() -> None:
    assert monkey_launched(fixture_text("monkey_ok.txt"))
    assert not monkey_launched(fixture_text("monkey_missing.txt"))
    pkgs = parse_packages(fixture_text("pm_list_packages.txt"))
    assert "com.android.settings" in pkgs and len(pkgs) == 9
    assert parse_ime_list(fixture_text("ime_list_all.txt"))[1] == "com.android.adbkeyboard/.AdbIME"


def test_find_label_in_uiautomator_dumps() -> None:
    launcher = fixture_text("ui_launcher.xml")
    assert find_label(launcher, "chrome") == Box(570, 2010, 765, 2200)
    assert find_label(launcher, "Settings") == Box(60, 1300, 255, 1530)  # "Settings, 1 notification"
    assert find_label(launcher, "Calculator") is None
    settings = fixture_text("ui_settings.xml")
    assert find_label(settings, "Network & internet") is not None
    assert find_label("not xml", "Chrome") is None


def test_wm_density() -> None:
    assert parse_wm_density(fixture_text("wm_density.txt")) == 420
    assert parse_wm_density(fixture_text("wm_density_override.txt")) == 480
    assert parse_wm_density("Error: Could not access the Window Manager") is None
