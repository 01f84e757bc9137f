"""The benchmark keeps no *_annotated.png copies (its pages draw the gesture over the screenshot
themselves); a run keeps them unless told not to."""

from __future__ import annotations

from mobile_agent.agent.trajectory import read_steps
from mobile_agent.bench.runner import EvalConfig, run_eval
from mobile_agent.bench.suite import select


def test_the_benchmark_keeps_no_annotated_copies(tmp_path):
    run = run_eval(EvalConfig(), select(ids=["settings-1"]), tmp_path)
    assert run.complete and run.rows[0].success
    traj = tmp_path / run.config_id / "settings-1"
    shots = sorted(p.name for p in (traj / "screens").iterdir())
    assert "step_001.png" in shots and not [s for s in shots if s.endswith("_annotated.png")]
    steps = read_steps(traj)
    assert steps and all(s.annotated is None for s in steps)
    page = (traj / "report.html").read_text(encoding="utf-8")
    assert "screens/step_001.png" in page and 'class="tap"' in page  # the page draws the tap itself
