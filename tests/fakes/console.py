"""The ``mobile-agent`` console script as a user runs it: the installed entry point in a real
subprocess, with this checkout's ``src`` first on the path (so an editable or a plain install runs the
code under test)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"


def console_script() -> str:
    """The path of the ``mobile-agent`` script beside this Python, else on PATH."""
    name = "mobile-agent.exe" if os.name == "nt" else "mobile-agent"
    beside = Path(sys.executable).parent / name
    if beside.is_file():
        return str(beside)
    found = shutil.which("mobile-agent")
    if found is None:
        raise RuntimeError("the mobile-agent console script is not installed: pip install -e \".[test]\"")
    return found


def cli_env(columns: int = 80, **extra: str | None) -> dict[str, str]:
    """The environment of a run: this checkout's ``src`` first, a terminal ``columns`` wide; a value of
    None in ``extra`` removes that variable."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["COLUMNS"] = str(columns)
    env.pop("FORCE_COLOR", None)
    for key, value in extra.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run_cli(*args: str, cwd: str | Path | None = None, timeout: float = 300, columns: int = 80,
            **env: str | None) -> subprocess.CompletedProcess[str]:
    """``mobile-agent ARGS...``: its exit status, stdout and stderr."""
    return subprocess.run([console_script(), *args], cwd=cwd, env=cli_env(columns, **env), capture_output=True,
                          text=True, timeout=timeout)
