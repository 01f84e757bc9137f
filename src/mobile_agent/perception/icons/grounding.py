"""Click Icon rules for what real apps draw (issue 25), each named by the phenomenon it handles.

``Perception.ground_icon`` calls these beside the shape matcher:

- :func:`text_controls`: a control drawn as its own words (asked for in those words, with a
  request's filler such as "button", or in another word of the same function: "Close" for a
  "Cancel" drawn as its word, :func:`control_wordings`). A clickable node whose content-desc is
  the words it shows and that holds no text node (a link inside a sentence, "Privacy Policy" on a
  messenger's welcome screen, "Wrong number?" on its verification screen; a dialog's "Cancel" and
  "Import" buttons drawn by a cross-platform toolkit; a map's search "Cancel") is what Click Icon
  names, and OCR reads its words: the words are the place to tap.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

import numpy as np

from mobile_agent.perception.results import TextLine
from mobile_agent.perception.icons import priors
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
    from mobile_agent.perception.textmatch import compact

    if len(compact(description)) < 2:
        return []
    found = []
    for words in control_wordings(description):
        found = _drawn_words(words, lines)
        if found:
            break
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


def _drawn_words(words: str, lines: Sequence[TextLine]) -> list:
    """Lines that read ``words`` whole, or hold them as a phrase of two words or more."""
    from mobile_agent.perception.textmatch import match_lines

    several = len(words.split()) >= 2
    found = [m for m in match_lines(words.strip(), list(lines))
             if m.kind == "exact" or (m.kind == "contained" and several)]
    return [m for m in found if m.score >= 0.75]


# Words a request adds to a control's own words ("Cancel button", "the Privacy Policy link").
_CONTROL_FILLER = frozenset({"button", "link", "icon", "the"})
# One function, several words: a dialog's or a search's way out is drawn as "Cancel" by one app and
# asked for as "Close" or "Dismiss" in another's words (and the other way round).
_SAME_FUNCTION: dict[str, tuple[str, ...]] = {
    "close": ("cancel", "dismiss"), "cancel": ("close", "dismiss"), "dismiss": ("cancel", "close"),
}


def control_wordings(description: str) -> list[str]:
    """The words a control drawn as its words may read for ``description``: the description, then
    without the words a request adds ("Cancel button" -> "Cancel"), then, for a description that
    is one word of :data:`_SAME_FUNCTION`, that function's other words ("Close" -> "Cancel")."""
    out = [description]
    words = description.split()
    kept = [w for w in words if w.lower().strip(".,!?") not in _CONTROL_FILLER]
    if kept and len(kept) < len(words):
        out.append(" ".join(kept))
    if len(kept) == 1:
        base = kept[0].lower().strip(".,!?")
        out += [w.capitalize() for w in _SAME_FUNCTION.get(base, ())]
    return out


# ------------------------------------------------------------------------------------------------
# A control named by the text that labels it
# ------------------------------------------------------------------------------------------------
# Real apps describe a setting's control by its setting, not by its glyph: a radio button, a
# checkbox or a switch whose content-desc is its label ("Dark theme", "Wi-Fi", "Remember me"; an
# onboarding card's radio ring at the card's corner, its label under the card), and a form's
# controls by their field and role ("Amount : Expense" for the sign toggle in the row labelled
# "Amount", "Amount : Calculator" for the icon at that row's end). The glyph matcher reads the
# words as shapes ("light" a sun, "theme" a half circle) and finds them anywhere; the label on
# the screen says where the control is.

# "FIELD LABEL : ROLE": a colon between spaces (a form's accessibility name composed from the
# field's label and the control's role).
_FIELD_ROLE = re.compile(r"^\s*(?P<label>[^:]{2,}?)\s+:\s+(?P<role>[^:]{2,}?)\s*$")


def field_and_role(description: str) -> tuple[str, str] | None:
    """``("Amount", "Calculator")`` for ``"Amount : Calculator"``; None for any other description."""
    m = _FIELD_ROLE.match(description)
    if not m or not all(re.search(r"[^\W\d_]{2}", m.group(k)) for k in ("label", "role")):
        return None  # words on both sides (not a time, "12 : 45")
    return m.group("label"), m.group("role")


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.lower())


