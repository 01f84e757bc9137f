"""End to end on the simulated phone: "Turn on the dark mode" through a chat-completions server on
localhost, the real openai SDK (also through the CLI), real perception, and the phone's state."""

from __future__ import annotations

import base64
import io

from PIL import Image, ImageStat

from tests.fakes.agent_harness import API_KEY, MODEL, Script, make_agent, plan_requests, react
from mobile_agent.agent.trajectory import read_steps, read_summary
from mobile_agent.cli import main
from mobile_agent.device.sim import SimPhone
from tests.fakes.chatserver import LocalChatServer


def step_dicts(run):
    """The typed step records of a run, in their JSON form (what steps.jsonl holds)."""
    return [s.to_dict() for s in read_steps(run)]


DARK_PLAN = [
    react("Open App (Settings)", "Dark mode is in the Settings app.", "The home screen shows Notes and Settings."),
    react("Click Text (Display)", "Dark theme is under Display.", "The Settings list is open."),
    react("Click Text (Dark theme)", "Turn the switch on.", "The Display page shows a Dark theme switch, off."),
    react("Stop", "Dark theme is on.", "The screen is dark now; the switch is on."),
]


def test_turn_on_the_dark_mode_on_the_simulated_phone(tmp_path):
    phone = SimPhone(seed=0)
    assert phone.state.settings.dark_mode is False
    with LocalChatServer(Script(DARK_PLAN, checks=["Verdict: complete\nReason: the dark theme switch is on."])) as server:
        result = make_agent(server, phone).run("Turn on the dark mode", tmp_path)
    assert result.outcome == "completed" and result.completed and result.steps == 4
    assert phone.state.settings.dark_mode is True
    assert len(server.requests) == 5
    for req in server.requests:
        assert req.model == MODEL and req.headers["authorization"] == f"Bearer {API_KEY}"
        parts = req.image_parts()
        assert len(parts) == 1 and parts[0]["type"] == "image_url"
        img = Image.open(io.BytesIO(base64.b64decode(parts[0]["image_url"]["url"].split(",", 1)[1])))
        assert max(img.size) == 1024  # 1080x2400 resized to a longest side of 1024
    assert "Turn on the dark mode" in plan_requests(server)[0].text
    steps = step_dicts(tmp_path)
    assert [s["action"] for s in steps] == ["Open App (Settings)", "Click Text (Display)", "Click Text (Dark theme)", "Stop"]
    assert all(s["gesture"]["kind"] == "tap" for s in steps[:3])
    assert all(s["reflection"]["changed"] for s in steps[:3])


