"""The role prompts of the multi-agent mode, one file per role (``manager.txt``, ``executor.txt``,
``verifier.txt``). A backslash at the end of a line joins it to the next, as in Python strings."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

ROLES = ("manager", "executor", "verifier")


@lru_cache(maxsize=None)
def system_prompt(role: str) -> str:
    """The system prompt of ``role`` (one of :data:`ROLES`)."""
    if role not in ROLES:
        raise ValueError(f"no prompt for role {role!r}: roles are {', '.join(ROLES)}")
    text = resources.files(__name__).joinpath(f"{role}.txt").read_text(encoding="utf-8")
    return text.replace("\\\n", "")
