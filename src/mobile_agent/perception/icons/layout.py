"""Where apps put an icon of a given family, as a prior for Click Icon without a position hint.

Android apps follow the Material layout: the top app bar holds Navigate up or the drawer's
hamburger at its left end and actions with the overflow ⋮ last at its right end; a bottom
navigation bar holds the main destinations (Home, Search, Notifications, the account); a floating
action button (Add, Compose) sits bottom right; a chat's Send sits at the right end of its
composer at the bottom. A candidate in its family's usual place gets a prior of up to 1; one
elsewhere 0. The prior is a small term beside the shape score (see ``Perception.ground_icon``): it
breaks near-ties, it does not outvote a clear shape match.

Android's framework names a few widgets itself, and their place is fixed: "Navigate up" (the
toolbar's up button) and "Open navigation drawer" / "Close navigation drawer" (DrawerLayout's
toggle) are ALWAYS the top app bar's first icon at its start, "More options" (the overflow) its last
icon at its end; "Collapse" (a collapsible action view's up arrow) is at the start and "Clear query"
(SearchView's x) at the end. For these exact phrases :func:`framework_prior` is a strong prior (the
left end on a left-to-right screen, mirrored on a right-to-left one).

The zones are in dp: the density is inferred from the screen's width (a phone is 360-450 dp wide,
:data:`PHONE_DP` taken as typical), so that a 24-52 dp status bar (punch-hole phones), a 56-64 dp top
app bar and a 48 dp navigation bar are where they are at 2.0-3.5x alike. A landscape screen gets no
prior.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from mobile_agent.perception.icons import priors
from mobile_agent.perception.icons.lexicon import IconQuery
from mobile_agent.types import Box

PHONE_DP = 392  # a typical phone's width in dp (360-450): the density is the width over this
STATUS_DP = 34  # status glyphs' centres are at most 26 dp down (a 52 dp status bar); a top bar's, 52 dp or more
TOP_BAR_DP = 124  # a status bar (up to 52 dp) and a top app bar (56-64 dp) below it
BOTTOM_BAR_DP = 136  # bottom navigation (56-80 dp) above a three-button navigation bar (48 dp)
NAV_BAR_DP = 48  # the system's three-button navigation bar
END_DP = 64  # a bar's end icon: its centre within this of the screen's edge (28 dp on phones)


def dp_scale(width: int, height: int) -> float:
    """Pixels per dp of a portrait phone screen, inferred from its width."""
    return min(width, height) / PHONE_DP


def in_status_bar(box: Box, width: int, height: int) -> bool:
    """Whether ``box`` is centred within the status bar's glyphs (the first 34 dp)."""
    return box.center.y < STATUS_DP * dp_scale(width, height)


def in_nav_bar(box: Box, width: int, height: int) -> bool:
    """Whether ``box`` is centred in the last 48 dp, where a three-button navigation bar is."""
    return box.center.y > height - NAV_BAR_DP * dp_scale(width, height)

# The usual actions of a top app bar. Icons that apps put beside content as often as in the bar
# (like, comment, bookmark, star, camera) get no toolbar prior; Close has its own place (an end of
# the bar), and a chip's or a field's x is anywhere.
_TOOLBAR_ACTIONS = {"search", "share", "notifications", "cart", "settings", "filter", "refresh", "edit", "delete",
                    "account", "mic", "add", "download", "help", "info", "check", "save"}
_NAV_DESTINATIONS = {"home", "search", "notifications", "account", "like", "cart", "settings", "comment", "add",
                     "mail", "location", "calendar", "image", "video", "music", "star", "bookmark", "apps"}


