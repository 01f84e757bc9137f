"""The README's set-up is what CI does: a virtual environment, the same two commands, and every system
part CI installs named in the README with what needs it and how to install it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.fakes import system

ROOT = Path(__file__).resolve().parents[1]


def _setup() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8").split("## Set-up", 1)[1].split("\n## ", 1)[0]


def _ci_packages() -> list[str]:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = re.search(r"apt-get install ([^>]*)>", ci.replace("\\\n", " ")).group(1)
    return [w for w in command.split() if not w.startswith("-")]


def test_the_setup_uses_a_virtual_environment_and_the_commands_ci_runs():
    setup = _setup()
    block = re.search(r"```bash\n(.*?)```", setup, re.DOTALL).group(1)
    assert "python3 -m venv .venv" in block and ". .venv/bin/activate" in block
    assert "externally-managed-environment" in setup
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m venv .venv" in ci
    assert 'pip install -e ".[test]"' in block and 'pip install -q -e ".[test]"' in ci
    assert "python -m pytest -n 2" in block and "python -m pytest -n 2" in ci
    for figure in ("GB", "minutes", "memory"):  # what to expect
        assert figure in setup


def test_every_system_part_ci_installs_is_in_the_readme():
    setup = _setup()
    table = [line for line in setup.splitlines() if line.startswith("| ")]
    listed = " ".join(table)
    for package in _ci_packages():
        if package == "python3-venv":
            assert "sudo apt-get install python3-venv" in setup
            continue
        assert re.search(rf"apt-get install [^`]*\b{re.escape(package)}\b", listed), package


def test_every_part_the_tests_skip_without_is_in_the_readme_and_in_ci():
    setup = _setup()
    packages = set(_ci_packages())
    for part in system.PARTS.values():
        debian = part.debian.removeprefix("sudo apt-get install ").split()
        assert set(debian) <= packages, part.name
        for package in debian:
            assert re.search(rf"sudo apt-get install [^`]*\b{re.escape(package)}\b", setup), (part.name, package)