def selection_control(rgb: np.ndarray, box: Box) -> str | None:
    """``"switch"``, ``"radio"`` or ``"checkbox"`` where the candidate ``box`` is a selection
    control, else None.

    A switch is a stadium track with a round thumb at one end (:func:`offline.switch_like`), or
    AppCompat's: a thumb disc taller than its track, over one end of it (:func:`_thumb_switch`); a
    radio button a ring with nothing inside it, or with a dot at its centre and a gap between the
    dot and the ring (the detector may box the ring or only the dot of a selected one). Glyphs drawn
    in a ring (an info sign, a clock, a person) are no radio: something inside is neither empty nor
    a centred dot. A checkbox is a thin square outline with nothing inside, or a filled square
    whose check is drawn in the background's colour (a stop sign's square is filled whole)."""
    if not priors.on("selection_control"):
        return None
    from mobile_agent.perception.icons.density import at_reference, to_reference
    from mobile_agent.perception.icons.layout import dp_scale
    from mobile_agent.perception.icons.offline import switch_like

    # The bands below are pixels at 1080 px across (icons.density): another density is scaled there.
    scaled, f = at_reference(rgb)
    if f != 1.0:
        return selection_control(scaled, to_reference(box, f))
    height, width = rgb.shape[:2]
    dp = dp_scale(width, height)
    pad = max(2, min(box.width, box.height) // 8)
    outer = rgb[max(0, box.y1 - pad):box.y2 + pad, max(0, box.x1 - pad):box.x2 + pad]
    if outer.size and box.width <= 64 * dp and box.height <= 44 * dp and (
            switch_like(outer, box, width, height) or _thumb_switch(outer, dp)):
        return "switch"
    if _ring(rgb, box, dp):
        return "radio"
    return "checkbox" if _square(rgb, box, dp) else None


def _centred_ink(rgb: np.ndarray, box: Box, half: int) -> np.ndarray | None:
    """Ink in the square window of ``half`` pixels around the box's centre: the pixels 40 levels or
    more off the window border's median colour (None where the window leaves the picture)."""
    c = box.center
    height, width = rgb.shape[:2]
    if c.x - half < 0 or c.y - half < 0 or c.x + half >= width or c.y + half >= height:
        return None
    win = rgb[c.y - half:c.y + half + 1, c.x - half:c.x + half + 1].astype(np.int16)
    border = np.concatenate([win[0], win[-1], win[:, 0], win[:, -1]])
    return np.abs(win - np.median(border, axis=0)).max(axis=2) >= 40


def _ink_bands(ink: np.ndarray, dist: np.ndarray, half: int) -> tuple[list[float], str]:
    """The share of ink on each band around the window's centre, one pixel apart out to ``half``
    (``dist``: each pixel's distance from the centre, a circle's or a square's), and those shares
    as letters: F full (0.85 or more), E empty (0.15 or less), t between. A band is three pixels
    wide, as the box's centre may be a pixel or two off the shape's."""
    fracs = []
    for k in range(half):
        on = (dist >= k - 1) & (dist < k + 2)
        fracs.append(float(ink[on].mean()) if on.any() else 0.0)
    return fracs, "".join("F" if f >= 0.85 else "E" if f <= 0.15 else "t" for f in fracs)


def _around(rgb: np.ndarray, box: Box, dp: float, least: float, most: float,
            reach: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, int] | None:
    """The ink of the window around a control of ``least``-``most`` dp (its longer side), reaching
    three quarters of that side or ``reach`` dp out, whichever is more, with each pixel's offsets
    from the centre (rows, columns) and the window's half side; None for a box of another size or
    a window that leaves the picture."""
    side = max(box.width, box.height)
    if side > most * dp or side < least * dp:
        return None
    half = int(max(side * 0.75, reach * dp))
    ink = _centred_ink(rgb, box, half)
    if ink is None:
        return None
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1]
    return ink, yy, xx, half