def layout_prior(families: set[str], box: Box, width: int, height: int) -> float:
    """How typical ``box`` is as the place of an icon of one of ``families`` (0 to 1)."""
    if not families or height <= width:
        return 0.0
    c = box.center
    fx, fy = c.x / width, c.y / height
    s = dp_scale(width, height)
    if in_status_bar(box, width, height):  # the status bar: not a button
        return 0.0
    top, bottom = c.y < TOP_BAR_DP * s, c.y > height - BOTTOM_BAR_DP * s
    best = 0.0
    for fam in families:
        p = 0.0
        if fam in ("back", "menu"):
            p = 1.0 if top and fx < 0.16 else (0.3 if top else 0.0)
        elif fam == "more":
            p = 1.0 if top and fx > 0.84 else (0.3 if fx > 0.84 else 0.0)
        elif fam == "close":
            p = 1.0 if top and (fx < 0.16 or fx > 0.84) else 0.0
        elif fam == "home":
            p = 1.0 if bottom else 0.0
        elif fam in ("send",):
            p = 1.0 if fy > 0.75 and fx > 0.75 else 0.0
        if fam in ("add", "edit") and fx > 0.72 and 0.6 < fy < 0.97:
            p = max(p, 1.0)  # a floating action button
        if fam in _TOOLBAR_ACTIONS and top and fx > 0.5:
            p = max(p, 1.0)
        if fam in _NAV_DESTINATIONS and bottom:
            p = max(p, 0.7)
        best = max(best, p)
    return best


# The framework's own content descriptions, and the end of the top app bar where their widget is.
FRAMEWORK_PLACES = {"navigate up": "start", "open navigation drawer": "start", "close navigation drawer": "start",
                    "collapse": "start", "more options": "end", "clear query": "end"}


# Of those, the widgets that are always the bar's very first or last icon: the up button and the
# overflow menu. A search field's "Clear query" ends the field, and the bar's actions may follow it.
FRAMEWORK_ENDS = frozenset(p for p in FRAMEWORK_PLACES if p != "clear query")


# The same widgets as other apps and models name them: a toolbar's up button is "Up" or "Navigate
# back" as often as "Navigate up"; the overflow "More" or "Overflow menu"; a search bar's collapse
# "Close search". Only the whole description counts ("Back to top" is no up button). "Back" and "Go
# back" alone are left to the glyph: they name the system's Back as well, and a screen whose top
# bar starts with a logo or a hamburger has no up button to give them.
FRAMEWORK_WORDINGS = {
    "navigate up": ("up", "up button", "navigate back"),
    "more options": ("more actions", "overflow menu", "more options menu"),
    "collapse": ("close search", "exit search"),
    "open navigation drawer": ("open drawer", "open navigation menu"),
    "close navigation drawer": ("close drawer", "close navigation menu"),
    "clear query": ("clear search", "clear search query"),
}
_FRAMEWORK_NAME = {w: name for name, ws in FRAMEWORK_WORDINGS.items() for w in ws}


def framework_name(description: str) -> str | None:
    """The framework's phrase for the widget ``description`` names as a whole: the phrase itself
    ("Navigate up") or another wording of it (:data:`FRAMEWORK_WORDINGS`: "Go back", "More"),
    else ``None``."""
    d = " ".join(description.lower().strip(" .").split())
    return d if d in FRAMEWORK_PLACES else _FRAMEWORK_NAME.get(d)


def framework_end(description: str) -> bool:
    """Whether ``description`` is the framework's up button or overflow menu (:data:`FRAMEWORK_ENDS`)."""
    return framework_name(description) in FRAMEWORK_ENDS


def framework_place(description: str) -> str | None:
    """``start`` or ``end`` for the framework's phrases ("Navigate up", "More options", ...) and
    their other wordings, else ``None``."""
    name = framework_name(description)
    return FRAMEWORK_PLACES[name] if name is not None else None


def right_to_left(lines: Sequence[Box], width: int, height: int) -> bool:
    """Whether the top app bar is laid out right to left: its title ends near the right edge (72 dp,
    after the up button) and no text starts near the left edge."""
    s = dp_scale(width, height)
    bar = [b for b in lines if STATUS_DP * s <= b.center.y < TOP_BAR_DP * s and b.width < width * 0.9]
    return (bool(bar) and not any(b.x1 < 100 * s for b in bar)
            and any(b.x2 > width - 100 * s and b.x1 > width * 0.3 for b in bar))


