"""What a tap would touch, for the server's confirm gate: the glyph an icon shows, and every label
that lies under a point (the ui tree's nodes, OCR's lines, detected icons).

A tap is judged by what is there, never by the words of the call: ``tap_icon("dustbin")`` that
lands on a trash can is a tap on a trash can, and a tap at (x, y) on Mail's paper plane is a tap on
Send, whether the client named it or not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from mobile_agent.perception.elements import Element, parse_elements, smallest_at
from mobile_agent.perception.glyphs import read_glyph
from mobile_agent.types import Box

#: What an icon's glyph may be, as the icon matcher's words. The gate takes the best of these for a
#: box; the risky ones (send, trash, share, reply, forward, upload, download, cart...) name an act of
#: the confirm words (agent/risk.py), the others keep a benign glyph from being read as a risky one.
GLYPH_WORDS = ("search", "settings", "heart", "comment", "share", "plus", "back", "send", "cart", "play",
               "microphone", "menu", "more", "close", "check", "star", "bell", "edit", "trash", "home", "camera",
               "image", "user", "phone", "mail", "location", "download", "upload", "filter", "calendar", "clock",
               "lock", "refresh", "info", "eye", "link", "attach", "emoji", "copy", "bookmark", "folder", "archive",
               "inbox", "reply", "forward", "battery", "wifi", "bluetooth", "sun", "moon", "globe", "music",
               "video", "map", "store", "wallet", "card", "gift", "tag", "flag", "list", "grid", "keyboard",
               "power", "palette", "storage", "display", "notification", "contacts", "file")
#: The top of the screen where the status bar's glyphs are (a battery is no trash can): not judged.
STATUS_BAR = 0.03
#: A glyph counts as what it best matches when it matches that well (the matcher's 0..1 score).
GLYPH_MIN_SCORE = 0.7
#: ... and every word within this of the best is part of the answer (two readings of one drawing).
GLYPH_MARGIN = 0.1
#: Icon boxes larger than this part of the screen's width are panels, not glyphs.
MAX_GLYPH_WIDTH = 0.3


def glyph_readings(perception: Any, rgb: np.ndarray, box: Box) -> list[tuple[float, str]]:
    """The matcher's scores of ``box`` for every word of :data:`GLYPH_WORDS`, best first (empty
    where the perception has no shape matcher; ``perception.icons.reading.glyph_scores``)."""
    from mobile_agent.perception.icons.reading import glyph_scores

    return sorted(glyph_scores(perception, rgb, box, GLYPH_WORDS), reverse=True)


def glyph_names(perception: Any, rgb: np.ndarray, box: Box, width: int) -> list[str]:
    """What the glyph in ``box`` is: the best-matching word and any word within
    :data:`GLYPH_MARGIN` of it, when the best scores :data:`GLYPH_MIN_SCORE` or more; empty for a
    box that is no glyph (too wide, in the status bar, or matching nothing well). The gate counts a
    glyph as risky only when every word of the answer is (a speech bubble reads as "reply" and as
    "comment" alike: no send)."""
    if box.width > MAX_GLYPH_WIDTH * width:
        return []
    reading = read_glyph(perception, rgb, box, GLYPH_WORDS, min_score=GLYPH_MIN_SCORE, margin=GLYPH_MARGIN,
                         status_bar=STATUS_BAR * rgb.shape[0])
    return [] if reading is None else list(reading.words)


@dataclass
class Touched:
    """What lies under a point: ``texts`` (tree node texts and OCR lines), ``descriptions`` (tree
    content-descs), ``glyphs`` (what the icon there looks like), and the screen's lines around."""

    texts: list[str] = field(default_factory=list)
    descriptions: list[str] = field(default_factory=list)
    glyphs: list[str] = field(default_factory=list)
    screen_texts: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [repr(t) for t in self.texts + self.descriptions] + [f"a {g} glyph" for g in self.glyphs]
        return ", ".join(dict.fromkeys(parts)) or "nothing readable"


def touched_at(perception: Any, img: Any, x: int, y: int, nodes: Sequence[Element] | None, *,
               glyphs: bool = True) -> Touched:
    """Everything under (x, y): the innermost labelled tree element of ``nodes`` (not the rows and
    panels around it, whose labels sum up a whole message), the OCR line there, and the glyph of the
    smallest icon box there (the detector's, or a clickable node's without a label)."""
    t = Touched()
    res = perception.parse(img, icons=glyphs)
    found = parse_elements(res)
    t.screen_texts = [e.text for e in found if e.kind == "text"]
    nodes = list(nodes or [])
    for n in smallest_at([n for n in nodes if n.label], x, y)[:1]:
        if n.text:
            t.texts.append(n.text)
        if n.description:
            t.descriptions.append(n.description)
    for line in smallest_at([e for e in found if e.kind == "text"], x, y)[:1]:
        t.texts.append(line.text)
    if glyphs:
        w = img.size[0]
        icons = [e for e in found if e.kind == "icon" and e.box.width <= MAX_GLYPH_WIDTH * w]
        # the tree's unlabelled, icon-sized clickable nodes are icons too
        icons += [n for n in nodes if n.clickable and not n.label and n.box.width <= MAX_GLYPH_WIDTH * w]
        rgb = np.asarray(img)
        for icon in smallest_at(icons, x, y)[:1]:
            t.glyphs = glyph_names(perception, rgb, icon.box, w)
    return t
