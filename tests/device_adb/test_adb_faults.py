"""Faults: no adb program or server, no device, several, unauthorized, offline, unplugged mid-run,
hanging commands. Each must give a clear error naming the cause and the fix, within bounded time."""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

import pytest

from tests.fakes.adb_server import FakeAdbServer, FakePhone, free_port
from tests.fakes.clock import hang_guard
from mobile_agent.device import open_device
from mobile_agent.device.adb import AdbDevice, AdbServer
from mobile_agent.errors import ConfigError, DeviceDisconnectedError, DeviceError, DeviceNotFoundError

SERVER_PY = Path(__file__).resolve().parent.parent / "fakes" / "adb_server.py"


def open_adb(port: int, **options) -> AdbDevice:
    options.setdefault("timeout_s", 2.0)
    options.setdefault("settle_timeout_s", 0.0)
    return AdbDevice(adb_port=port, **options)


class Elapsed:
    def __enter__(self) -> "Elapsed":
        self.start = time.monotonic()
        return self

    def __exit__(self, *exc) -> None:
        self.seconds = time.monotonic() - self.start


def test_no_server_and_no_adb_program(tmp_path: Path) -> None:
    with Elapsed() as t, pytest.raises(DeviceNotFoundError) as err:
        open_adb(free_port(), adb_path=str(tmp_path / "adb"))
    message = str(err.value)
    assert "no adb server is listening" in message and "adb program was not found" in message
    assert "platform-tools" in message and "apt install adb" in message
    assert t.seconds < hang_guard(2.0)


def test_no_server_and_not_allowed_to_start_one() -> None:
    with pytest.raises(DeviceNotFoundError, match="adb start-server"):
        open_adb(free_port(), start_server=False)


def _fake_adb(tmp_path: Path, body: str) -> Path:
    program = tmp_path / "adb"
    program.write_text("#!/bin/sh\n" + body)
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program


@pytest.mark.skipif(os.name != "posix", reason="the stand-in adb program is a POSIX shell script")
def test_server_is_started_with_the_adb_program(tmp_path: Path) -> None:
    port = free_port()
    calls = tmp_path / "calls.txt"
    program = _fake_adb(tmp_path, f'echo "$@" >> "{calls}"\n'
                                  f'"{sys.executable}" "{SERVER_PY}" --port "$2" --seconds 20 >/dev/null 2>&1 &\n')
    dev = open_adb(port, adb_path=str(program))
    try:
        assert calls.read_text().split() == ["-P", str(port), "start-server"]
        assert dev.serial == "emulator-5554" and dev.size() == (1080, 2400)
    finally:
        AdbServer(port=port).client.server_kill()


@pytest.mark.skipif(os.name != "posix", reason="the stand-in adb program is a POSIX shell script")
def test_server_that_does_not_come_up(tmp_path: Path) -> None:
    program = _fake_adb(tmp_path, 'echo "cannot bind: Address already in use" >&2\nexit 1\n')
    with Elapsed() as t, pytest.raises(DeviceNotFoundError, match="no adb server answers.*Address already in use"):
        open_adb(free_port(), adb_path=str(program), timeout_s=1.0)
    assert t.seconds < hang_guard(2.0)


def test_no_device() -> None:
    with FakeAdbServer([]) as server:
        with pytest.raises(DeviceNotFoundError, match="no Android device is attached.*USB debugging"):
            open_adb(server.port)


def test_several_devices_and_no_serial() -> None:
    phones = [FakePhone(serial="emulator-5554"), FakePhone(serial="35281FDH2000A3")]
    with FakeAdbServer(phones) as server:
        with pytest.raises(ConfigError, match=r"emulator-5554, 35281FDH2000A3.*--device adb:SERIAL"):
            open_adb(server.port)
        dev = open_device("adb:35281FDH2000A3", adb_port=server.port, settle_timeout_s=0)
        dev.tap(1, 1)
        assert phones[1].gestures == [("tap", 1, 1)] and phones[0].gestures == []


