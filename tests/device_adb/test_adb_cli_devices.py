"""``mobile-agent devices`` against the fake adb server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fakes.adb_server import FakeAdbServer, FakePhone, free_port
from mobile_agent.cli import main


def phones() -> list[FakePhone]:
    pixel = FakePhone(serial="35281FDH2000A3", tags="usb:1-4 product:panther model:Pixel_7 device:panther",
                      props={"ro.product.model": "Pixel 7", "ro.build.version.release": "14"})
    emulator = FakePhone(props={"ro.product.model": "sdk_gphone64_x86_64", "ro.build.version.release": "13"})
    emulator.wm_size = "Physical size: 1080x2400\nOverride size: 720x1600\n"
    locked = FakePhone(serial="R58M12ABCDE", state="unauthorized", tags="usb:1-1")
    offline = FakePhone(serial="192.168.1.20:5555", state="offline", tags="")
    return [pixel, emulator, locked, offline]


def test_devices_table(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    with FakeAdbServer(phones()) as server:
        assert main(["devices", "--adb-port", str(server.port)]) == 0
    out = capsys.readouterr().out
    for text in ("35281FDH2000A3", "Pixel 7", "14", "1080x2400", "emulator-5554", "720x1600", "13",
                 "R58M12ABCDE", "unauthorized", "192.168.1.20:5555", "offline", "Allow USB debugging"):
        assert text in out, text


def test_devices_json(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeAdbServer(phones()) as server:
        assert main(["devices", "--adb-port", str(server.port), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["serial"], r["state"]) for r in rows] == [
        ("35281FDH2000A3", "device"), ("emulator-5554", "device"),
        ("R58M12ABCDE", "unauthorized"), ("192.168.1.20:5555", "offline")]
    assert rows[0]["model"] == "Pixel 7" and rows[0]["size"] == [1080, 2400] and rows[0]["transport"] == "usb"
    assert rows[1]["android"] == "13" and rows[1]["size"] == [720, 1600] and rows[1]["transport"] == "emulator"
    assert rows[2]["problem"] and rows[3]["transport"] == "tcp"


def test_no_devices(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeAdbServer([]) as server:
        assert main(["devices", "--adb-port", str(server.port)]) == 0
    assert "No Android devices attached" in capsys.readouterr().out


def test_no_server(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no adb program to start a server with
    # a missing program is a configuration error (2), not "nothing attached" (1)
    assert main(["devices", "--adb-port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert "no adb server is listening" in err and "platform-tools" in err
