"""The Python API as a researcher meets it in a notebook: a clean namespace, an ``Agent`` whose help
documents its arguments (and nothing of the loop's insides), a run that writes ``report.html`` as the
CLI's does, an earlier run never overwritten by surprise, and hints a type checker reads (``py.typed``;
mypy checks the README's example)."""

from __future__ import annotations

import json
import os
import pydoc
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mobile_agent

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"

REPLIES = [
    "Observation: the home screen.\nThought: Settings holds it.\nAction: Open App (Settings)",
    "Observation: the Settings list.\nThought: that is what was asked.\nAction: Stop",
    "Verdict: complete\nReason: Settings is open",
]


def readme_example() -> str:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Python API", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)[0]


def test_the_namespace_holds_the_public_names_only():
    names = dir(mobile_agent)
    assert names == sorted(mobile_agent.__all__)
    assert not {"Any", "TYPE_CHECKING", "annotations", "importlib"} & set(names)
    assert {"Agent", "AgentSettings", "open_device", "Perception", "LLMPlanner", "RunResult"} <= set(names)


def test_help_of_agent_documents_its_arguments_and_nothing_of_the_loop():
    text = pydoc.render_doc(mobile_agent.Agent, renderer=pydoc.plaintext)
    for arg in ("device:", "planner:", "perception:", "settings:", "report:"):
        assert arg in text
    assert "Initialize self" not in text
    for inside in ("StepRun", "TrajectoryWriter", "Calls", " plan(", " ground(", " act(", " reflect(", " record("):
        assert inside not in text, inside
    assert "run(self, instruction" in text and "report.html" in text


def test_the_package_ships_its_type_marker():
    assert (SRC / "mobile_agent" / "py.typed").is_file()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'package-data\]\nmobile_agent = \[[^\]]*"py\.typed"', pyproject)
    assert re.search(r'"mypy==[\d.]+"', pyproject)  # the test extra pins the checker used below


def _run(out: Path, **settings):
    from mobile_agent import Agent, AgentSettings, LLMPlanner, ScriptedChatModel, open_device

    agent = Agent(open_device("sim"), LLMPlanner(ScriptedChatModel(list(REPLIES))), settings=AgentSettings(
        max_steps=4, settle_timeout_s=0.5, **settings))
    return agent.run("Open the settings", out)


def test_a_run_from_python_writes_its_report_and_keeps_an_earlier_run(tmp_path):
    from mobile_agent import ConfigError

    finished: list[Path] = []
    out = tmp_path / "runs" / "settings"
    result = _run(out, on_finish=lambda d: finished.append(Path(d)))
    assert result.outcome == "completed" and result.out_dir == out
    page = out / "report.html"
    assert page.is_file() and "Open the settings" in page.read_text(encoding="utf-8")
    assert finished == [out]  # the user's own on_finish still runs, after the report is written
    first = (out / "summary.json").read_text(encoding="utf-8")

    with pytest.raises(ConfigError, match="already holds a run"):
        _run(out)  # a notebook cell run again with the same folder
    assert (out / "summary.json").read_text(encoding="utf-8") == first

    again = _run(out, overwrite=True)
    assert again.outcome == "completed"
    assert json.loads((out / "summary.json").read_text())["started_at"] >= json.loads(first)["started_at"]


def test_the_cli_refuses_a_folder_that_holds_a_run(tmp_path):
    from tests.fakes.console import run_cli

    replies = tmp_path / "replies.txt"
    replies.write_text("\n---\n".join(REPLIES), encoding="utf-8")
    args = ["run", "Open the settings", "--model", f"scripted:{replies}", "--out", str(tmp_path / "run")]
    assert run_cli(*args).returncode == 0
    done = run_cli(*args)
    assert done.returncode == 2 and "already holds a run" in done.stderr and "--overwrite" in done.stderr
    assert run_cli(*args, "--overwrite").returncode == 0


def _mypy(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e \".[test]\"")
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    env = dict(os.environ, MYPYPATH=str(SRC))
    return subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--check-untyped-defs",
                           "--no-error-summary", "--cache-dir", str(tmp_path / ".mypy_cache"), str(script)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


def test_mypy_accepts_the_readme_example_and_sees_a_wrong_argument(tmp_path):
    code = readme_example()
    done = _mypy(code + "\nreveal_type(result)\n", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'Revealed type is "mobile_agent.agent.loop.RunResult"' in done.stdout
    wrong = code.replace("AgentSettings(max_steps=5", 'AgentSettings(max_steps="5"')
    assert wrong != code
    done = _mypy(wrong, tmp_path)
    assert done.returncode == 1 and 'Argument "max_steps" to "AgentSettings" has incompatible type "str"' in done.stdout


def test_the_step_loops_old_name_still_works_with_a_warning():
    """``mobile_agent.agent.Agent`` (documented before as the step loop) is ``StepLoop`` now; the old
    name gives the same class and says where it went; the public ``mobile_agent.Agent`` is another."""
    import mobile_agent.agent
    import mobile_agent.agent.loop
    from mobile_agent.agent import StepLoop

    for module in (mobile_agent.agent, mobile_agent.agent.loop):
        with pytest.warns(DeprecationWarning, match=r"mobile_agent\.agent\.StepLoop"):
            assert module.Agent is StepLoop
        with pytest.raises(AttributeError, match="no attribute 'Agnet'"):
            module.Agnet  # noqa: B018
    with pytest.warns(DeprecationWarning):
        from mobile_agent.agent import Agent
    assert Agent is StepLoop and mobile_agent.Agent is not StepLoop
    assert "Agent" not in mobile_agent.agent.__all__ and "StepLoop" in mobile_agent.agent.__all__
