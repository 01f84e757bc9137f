"""``--model-family`` through the real ``mobile-agent`` console script: an unknown family is a usage
error naming the families, before any work; ``eval --planner oracle --model-family F`` runs a task
through the family's adapter."""

from __future__ import annotations

import json

from tests.fakes.console import run_cli


def test_run_with_an_unknown_family_exits_2_naming_the_families(tmp_path):
    done = run_cli("run", "Turn on the dark mode", "--model", "gpt-4o", "--model-family", "tars",
                   "--out", str(tmp_path / "run"))
    assert done.returncode == 2, done.stderr
    text = " ".join((done.stdout + done.stderr).split())
    assert "unknown model family 'tars'; families: ui-tars-1.5, ui-tars-v1, autoglm-phone" in text
    assert not (tmp_path / "run" / "summary.json").exists()


def test_eval_oracle_in_a_family_s_format(tmp_path):
    done = run_cli("eval", "--planner", "oracle", "--model-family", "ui-venus-1.5", "--tasks", "settings-1",
                   "--out", str(tmp_path), "--json", str(tmp_path / "r.json"))
    assert done.returncode == 0, done.stderr
    assert "SU 1/1" in done.stdout
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["config"]["model_family"] == "ui-venus-1.5"


def test_run_with_a_served_name_that_does_not_say_the_version_stops_before_the_first_step(tmp_path):
    done = run_cli("run", "Turn on the dark mode", "--model", "ui-tars", "--base-url", "http://127.0.0.1:9/v1",
                   "--out", str(tmp_path / "run"), OPENAI_API_KEY="local")
    text = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 2, text
    assert "could be ui-tars-1.5 or ui-tars-v1" in text and "--model-family" in text
    assert not (tmp_path / "run" / "steps.jsonl").exists()