def framework_prior(description: str, boxes: Sequence[Box], lines: Sequence[Box], width: int,
                    height: int) -> list[float]:
    """1 for the candidate where the framework puts the widget ``description`` names (the top app
    bar's first icon at its start, or its last icon at its end), 0 elsewhere; all 0 for any other
    description, on a landscape screen, or when no candidate is at that end of the bar."""
    place = framework_place(description)
    out = [0.0] * len(boxes)
    if place is None or height <= width:
        return out
    s = dp_scale(width, height)
    if right_to_left(lines, width, height):
        place = "end" if place == "start" else "start"
    bar = [k for k, b in enumerate(boxes) if STATUS_DP * s <= b.center.y < TOP_BAR_DP * s]
    if place == "start":
        ends = [k for k in bar if boxes[k].center.x < END_DP * s]
    else:
        ends = [k for k in bar if boxes[k].center.x > width - END_DP * s]
    # The bar is the topmost row of them: a row's leading icon just under a short top bar (a form's
    # first field, 120 dp down on a real phone) is no bar's end.
    if ends:
        top = min(boxes[k].center.y for k in ends)
        ends = [k for k in ends if boxes[k].center.y <= top + 16 * s]
    if place == "start":
        pick = min(ends, key=lambda k: boxes[k].x1, default=None)
    else:
        pick = max(ends, key=lambda k: boxes[k].x2, default=None)
    if pick is not None:
        out[pick] = 1.0
    return out


def three_button_bar(icons: Sequence[Box], lines: Sequence[Box], width: int, height: int) -> bool:
    """Whether the screen's last 48 dp hold the system's three-button navigation bar (Back, Home,
    Overview: a centred button and the others 10-31% of the width either side of it, no word). A
    gesture-navigation phone has none: bottom navigation drawn there is the app's."""
    if height <= width:
        return False
    # a tab's label is a word, wider than tall; OCR reading the Home ring as "O" or Back as "<" is not
    if any(in_nav_bar(b, width, height) and b.width > 1.3 * b.height for b in lines):
        return False
    strip = [b for b in icons if in_nav_bar(b, width, height)]
    # a box inside another (a ring's hole, a glyph's part) is the same button
    strip = [b for b in strip if not any(o is not b and o.area > b.area and o.contains_point(b.center) for o in strip)]
    if not strip or len(strip) > 3:
        return False
    dx = [abs(b.center.x - width / 2) / width for b in strip]
    centred = [d for d in dx if d < 0.05]
    sides = [d for d in dx if d >= 0.05]
    if len(centred) > 1 or not all(0.1 <= d <= 0.31 for d in sides):
        return False
    return bool(centred) or len(sides) == 2


# The families a floating action button stands for: Material's FAB is the screen's primary action,
# an Add or New (+), a Compose or Edit (a pencil), or a form's Save / Done (a check).
FAB_FAMILIES = frozenset({"add", "edit", "check", "save"})
FAB_DP = (36, 100)  # a mini FAB is 40 dp, a FAB 56 dp, Material 3's large one 96 dp


