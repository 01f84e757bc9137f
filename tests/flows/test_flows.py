"""Test flows (mobile_agent/flows, `mobile-agent test`, issue 55): the examples for the simulated
phone's apps pass; a failing step ends its flow with the step, its line, why and a screenshot, and
later steps are skipped; bad files exit 2 naming the line and the step names meant; the model's
steps (ai:, assert:, query:) run against the localhost chat server; JUnit XML as CI reads it.
Real parts: the simulated phone, the bundled perception, the CLI in-process, a real HTTP server
speaking chat completions."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import mobile_agent
from mobile_agent.cli import main
from tests.fakes.agent_harness import is_completion_check, react
from tests.fakes.chatserver import LocalChatServer, Reply

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "flows"


def _links(page: Path) -> dict[str, str]:
    """The text and href of each link of an HTML page (read with the standard library's parser)."""
    from html.parser import HTMLParser

    found: dict[str, str] = {}

    class Links(HTMLParser):
        href: str | None = None

        def handle_starttag(self, tag, attrs):
            if tag == "a":
                self.href = dict(attrs).get("href")

        def handle_data(self, data):
            if self.href is not None:
                found[data] = self.href
                self.href = None

    Links().feed(page.read_text(encoding="utf-8"))
    return found


def _cli(capsys, *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, " ".join((out.out + out.err).split())


def test_the_example_flows_pass_a_false_assertion_fails_and_a_cached_rerun_needs_no_model(tmp_path, capsys):
    # issue 55's "done when": the example folders (plain flows, and flows with ai: and assert: steps
    # through --model scripted:FILE) pass; one more flow whose assertion does not hold fails naming its
    # step; the JUnit file has a testcase per flow with that failure; exit 1; a rerun of the ai: flow
    # with a read-only cache makes no model call. The replies are ours (examples/flows/with-model).
    replies = tmp_path / "replies.txt"
    replies.write_text((EXAMPLES / "with-model" / "replies.txt").read_text(encoding="utf-8")
                       + "\n---\nVerdict: false\nReason: the switch is off.\n", encoding="utf-8")
    wrong = tmp_path / "wrong" / "dark.yaml"
    wrong.parent.mkdir()
    wrong.write_text("name: Dark theme is on\napp: Settings\nsteps:\n  - assert: The dark theme switch is on\n",
                     encoding="utf-8")
    junit, cache = tmp_path / "junit.xml", tmp_path / "cache"
    cache.mkdir(mode=0o700)
    rc, text = _cli(capsys, "test", str(EXAMPLES), str(EXAMPLES / "with-model"), str(wrong.parent), "--model",
                    f"scripted:{replies}", "--cache", str(cache), "--out", str(tmp_path / "out"), "--junit", str(junit))
    examples = sorted(EXAMPLES.glob("*.yaml")) + sorted((EXAMPLES / "with-model").glob("*.yaml"))
    assert rc == 1 and f"{len(examples)} of {len(examples) + 1} flow(s) passed; 5 model call(s)" in text, text
    assert "step 2 (line 4), assert: The dark theme switch is on: the model judges it false: the switch is off." \
        in text, text
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("tests") == str(len(examples) + 1) and suite.get("failures") == "1"
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert len(cases) == len(examples) + 1
    assert [n for n, c in cases.items() if c.find("failure") is not None] == ["Dark theme is on"]
    assert "line 4" in cases["Dark theme is on"].find("failure").get("message")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert (summary["passed"], summary["failed"], summary["model_calls"]) == (len(examples), 1, 5)
    page = tmp_path / "out" / "the-agent-opens-the-display-settings" / "report.html"
    run_page = (page.parent / _links(page)["run report"]).resolve()  # the ai: step's own run report
    assert run_page == (page.parent / "step-02-ai" / "report.html").resolve() and run_page.is_file()
    rc, text = _cli(capsys, "test", str(EXAMPLES / "with-model" / "open-display.yaml"), "--cache", str(cache),
                    "--cache-mode", "read-only", "--out", str(tmp_path / "again"))
    assert rc == 0 and "1 of 1 flow(s) passed; 0 model call(s)" in text, text


def test_a_failing_step_fails_its_flow_with_its_line_and_screenshot_and_the_others_still_run(tmp_path, capsys):
    bad = tmp_path / "flows" / "a-bad.yaml"
    good = tmp_path / "flows" / "b-good.yaml"
    bad.parent.mkdir()
    bad.write_text("name: Wrong page\napp: Settings\nsteps:\n  - tap: Display\n  - assertVisible: Bluetooth pairing\n"
                   "  - back\n", encoding="utf-8")
    good.write_text("name: Right page\napp: Settings\nsteps:\n  - assertVisible: Display\n", encoding="utf-8")
    junit = tmp_path / "junit.xml"
    rc, text = _cli(capsys, "test", str(bad.parent), "--out", str(tmp_path / "out"), "--junit", str(junit))
    assert rc == 1 and "1 of 2 flow(s) passed" in text, text
    assert "(line 5), assertVisible: Bluetooth pairing: 'Bluetooth pairing' is not on the screen" in text, text
    cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
    failure = cases["Wrong page"].find("failure")
    assert failure is not None and "line 5" in failure.get("message") and cases["Right page"].find("failure") is None
    flow = json.loads((tmp_path / "out" / "wrong-page" / "flow.json").read_text(encoding="utf-8"))
    assert [s["status"] for s in flow["steps"]] == ["passed", "passed", "failed", "skipped"]
    assert Path(flow["screenshot"]).is_file()
    # the HTML: an index linking each flow's page; the failing flow's page names the step, shows the screen
    index = tmp_path / "out" / "index.html"
    links = _links(index)
    assert sorted(links) == ["Right page", "Wrong page"] and "1 of 2 passed" in index.read_text(encoding="utf-8")
    page = (index.parent / links["Wrong page"]).resolve()
    assert page == (tmp_path / "out" / "wrong-page" / "report.html").resolve()
    html = page.read_text(encoding="utf-8")
    assert "step 3 (line 5), assertVisible: Bluetooth pairing" in html and ">skipped<" in html
    shots = re.findall(r'<img src="([^"]+)"', html)
    assert len(shots) == 1 and (page.parent / shots[0]).resolve() == Path(flow["screenshot"]).resolve()
    rc, text = _cli(capsys, "test", str(bad), str(good), "--out", str(tmp_path / "ff"), "--fail-fast")
    assert rc == 1 and "Right page" not in text  # stopped at the first failing flow


@pytest.mark.parametrize("body,line,said", [
    ("steps:\n  - tap: Display\n  - tapp: Wi-Fi\n", 3, "unknown step 'tapp' (did you mean tap"),
    ("steps:\n  - tap: Display\n  - wait: soon\n", 3, "wait: needs a number of seconds"),
    ("steps:\n  - swipe: upward\n", 2, "'upward' is not a direction (did you mean up"),
    ("steps:\n  - tap: [Display\n", 3, "not valid YAML"),
    ("steps:\n  - query: {ask: \"How many\", type: number}\n", 2, "query: needs {name: NAME"),
    ("steps:\n  - query: {name: n, ask: \"How many\", type: integer}\n", 2, "type 'integer' is not one of"),
    ("name: x\nstep:\n  - back\n", None, "unknown flow key 'step' (did you mean steps"),
    ("steps:\n  - back\n  - waitFor: {text: Saved, timout: 5}\n", 3, "waitFor: unknown key 'timout' (did you mean "
                                                                    "timeout?)"),
    ("steps:\n  - launch: {app: Notes, fresh: 'no'}\n", 2, "launch: fresh: input should be a valid boolean"),
    ("look: {langs: zh}\nsteps:\n  - back\n", None, "look: unknown key 'langs' (did you mean lang"),
    ("look: {lang: fr}\nsteps:\n  - back\n", None, "look: unknown language 'fr'"),
    ("env: {PIN: '4711'}\nsecrets: [PIN]\nsteps:\n  - type: ${PIN}\n", None, "secrets: PIN has its value in env:"),
])
def test_a_flow_that_cannot_be_run_as_written_exits_2_naming_its_line(tmp_path, capsys, body, line, said):
    f = tmp_path / "flow.yaml"
    f.write_text(body, encoding="utf-8")
    rc, text = _cli(capsys, "test", str(f), "--out", str(tmp_path / "out"))
    assert rc == 2 and said in text, text
    if line is not None:
        assert f"flow.yaml:{line}:" in text, text
    assert not (tmp_path / "out").exists()  # nothing ran


def _model(asks: dict[str, str], plan: list[str]):
    """A chat server's answers: a plan of replies for the agent's steps, an answer for each question
    the flow's assert:/query: steps ask (by a word of the question)."""
    replies = iter(plan)

    def respond(req):
        text = req.last_user_text
        if is_completion_check(req):
            return Reply("Verdict: complete\nReason: the display page is open")
        for word, answer in asks.items():
            if word in text:
                return Reply(answer)
        return Reply(next(replies, react("Stop")))

    return respond


def test_ai_assert_and_query_steps_ask_the_model_and_a_query_is_used_later(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    f = tmp_path / "model.yaml"
    f.write_text("name: With the model\napp: Settings\nsteps:\n"
                 "  - query: {name: page, ask: \"Which entry opens the display settings?\", type: string}\n"
                 "  - ai: Open the ${page} settings\n"
                 "  - assert: The dark theme option is shown\n"
                 "  - query: {name: count, ask: \"How many switches are on?\", type: number}\n"
                 "  - assertVisible: Dark theme\n", encoding="utf-8")
    asks = {"display settings?": 'Answer: "Display"', "Statement: The dark theme": "Verdict: true\nReason: it is there",
            "How many switches": "Answer: 2"}
    with LocalChatServer(_model(asks, [react("Click Text (Display)"), react("Stop")])) as server:
        rc, text = _cli(capsys, "test", str(f), "--model", "openai:test-model", "--base-url", server.openai_base_url,
                        "--out", str(tmp_path / "out"))
        asked = [r.last_user_text for r in server.requests]
    assert rc == 0, text
    assert any("Open the Display settings" in t for t in asked)  # ${page} from the query
    flow = json.loads((tmp_path / "out" / "with-the-model" / "flow.json").read_text(encoding="utf-8"))
    assert flow["values"] == {"page": "Display", "count": 2} and flow["model_calls"] == len(asked)
    assert re.search(rf"{len(asked)} model call\(s\)", text), text


def test_a_false_assert_fails_the_flow_with_the_models_reason(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    f = tmp_path / "assert.yaml"
    f.write_text("app: Settings\nsteps:\n  - assert: The screen is dark\n  - back\n", encoding="utf-8")
    with LocalChatServer(_model({"Statement:": "Verdict: false\nReason: the screen is light"}, [])) as server:
        rc, text = _cli(capsys, "test", str(f), "--model", "openai:gpt-4o", "--base-url", server.openai_base_url,
                        "--out", str(tmp_path / "out"))
    assert rc == 1 and "the model judges it false: the screen is light" in text, text
    # gpt-4o is in the built-in price table: the run says what its one call cost, from the server's usage
    cost = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))["cost_usd"]
    assert cost is not None and cost > 0 and f"1 model call(s) (${cost:.4f})" in text, text
    rc, text = _cli(capsys, "test", str(f), "--out", str(tmp_path / "none"))
    assert rc == 2 and "give --model" in text and "assert.yaml:3 (assert)" in text, text


def test_the_python_api_runs_a_flow_file():
    result = mobile_agent.run_flow(EXAMPLES / "settings-display.yaml", "sim", Path(__import__("tempfile").mkdtemp()))
    assert result.passed, result.failure
    assert [s.status for s in result.steps] == ["passed"] * len(result.steps)


def test_a_run_saved_as_a_flow_repeats_with_no_model_and_keeps_the_secret_a_name(tmp_path, capsys, monkeypatch):
    # issue 55 item 4: run --save-flow writes the run's steps as plain steps (taps by the text they
    # hit, the typed secret as ${pw}); mobile-agent test repeats it on a fresh phone with no model
    from tests.fakes.agent_harness import Script

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    plan = [react("Open App (Notes)"), react("Click Text (New note)"), react("Type ({pw})"),
            react("Click Icon (check, top right)"), react("Stop")]
    flow = tmp_path / "recorded.yaml"
    with LocalChatServer(Script(plan)) as server:
        rc, text = _cli(capsys, "run", "Write {pw} in a new note", "--secret", "pw=cl1ck4ll", "--model",
                        "openai:test-model", "--base-url", server.openai_base_url, "--out", str(tmp_path / "run"),
                        "--save-flow", str(flow))
    assert rc == 0 and f"flow: {flow}" in text, text
    written = flow.read_text(encoding="utf-8")
    assert "cl1ck4ll" not in written and "type: ${pw}" in written and "launch: Notes" in written, written
    assert mobile_agent.load_flows(flow)[0].secrets == ("pw",)  # declared: a test without its value says so
    assert "tap: New note" in written
    rc, text = _cli(capsys, "test", str(flow), "--secret", "pw=cl1ck4ll", "--out", str(tmp_path / "again"))
    assert rc == 0 and "1 of 1 flow(s) passed; 0 model call(s)" in text, text
    kept = [p.read_text(encoding="utf-8") for p in (tmp_path / "again").rglob("*.json")]
    assert kept and not any("cl1ck4ll" in t for t in kept)  # the secret is written {pw} in the results


def test_a_flows_secrets_come_from_the_environment_and_its_look_draws_the_phone(tmp_path, monkeypatch):
    from mobile_agent.flows.runner import StepFailed, _phone, _secret_values
    from mobile_agent.flows.spec import parse_flow

    flow = parse_flow("look: {lang: zh}\nsecrets: [PIN]\nsteps:\n  - type: ${PIN}\n", tmp_path / "f.yaml")
    monkeypatch.delenv("PIN", raising=False)
    with pytest.raises(StepFailed, match="the secret PIN has no value: give --secret PIN=VALUE"):
        _secret_values(flow, {})
    monkeypatch.setenv("PIN", "4711")
    assert _secret_values(flow, {}) == {"PIN": "4711"}
    assert _phone("sim", flow).look.lang == "zh"
