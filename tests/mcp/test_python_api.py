"""The documented Python API: the README's example runs as printed, and ``import mobile_agent``
stays light (each public name loads its layer on first use)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_helpers import cli_env

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Python API", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert blocks, "the Python API section has no python example"
    return blocks[0]


def test_the_readme_example_runs_on_the_simulated_phone(tmp_path):
    code = readme_example()
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=cli_env(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines == ["1 Open App (Settings) tap", "2 Click Text (Display) tap", "3 Stop none",
                     "completed 3 runs/display"], done.stdout
    summary = json.loads((tmp_path / "runs" / "display" / "summary.json").read_text())
    assert summary["outcome"] == "completed" and summary["steps"] == 3
    # what the README says the example prints
    readme = README.read_text(encoding="utf-8")
    for line in lines:
        assert f"`{line}`" in readme


def test_import_is_light_and_names_load_on_use():
    code = (
        "import sys, json, mobile_agent\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('PIL', 'numpy', 'cv2', 'onnxruntime', 'openai',"
        " 'anthropic', 'mcp') or m.startswith('mobile_agent.')]\n"
        "from mobile_agent import Agent, open_device, Perception\n"
        "import mobile_agent.device, mobile_agent.perception\n"
        "import mobile_agent.api\n"
        "same = [Agent is mobile_agent.api.Agent, open_device is mobile_agent.device.open_device,"
        " Perception is mobile_agent.perception.Perception]\n"
        "try:\n    mobile_agent.Nonsense\n    missing = None\nexcept AttributeError as e:\n    missing = str(e)\n"
        "print(json.dumps({'heavy': heavy, 'same': same, 'missing': missing, 'all': mobile_agent.__all__}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=cli_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["heavy"] == []
    assert out["same"] == [True, True, True]
    assert "Nonsense" in out["missing"]
    assert {"Agent", "open_device", "Perception", "AgentSettings", "ScriptedChatModel"} <= set(out["all"])


@pytest.mark.parametrize("name", ["Agent", "AgentSettings", "RunResult", "LLMPlanner", "open_device", "Perception",
                                  "ScriptedChatModel", "make_chat_model", "MobileAgentError", "Box"])
def test_every_public_name_resolves(name):
    import mobile_agent

    assert name in mobile_agent.__all__ and name in dir(mobile_agent)
    assert getattr(mobile_agent, name) is not None
