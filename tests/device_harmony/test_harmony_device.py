"""The HarmonyOS device end to end through the ``hdc`` stand-in (tests/fakes/bin/hdc, on PATH), whose
server (tests/fakes/hdc_server.py) answers hdc's commands in their own output forms, in front of a
simulated phone of 540x1170 pixels; and Mobile-Eval's airplane mode through ``run --device harmony``."""

from __future__ import annotations

import json
import os
from typing import Iterator

import pytest

from mobile_agent.bench.mobile_eval.settings import airplane_mode
from mobile_agent.bench.task import Probe
from mobile_agent.cli import main
from mobile_agent.device import open_device
from mobile_agent.device.harmony import HarmonyDevice, layout_to_hierarchy, parse_foreground, parse_targets
from mobile_agent.device.uitree import TreeDriver, parse_tree
from mobile_agent.errors import (
    DeviceDisconnectedError, DeviceError, DeviceNotFoundError, InvalidGestureError, ProgramNotFoundError,
)
from mobile_agent.perception.elements import tree_elements
from tests.fakes.hdc_server import FakeHdc

SERIAL = "FMR0223C13000649"


@pytest.fixture
def hdc(monkeypatch) -> Iterator[FakeHdc]:
    with FakeHdc() as fake:
        for k, v in fake.env(os.environ.get("PATH", "")).items():
            monkeypatch.setenv(k, v)
        yield fake


def test_gestures_become_uiinput_commands(hdc):
    dev = open_device("harmony")
    assert isinstance(dev, HarmonyDevice) and dev.serial == SERIAL and dev.size() == (540, 1170)
    n = len(hdc.commands)
    dev.tap(270, 600)
    dev.double_tap(10, 20)
    dev.long_press(30, 40)
    dev.swipe(270, 900, 270, 300, 400)   # 600 px in 0.4 s: 1500 px/s
    dev.swipe(100, 500, 400, 500, 1500)  # held: a drag
    dev.swipe(5, 5, 5, 5, 0)             # does not move: a tap
    dev.back()
    dev.home()
    assert [c for c in hdc.commands[n:]] == [["-t", SERIAL, "shell", f"uitest uiInput {s}"] for s in (
        "click 270 600", "doubleClick 10 20", "longClick 30 40", "swipe 270 900 270 300 1500",
        "drag 100 500 400 500 200", "click 5 5", "keyEvent Back", "keyEvent Home")]
    with pytest.raises(InvalidGestureError):
        dev.tap(540, 0)
    assert len(hdc.commands) == n + 8


def test_unicode_text_enter_and_clearing(hdc):
    dev = open_device(f"harmony:{SERIAL}")
    assert dev.launch("com.huawei.hmos.settings")
    TreeDriver(dev).tap(text="Search settings")
    dev.type_text("它's café")
    assert hdc.shell_commands[-1] == "uitest uiInput text '它'\"'\"'s café'"
    assert TreeDriver(dev).find(contains="它's café") is not None
    dev.clear_text()
    assert hdc.shell_commands[-2:] == ["uitest uiInput keyEvent 2072 2017", "uitest uiInput keyEvent 2055"]
    assert TreeDriver(dev).find(contains="café") is None
    dev.type_text("wifi\n")
    assert hdc.shell_commands[-2:] == ["uitest uiInput text wifi", "uitest uiInput keyEvent 2054"]


def test_apps_by_bundle_and_label_and_the_app_in_front(hdc):
    dev = open_device("harmony")
    assert dev.foreground_app() is None  # the launcher
    assert dev.launch("com.huawei.hmos.settings") and dev.foreground_app() == "com.huawei.hmos.settings"
    assert "aa start -b com.huawei.hmos.settings -a com.huawei.hmos.settings.MainAbility" in hdc.shell_commands
    assert dev.launch("Notes") and dev.foreground_app() == "com.sim.notes"  # its icon on the home screen
    assert dev.launch("com.example.absent") is False and dev.launch("No Such App") is False
    assert "com.sim.notes" in dev.packages() and dev.app_by_package("com.sim.notes") == "com.sim.notes"
    assert dev.stop_app("com.sim.notes") and dev.foreground_app() is None


def test_the_layout_becomes_the_one_tree(hdc):
    dev = open_device("harmony")
    dev.launch("com.huawei.hmos.settings")
    TreeDriver(dev).tap(text="Network & internet")
    nodes = parse_tree(dev.ui_tree())
    toggle = next(n for n in nodes if n.cls == "Toggle" and n.bounds.y1 > 300)
    assert toggle.checkable and not toggle.checked and toggle.bounds.as_tuple() == (451, 318, 519, 360)
    assert any(e.text == "Airplane mode" and e.cls == "Text" for e in tree_elements(dev.ui_tree()))