def _ring(rgb: np.ndarray, box: Box, dp: float) -> bool:
    around = _around(rgb, box, dp, 6, 36, 15)
    if around is None:
        return False
    ink, yy, xx, half = around
    side = max(box.width, box.height)
    # The share of ink on each circle around the centre, one pixel apart. From the centre out: a
    # dot (full circles) or nothing, a gap (empty circles), the ring (full circles), with at most
    # three circles between each (the edges' anti-aliasing). The ring is thin (a gear's body, a
    # disc's rim are thick), 7-14 dp in radius (Material's is 10), its dot at most two thirds of
    # it, and little ink around it (a glyph's other strokes: an eye's lids).
    fracs, kinds = _ink_bands(ink, np.hypot(yy, xx), half)
    m = re.fullmatch(r"(F*)t{0,3}E{%d,}t{0,3}(F{1,})t*[Et]*" % max(3, round(1.5 * dp)), kinds) or \
        re.fullmatch(r"()E{%d,}t{0,3}(F{1,})t*[Et]*" % max(3, round(1.5 * dp)), kinds)
    if not m:
        return False
    ring_in, ring_out = m.start(2), m.end(2)
    radius = (ring_in + ring_out) / 2
    if not 7 * dp <= radius <= 14 * dp or ring_out - ring_in > max(3.0, 0.3 * radius) or ring_out + 3 > half:
        return False
    dot = len(m.group(1))
    if dot > 0.65 * radius or max(fracs[ring_in:ring_out]) < 0.97:
        return False  # a dot too big for a radio's; an open ring (a refresh arrow)
    # The detector boxes the ring or the selected one's dot, not more (a magnifier's lens is a
    # ring, its box holds the handle too).
    if not (abs(side - 2 * ring_out) <= 0.25 * side or (dot and abs(side - 2 * dot) <= 0.35 * side)):
        return False
    around = fracs[ring_out + 3:int(1.5 * radius) + 1]
    if around and float(np.mean(around)) > 0.35:
        return False
    # A magnifier's handle: a stroke from the ring outwards along a diagonal.
    for dy, dx in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        steps = range(ring_out + 2, min(half - 1, int(ring_out + 0.5 * radius) + 1))
        on = [ink[half + round(dy * k / np.sqrt(2)), half + round(dx * k / np.sqrt(2))] for k in steps]
        if on and float(np.mean(on)) >= 0.8:
            return False
    return True


# A glyph on the label's row that matches the words this well is what they name (a settings row's
# Wi-Fi glyph: 0.79; shapes that are not the words' glyph score under 0.5 on real screens).
GLYPH_ON_ROW = 0.6

GlyphScores = Callable[[list[Box], str], "list[float] | None"]


def labelled_controls(description: str, lines: Sequence[TextLine], icons: Sequence[Box], rgb: np.ndarray,
                      glyph_scores: GlyphScores) -> list[Box]:
    """Boxes of the controls ``description`` names by the text that labels them, best first.

    - A setting's control named by its label ("Dark theme"): a line that reads the description
      whole labels a selection control (:func:`selection_control`: a radio ring, a switch) beside
      it on its row, or above it (an onboarding card's radio ring at the card's corner, its label
      under the card). Each selection control belongs to one label: the text on its row, else the
      nearest text under it (the "Automatic" radio beside its own label is not "Light theme"'s,
      however close; a settings row's switch is its title's and its summary's). Where the label's row also holds a glyph of the description's words (a
      settings row's Wi-Fi glyph before "Wi-Fi"), that glyph is what Click Icon names: nothing is
      returned, and the glyph matcher finds it.
    - A form's control named "FIELD LABEL : ROLE" ("Amount (US Dollar) : Expense"): the field's
      label on the screen (the same words, or their first words: "Amount ($)", "Opening" over
      "balance"), the controls of its row (right of it, or in the row under it where the label
      stands above its field), and among them the role: a glyph of the role's words where one
      matches, else the row's end icon (a text field's end icon: "Calculator", "Clear text") when
      the role names a glyph, else the row's selection control or the control nearest the label
      (the role is a value it sets: "Expense", "Income").

    ``glyph_scores(boxes, words)``: the glyph matcher's scores of ``boxes`` for ``words``, None where
    the matcher reads no glyph in the words."""
    fr = field_and_role(description)
    if fr is None:
        return _setting_controls(description, lines, icons, rgb, glyph_scores)
    return _field_controls(fr[0], fr[1], lines, icons, rgb, glyph_scores)


