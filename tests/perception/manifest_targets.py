"""A target's box in a real-screen folder's manifest.jsonl (SOURCE.md's format), for tests that ask
perception about one target of one screen."""

from __future__ import annotations

import json
from pathlib import Path

from mobile_agent.types import Box


def target_box(folder: Path, name: str, text: str) -> Box:
    """The box of the target ``text`` on the screen ``img/NAME.png`` of ``folder``'s manifest."""
    for line in (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d["image"] == f"img/{name}.png" and d["target"] == text:
            return Box(*d["bbox"])
    raise AssertionError(f"no target {text!r} on {name} in {folder / 'manifest.jsonl'}")