def test_layout_and_mission_parsing_from_the_tools_forms():
    # the shape of hmdriver2's docs/hierarchy.json (its first Text node)
    layout = {"attributes": {"bounds": "[0,0][1260,2720]", "type": ""}, "children": [
        {"attributes": {"bounds": "[0,123][1260,2720]", "bundleName": "com.samples.test.uitest", "type": "root",
                        "visible": "true", "enabled": "true"},
         "children": [{"attributes": {"bounds": "[0,123][183,161]", "text": "Hello World", "type": "Text",
                                      "clickable": "false", "enabled": "true", "visible": "true", "id": "",
                                      "key": "idTest"}, "children": []},
                      {"attributes": {"bounds": "[0,200][90,260]", "type": "Button", "visible": "false"},
                       "children": []}]}]}
    nodes = parse_tree(layout_to_hierarchy(layout))
    hello = next(n for n in nodes if n.text == "Hello World")
    assert (hello.cls, hello.rid, hello.package, hello.bounds.as_tuple()) == ("Text", "idTest",
                                                                              "com.samples.test.uitest", (0, 123, 183, 161))
    assert next(n for n in nodes if n.cls == "Button").bounds.is_empty()
    with pytest.raises(ValueError):
        layout_to_hierarchy([1, 2])
    # aa dump -l in Open-AutoGLM's words (phone_agent/hdc/device.py), and the one-line mission form
    assert parse_foreground("Mission ID #139\nmission name #[#com.kuaishou.hmapp:kwai:EntryAbility]\n"
                            "app name [com.kuaishou.hmapp]\nbundle name [com.kuaishou.hmapp]\nability type [PAGE]\n"
                            "state #FOREGROUND\napp state #FOREGROUND\n") == "com.kuaishou.hmapp"
    assert parse_foreground("Mission ID #57  mission name #[#com.huawei.hmos.settings:phone_settings:"
                            "com.huawei.hmos.settings.MainAbility]\n    state #BACKGROUND\n") is None
    assert [(t.serial, t.state) for t in parse_targets("7001005458323933328a\tUSB\tConnected\tlocalhost\thdc\n"
                                                        "192.168.1.3:8710\tTCP\tOffline\tlocalhost\thdc\n")] == [
        ("7001005458323933328a", "Connected"), ("192.168.1.3:8710", "Offline")]
    assert parse_targets("[Empty]\n\n") == []


def test_missing_hdc_no_device_unauthorised_and_gone(monkeypatch, tmp_path):
    path = os.environ.get("PATH", "")
    monkeypatch.setenv("PATH", str(tmp_path))  # no hdc anywhere
    with pytest.raises(ProgramNotFoundError, match="hdc program is not installed.*DevEco Studio"):
        open_device("harmony")
    with FakeHdc(targets={}) as fake:
        for k, v in fake.env(path).items():
            monkeypatch.setenv(k, v)
        with pytest.raises(DeviceNotFoundError, match="no HarmonyOS device is connected.*USB debugging"):
            open_device("harmony")
    with FakeHdc(targets={"R5CX": "Unauthorized"}) as fake:
        monkeypatch.setenv("OHOS_HDC_SERVER_PORT", str(fake.port))
        with pytest.raises(DeviceError, match="has not allowed this computer.*Allow USB debugging"):
            open_device("harmony")
        with pytest.raises(DeviceNotFoundError, match="no HarmonyOS device 'OTHER' \\(hdc sees: R5CX\\)"):
            open_device("harmony:OTHER")
    with FakeHdc() as fake:
        monkeypatch.setenv("OHOS_HDC_SERVER_PORT", str(fake.port))
        dev = open_device("harmony")
        fake.targets[SERIAL] = "Offline"  # unplugged
        with pytest.raises(DeviceDisconnectedError, match="E001005"):
            dev.tap(10, 10)


REPLIES = """Observation: the home screen.
Thought: the airplane mode is in Settings.
Action: Open App (Settings)
---
Observation: the Settings list.
Thought: under Network & internet.
Action: Click Text (Network & internet)
---
Observation: the Network & internet page.
Thought: the switch is off.
Action: Click Text (Airplane mode)
---
Observation: the airplane mode is on.
Thought: done.
Action: Stop
---
Verdict: complete
Reason: the airplane mode switch is on
"""


def test_run_turns_on_the_airplane_mode_through_hdc(hdc, tmp_path):
    (tmp_path / "replies.txt").write_text(REPLIES, encoding="utf-8")
    task = airplane_mode({}, None)
    code = main(["run", task.instruction, "--device", f"harmony:{SERIAL}", "--model",
                 f"scripted:{tmp_path / 'replies.txt'}", "--out", str(tmp_path / "run"), "--max-steps", "6"])
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert code == 0, summary
    assert summary["outcome"] == "completed" and summary["steps"] == 4
    assert task.success(Probe(hdc.phone))
    taps = [c for c in hdc.shell_commands if c.startswith("uitest uiInput click")]
    assert len(taps) >= 3  # Settings' icon, the row, the switch's row: in pixels, as the screenshot


def test_devices_lists_what_hdc_sees(monkeypatch, capsys):
    from tests.fakes.adb_server import FakeAdbServer

    monkeypatch.setenv("COLUMNS", "160")
    with FakeHdc(targets={SERIAL: "Connected", "R5CX": "Unauthorized"}) as fake, FakeAdbServer([]) as adb:
        for k, v in fake.env(os.environ.get("PATH", "")).items():
            monkeypatch.setenv(k, v)
        assert main(["devices", "--adb-port", str(adb.port), "--json"]) == 0
        rows = [r for r in json.loads(capsys.readouterr().out) if r.get("kind") == "harmony"]
        assert [(r["serial"], r["state"], r["problem"] is None) for r in rows] == [(SERIAL, "Connected", True),
                                                                                   ("R5CX", "Unauthorized", False)]
        assert main(["devices", "--adb-port", str(adb.port)]) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert SERIAL in out and "Allow USB debugging" in out and "--device harmony" in out
