"""The README's offline run, as a new user types it: ``run ... --model scripted:replies.txt`` with the
replies file the README shows completes (exit 0); without its last reply, the completion check's
``Verdict: complete``, the run ends with exit 1 saying the scripted model had no reply left, and
``--no-completion-check`` needs no verdict."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from mobile_agent.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _readme_usage() -> tuple[list[str], str]:
    """The README's scripted ``run`` command (its words) and the replies file it shows."""
    usage = (ROOT / "README.md").read_text(encoding="utf-8").split("## Usage", 1)[1].split("\n## ", 1)[0]
    line = next(l for l in usage.splitlines() if l.startswith("mobile-agent run") and "scripted:replies.txt" in l)
    words = shlex.split(line.split("#", 1)[0])
    replies = re.search(r"The `replies.txt` of the command above:\n\n```text\n(.*?)```", usage, re.DOTALL)
    assert replies, "the README shows the replies file of its scripted run"
    return words[1:], replies.group(1)


@pytest.mark.parametrize("verdict,options,code,outcome", [
    (True, [], 0, "completed"),
    (False, [], 1, "error"),
    (False, ["--no-completion-check"], 0, "completed"),
], ids=["as-in-the-readme", "without-the-verdict", "without-the-verdict-no-check"])
def test_the_readmes_scripted_run(tmp_path, capsys, verdict, options, code, outcome):
    words, replies = _readme_usage()
    assert words[:1] == ["run"] and "--model" in words
    if not verdict:
        assert replies.rstrip().splitlines()[-2].startswith("Verdict: complete")
        replies = replies.rstrip().rsplit("\n---\n", 1)[0] + "\n"
    (tmp_path / "replies.txt").write_text(replies, encoding="utf-8")
    model = words.index("--model") + 1
    words[model] = f"scripted:{tmp_path / 'replies.txt'}"
    out = tmp_path / "run"
    assert main([*words, "--device", "sim", "--out", str(out), "--max-steps", "5", *options]) == code
    summary = json.loads((out / "summary.json").read_text())
    assert summary["outcome"] == outcome, summary
    assert summary["steps"] == 3
    if code:
        assert "the scripted model has no reply left" in summary["error"], summary
        assert "no reply left" in capsys.readouterr().out
