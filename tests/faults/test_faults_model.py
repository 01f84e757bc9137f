"""`mobile-agent run` against a model server that misbehaves (single and multi mode, OpenAI-compatible
and Anthropic): a malformed 200 answer is a model failure recorded in the step, exit 1; a server that
never answers or trickles cannot hold a run past --time-limit or a call past --model-timeout.

Wall-clock bounds here only catch a hang (a server that never answers, or trickles without end, holds
a run without its deadlines for ever): they leave a loaded two-core machine several times the
expected time. What the deadlines promise is read from the record: the outcome, the message naming
the deadline that ended the call or run, the attempts the server saw."""

from __future__ import annotations

import json
import time

import pytest

from mobile_agent.agent.trajectory import read_steps, read_summary
from mobile_agent.cli import main
from tests.fakes.chatserver import LocalChatServer, Reply
from tests.fakes.clock import hang_guard

GATEWAY = Reply(body=b"<html><body><h1>502 Bad Gateway</h1></body></html>", content_type="text/html")
TRUNCATED = Reply(body=b'{"id": "x", "choices": [{"mess')


def _run(server: LocalChatServer, out, *more: str, provider: str = "openai") -> int:
    base = server.openai_base_url if provider == "openai" else server.anthropic_base_url
    model = "gpt-4o-test" if provider == "openai" else "anthropic:claude-test"
    return main(["run", "Turn on the dark mode", "--device", "sim", "--model", model, "--base-url", base,
                 "--api-key-env", "FAULT_TEST_KEY", "--out", str(out), "--max-steps", "3", *more])


@pytest.mark.parametrize("provider,mode,reply", [("openai", "single", GATEWAY), ("anthropic", "multi", TRUNCATED)],
                         ids=["openai-single-html", "anthropic-multi-truncated"])
def test_a_malformed_answer_is_a_recorded_model_failure_and_exit_1(tmp_path, monkeypatch, capsys, provider, mode,
                                                                   reply):
    monkeypatch.setenv("FAULT_TEST_KEY", "k")
    with LocalChatServer(lambda r: reply) as server:
        code = _run(server, tmp_path, "--mode", mode, provider=provider)
    out = capsys.readouterr()
    assert code == 1, out.out + out.err
    assert "Traceback" not in out.out + out.err and "internal error" not in out.out + out.err
    summary = read_summary(tmp_path)
    assert summary["outcome"] == "error" and "not a chat reply" in summary["error"] and "\n" not in summary["error"]
    (step,) = read_steps(tmp_path)  # the step is recorded, with the failed call
    assert "not a chat reply" in step.error
    assert step.calls and step.calls[-1].error and "not a chat reply" in step.calls[-1].error
    assert len(server.requests) == 4  # retried like a 5xx (four attempts)
    assert (tmp_path / "report.html").exists()


@pytest.mark.parametrize("provider,mode", [("openai", "single"), ("anthropic", "multi")])
def test_the_time_limit_holds_while_the_server_never_answers(tmp_path, monkeypatch, capsys, provider, mode):
    monkeypatch.setenv("FAULT_TEST_KEY", "k")
    with LocalChatServer(lambda r: Reply(hang=True)) as server:
        t = time.monotonic()
        code = _run(server, tmp_path, "--mode", mode, "--time-limit", "3", provider=provider)
        took = time.monotonic() - t
    assert code == 1 and took < hang_guard(3), took  # the server never answers
    summary = read_summary(tmp_path)
    assert summary["outcome"] == "time_limit", summary
    # the run's end held during the call that never answered (the call has no deadline of its own here)
    assert "the run's time limit was reached" in summary["error"], summary
    assert 3 <= json.loads((tmp_path / "summary.json").read_text())["duration_s"] < hang_guard(3)


def test_a_trickling_server_ends_at_the_model_timeout(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FAULT_TEST_KEY", "k")
    with LocalChatServer(lambda r: Reply(trickle_s=0.5)) as server:
        t = time.monotonic()
        code = _run(server, tmp_path, "--model-timeout", "1", "--time-limit", "5")
        took = time.monotonic() - t
    assert code == 1 and took < hang_guard(5), took  # the answer trickles without end
    summary = read_summary(tmp_path)
    # four attempts of 1 s and their back-off do not fit in 5 s: the time limit ends the run, while
    # the call is failing, each request ended at its total deadline of 1 s (not renewed by each byte)
    assert summary["outcome"] == "time_limit", summary
    assert "the run's time limit was reached" in summary["error"], summary
    assert "no complete answer within 1 s" in summary["error"], summary
    (step,) = read_steps(tmp_path)
    assert step.calls and "no complete answer within 1 s" in (step.calls[-1].error or ""), step.calls
    assert 1 <= len(server.requests) < 4, len(server.requests)  # the retries stopped at the run's end


def test_eval_with_a_model_that_trickles_ends_each_call_at_the_model_timeout(tmp_path, monkeypatch, capsys):
    import sqlite3

    monkeypatch.setenv("FAULT_TEST_KEY", "k")
    out = tmp_path / "eval"
    with LocalChatServer(lambda r: Reply(trickle_s=0.5)) as server:
        t = time.monotonic()
        code = main(["eval", "--planner", "model", "--model", "gpt-4o-test", "--base-url", server.openai_base_url,
                     "--api-key-env", "FAULT_TEST_KEY", "--tasks", "settings-1", "--out", str(out),
                     "--model-timeout", "1"])
        took = time.monotonic() - t
    assert code in (0, 1) and took < hang_guard(12), took  # the answer trickles without end
    assert len(server.requests) == 4  # four attempts, each ended at its total deadline
    with sqlite3.connect(out / "results.sqlite") as db:
        ((outcome, error),) = db.execute("SELECT outcome, error FROM results").fetchall()
    assert outcome == "error" and "no complete answer within 1 s" in error, error
