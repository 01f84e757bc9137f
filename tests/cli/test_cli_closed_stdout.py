"""A reader that closes the command's output early (``mobile-agent run ... | head -1``) does not stop
the run (issue 51, item 11): the task is carried out to its end, ``summary.json`` and the report are
written, and the exit status is the run's own (click alone exits 1 with no message on ``EPIPE``).
Real parts: the ``mobile-agent`` entry point in a child process, its standard output a real pipe
closed after the first line, the simulated phone, replies from a file."""

from __future__ import annotations

import json
import subprocess
import sys

ENTRY = "import sys\nfrom mobile_agent.cli import console_main\nsys.argv[0] = 'mobile-agent'\nconsole_main()"
REPLIES = "Observation: home\nThought: open\nAction: Open App (Notes)\n---\nObservation: notes\nThought: done\nAction: Stop\n"


def test_run_piped_into_head_carries_out_the_task_and_writes_its_summary(tmp_path):
    (tmp_path / "replies.txt").write_text(REPLIES, encoding="utf-8")
    out = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-c", ENTRY, "run", "Open notes", "--model", "scripted:replies.txt",
                              "--no-completion-check", "--out", str(out)], cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env={**__import__("os").environ, "COLUMNS": "200"})
    first = child.stdout.readline()
    child.stdout.close()  # as head -1 does: every later line meets a closed pipe
    _, err = child.communicate(timeout=300)
    assert b"Open notes" in first
    assert child.returncode == 0, err.decode(errors="replace")
    assert b"Traceback" not in err and b"BrokenPipe" not in err
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["outcome"] == "completed" and summary["steps"] == 2
    assert (out / "report.html").is_file()
