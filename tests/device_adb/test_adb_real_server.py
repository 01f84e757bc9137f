"""Against the real adb server, where the ``adb`` program is installed (Android platform-tools or
Debian's ``adb``): start one on a free port, check that our protocol use and parsers agree with it."""

from __future__ import annotations

import shutil
from typing import Iterator

import pytest
from adbutils.errors import AdbError

from tests.fakes.adb_server import free_port
from mobile_agent.device.adb import AdbDevice, AdbServer, list_devices
from mobile_agent.device.adb.parse import classify_adb_failure
from mobile_agent.errors import DeviceNotFoundError

from tests.fakes import system

ADB = system.find("adb")
pytestmark = system.needs("adb")


@pytest.fixture(scope="module")
def real_server() -> Iterator[AdbServer]:
    server = AdbServer(port=free_port(), timeout_s=10.0, adb_path=ADB)
    server.ensure_running()  # runs `adb -P PORT start-server`
    try:
        yield server
    finally:
        try:
            server.client.server_kill()
        except AdbError:
            pass


def test_version_and_device_list(real_server: AdbServer) -> None:
    assert real_server.version() >= 39
    entries = real_server.devices()
    assert all(e.serial and e.state for e in entries)
    infos = list_devices(adb_port=real_server.port, adb_path=ADB)
    assert [i.serial for i in infos] == [e.serial for e in entries]


def test_unknown_serial_failure_text(real_server: AdbServer) -> None:
    conn = real_server.client.make_connection()
    with conn:
        conn.send_command("host:tport:serial:no-such-phone")
        with pytest.raises(AdbError) as err:
            conn.check_okay()
    assert classify_adb_failure(str(err.value)) == "gone"
    with pytest.raises(DeviceNotFoundError, match="no-such-phone"):
        AdbDevice("no-such-phone", adb_port=real_server.port)


def test_no_device_or_a_usable_one(real_server: AdbServer) -> None:
    ready = [e for e in real_server.devices() if e.state == "device"]
    if ready:
        pytest.skip("a real device is attached; the no-device message cannot be checked here")
    with pytest.raises(DeviceNotFoundError, match="no Android device is attached"):
        AdbDevice(adb_port=real_server.port)