def test_unknown_serial() -> None:
    with FakeAdbServer() as server:
        with pytest.raises(DeviceNotFoundError, match=r"'R58M' is attached \(attached: emulator-5554 \(device\)\)"):
            open_adb(server.port, serial="R58M")


@pytest.mark.parametrize("serial", [None, "R58M12ABCDE"])
def test_unauthorized(serial: str | None) -> None:
    with FakeAdbServer([FakePhone(serial="R58M12ABCDE", state="unauthorized")]) as server:
        with pytest.raises(DeviceError, match="unauthorized.*Allow USB debugging"):
            open_adb(server.port, serial=serial)


def test_offline() -> None:
    with FakeAdbServer([FakePhone(serial="192.168.1.20:5555", state="offline")]) as server:
        with pytest.raises(DeviceError, match="offline: unplug and replug"):
            open_adb(server.port)


def test_device_unplugged_mid_run() -> None:
    with FakeAdbServer() as server:
        dev = open_adb(server.port)
        dev.tap(10, 10)
        server.phone().state = "gone"
        with Elapsed() as t, pytest.raises(DeviceDisconnectedError, match="went away.*reconnect it"):
            dev.tap(10, 10)
        assert t.seconds < hang_guard(2.0)


def test_device_goes_offline_mid_run() -> None:
    with FakeAdbServer() as server:
        dev = open_adb(server.port)
        dev.home()
        server.phone().state = "offline"
        with pytest.raises(DeviceDisconnectedError, match="offline"):
            dev.back()


def test_device_unplugged_during_a_screenshot() -> None:
    with FakeAdbServer([FakePhone(drop=("screencap",))]) as server:
        dev = open_adb(server.port)
        with pytest.raises(DeviceDisconnectedError, match="went away while taking a screenshot"):
            dev.screenshot()


def test_hanging_command_times_out() -> None:
    with FakeAdbServer([FakePhone(hang=("input tap",))]) as server:
        dev = open_adb(server.port, timeout_s=0.5)
        with Elapsed() as t, pytest.raises(DeviceError, match=r"`input tap 3 4` .* gave no answer within 0.5 s"):
            dev.tap(3, 4)
        assert t.seconds < hang_guard(0.5)


def test_hanging_screenshot_times_out() -> None:
    with FakeAdbServer([FakePhone(hang=("screencap",))]) as server:
        with Elapsed() as t, pytest.raises(DeviceError, match="gave no answer"):
            open_adb(server.port, timeout_s=0.5).screenshot()
        assert t.seconds < hang_guard(0.5)


def test_server_that_never_answers() -> None:
    with FakeAdbServer(mute=True) as server:
        with Elapsed() as t, pytest.raises(DeviceError, match="gave no answer within 1 s.*adb kill-server"):
            open_adb(server.port, timeout_s=1.0)
        assert t.seconds < hang_guard(1.0)


def test_server_gone_mid_run() -> None:
    server = FakeAdbServer().__enter__()
    dev = open_adb(server.port)
    dev.back()
    server.close()
    with Elapsed() as t, pytest.raises(DeviceDisconnectedError, match="stopped answering.*adb start-server"):
        dev.back()
    assert t.seconds < hang_guard(2.0)


@pytest.mark.parametrize("hang", ["cat ", "uiautomator"])
def test_ui_tree_is_none_when_it_cannot_be_had(hang: str) -> None:
    with FakeAdbServer([FakePhone(hang=(hang,))]) as server:
        dev = open_adb(server.port, timeout_s=0.5, ui_timeout_s=0.5)
        with Elapsed() as t:
            assert dev.ui_tree() is None
        assert t.seconds < hang_guard(0.5)


def test_ui_tree_when_the_device_goes_away() -> None:
    with FakeAdbServer([FakePhone(drop=("uiautomator",))]) as server:
        with pytest.raises(DeviceDisconnectedError, match="went away"):
            open_adb(server.port).ui_tree()
