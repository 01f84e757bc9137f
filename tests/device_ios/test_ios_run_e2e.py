"""Mobile-Eval's "Turn on the airplane mode" end to end through ``mobile-agent run --device ios:URL``:
the CLI opens the WebDriverAgent of tests/fakes/wda_server.py (in front of a simulated phone at scale
3), the scripted model's replies drive it, and the phone behind WDA ends with the airplane mode on
(the task's own success check). Taps arrive in points: the phone's pixels divided by 3. The same
through a GUI model family (AutoGLM's 0-999 points mapped to pixels, then to WDA's points), and the
MCP server over the same device offers the same tools."""

from __future__ import annotations

import json

import pytest

from mobile_agent.bench.mobile_eval.settings import airplane_mode
from mobile_agent.bench.task import Probe
from mobile_agent.cli import main
from tests.fakes.wda_server import FakeWda

REPLIES = """Observation: the home screen.
Thought: the airplane mode is in Settings.
Action: Open App (Settings)
---
Observation: the Settings list.
Thought: the airplane mode is under Network & internet.
Action: Click Text (Network & internet)
---
Observation: the Network & internet page.
Thought: the airplane mode switch is off.
Action: Click Text (Airplane mode)
---
Observation: the airplane mode is on.
Thought: done.
Action: Stop
---
Verdict: complete
Reason: the airplane mode switch is on
"""


def _taps(wda: FakeWda) -> list[tuple[float, float]]:
    return [(g[1], g[2]) for g in wda.gestures if g[0] == "tap"]


def test_run_turns_on_the_airplane_mode_through_wda(tmp_path):
    (tmp_path / "replies.txt").write_text(REPLIES, encoding="utf-8")
    with FakeWda() as wda:
        task = airplane_mode({}, None)
        assert not task.success(Probe(wda.phone))
        code = main(["run", task.instruction, "--device", f"ios:{wda.url}", "--model",
                     f"scripted:{tmp_path / 'replies.txt'}", "--out", str(tmp_path / "run"), "--max-steps", "6"])
        summary = json.loads((tmp_path / "run" / "summary.json").read_text())
        assert code == 0, summary
        assert summary["outcome"] == "completed" and summary["steps"] == 4
        assert task.success(Probe(wda.phone))  # the phone behind WDA: airplane mode on
        assert wda.phone.state.settings.airplane_mode
        assert ("launch", "com.apple.Preferences") in wda.gestures or _taps(wda)
        # the recorded taps are pixels; WDA received each divided by the scale
        steps = [json.loads(l) for l in (tmp_path / "run" / "steps.jsonl").read_text().splitlines()]
        pixels = [(s["gesture"]["x"], s["gesture"]["y"]) for s in steps if s.get("gesture", {}).get("kind") == "tap"]
        assert len(pixels) >= 2
        assert _taps(wda)[-len(pixels):] == [(round(x / 3, 2), round(y / 3, 2)) for x, y in pixels]
    # the recorded run replayed on another iPhone, with no model: the same taps, in points
    with FakeWda() as other:
        assert main(["replay", str(tmp_path / "run"), "--device", f"ios:{other.url}", "--out",
                     str(tmp_path / "replayed")]) == 0
        assert other.phone.state.settings.airplane_mode
        assert _taps(other)[-2:] == _taps(wda)[-2:]


def test_the_python_api_drives_an_iphone_and_tells_the_model_about_back(tmp_path):
    from mobile_agent import Agent, AgentSettings, LLMPlanner, Perception, ScriptedChatModel, open_device

    model = ScriptedChatModel(["Observation: the home screen.\nThought: go back.\nAction: Back",
                               "Observation: the home screen.\nThought: done.\nAction: Stop",
                               "Verdict: complete\nReason: nothing to do"])
    with FakeWda() as wda:
        agent = Agent(open_device(f"ios:{wda.url}"), LLMPlanner(model), Perception(), AgentSettings(max_steps=3))
        result = agent.run("Go back", tmp_path / "run")
        assert result.outcome == "completed"
    first, second = (" ".join(str(p) for m in r for p in getattr(m, "parts", [m])) for r in model.requests[:2])
    assert "it has no Back button" in first and "swipes in from the left edge" in first
    assert "no Back button" not in second  # said once, at the first step


