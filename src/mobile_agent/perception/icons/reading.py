"""What glyph an icon box shows, read with a perception's icon matcher.

The confirm gates read the glyph under a tap whatever the call named it: the agent's risk rules
(``agent/risk.glyph_at``: is it a trash can, a paper plane?) and the MCP server's confirm gate
(``mcpserver/gates.glyph_names``). Both score the box against a list of the matcher's words;
:func:`glyph_scores` is that reading, written once.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mobile_agent.types import Box


def glyph_scores(perception: Any, rgb: np.ndarray, box: Box, words: Sequence[str]) -> list[tuple[float, str]]:
    """The perception's icon matcher's score (0..1) of the glyph in ``box`` for each of ``words``
    the matcher knows, best first. Empty where the perception has no shape matcher, the box is
    empty, or the matcher cannot score it (it then says nothing about the box)."""
    matcher = getattr(perception, "matcher", None)
    score = getattr(matcher, "score", None)
    if score is None or box.is_empty() or not len(words):
        return []
    knows = getattr(matcher, "knows", lambda d: True)
    out = []
    try:
        for word in words:
            if knows(word):
                (s,) = score(rgb, [box], word)
                out.append((float(s), word))
    except Exception:  # noqa: BLE001 - a matcher that cannot score a box says nothing about it
        return []
    out.sort(key=lambda p: -p[0])
    return out
