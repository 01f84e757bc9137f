"""A full disk (a real small tmpfs) or a read-only folder: `run`, `eval` and `report` end with one
clear line naming the folder and what could not be written, exit 1, no traceback, and what was
stored before is kept (the finished steps; eval's database, which --resume continues)."""

from __future__ import annotations

import json
import sqlite3

from mobile_agent.agent.trajectory import read_steps
from mobile_agent.cli import main
from tests.faults.disks import grow, read_only_folder, small_disk
from tests.fakes.agent_harness import Script, react
from tests.fakes.chatserver import LocalChatServer

DARK_PLAN = [react("Open App (Settings)"), react("Click Text (Display)"), react("Click Text (Dark theme)"),
             react("Stop")]


def _run(server, out, *more):
    return main(["run", "Turn on the dark mode", "--model", "gpt-4o-test", "--base-url", server.openai_base_url,
                 "--api-key-env", "DISK_TEST_KEY", "--out", str(out), "--max-steps", "6", *more])


def test_run_on_a_disk_that_fills_up(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DISK_TEST_KEY", "k")
    with small_disk(tmp_path / "disk", 600) as disk, LocalChatServer(Script(DARK_PLAN)) as server:
        out = disk / "run"
        code = _run(server, out)
        text = "".join(capsys.readouterr()).replace("\n", "")  # the terminal wraps long paths
        assert code == 1, text
        assert "Traceback" not in text and "internal error" not in text
        assert "No space left on device" in text and str(out) in text, text
        steps = read_steps(out)  # the steps written before the disk filled are kept, whole
        assert steps and all((out / s.screenshot).exists() for s in steps)


def test_run_into_a_read_only_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DISK_TEST_KEY", "k")
    with read_only_folder(tmp_path / "ro") as ro, LocalChatServer(Script(DARK_PLAN)) as server:
        code = _run(server, ro / "run")
        err = capsys.readouterr().err.replace("\n", "")
    assert code == 1 and "Traceback" not in err
    assert "cannot create" in err and str(ro) in err, err


def test_eval_on_a_full_disk_keeps_its_database_and_resumes(tmp_path, capsys):
    with small_disk(tmp_path / "disk", 400) as disk:
        out = disk / "eval"
        args = ["eval", "--tasks", "settings-1", "--out", str(out)]
        first = main(args)
        text = "".join(capsys.readouterr()).replace("\n", "")  # the terminal wraps long paths
        assert first == 1 and "Traceback" not in text, text
        assert "No space left on device" in text and str(out) in text, text
        with sqlite3.connect(out / "results.sqlite") as db:  # the database is kept and readable
            assert db.execute("SELECT task_key FROM failures").fetchall() == [("settings-1",)]
        grow(disk, 64 * 1024)  # room again: --resume runs the task and writes every file
        second = main(args + ["--resume"])
        text = "".join(capsys.readouterr()).replace("\n", "")  # the terminal wraps long paths
        assert second == 0, text
        (cfg,) = [p for p in out.iterdir() if (p / "results.json").exists()]
        assert json.loads((cfg / "results.json").read_text())["tasks"][0]["success"]
        assert (out / "report.html").exists()


def test_eval_and_report_into_a_read_only_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DISK_TEST_KEY", "k")
    with LocalChatServer(Script([react("Stop")])) as server:
        assert _run(server, tmp_path / "run", "--no-completion-check") == 0
    capsys.readouterr()
    with read_only_folder(tmp_path / "ro") as ro:
        assert main(["eval", "--tasks", "settings-1", "--out", str(ro / "eval")]) == 1
        err = capsys.readouterr().err.replace("\n", "")
        assert "Traceback" not in err and "cannot create" in err and str(ro) in err, err
        assert main(["report", str(tmp_path / "run"), "--out", str(ro / "report.html")]) == 1
        err = capsys.readouterr().err.replace("\n", "")
        assert "Traceback" not in err and "cannot write report.html in " + str(ro) in err, err
        # a results file that cannot be written after the tasks ran: said, exit 1, database and report kept
        done = tmp_path / "eval"
        assert main(["eval", "--tasks", "settings-1", "--out", str(done), "--json", str(ro / "r.json")]) == 1
        out = capsys.readouterr().out.replace("\n", "")
        assert "Traceback" not in out and "cannot write r.json in " + str(ro) in out, out
        assert "--resume" in out and (done / "report.html").exists()
        with sqlite3.connect(done / "results.sqlite") as db:
            assert db.execute("SELECT task_key, success FROM results").fetchall() == [("settings-1", 1)]
