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
    out: list[Box] = []
    for m in found:
        if all(m.box.iou(b) < 0.5 for b in out):
            out.append(m.box)
    return out


# Below this best shape score no candidate looks like the description (an app's own glyph or logo
# for "Search", "Main menu", "Speed Dial": 0.2-0.45 on real screens): the hint's corner then tells
# more than the shapes. An unseen icon font's glyph that does match scores about 0.5 (a composer's
# gallery among its plus and camera, all on one row): there the shapes still decide.
WEAK_SHAPE = 0.45
EDGE_WEIGHT = 1.0


def edge_bonus(boxes: Sequence[Box], shapes: Sequence[float], position: Sequence[str], width: int,
               height: int, reserved: Sequence[bool] = ()) -> list[float]:
    """What a position hint adds to each candidate where no shape matches well.

    A hint names a corner or an edge ("top left", "bottom right") as a user sees the screen: where
    no candidate looks like the description (the best shape under :data:`WEAK_SHAPE`: an app's own
    glyph, a logo), the icon nearest that corner is meant, not one a quarter down the screen in
    the same third (a browser's address-bar button lost to a card's glyph below it, its bottom
    toolbar's menu and home buttons to glyphs above the toolbar, a podcast grid's centre cell to
    a speck under it). Where a shape matches, the hint stays a tie-break.

    ``reserved``: candidates the bonus leaves out, the top app bar's first icon where the
    description names no back, menu or close glyph: that place is the framework's up button or
    drawer toggle (``layout.framework_prior``), never an app's action, and "top left" would
    otherwise always land on it (a settings row's "Copy link" a quarter down lost to the bar's
    back arrow)."""
    from mobile_agent.perception.positions import position_score

    if not position or not shapes or max(shapes) >= WEAK_SHAPE:
        return [0.0] * len(boxes)
    return [0.0 if skip else EDGE_WEIGHT * position_score(b, tuple(position), width, height)
            for b, skip in zip(boxes, reserved or [False] * len(boxes))]
