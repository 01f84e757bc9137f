"""A screenshot's layout, read once for Click Icon: the system bars, the keyboard, the top bar's side.

What a crop alone cannot tell about an icon is where it sits on the screen: in the status bar (a
glyph, not a button), in the system's three-button navigation bar (Back and Home have their own
operations), on the open keyboard (the input method's icons, not the app's). :class:`ScreenLayout`
reads these from the screen's text lines and detected boxes once per screenshot; Click Icon's
priors (``icons.priors``: ``status_bar``, ``keyboard``) ask it about each candidate with the
description read once (``icons.lexicon.IconQuery``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from mobile_agent.perception.icons.layout import in_nav_bar, in_status_bar, keyboard_top, three_button_bar
from mobile_agent.perception.icons.lexicon import IconQuery
from mobile_agent.perception.results import TextLine
from mobile_agent.types import Box

STATUS_FACTOR = 0.6  # what a status bar glyph keeps of its score where the description names none
NAV_FACTOR = 0.7  # and a navigation bar button where the description names none


@dataclass(frozen=True)
class ScreenLayout:
    """Where the system's and the input method's parts are on one screenshot."""

    width: int
    height: int
    nav_bar: bool | None  # a three-button navigation bar (False: gesture navigation; None: not known)
    keyboard_top: int | None  # the open keyboard's top, None where none is open

    @staticmethod
    def read(icons: Sequence[Box], lines: Sequence[TextLine], width: int, height: int) -> "ScreenLayout":
        """The layout of a screen from its detected icon boxes and its text lines."""
        return ScreenLayout(width, height, three_button_bar(list(icons), [l.box for l in lines], width, height),
                            keyboard_top([(l.box, l.text) for l in lines], width, height))

    def system_bar_factor(self, box: Box, query: IconQuery) -> float:
        return system_bar_factor(box, query, self.width, self.height, self.nav_bar)

    def status_excluded(self, box: Box, query: IconQuery) -> bool:
        return status_bar_excluded(box, query, self.width, self.height)

    def on_keyboard(self, box: Box) -> bool:
        """Whether ``box`` is on the open keyboard (not on the three-button bar under it)."""
        return (self.keyboard_top is not None and box.center.y >= self.keyboard_top
                and not (self.nav_bar and in_nav_bar(box, self.width, self.height)))


def system_bar_factor(box: Box, query: IconQuery, width: int, height: int, nav_bar: bool | None = None) -> float:
    """Icons of the status bar and the navigation bar are system UI (Back and Exit have their own
    operations; status icons are not buttons): they lose to app icons unless the description names
    them. The zones are in dp (``icons.layout``): the status bar's glyphs within 34 dp of the top,
    the three-button navigation bar the last 48 dp. ``nav_bar`` False: the screen has no
    three-button bar (a gesture-navigation phone; ``icons.layout.three_button_bar``), so what is
    drawn in its last 48 dp is the app's own bottom navigation; ``None``: not known."""
    if height < width:
        return 1.0
    if in_status_bar(box, width, height):
        return 1.0 if query.status else STATUS_FACTOR
    if in_nav_bar(box, width, height) and nav_bar is not False:
        return 1.0 if query.nav else NAV_FACTOR
    return 1.0


def status_bar_excluded(box: Box, query: IconQuery, width: int, height: int) -> bool:
    """Whether an icon candidate is in the status bar (its glyphs are not buttons) while the
    description names no status glyph (Wi-Fi, battery, signal...)."""
    if height < width or not in_status_bar(box, width, height):
        return False
    return not query.status