def floating_buttons(rgb: "np.ndarray", boxes: Sequence[Box], lines: Sequence[Box] = ()) -> list[bool]:
    """For each of ``boxes``, whether it is a floating action button or the glyph on one.

    A FAB is a filled disc (or Material 3's rounded square, its tonal fill 12 levels or more off
    the surface) 40-96 dp across (36-100 dp allowed), at the end of a portrait screen below its
    top bar or docked in the middle of a bottom app bar, holding one glyph of another colour,
    alone of its kind (a row or a
    grid of equal discs is a set of buttons, a disc holding a word or a number is a date or an
    avatar: ``lines``, the screen's text boxes). Its place is not fixed: it rides above the
    keyboard when one is open (a form's Save at 59% of the screen's height rather than near its
    bottom), and a scrim (an open drawer, a dialog) dims it; the disc and its glyph are what tell
    it. The glyph is the candidate whose centre lies inside such a disc, and smaller."""
    height, width = rgb.shape[:2]
    out = [False] * len(boxes)
    if height <= width:
        return out
    s = dp_scale(width, height)
    lo, hi = FAB_DP[0] * s, FAB_DP[1] * s
    discs = [k for k, b in enumerate(boxes)
             if lo <= max(b.width, b.height) <= hi and min(b.width, b.height) >= 0.85 * max(b.width, b.height)
             and b.center.y >= TOP_BAR_DP * s and not in_nav_bar(b, width, height)
             and not any(b.contains_point(t.center) and t.area > 0.05 * b.area for t in lines)
             and _filled_disc(rgb, b)]
    # alone of its kind (no other disc of about its size on its row or its column), at the end,
    # or docked in the middle of a bottom app bar (Material 2's cradle)
    discs = [k for k in discs if (boxes[k].center.x >= width - 120 * s or (
        abs(boxes[k].center.x - width / 2) <= 0.05 * width and boxes[k].center.y >= height - 180 * s)) and not any(
        o != k and abs(boxes[o].width - boxes[k].width) <= 0.15 * boxes[k].width
        and boxes[o].iou(boxes[k]) < 0.5
        and (abs(boxes[o].center.y - boxes[k].center.y) <= 0.3 * boxes[k].height
             or abs(boxes[o].center.x - boxes[k].center.x) <= 0.3 * boxes[k].width) for o in discs)]
    for k in discs:
        out[k] = True
    for k, b in enumerate(boxes):
        if not out[k] and any(boxes[d].contains_point(b.center) and b.area < 0.6 * boxes[d].area for d in discs):
            out[k] = True
    return out


def _filled_disc(rgb: "np.ndarray", b: Box) -> bool:
    """Whether ``b`` holds a disc (or Material 3's rounded square) of one flat colour, other than the page's around it, the size of
    the box, with a glyph inside (pixels off the disc's colour in its middle). The disc is the
    pixels of its fill's colour (the median of a ring between the glyph and the rim), holes filled:
    a neighbour the box overlaps (a field's icon under the disc's edge) and the disc's soft shadow
    are not part of it."""
    import cv2
    import numpy as np

    side = max(b.width, b.height)
    pad = max(2, side // 8)
    x0, y0 = max(0, b.x1 - pad), max(0, b.y1 - pad)
    outer = rgb[y0:b.y2 + pad, x0:b.x2 + pad].astype(np.int16)
    h, w = outer.shape[:2]
    cx, cy = b.center.x - x0, b.center.y - y0
    yy, xx = np.ogrid[:h, :w]
    r = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / (side / 2.0)
    ring = outer[(r > 0.62) & (r < 0.85)]
    if len(ring) < 20:
        return False
    fill = np.median(ring, axis=0)
    border = np.concatenate([outer[0], outer[-1], outer[:, 0], outer[:, -1]])
    if np.abs(np.median(border, axis=0) - fill).max() < 12:  # Material 3's tonal container: 12-35 levels off its surface
        return False
    near = (np.abs(outer - fill).max(axis=2) < 24).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=8)
    lab = labels[int(cy), int(cx)] if near[int(cy), int(cx)] else 0
    if not lab:  # the glyph covers the centre: the component of the ring
        ys, xs = np.nonzero((r > 0.62) & (r < 0.85) & (near > 0))
        if not len(xs):
            return False
        lab = np.bincount(labels[ys, xs]).argmax()
    if not lab:
        return False
    comp = (labels == lab).astype(np.uint8) * 255
    contours, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    c = max(contours, key=cv2.contourArea)
    x, y, cw, ch = cv2.boundingRect(c)
    if not (0.8 * side <= max(cw, ch) <= 1.15 * side and min(cw, ch) >= 0.85 * max(cw, ch)):
        return False
    # a disc fills pi/4 of its square, Material 3's rounded square (16 dp corners on 56) 0.93;
    # either is convex
    area = cv2.contourArea(c)
    if not 0.72 <= area / float(cw * ch) <= 0.95 or area < 0.95 * cv2.contourArea(cv2.convexHull(c)):
        return False
    sil = np.zeros_like(comp)
    cv2.drawContours(sil, [c], -1, 255, thickness=cv2.FILLED)
    core = (r < 0.55) & (sil > 0)
    glyph = core & (np.abs(outer - fill).max(axis=2) >= 20)
    return bool(0.03 * core.sum() <= glyph.sum() <= 0.7 * core.sum())


