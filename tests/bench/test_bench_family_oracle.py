"""The oracle speaking a family's format: ``eval --planner oracle --model-family F`` runs Mobile-Eval
through the family's writer and its own parser (points in its coordinates), and the configuration is
its own (stored apart from the plain oracle's)."""

from __future__ import annotations

import json

import pytest

from mobile_agent.bench.runner import EvalConfig, run_eval
from mobile_agent.bench.suite import select
from mobile_agent.errors import ConfigError

KEYS = ["settings-1", "notes-1"]


@pytest.mark.parametrize("family", ["autoglm-phone", "qwen2.5-vl"])
def test_the_oracle_in_a_family_s_format_completes_tasks_through_its_adapter(family, tmp_path):
    result = run_eval(EvalConfig(model_family=family), select(ids=KEYS), tmp_path, workers=1)
    assert [r.task_key for r in result.rows] == KEYS and all(r.success for r in result.rows)
    assert result.config_id != run_eval(EvalConfig(), [], tmp_path / "plain", workers=1).config_id
    lines = [json.loads(ln) for ln in (tmp_path / result.config_id / "settings-1" / "steps.jsonl").open()]
    assert [ln["operation"]["op"] for ln in lines] == ["Open App", "Tap", "Tap", "Stop"]
    raw = lines[1]["model"]["raw"]
    assert ('do(action="Tap", element=[' in raw) if family == "autoglm-phone" else ('"action": "click"' in raw)
    assert lines[1]["grounding"]["candidates"][0]["text"] == "Display"


def test_an_unknown_family_is_refused_naming_the_families():
    with pytest.raises(ConfigError, match="unknown model family 'gpt'; families: ui-tars-1.5"):
        EvalConfig(model_family="gpt")
    with pytest.raises(ConfigError, match="--model-family goes with --planner oracle, noisy, model or scripted"):
        EvalConfig(planner="model", model="gpt-4o", mode="multi", model_family="mai-ui")
    assert "model_family" not in EvalConfig().identity()  # the stored configurations keep their ids


def test_an_adapter_mapping_by_another_convention_than_its_authors_fails_the_oracle(tmp_path, monkeypatch):
    """The oracle writes points by the authors' conventions (bench/family_conventions.py), not by the adapter:
    UI-Venus-Navi read on a 0-1000 grid (what the adapter did before issue 50) taps elsewhere."""
    from mobile_agent.agent.families import FAMILIES

    navi = FAMILIES["ui-venus-navi"]
    ok = run_eval(EvalConfig(model_family="ui-venus-navi"), select(ids=["settings-1"]), tmp_path / "ok", workers=1)
    assert ok.rows[0].success
    monkeypatch.setattr(navi, "coordinates", "relative")
    monkeypatch.setattr(navi, "scale", 1000)
    wrong = run_eval(EvalConfig(model_family="ui-venus-navi"), select(ids=["settings-1"]), tmp_path / "wrong",
                     workers=1)
    assert not wrong.rows[0].success
