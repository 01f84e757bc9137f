"""``run`` on several phones at once (``--device`` repeated, ``--device adb`` for every attached phone)
and the Python API's ``run_on_phones``: one folder a phone, one combined report, the worst exit
status, a phone that dies or cannot be opened not stopping the others, Ctrl-C ending every run
``interrupted`` with its record."""

from __future__ import annotations

import json
import re
import threading
import _thread

import pytest

from mobile_agent.agent.fleet import exit_code, phone_names
from mobile_agent.agent.trajectory import TrajectoryWriter, read_summary
from mobile_agent.cli import main
from mobile_agent.cli.fleet import phone_specs
from mobile_agent.errors import ConfigError, DeviceDisconnectedError
from tests.fakes.adb_server import FakeAdbServer, FakePhone
from tests.fakes.agent_harness import is_completion_check, react
from tests.fakes.chatserver import LocalChatServer, Reply


def by_history(plans: list[str], delay_s: float = 0.0):
    """Each phone's next reply from its own request (how many operations its history holds), so that
    phones sharing one server each get the whole plan."""

    def respond(req):
        if is_completion_check(req):
            return Reply("Verdict: complete\nReason: done", delay_s=delay_s)
        done = re.findall(r"^\d+\. ", req.last_user_text.split("Operations so far", 1)[-1], re.M)
        return Reply(plans[min(len(done), len(plans) - 1)], delay_s=delay_s)

    return respond


SETTINGS = [react("Open App (Settings)"), react("Stop")]


def cli(server, *args):
    return main(["run", "Open Settings", "--model", "openai:test-model", "--base-url", server.openai_base_url,
                 "--perception", "vision", "--max-steps", "4", *args])


def test_two_simulated_phones_each_get_a_folder_a_line_and_one_report_links_both(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with LocalChatServer(by_history(SETTINGS)) as server:
        code = cli(server, "--device", "sim", "--device", "sim", "--out", str(tmp_path / "out"))
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0, out
    for name in ("sim-1", "sim-2"):
        assert read_summary(tmp_path / "out" / name)["outcome"] == "completed"
        assert f"{name} completed after 2 step(s)" in out
    assert "2 of 2 phone(s) completed" in out
    fleet = json.loads((tmp_path / "out" / "fleet.json").read_text())
    assert [p["folder"] for p in fleet["phones"]] == ["sim-1", "sim-2"] and fleet["exit"] == 0
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert 'href="sim-1/report.html"' in page and 'href="sim-2/report.html"' in page
    # a run on one phone into that folder is refused before any step (issue 51, item 10): it would
    # write its report over the combined one; the Python API's writer refuses it the same
    with LocalChatServer(by_history(SETTINGS)) as server:
        assert cli(server, "--out", str(tmp_path / "out")) == 2
        assert server.requests == []
    assert "already holds a run (fleet.json)" in " ".join(capsys.readouterr().err.split())
    with pytest.raises(ConfigError, match=r"already holds a run \(fleet.json\)"):
        TrajectoryWriter(tmp_path / "out")
    assert (tmp_path / "out" / "report.html").read_text(encoding="utf-8") == page


def test_a_phone_that_cannot_be_opened_does_not_stop_the_other_and_the_exit_is_the_worst(tmp_path, capsys,
                                                                                         monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeAdbServer([FakePhone(serial="PIXEL7")]) as adb, LocalChatServer(by_history(SETTINGS)) as server:
        monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb.port))
        code = cli(server, "--device", "sim", "--device", "adb:GONE", "--out", str(tmp_path / "out"))
    out = " ".join(capsys.readouterr().out.split())
    assert code == 1, out
    assert read_summary(tmp_path / "out" / "sim")["outcome"] == "completed"
    assert re.search(r"adb-GONE error after 0 step\(s\), [\d.]+ s: .*GONE", out), out
    phones = json.loads((tmp_path / "out" / "fleet.json").read_text())["phones"]
    assert [(p["name"], p["outcome"], p["exit"]) for p in phones] == [("sim", "completed", 0), ("adb-GONE", "error", 1)]
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert 'href="sim/report.html"' in page and "adb-GONE" in page


def test_a_folder_that_holds_a_phones_run_is_refused_before_any_phone_starts(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    (tmp_path / "out" / "sim-2").mkdir(parents=True)
    (tmp_path / "out" / "sim-2" / "summary.json").write_text("{}")
    with LocalChatServer(by_history(SETTINGS)) as server:
        assert cli(server, "--device", "sim", "--device", "sim", "--out", str(tmp_path / "out")) == 2
        assert server.requests == []
    assert "sim-2 already holds a run (summary.json)" in " ".join(capsys.readouterr().err.split())
    assert (tmp_path / "out" / "sim-2" / "summary.json").read_text() == "{}"
    assert not (tmp_path / "out" / "sim-1" / "steps.jsonl").exists()


def test_device_adb_stands_for_every_ready_phone_and_a_phone_named_twice_is_refused(monkeypatch):
    phones = [FakePhone(serial="PIXEL7"), FakePhone(serial="emulator-5554"),
              FakePhone(serial="LOCKED", state="unauthorized")]
    with FakeAdbServer(phones) as adb:
        monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb.port))
        assert phone_specs(["adb"]) == ["adb:PIXEL7", "adb:emulator-5554"]
        assert phone_specs(["sim", "adb", "sim"]) == ["sim", "adb:PIXEL7", "adb:emulator-5554", "sim"]
        with pytest.raises(ConfigError, match="adb:PIXEL7 is given twice"):
            phone_specs(["adb", "adb:PIXEL7"])
    with FakeAdbServer([]) as adb:
        monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb.port))
        assert phone_specs(["adb"]) == ["adb"]  # none attached: opening it says so, as with one phone
    with pytest.raises(ConfigError, match="unknown device 'iphone'"):
        phone_specs(["iphone"])
    assert phone_specs(["ios", "ios:http://10.0.0.9:8100"]) == ["ios", "ios:http://10.0.0.9:8100"]
    with pytest.raises(ConfigError, match="ios is given twice"):
        phone_specs(["ios", "ios"])
    assert phone_names(["sim", "adb:PIXEL7", "sim", "adb:10.0.0.2:5555"]) == ["sim-1", "adb-PIXEL7", "sim-2",
                                                                              "adb-10.0.0.2-5555"]
    assert exit_code([0, 3, 1]) == 1 and exit_code([0, 3]) == 3 and exit_code([1, 2, 0]) == 2 and exit_code([]) == 0


