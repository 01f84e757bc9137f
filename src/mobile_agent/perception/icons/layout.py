"""Where apps put an icon of a given family, as a prior for Click Icon without a position hint.

Android apps follow the Material layout: the top app bar holds Navigate up or the drawer's
hamburger at its left end and actions with the overflow ⋮ last at its right end; a bottom
navigation bar holds the main destinations (Home, Search, Notifications, the account); a floating
action button (Add, Compose) sits bottom right; a chat's Send sits at the right end of its
composer at the bottom. A candidate in its family's usual place gets a prior of up to 1; one
elsewhere 0. The prior is a small term beside the shape score (see ``Perception.ground_icon``): it
breaks near-ties, it does not outvote a clear shape match.

The zones are fractions of a portrait screen; a landscape screen gets no prior.
"""

from __future__ import annotations

from mobile_agent.types import Box

TOP_BAR = 0.14  # status bar (24 dp) and top app bar (56-64 dp) of a 640-900 dp tall screen
BOTTOM_BAR = 0.87  # bottom navigation (56-80 dp)

# The usual actions of a top app bar. Icons that apps put beside content as often as in the bar
# (like, comment, bookmark, star, camera) get no toolbar prior; Close has its own place (an end of
# the bar), and a chip's or a field's x is anywhere.
_TOOLBAR_ACTIONS = {"search", "share", "notifications", "cart", "settings", "filter", "refresh", "edit", "delete",
                    "account", "mic", "add", "download", "help", "info", "check"}
_NAV_DESTINATIONS = {"home", "search", "notifications", "account", "like", "cart", "settings", "comment", "add",
                     "mail", "location", "calendar", "image", "video", "music", "star", "bookmark", "apps"}


def layout_prior(families: set[str], box: Box, width: int, height: int) -> float:
    """How typical ``box`` is as the place of an icon of one of ``families`` (0 to 1)."""
    if not families or height <= width:
        return 0.0
    c = box.center
    fx, fy = c.x / width, c.y / height
    if fy < 0.025:  # the status bar: not a button
        return 0.0
    top, bottom = fy < TOP_BAR, fy > BOTTOM_BAR
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