def _setting_controls(description: str, lines: Sequence[TextLine], icons: Sequence[Box], rgb: np.ndarray,
                      glyph_scores: GlyphScores) -> list[Box]:
    from mobile_agent.perception.textmatch import compact

    want = compact(description)
    if len(want) < 2:
        return []
    # the label: a line, or a label wrapped onto the line under it ("Save data and browse" over
    # "longer")
    labels = [[l] for l in lines if compact(l.text) == want]
    for a in lines:
        for b in lines:
            if b is not a and _wrapped(a.box, b.box) and compact(a.text + " " + b.text) == want:
                labels.append([a, b])
    if not labels:
        return []
    height, width = rgb.shape[:2]
    out: list[Box] = []
    for block in labels:
        L = Box.enclosing(l.box for l in block)
        near = [b for b in icons if abs(b.center.y - L.center.y) <= 0.15 * height and not L.contains_point(b.center)]
        row = [b for b in near if _on_row(b, L)]
        scores = glyph_scores(row, description) if row else None
        if scores and max(scores) >= GLYPH_ON_ROW:
            continue  # the row's own glyph of these words
        mine = [b for b in near if selection_control(rgb, b)
                and any(o is lab for o in _owners(b, lines, icons, width, height) for lab in block)]
        mine.sort(key=lambda b: _gap(b, L))
        out += [b for b in mine[:1] if all(b.iou(o) < 0.5 for o in out)]
    return out


def _wrapped(a: Box, b: Box) -> bool:
    """Whether the line ``b`` goes on with the line ``a``: right under it, starting where it starts."""
    hgt = max(a.height, b.height)
    return abs(a.x1 - b.x1) <= 0.5 * hgt and -0.3 * hgt <= b.y1 - a.y2 <= 0.6 * hgt and b.center.y > a.center.y


def _on_row(b: Box, label: Box) -> bool:
    """Whether ``b``'s centre is on the row of the text ``label``."""
    return abs(b.center.y - label.center.y) <= 0.8 * max(label.height, b.height)


def _gap(a: Box, b: Box) -> float:
    dx = max(0, a.x1 - b.x2, b.x1 - a.x2)
    dy = max(0, a.y1 - b.y2, b.y1 - a.y2)
    return float(np.hypot(dx, dy))


def _owners(b: Box, lines: Sequence[TextLine], icons: Sequence[Box], width: int, height: int) -> list[TextLine]:
    """The texts that label the control ``b``: those on its row with no other text or icon between (a
    radio's or checkbox's label after it, a switch's before it, with the summary line under the
    label), else the nearest text under it (a card's label under the picture whose corner holds
    the ring) within an eighth of the screen's height."""
    row = [l for l in lines if _on_row(b, l.box) and not l.box.contains_point(b.center)
           and max(l.box.x1 - b.x2, b.x1 - l.box.x2) <= 0.75 * width]

    def between(o: Box, l: Box) -> bool:
        return (o.x1 >= l.x2 and o.x2 <= b.x1) or (o.x2 <= l.x1 and o.x1 >= b.x2)

    if row:
        return [l for l in row if not any(between(o.box, l.box) for o in row if o is not l)
                and not any(between(i, l.box) for i in icons if _on_row(i, b))]
    under = [l for l in lines if l.box.y1 >= b.center.y and l.box.y1 - b.y2 <= height / 8
             and max(0, l.box.x1 - b.x2, b.x1 - l.box.x2) <= width / 4]
    return [min(under, key=lambda l: _gap(b, l.box))] if under else []


def _field_labels(label: str, lines: Sequence[TextLine]) -> list[TextLine]:
    """Lines that are the field's label: its words, or its first words (a label shortened on the
    screen, "Amount ($)" for "Amount (US Dollar)", or broken over two lines)."""
    want = _words(label)
    if not want:
        return []
    out = []
    for l in lines:
        have = _words(l.text)
        if have and len(have) <= len(want) and want[:len(have)] == have and len(have[0]) >= 3:
            out.append(l)
    full = [l for l in out if _words(l.text) == want]
    return full or out


def _field_controls(label: str, role: str, lines: Sequence[TextLine], icons: Sequence[Box], rgb: np.ndarray,
                    glyph_scores: GlyphScores) -> list[Box]:
    height, width = rgb.shape[:2]
    out: list[Box] = []
    for lab in _field_labels(label, lines):
        L = lab.box
        others = [l.box for l in lines if l is not lab]
        row = [b for b in icons if _on_row(b, L) and b.x1 >= L.x2 - 2 and not any(o.contains_point(b.center) for o in others if o.x1 < L.x2)]
        if not row:
            # the label above its field: the row right under it
            below = [b for b in icons if L.y2 <= b.center.y <= L.y2 + 3 * L.height and b.x2 >= L.x1]
            if below:
                top = min(b.center.y for b in below)
                row = [b for b in below if b.center.y <= top + L.height]
        if not row:
            continue
        scores = glyph_scores(row, role)
        if scores is not None and max(scores) >= 0.5:
            pick = row[int(np.argmax(scores))]
        elif scores is not None:
            pick = max(row, key=lambda b: (b.x2, b.area))
        else:
            chosen = [b for b in row if selection_control(rgb, b)] or row
            pick = min(chosen, key=lambda b: (_gap(b, L), -b.area))
        if all(pick.iou(o) < 0.5 for o in out):
            out.append(pick)
    return out


