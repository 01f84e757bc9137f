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
