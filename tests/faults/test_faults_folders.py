"""`run --out` refuses a folder that holds another run (its screenshots would be mixed in) and locks
the folder while it runs (a second run at the same time is refused, naming the process)."""

from __future__ import annotations

import pytest

from mobile_agent.errors import ConfigError

import os
import subprocess
import sys
import time

from PIL import Image

from mobile_agent.agent.trajectory import TrajectoryWriter
from mobile_agent.cli import main
from tests.fakes.agent_harness import Script, react
from tests.fakes.chatserver import LocalChatServer, Reply

CLI = "import sys\nfrom mobile_agent.cli import main\nsys.exit(main(sys.argv[1:]))"


def _run(server, out):
    return main(["run", "Go back", "--model", "gpt-4o-test", "--base-url", server.openai_base_url, "--api-key-env",
                 "FOLDER_TEST_KEY", "--out", str(out), "--max-steps", "1", "--no-completion-check"])


def test_run_refuses_a_folder_that_holds_another_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FOLDER_TEST_KEY", "k")
    out = tmp_path / "run"
    with LocalChatServer(Script([react("Stop")])) as server:
        assert _run(server, out) == 0
        before = sorted(p.name for p in out.rglob("*"))
        capsys.readouterr()
        assert _run(server, out) == 2
        assert len(server.requests) == 1  # refused before any work
    err = capsys.readouterr().err.replace("\n", "")
    assert "already holds a run" in err and "summary.json" in err and "Traceback" not in err
    assert sorted(p.name for p in out.rglob("*")) == before  # the earlier run is untouched
    (tmp_path / "file").write_text("x")
    assert _run(server, tmp_path / "file") == 2 and "is a file" in capsys.readouterr().err


def test_a_second_run_on_a_folder_in_use_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FOLDER_TEST_KEY", "k")
    out = tmp_path / "run"
    with LocalChatServer(lambda r: Reply(hang=True)) as server:
        first = subprocess.Popen(
            [sys.executable, "-c", CLI, "run", "Go back", "--model", "gpt-4o-test", "--base-url",
             server.openai_base_url, "--api-key-env", "FOLDER_TEST_KEY", "--out", str(out)],
            env={**os.environ, "FOLDER_TEST_KEY": "k"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while not server.requests and time.monotonic() < deadline:
                time.sleep(0.1)
            assert server.requests
            assert _run(server, out) == 2
            err = capsys.readouterr().err.replace("\n", "")
            assert "another run is using" in err and f"process {first.pid}" in err, err
        finally:
            first.kill()
            first.wait()


def test_a_rerun_into_a_folder_starts_without_the_earlier_screens(tmp_path):
    w = TrajectoryWriter(tmp_path)
    w.save_screen("step_007", Image.new("RGB", (8, 8)))
    w.write_summary({"outcome": "completed"})
    with pytest.raises(ConfigError, match="already holds a run"):
        TrajectoryWriter(tmp_path)  # never mixed with the earlier run by surprise
    TrajectoryWriter(tmp_path, overwrite=True)  # a benchmark task run again into its folder
    assert not (tmp_path / "screens" / "step_007.png").exists() and not (tmp_path / "summary.json").exists()
