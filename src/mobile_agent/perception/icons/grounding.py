"""Click Icon rules for what real apps draw (issue 25), each named by the phenomenon it handles.

``Perception.ground_icon`` calls these beside the shape matcher:

- :func:`text_controls`: a control drawn as its own words. A clickable node whose content-desc is
  the words it shows and that holds no text node (a link inside a sentence, "Privacy Policy" on a
  messenger's welcome screen, "Wrong number?" on its verification screen; a dialog's "Cancel" and
  "Import" buttons drawn by a cross-platform toolkit; a map's search "Cancel") is what Click Icon
  names, and OCR reads its words: the words are the place to tap.
"""

from __future__ import annotations

from typing import Callable, Sequence

from mobile_agent.perception.results import TextLine
from mobile_agent.types import Box

# The score of a control drawn as its words: above a weak shape match (a cross elsewhere on the
# screen for "Cancel", 0.3-0.45 on real screens), below a glyph that matches its description
# (0.8 and more).
TEXT_CONTROL_SCORE = 0.75


def text_controls(description: str, lines: Sequence[TextLine], icons: Sequence[Box],
                  labelled: Callable[[Box, Sequence[Box]], bool]) -> list[Box]:
    """Boxes of screen texts that are the control ``description`` names, drawn as its words.

    A line that reads the description whole (case and spacing aside), or holds it as a phrase of
    two words or more at word boundaries (a link inside a sentence), is such a control, unless an
    icon has that text as its caption (``labelled``: a bottom navigation tab's house over "Home",
    a button's glyph beside its label), where the icon is what Click Icon names. One word found
    inside a longer line ("Search" in "Search or enter address") is no control."""
    from mobile_agent.perception.textmatch import compact, match_lines

    if len(compact(description)) < 2:
        return []
    several = len(description.split()) >= 2
    found = [m for m in match_lines(description.strip(), list(lines))
             if m.kind == "exact" or (m.kind == "contained" and several)]
    found = [m for m in found if m.score >= 0.75]
    # Where the words are an icon's caption anywhere on the screen (a bottom navigation's "Home"
    # under its house), the description names that icon, even where the same words stand
    # elsewhere as a title ("Home" atop the home screen).
    if any(labelled(i, [m.box]) for m in found for i in icons):
        return []
    # A glyph OCR read into the same line, before or after the words (a chip's sliders beside
    # "Filter"), is the control's icon: the line is its label.
    if any(m.line.box.contains_point(i.center) and not m.box.contains_point(i.center) for m in found for i in icons):
        return []
    out: list[Box] = []
    for m in found:
        if all(m.box.iou(b) < 0.5 for b in out):
            out.append(m.box)
    return out
