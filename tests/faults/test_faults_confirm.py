"""--confirm with no terminal on standard input: the risky step is declined, the run says so and
ends with its own outcome (no "Abort" traceback), and nothing is touched."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.fakes.agent_harness import Script, react
from tests.fakes.chatserver import LocalChatServer

CLI = "import sys\nfrom mobile_agent.cli import main\nsys.exit(main(sys.argv[1:]))"


def test_confirm_without_a_terminal_declines_and_says_so(tmp_path):
    out = tmp_path / "run"
    with LocalChatServer(Script([react("Type (see you at 5\\n)")])) as server:
        proc = subprocess.run(
            [sys.executable, "-c", CLI, "run", "Reply to Ann", "--model", "gpt-4o-test", "--base-url",
             server.openai_base_url, "--api-key-env", "CONFIRM_TEST_KEY", "--out", str(out), "--confirm",
             "--max-steps", "2"],
            env={**os.environ, "CONFIRM_TEST_KEY": "k", "COLUMNS": "200"}, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=120)
    text = proc.stdout + proc.stderr
    assert proc.returncode == 1, text
    assert "Traceback" not in text and "Abort" not in text
    assert "declined" in text and "not a terminal" in text
    summary = json.loads((out / "summary.json").read_text())
    assert summary["outcome"] == "interrupted" and "declined" in summary["error"]
    assert (out / "report.html").exists()


def _confirm_run(server, out, stdin, **popen):
    from tests.fakes.console import cli_env, console_script

    return subprocess.Popen(
        [console_script(), "run", "Reply to Ann", "--model", "gpt-4o-test", "--base-url", server.openai_base_url,
         "--api-key-env", "CONFIRM_TEST_KEY", "--out", str(out), "--confirm", "--max-steps", "2",
         "--perception", "vision"],
        env=cli_env(200, CONFIRM_TEST_KEY="k", PYTHONUNBUFFERED="1"), stdin=stdin, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, **popen)


def test_end_of_input_at_the_confirm_question_declines(tmp_path):
    """Ctrl-D at the question (issue 42 item 3): a no, not a traceback with outcome error."""
    import pty

    out = tmp_path / "run"
    master, slave = pty.openpty()
    try:
        os.write(master, b"\x04")  # Ctrl-D at the terminal: the end of input
        with LocalChatServer(Script([react("Type (see you at 5\\n)")])) as server:
            proc = _confirm_run(server, out, slave, text=True)
            text, _ = proc.communicate(timeout=240)
    finally:
        os.close(slave)
        os.close(master)
    assert proc.returncode == 1, text
    assert "Traceback" not in text and "Abort" not in text
    assert "Carry out Type" in text and "declined: no answer (end of input)" in text
    summary = json.loads((out / "summary.json").read_text())
    assert summary["outcome"] == "interrupted" and "declined" in summary["error"]
    assert (out / "report.html").exists()


def test_ctrl_c_at_the_confirm_question_interrupts_the_run(tmp_path):
    import pty
    import signal
    import time

    out = tmp_path / "run"
    master, slave = pty.openpty()
    try:
        with LocalChatServer(Script([react("Type (see you at 5\\n)")])) as server:
            proc = _confirm_run(server, out, slave)
            try:
                assert proc.stdout is not None
                seen = b""
                while b"Carry out" not in seen:  # the prompt has no line end: read what comes
                    chunk = os.read(proc.stdout.fileno(), 4096)
                    assert chunk, seen.decode(errors="replace")
                    seen += chunk
                time.sleep(0.5)  # at the prompt
                proc.send_signal(signal.SIGINT)
                rest, _ = proc.communicate(timeout=60)
            finally:
                if proc.poll() is None:
                    proc.kill()
    finally:
        os.close(slave)
        os.close(master)
    text = (seen + rest).decode(errors="replace")
    assert proc.returncode == 1, text
    assert "Traceback" not in text and "Abort" not in text
    summary = json.loads((out / "summary.json").read_text())
    assert summary["outcome"] == "interrupted" and "Ctrl-C" in summary["error"], summary
    assert (out / "report.html").exists()
