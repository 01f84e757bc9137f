"""``mobile-agent eval`` end to end: the model path through a real localhost chat-completions server
(the openai SDK speaking HTTP), the scripted planner from a file, listing, and bad options."""

from __future__ import annotations

import json

from mobile_agent.cli import main
from tests.fakes.chatserver import LocalChatServer, Request

PLAN = ["Open App (Settings)", "Click Text (Display)", "Click Text (Dark theme)", "Stop"]


def react(action: str) -> str:
    return f"Observation: a phone screen.\nThought: the next step towards dark mode.\nAction: {action}"


class Responder:
    """Plan replies in order; the completion check after Stop is answered "complete"."""

    def __init__(self) -> None:
        self.plans = [react(a) for a in PLAN]

    def __call__(self, req: Request) -> str:
        if "Verdict: complete | incomplete" in req.last_user_text:
            return "Verdict: complete\nReason: the dark theme is on."
        return self.plans.pop(0)


def test_model_planner_through_a_local_chat_server(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCH_TEST_KEY", "sk-local")
    with LocalChatServer(Responder()) as server:
        code = main(["eval", "--planner", "model", "--model", "openai:vision-test", "--base-url",
                     server.openai_base_url, "--api-key-env", "BENCH_TEST_KEY", "--tasks", "settings-1",
                     "--out", str(tmp_path / "out"), "--json", str(tmp_path / "r.json")])
    assert code == 0
    data = json.loads((tmp_path / "r.json").read_text())
    (task,) = data["tasks"]
    assert task["task_key"] == "settings-1" and task["success"] and task["steps"] == 4
    assert task["ps"] == 1.0 and task["re"] == 1.0 and task["cr"] == 1.0
    assert task["prompt_tokens"] > 0 and task["completion_tokens"] > 0
    assert data["paper_table"][0]["label"] == "Instruction 1" and data["paper_table"][0]["SU"] == 1.0
    # four plan requests with a screenshot each, and the completion check
    assert len(server.requests) == 5
    assert all(r.image_parts() for r in server.requests) and server.requests[0].model == "vision-test"
    assert "Turn on the dark mode." in server.requests[0].text
    # the benchmark's HTML report is written at the end, with a row for the task
    pages = list((tmp_path / "out").glob("*.html"))
    assert pages and "settings-1" in pages[0].read_text(encoding="utf-8")


def test_scripted_planner_from_a_file_and_resume(tmp_path):
    replies = tmp_path / "replies.txt"
    replies.write_text("\n---\n".join(react(a) for a in ["Open App (Settings)", "Click Text (Battery)", "Back",
                                                          "Click Text (Display)", "Click Text (Dark theme)", "Stop"]))
    args = ["eval", "--planner", "scripted", "--replies", str(replies), "--tasks", "settings-1",
            "--out", str(tmp_path / "out"), "--json", str(tmp_path / "r.json")]
    assert main(args) == 0
    (task,) = json.loads((tmp_path / "r.json").read_text())["tasks"]
    assert task["success"] and task["steps"] == 6 and task["correct_steps"] == 4
    assert abs(task["ps"] - 4 / 6) < 1e-9 and abs(task["re"] - 4 / 6) < 1e-9
    assert [s["correct"] for s in task["detail"]["steps"]] == [True, False, False, True, True, True]
    assert main(args + ["--resume"]) == 0
    again = json.loads((tmp_path / "r.json").read_text())
    assert again["skipped"] == ["settings-1"] and again["tasks"][0]["steps"] == 6


def test_list_and_bad_options(tmp_path, capsys):
    assert main(["eval", "--list", "--tier", "3", "--app", "Notes"]) == 0
    out = capsys.readouterr().out
    assert "notes-3" in out and "notes-1" not in out
    assert main(["eval", "--list", "--tasks", "nope-1"]) == 2
    assert main(["eval", "--planner", "model", "--tasks", "notes-1"]) == 2  # no --model
    assert main(["eval", "--planner", "wizard"]) == 2
    assert main(["eval", "--device", "adb", "--tasks", "notes-1"]) == 2  # the oracle needs the simulated phone
    assert main(["eval", "--list", "--variants", "3", "--tasks", "mail-1"]) == 0
    out = capsys.readouterr().out
    assert "mail-1#1" in out and "mail-1#2" in out


def test_model_errors_are_results_not_crashes(tmp_path, monkeypatch):
    from tests.fakes.chatserver import Reply

    monkeypatch.setenv("BENCH_TEST_KEY", "sk-local")
    with LocalChatServer(lambda req: Reply(status=400, error="model not found")) as server:
        code = main(["eval", "--planner", "model", "--model", "openai:missing", "--base-url", server.openai_base_url,
                     "--api-key-env", "BENCH_TEST_KEY", "--tasks", "notes-1", "--out", str(tmp_path / "o"),
                     "--json", str(tmp_path / "r.json")])
    assert code == 0
    (task,) = json.loads((tmp_path / "r.json").read_text())["tasks"]
    assert task["outcome"] == "error" and not task["success"] and "model not found" in task["error"]
    assert task["cr"] == 0.0 and task["ps"] == 0.0
