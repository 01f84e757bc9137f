"""``mobile-agent run`` asking the person at the terminal: the installed console script in a real
subprocess, the localhost chat server as the model; a pseudo-terminal as the person's terminal, and
no terminal at all (the run ends needs_user, exit 3, the question in summary.json)."""

from __future__ import annotations

import json
import os
import pty
import subprocess

from tests.fakes.agent_harness import Script, plan_requests, react
from tests.fakes.chatserver import LocalChatServer
from tests.fakes.console import cli_env, console_script

QUESTION = "Which Anna: Anna Li or Anna Wong? \x1b[2J\x1b[31m[bold]red[/bold]"


def _run(server, out, *extra: str, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [console_script(), "run", "Message Anna", "--model", "gpt-4o-test", "--base-url", server.openai_base_url,
         "--api-key-env", "ASK_TEST_KEY", "--out", str(out), "--max-steps", "3", "--perception", "vision", *extra],
        env=cli_env(200, ASK_TEST_KEY="k"), stdin=stdin, capture_output=True, text=True, timeout=240)


def test_with_no_terminal_the_run_ends_needs_user_exit_3_with_the_question_escaped_and_in_the_summary(tmp_path):
    out = tmp_path / "run"
    with LocalChatServer(Script([react(f"Ask User ({QUESTION})")])) as server:
        proc = _run(server, out)
    text = proc.stdout + proc.stderr
    assert proc.returncode == 3, text
    assert "Traceback" not in text and "\x1b" not in text
    assert "needs the user" in text and "The agent asks: Which Anna: Anna Li or Anna Wong? \\x1b[2J\\x1b[31m" \
        "[bold]red[/bold]" in text  # shown as written: no escape sequence, no markup
    assert "needs_user" in text
    summary = json.loads((out / "summary.json").read_text())
    assert summary["outcome"] == "needs_user" and summary["completed"] is False
    assert summary["needs_user"] == {"kind": "question", "text": QUESTION, "step": 1}
    assert (out / "report.html").exists()


def test_the_person_at_the_terminal_answers_and_the_run_goes_on(tmp_path):
    out = tmp_path / "run"
    master, slave = pty.openpty()
    try:
        os.write(master, b"Anna Li\n")  # typed at the terminal; read when the question is asked
        with LocalChatServer(Script([react("Ask User (Which Anna?)"), react("Stop")])) as server:
            proc = _run(server, out, stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    text = proc.stdout + proc.stderr
    assert proc.returncode == 0, text
    assert "The agent asks: Which Anna?" in text and "Your answer" in text
    assert '-> the user answered "Anna Li" (the user\'s own words' in plan_requests(server)[1].text
    steps = [json.loads(line) for line in (out / "steps.jsonl").read_text().splitlines()]
    assert steps[0]["user"]["answer"] == "Anna Li"
    assert json.loads((out / "summary.json").read_text())["outcome"] == "completed"


def test_no_ask_offers_neither_operation(tmp_path):
    with LocalChatServer(Script([react("Stop")])) as server:
        proc = _run(server, tmp_path / "run", "--no-ask")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    system = plan_requests(server)[0].body["messages"][0]["content"]
    assert "Ask User" not in system and "Take Over" not in system and "Click Text" in system


def test_run_live_asks_in_the_page_and_the_answer_posted_there_goes_on(tmp_path):
    """``run --live``: the question shows in the live view (and the terminal says where to answer);
    the answer posted to the page's server reaches the run."""
    import re
    import time
    import urllib.request

    out = tmp_path / "run"
    with LocalChatServer(Script([react("Ask User (Which Anna?)"), react("Stop")])) as server:
        proc = subprocess.Popen(
            [console_script(), "run", "Message Anna", "--model", "gpt-4o-test", "--base-url", server.openai_base_url,
             "--api-key-env", "ASK_TEST_KEY", "--out", str(out), "--max-steps", "3", "--perception", "vision",
             "--live"],
            env=cli_env(200, ASK_TEST_KEY="k", PYTHONUNBUFFERED="1"), stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            url = None
            seen = []
            assert proc.stdout is not None
            while url is None:
                line = proc.stdout.readline()
                assert line, "".join(seen)
                seen.append(line)
                m = re.search(r"live view at (http://127\.0\.0\.1:\d+/)", line)
                url = m.group(1) if m else None
            question = None
            end = time.monotonic() + 120
            while question is None and time.monotonic() < end:
                with urllib.request.urlopen(url + "api/state", timeout=5) as r:
                    question = json.loads(r.read())["question"]
                time.sleep(0.1)
            assert question == {"id": 1, "kind": "question", "text": "Which Anna?", "step": 1}
            req = urllib.request.Request(url + "api/answer", data=json.dumps({"id": 1, "answer": "Anna Li"}).encode(),
                                         headers={"Content-Type": "application/json", "Origin": url.rstrip("/")})
            with urllib.request.urlopen(req, timeout=5) as r:
                assert r.status == 200
            rest, _ = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
        text = "".join(seen) + rest
    assert proc.returncode == 0, text
    assert f"The agent asks: Which Anna?  (answer in the live view: {url})" in text
    assert '-> the user answered "Anna Li"' in plan_requests(server)[1].text


def test_end_of_input_at_the_question_is_no_answer(tmp_path):
    out = tmp_path / "run"
    master, slave = pty.openpty()
    try:
        os.write(master, b"\x04")  # Ctrl-D at the terminal: the end of input
        with LocalChatServer(Script([react("Take Over (sign in, please)")])) as server:
            proc = _run(server, out, stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    text = proc.stdout + proc.stderr
    assert proc.returncode == 3, text
    assert "The agent hands the phone to you: sign in, please" in text and "no answer" in text
    assert "Traceback" not in text
    assert json.loads((out / "summary.json").read_text())["needs_user"]["kind"] == "take_over"


def test_ctrl_c_at_the_question_interrupts_the_run(tmp_path):
    import signal
    import time

    out = tmp_path / "run"
    master, slave = pty.openpty()
    try:
        with LocalChatServer(Script([react("Ask User (Which Anna?)")])) as server:
            proc = subprocess.Popen(
                [console_script(), "run", "Message Anna", "--model", "gpt-4o-test", "--base-url",
                 server.openai_base_url, "--api-key-env", "ASK_TEST_KEY", "--out", str(out), "--max-steps", "3",
                 "--perception", "vision"],
                env=cli_env(200, ASK_TEST_KEY="k", PYTHONUNBUFFERED="1"), stdin=slave, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True)
            try:
                assert proc.stdout is not None
                seen = []
                while not any("The agent asks: Which Anna?" in line for line in seen):
                    line = proc.stdout.readline()
                    assert line, "".join(seen)
                    seen.append(line)
                time.sleep(0.5)  # at the prompt
                proc.send_signal(signal.SIGINT)
                rest, _ = proc.communicate(timeout=60)
            finally:
                if proc.poll() is None:
                    proc.kill()
    finally:
        os.close(slave)
        os.close(master)
    text = "".join(seen) + rest
    assert proc.returncode == 1, text
    assert "Traceback" not in text
    summary = json.loads((out / "summary.json").read_text())
    assert summary["outcome"] == "interrupted" and "needs_user" not in summary