AUTOGLM = """<think>Settings holds the airplane mode.</think><answer>do(action="Launch", app="Settings")</answer>
---
<think>Network & internet.</think><answer>do(action="Tap", element=[335,262])</answer>
---
<think>The airplane mode row.</think><answer>do(action="Tap", element=[500,290])</answer>
---
<think>It is on.</think><answer>finish(message="The airplane mode is on.")</answer>
"""


def test_a_gui_model_familys_points_become_wda_points(tmp_path):
    (tmp_path / "replies.txt").write_text(AUTOGLM, encoding="utf-8")
    with FakeWda() as wda:
        code = main(["run", "Turn on the airplane mode.", "--device", f"ios:{wda.url}", "--model",
                     f"scripted:{tmp_path / 'replies.txt'}", "--model-family", "autoglm-phone",
                     "--no-completion-check", "--out", str(tmp_path / "run"), "--max-steps", "6"])
        summary = json.loads((tmp_path / "run" / "summary.json").read_text())
        assert code == 0, summary
        assert wda.phone.state.settings.airplane_mode
        # AutoGLM's [335,262] of 0-999 on a 540x1170 screenshot is pixel (180, 306): WDA got (60, 102);
        # [500,290] is pixel (270, 339): (90, 113) (Launch, before them, opened Settings from its icon)
        assert _taps(wda)[-2:] == [(60.0, 102.0), (90.0, 113.0)]


def test_mcp_offers_the_same_tools_over_an_iphone(tmp_path):
    from mobile_agent.device import open_device
    from mobile_agent.mcpserver import PhoneTools, build_server

    with FakeWda() as wda:
        sim = build_server({"sim": PhoneTools(open_device("sim"))})
        phone = build_server({"ios": PhoneTools(open_device(f"ios:{wda.url}", timeout_s=5.0))})
        names = lambda s: sorted(t.name for t in s._tool_manager.list_tools())  # noqa: E731
        assert names(phone) == names(sim)


def test_mcp_names_an_iphone_by_its_kind():
    from mobile_agent.cli.mcp import _device_specs

    assert _device_specs(["sim", "ios:http://10.0.0.9:8100"]) == [("sim", "sim"), ("ios", "ios:http://10.0.0.9:8100")]
    assert _device_specs(["ios", "ios:http://10.0.0.9:8100"]) == [("ios", "ios"),
                                                                 ("ios:http://10.0.0.9:8100", "ios:http://10.0.0.9:8100")]


def test_devices_lists_a_reachable_wda_with_its_name_and_ios(capsys, monkeypatch):
    from tests.fakes.adb_server import FakeAdbServer

    monkeypatch.setenv("COLUMNS", "160")
    with FakeWda() as wda, FakeAdbServer([]) as adb:
        assert main(["devices", "--adb-port", str(adb.port), "--wda", wda.url]) == 0
        out = capsys.readouterr().out
        assert wda.url in out and "Test iPhone" in out and "17.4" in out and "ready" in out
        assert main(["devices", "--adb-port", str(adb.port), "--wda", wda.url, "--json"]) == 0
        rows = json.loads(capsys.readouterr().out)
        ios = [r for r in rows if r.get("kind") == "ios"]
        assert [(r["url"], r["state"], r["name"], r["ios"]) for r in ios] == [(wda.url, "ready", "Test iPhone", "17.4")]


def test_mcp_device_info_says_it_is_an_iphone():
    from mobile_agent.device import open_device
    from mobile_agent.mcpserver import PhoneTools

    with FakeWda() as wda:
        info = PhoneTools(open_device(f"ios:{wda.url}", timeout_s=5.0)).device_info()
    assert (info["kind"], info["ios"], info["width"], info["height"]) == ("ios", "17.4", 540, 1170)
    assert info["foreground"] is None  # the home screen


def test_devices_without_adb_still_lists_the_iphone(capsys, monkeypatch, tmp_path):
    from tests.fakes.adb_server import free_port

    monkeypatch.setenv("PATH", str(tmp_path))  # no adb program
    with FakeWda() as wda:
        assert main(["devices", "--adb-port", str(free_port()), "--wda", wda.url]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Test iPhone" in out and "Android: no adb server is listening" in out