def _square(rgb: np.ndarray, box: Box, dp: float) -> bool:
    """A checkbox (Material's: an 18 dp square, a 2 dp stroke): the share of ink on each square
    around the box's centre (Chebyshev rings), from the centre out."""
    if min(box.width, box.height) < 0.8 * max(box.width, box.height):
        return False
    around = _around(rgb, box, dp, 10, 30, 14)
    if around is None:
        return False
    ink, yy, xx, half = around
    side = max(box.width, box.height)
    cheb = np.maximum(np.abs(yy), np.abs(xx))
    fracs, kinds = _ink_bands(ink, cheb, half)
    # the outline: the outermost full squares
    out_end = kinds.rfind("F") + 1
    if out_end == 0:
        return False
    out_start = out_end
    while out_start > 0 and kinds[out_start - 1] == "F":
        out_start -= 1
    r = (out_start + out_end) / 2
    if not 6 * dp <= r <= 12 * dp or out_end + 3 > half or abs(side - 2 * out_end) > 0.25 * side:
        return False
    around = fracs[out_end + 2:int(1.5 * r) + 1]
    if around and float(np.mean(around)) > 0.25:
        return False
    inside = ink[cheb < max(1, out_start - 1)]
    if re.fullmatch(r"E{%d,}t{0,3}" % max(3, round(3 * dp)), kinds[:out_start]) and out_end - out_start <= max(3.0, 0.3 * r):
        return True  # an empty outline, thin
    # checked: a filled square with a check of the background's colour: one thin stroke (a V's
    # box is mostly empty) inside it, touching no side (a logo's letter runs off the square's
    # edge, a floppy's label and hub are two parts and solid)
    if not 0.45 <= float(inside.mean()) <= 0.9:
        return False
    import cv2

    k = max(1, out_end - 2)  # the square, its rounded corners' outside aside
    holes = (~ink[half - k:half + k + 1, half - k:half + k + 1]).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=8)
    corner = (labels == labels[0, 0]) if holes[0, 0] else np.zeros_like(holes, bool)
    parts = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 0.02 * holes.size and not corner[labels == i].any()]
    if len(parts) != 1:
        return False
    x, y, w, h, area = (int(v) for v in stats[parts[0]])
    side_in = holes.shape[0]
    touches = x == 0 or y == 0 or x + w >= side_in or y + h >= side_in
    return not touches and w >= 0.5 * side_in and h >= 0.3 * side_in and area <= 0.45 * w * h


def _thumb_switch(outer: np.ndarray, dp: float) -> bool:
    """AppCompat's switch (and apps' own): a round thumb taller than the track, over one of its
    ends; the track, half the thumb's height or so, runs on past the thumb, centred on it. Each
    column's ink height says it: the thumb's columns as tall as the whole, the track's a third to
    four fifths of that over a fifth of the width or more, at the other end."""
    from mobile_agent.perception.icons.offline import full_mask_box

    ink = full_mask_box(outer) > 0
    ys, xs = np.nonzero(ink)
    if len(xs) < 50:
        return False
    ink = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = ink.shape
    if not (30 * dp <= w <= 64 * dp and 14 * dp <= h <= 44 * dp and 1.2 <= w / h <= 2.6):
        return False
    heights = ink.sum(axis=0).astype(float)
    top = np.array([np.argmax(ink[:, x]) if heights[x] else 0 for x in range(w)], float)
    mids = top + heights / 2
    tall = heights >= 0.85 * h
    for cols in (np.arange(w), np.arange(w)[::-1]):  # the thumb on the right, then on the left
        track = []
        for x in cols:
            if tall[x]:
                break
            track.append(x)
        if len(track) < 0.2 * w or not tall[cols[len(track):]].any():
            continue
        body = np.array(track[len(track) // 4:len(track) * 3 // 4])  # its rounded end and the thumb's edge left out
        if not len(body):
            continue
        th = heights[body]
        if th.min() >= 0.35 * h and th.max() <= 0.8 * h and np.all(np.abs(mids[body] - h / 2) <= 0.15 * h):
            return True
    return False
