"""Text from a model, a screen or a user is printed as plain text: Rich markup in it is shown as
written, never parsed (a reply holding ``[/red]`` used to end ``run`` with a MarkupError traceback
and ``eval`` before results.json and report.html were written)."""

from __future__ import annotations

import json

from mobile_agent.cli import main
from tests.fakes.chatserver import LocalChatServer

HOSTILE = "[/red] hi [bold]"


def react(action: str) -> str:
    return f"Observation: a [link=x]screen[/link].\nThought: type [/] it.\nAction: {action}"


def test_run_prints_markup_in_a_reply_as_text(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PLAIN_TEXT_KEY", "k")
    replies = [react(f"Type ({HOSTILE})"), react("Stop")]

    def reply(req):
        if "Verdict: complete | incomplete" in req.last_user_text:
            return "Verdict: incomplete\nReason: [/yellow] not yet"
        return replies.pop(0) if replies else react("Back")

    with LocalChatServer(reply) as server:
        code = main(["run", "Note [/red] this [b]", "--model", "gpt-4o-test", "--base-url", server.openai_base_url,
                     "--api-key-env", "PLAIN_TEXT_KEY", "--out", str(tmp_path / "run"), "--max-steps", "2"])
    captured = capsys.readouterr()
    assert code == 1, captured.out + captured.err
    assert "MarkupError" not in captured.out + captured.err and "Traceback" not in captured.err
    assert f"Type ({HOSTILE})" in captured.out
    assert "Note [/red] this [b]" in captured.out
    assert (tmp_path / "run" / "summary.json").is_file()


def test_eval_prints_markup_in_a_reply_as_text_and_writes_its_results(tmp_path, capsys):
    replies = tmp_path / "replies.txt"
    replies.write_text("\n---\n".join([react(f"Click Text ({HOSTILE})"), react("Stop")]), encoding="utf-8")
    out = tmp_path / "out"
    code = main(["eval", "--planner", "scripted", "--replies", str(replies), "--tasks", "settings-1",
                 "--max-steps", "2", "--out", str(out), "--json", str(tmp_path / "r.json")])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    assert "MarkupError" not in captured.out + captured.err
    assert HOSTILE in captured.out  # the explanation of the first wrong step names the target as written
    (task,) = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["tasks"]
    assert not task["success"]
    assert (out / "report.html").is_file() and list(out.glob("*/results.json"))


def test_an_error_message_with_brackets_is_printed_as_written(tmp_path, capsys):
    bad = tmp_path / "[red]no such folder[/red]"
    assert main(["report", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "[red]no such folder[/red]" in err
