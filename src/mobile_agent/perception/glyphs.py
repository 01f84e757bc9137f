"""What glyph an icon box shows, for a confirm gate: the one reading both gates make of the box
under a tap, the agent's risk rules (``agent/risk.glyph_at``: a trash can, a paper plane?) and the
MCP server's confirm gate (``mcpserver/gates.glyph_names``). Each gate brings its own words and
bounds; what a reading is (the status bar left out, the matcher's scores, the least score, rival
glyphs that outscore the best word, the words within a margin of it) is written here once. The
scores themselves: :func:`mobile_agent.perception.icons.reading.glyph_scores`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from mobile_agent.perception.change import status_bar_height
from mobile_agent.perception.icons.reading import glyph_scores
from mobile_agent.types import Box


@dataclass(frozen=True)
class GlyphReading:
    """The words a glyph reads as, best first (the best word and those within the margin of it),
    and the best word's score (the matcher's 0..1)."""

    words: tuple[str, ...]
    score: float

    @property
    def word(self) -> str:
        return self.words[0]


def read_glyph(perception: Any, rgb: np.ndarray, box: Box, words: Sequence[str], *, min_score: float,
               margin: float = 0.0, rivals: Sequence[str] = (), status_bar: float | None = None) -> GlyphReading | None:
    """What the glyph in ``box`` of ``rgb`` reads as among ``words``, or None: when the box lies in
    the status bar (its bottom at or above ``status_bar`` rows; by default the perception's
    :func:`~mobile_agent.perception.change.status_bar_height`: a battery is no trash can), the
    perception has no shape matcher, no word scores ``min_score``, or one of ``rivals`` (other
    glyphs, scored only once a word passed) scores above the best word."""
    height, width = rgb.shape[:2]
    if box.y2 <= (status_bar_height(height, width) if status_bar is None else status_bar):
        return None
    scores = glyph_scores(perception, rgb, box, words)
    if not scores or scores[0][0] < min_score:
        return None
    best = scores[0][0]
    if rivals:
        others = glyph_scores(perception, rgb, box, rivals)
        if others and others[0][0] > best:
            return None
    return GlyphReading(tuple(w for s, w in scores if s >= best - margin), best)