class DyingPhone:
    """A simulated phone unplugged after ``screens`` screenshots."""

    def __init__(self, screens: int) -> None:
        from mobile_agent.device.sim import SimPhone

        self.phone, self.left = SimPhone(seed=0), screens

    def __getattr__(self, name):
        return getattr(self.phone, name)

    def screenshot(self):
        self.left -= 1
        if self.left < 0:
            raise DeviceDisconnectedError("device DYING is gone (unplugged)")
        return self.phone.screenshot()


def _planner(server):
    from mobile_agent import LLMPlanner
    from mobile_agent.model.openai_client import OpenAIChatModel

    return lambda device: LLMPlanner(OpenAIChatModel("test-model", base_url=server.openai_base_url, api_key="sk-x",
                                                     timeout_s=10))


def test_the_python_api_runs_each_phone_and_a_phone_that_dies_ends_alone(tmp_path):
    from mobile_agent import AgentSettings, Perception, run_on_phones

    with LocalChatServer(by_history(SETTINGS)) as server:
        fleet = run_on_phones("Open Settings", ["sim", DyingPhone(screens=1)], _planner(server), tmp_path / "out",
                              perception=lambda: Perception(ocr="rapidocr"), settings=AgentSettings(max_steps=4, settle_interval_s=0.0))
    (ok, dead) = fleet.runs
    assert (ok.name, ok.outcome, ok.completed) == ("sim", "completed", True)
    assert dead.name == "DyingPhone" and not dead.completed and "unplugged" in (dead.error or "")
    assert read_summary(tmp_path / "out" / "DyingPhone")["outcome"] == dead.outcome
    assert fleet.exit_code == 1 and not fleet.completed
    assert (tmp_path / "out" / "sim" / "report.html").is_file() and (tmp_path / "out" / "report.html").is_file()


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_an_interrupt_ends_every_phones_run_interrupted_with_its_record(tmp_path, how):
    import os
    import signal

    from mobile_agent import AgentSettings, Perception, run_on_phones
    from mobile_agent.errors import Terminated

    plans = [react("Open App (Settings)"), react("Back")] * 50
    stepped: list[str] = []
    both_going = threading.Event()

    phones_stepped: set[str] = set()

    def on_step(rec):  # called on the phone's own thread
        stepped.append(rec.action)
        phones_stepped.add(threading.current_thread().name)
        if len(phones_stepped) >= 2:
            both_going.set()

    def ctrl_c():  # Ctrl-C once each phone has made a step (a hang guard of 120 s): both runs have begun
        both_going.wait(120)
        if how == "ctrl-c":
            _thread.interrupt_main()
        else:  # SIGTERM as the CLI takes it (cli._terminate): Terminated in the main thread
            os.kill(os.getpid(), signal.SIGTERM)

    def terminate(signum, frame):
        raise Terminated("ended by SIGTERM")

    previous = signal.signal(signal.SIGTERM, terminate)
    with LocalChatServer(by_history(plans, delay_s=0.1)) as server:
        threading.Thread(target=ctrl_c, daemon=True).start()
        try:
            fleet = run_on_phones("Open Settings", ["sim", "sim"], _planner(server), tmp_path / "out",
                              perception=lambda: Perception(ocr="rapidocr"),
                              settings=AgentSettings(max_steps=100, loop_threshold=1000, settle_interval_s=0.0,
                                                     on_step=on_step))
        finally:
            signal.signal(signal.SIGTERM, previous)
    assert isinstance(fleet.interrupt, KeyboardInterrupt) and fleet.exit_code == 1
    for name in ("sim-1", "sim-2"):
        summary = read_summary(tmp_path / "out" / name)
        assert summary["outcome"] == "interrupted"
        # each phone's record says what ended it (issue 51, low: SIGTERM was recorded as Ctrl-C)
        assert ("SIGTERM" if how == "sigterm" else "Ctrl-C") in summary["error"], summary["error"]
    phones = json.loads((tmp_path / "out" / "fleet.json").read_text())["phones"]
    assert [p["outcome"] for p in phones] == ["interrupted", "interrupted"]
    assert len(stepped) < 100  # ended by the interrupt, not by the step limit