def test_the_cli_runs_the_instruction_and_exits_0(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MY_TEST_KEY", "sk-from-the-env")
    with LocalChatServer(Script(DARK_PLAN)) as server:
        code = main(["run", "Turn on the dark mode", "--device", "sim", "--model", "gpt-4o-test", "--base-url",
                     server.openai_base_url, "--api-key-env", "MY_TEST_KEY", "--out", str(tmp_path / "run"),
                     "--max-steps", "8"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert all(r.headers["authorization"] == "Bearer sk-from-the-env" for r in server.requests)
    assert all(r.model == "gpt-4o-test" for r in server.requests)
    assert "step  3" in out and "Click Text (Dark theme)" in out and "completed" in out
    summary = read_summary(tmp_path / "run")
    assert summary["outcome"] == "completed" and summary["device"] == "sim"
    assert "Turn on the dark mode" in (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    final = Image.open(tmp_path / "run" / "screens" / "final.png").convert("L")
    first = Image.open(tmp_path / "run" / "screens" / "step_003.png").convert("L")
    # the Display page in the dark theme is darker than the same page before
    assert ImageStat.Stat(final).mean[0] < ImageStat.Stat(first).mean[0] - 60


def test_the_cli_exits_1_when_the_run_does_not_complete(tmp_path, monkeypatch):
    monkeypatch.setenv("MY_TEST_KEY", "k")
    with LocalChatServer(Script(DARK_PLAN[:1], cycle=True)) as server:
        code = main(["run", "Turn on the dark mode", "--device", "sim", "--model", "gpt-4o-test", "--base-url",
                     server.openai_base_url, "--api-key-env", "MY_TEST_KEY", "--out", str(tmp_path), "--max-steps", "1"])
    assert code == 1 and read_summary(tmp_path)["outcome"] == "step_limit"


def test_the_cli_live_view_serves_the_run_while_it_goes(tmp_path, monkeypatch, capsys):
    import re
    import urllib.request

    monkeypatch.setenv("MY_TEST_KEY", "k")
    seen: list[str] = []
    urls: list[str] = []
    script = Script(DARK_PLAN[:1], cycle=True)

    def reply(request):
        # The model is asked during the run: the live page must answer at that moment.
        if not urls:
            found = re.search(r"live view at (http://127\.0\.0\.1:\d+/)", capsys.readouterr().out)
            urls.append(found.group(1) if found else "")
        if urls[0]:
            with urllib.request.urlopen(urls[0], timeout=5) as resp:
                seen.append(resp.read().decode("utf-8"))
        return script(request)

    with LocalChatServer(reply) as server:
        code = main(["run", "Turn on the dark mode", "--device", "sim", "--model", "gpt-4o-test", "--base-url",
                     server.openai_base_url, "--api-key-env", "MY_TEST_KEY", "--out", str(tmp_path), "--max-steps",
                     "1", "--live"])
    assert code == 1 and seen and "<html" in seen[0].lower()


def test_the_cli_exits_2_on_a_missing_key_or_a_rejected_key(tmp_path, monkeypatch):
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    assert main(["run", "x", "--model", "gpt-4o", "--api-key-env", "NO_SUCH_KEY_VAR", "--out", str(tmp_path)]) == 2
    monkeypatch.setenv("MY_TEST_KEY", "wrong")
    from tests.fakes.chatserver import Reply

    with LocalChatServer(lambda r: Reply(status=401, error="bad key")) as server:
        code = main(["run", "Turn on the dark mode", "--model", "gpt-4o-test", "--base-url", server.openai_base_url,
                     "--api-key-env", "MY_TEST_KEY", "--out", str(tmp_path / "r")])
    assert code == 2 and len(server.requests) == 1
    assert read_summary(tmp_path / "r")["outcome"] == "error"


def test_hybrid_perception_grounds_from_the_tree_and_vision_from_pixels(tmp_path):
    """The same run with each --perception mode: hybrid taps the tree node's centre (and says so in
    the step's grounding), vision finds the same places on the picture alone."""
    from mobile_agent.device.uitree import parse_tree

    points = {}
    for mode in ("hybrid", "vision"):
        phone = SimPhone(seed=0)
        with LocalChatServer(Script(DARK_PLAN)) as server:
            result = make_agent(server, phone, perception_mode=mode).run("Turn on the dark mode", tmp_path / mode)
        assert result.completed and phone.state.settings.dark_mode is True
        steps = read_steps(tmp_path / mode)
        messages = [s.grounding.message for s in steps[:3]]
        if mode == "hybrid":
            assert all("accessibility tree" in m for m in messages), messages
        else:
            assert not any("accessibility tree" in m for m in messages), messages
        points[mode] = [(s.gesture.x, s.gesture.y) for s in steps[:3]]
    # Step 2 taps "Display": at its node's centre in hybrid mode.
    phone = SimPhone(seed=0)
    phone.launch("Settings")
    display = next(n for n in parse_tree(phone.ui_tree()) if n.text == "Display")
    assert points["hybrid"][1] == display.bounds.center.as_tuple()
    assert display.bounds.contains_point(type(display.bounds.center)(*points["vision"][1]))


def test_the_cli_refuses_an_unknown_perception_mode(tmp_path, capsys):
    code = main(["run", "Turn on the dark mode", "--device", "sim", "--model", "gpt-4o-test", "--base-url",
                 "http://127.0.0.1:9/v1", "--out", str(tmp_path), "--perception", "tree"])
    assert code == 2
    out = capsys.readouterr()
    assert "vision or hybrid" in out.out + out.err