def layout_priors(families: set[str], boxes: Sequence[Box], width: int, height: int,
                  rgb: "np.ndarray | None" = None, lines: Sequence[Box] = ()) -> list[float]:
    """:func:`layout_prior` of each of ``boxes``, and 1 for a floating action button and its glyph
    (:func:`floating_buttons`, from the pixels ``rgb``) where ``families`` holds one a FAB stands
    for (:data:`FAB_FAMILIES`)."""
    out = [layout_prior(families, b, width, height) for b in boxes]
    if rgb is not None and families & FAB_FAMILIES and height > width and priors.on("floating_buttons"):
        out = [max(p, 1.0 if fab else 0.0) for p, fab in zip(out, floating_buttons(rgb, boxes, lines))]
    return out


# ------------------------------------------------------------------------------------------------
# The on-screen keyboard
# ------------------------------------------------------------------------------------------------
# An open keyboard (Gboard, Samsung's, SwiftKey) draws its own icons under the app: a toolbar of
# glyphs (a microphone, a gear, a palette, emoji, the clipboard) over rows of letter keys, and the
# shift, backspace and enter keys. They belong to the input method, not to the app, and the app's
# uiautomator dump holds none of them; yet they are the best drawn glyphs on the screen, and a
# search field's "Voice search" microphone lost to the keyboard's. The keyboard is told by its keys:
# OCR reads each letter key as a line of one letter, rows of them across the screen's lower half.

# What a candidate on the keyboard keeps of its score: a glyph matching 0.98 there (the keyboard's
# microphone) falls under one matching 0.73 in the app (the field's outlined microphone).
KEYBOARD_FACTOR = 0.5


def keyboard_top(texts: Sequence[tuple[Box, str]], width: int, height: int) -> int | None:
    """The top of the on-screen keyboard (its toolbar's top), or None where none is open.

    Its letter keys are single letters read as lines (``texts``: the screen's text lines), in rows
    of five or more spread over two thirds of the width or more, in the lower half of a portrait
    screen; two such rows, one above the other, make a keyboard. Above its first row are the
    suggestion strip or the toolbar: the keyboard starts one and a half rows' pitch above that
    row's centre (Gboard's rows are 58 dp apart, its toolbar 48 dp high)."""
    if height <= width:
        return None
    keys = [b for b, t in texts if len(t.strip()) == 1 and t.strip().isalpha() and b.center.y > height / 2
            and b.height < 0.06 * height]
    rows: list[list[Box]] = []
    for b in sorted(keys, key=lambda b: b.center.y):
        if rows and abs(b.center.y - rows[-1][0].center.y) <= 0.5 * b.height:
            rows[-1].append(b)
        else:
            rows.append([b])
    full = [r for r in rows if len(r) >= 5
            and max(b.center.x for b in r) - min(b.center.x for b in r) >= 0.66 * width]
    if len(full) < 2:
        return None
    first, second = full[0], full[1]
    y1 = sum(b.center.y for b in first) / len(first)
    y2 = sum(b.center.y for b in second) / len(second)
    pitch = y2 - y1
    if not 0.03 * height <= pitch <= 0.12 * height:
        return None
    return int(y1 - 1.5 * pitch)


def names_keyboard(description: str) -> bool:
    """Whether ``description`` names a key or the keyboard (``lexicon.KEYBOARD_WORDS``)."""
    return IconQuery.parse(description).keyboard
