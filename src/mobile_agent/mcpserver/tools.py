"""The phone tools behind the MCP server, callable in-process: one :class:`PhoneTools` over a
:class:`~mobile_agent.device.base.Device` and a :class:`~mobile_agent.perception.Perception`.

Each method checks its arguments, acts, and returns plain data (a dict, or a PIL image for the
screenshot). A user mistake or a refusal raises a :class:`~mobile_agent.errors.MobileAgentError`
whose message says what was wrong and what to do; the MCP server hands that message to the client
as a tool error, word for word, as the CLI prints it.

```python
from mobile_agent.device import open_device
from mobile_agent.mcpserver import PhoneTools
tools = PhoneTools(open_device("sim"))
tools.open_app("Settings")
tools.tap_text("Display")
[e["text"] for e in tools.screen_elements()["elements"] if e["kind"] == "text"]
```
"""

from __future__ import annotations

import re
import threading
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Sequence
from urllib.parse import urlsplit

import numpy as np
from PIL import Image

from mobile_agent.device.base import device_capabilities
from mobile_agent.device.gestures import LongPress, Swipe, as_press
from mobile_agent.errors import ConfigError, MobileAgentError
from mobile_agent.mcpserver import gates
from mobile_agent.perception.elements import Element, list_screen, tree_elements
from mobile_agent.perception.hybrid import ScreenTree
from mobile_agent.types import POSITIONS, Box, quote_screen_text

#: Element lists kept for tap_element's ``listing`` (the oldest is forgotten past this many).
MAX_LISTINGS = 64


@dataclass
class _Listing:
    """One screen_elements answer: its numbers hold until the next gesture. Several clients of one
    server (the MCP protocol's stateless requests carry no client identity) each name theirs by its
    id, so that another client's listing never renumbers theirs."""

    id: str
    elements: list[Element]
    at: int  # the gesture count when it was made: a later gesture makes its numbers stale
    dialog: tuple[list[int], str] | None  # a dialog over the page: its box and its first text


#: Longest texts the tools take (a longer one is refused with a message, never truncated silently).
MAX_TARGET_CHARS = 300
MAX_TYPE_CHARS = 2000
MAX_INSTRUCTION_CHARS = 2000
MAX_RUN_STEPS = 50
MAX_NAME_CHARS = 300
MAX_URL_CHARS = 2000
MAX_POSITION_CHARS = 40
MAX_COORD = 100_000
MIN_SIDE, MAX_SIDE = 64, 8192
#: The position words a call may give, canonical (the schema's enum): one word, or a vertical word
#: (or center) with a horizontal one.
POSITION_WORDS = ("top", "bottom", "left", "right", "center", "top left", "top right", "top center",
                  "bottom left", "bottom right", "bottom center", "center left", "center right")
#: Keys press_key names (the adb device maps them to key codes; others do back, home and enter).
KEYS = ("enter", "back", "home", "app_switch", "volume_up", "volume_down", "volume_mute", "delete", "tab",
        "escape", "search", "menu")
DOUBLE_TAP_GAP_S = 0.08
#: Gestures on the simulated phone and most real ones take this long to count as a long press.
LONG_PRESS_MS = 800

_DIRECTIONS = ("up", "down", "left", "right")


class RefusedError(MobileAgentError):
    """The server declines a call by its own rules: a risky tap not confirmed, an app not allowed."""


def _check_text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{what} must be a string, got {type(value).__name__}")
    if not value.strip():
        raise ConfigError(f"{what} is empty: say what to use")
    if len(value) > limit:
        raise ConfigError(f"{what} is {len(value)} characters long; at most {limit} are taken")
    return value


def _short(value: Any, limit: int = 60) -> str:
    """``value`` for an error message, never longer than about ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 20] + f"... ({len(text)} characters)"


def _check_position(position: Any) -> tuple[str, ...]:
    """The position words, checked and bounded (the message never echoes a long value)."""
    if position is None or position == "":
        return ()
    if not isinstance(position, str):
        raise ConfigError(f"position must be a string such as 'top right', got {type(position).__name__}")
    if len(position) > MAX_POSITION_CHARS:
        raise ConfigError(f"position is {len(position)} characters long: use one or two of {', '.join(POSITIONS)}")
    from mobile_agent.perception.positions import parse_position

    return parse_position(position)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "run"


def risk_of(target: str, *, icon: bool = False, touched_text: str | None = None,
            screen_texts: Sequence[str] = (), rules: Any = None) -> str | None:
    """Why tapping ``target`` looks risky, or ``None``: the one place the server's confirm gate asks.

    ``target`` is the text tapped (or, with ``icon``, the icon's description); ``touched_text`` the
    text read where the tap lands; ``screen_texts`` the screen's other lines (a generic "OK" is
    risky under "Delete 3 messages?"). The decision is the agent's ``--confirm`` rule
    (:func:`mobile_agent.agent.risk.assess`), with the user's confirm-words file where there is one.
    """
    from mobile_agent.agent.operations import ClickIcon, ClickText
    from mobile_agent.agent.risk import assess

    op = ClickIcon(target) if icon else ClickText(target)
    decision = assess(op, touched_text=touched_text, screen_text=list(screen_texts), rules=rules)
    return decision.why if decision.risky else None


@dataclass
class ToolOptions:
    """How the tools behave. ``confirm``: risky taps need ``confirm=True`` in the call.
    ``allowed_apps``: when not empty, the only apps open_app and run_instruction may open.
    ``tree``: screen_elements also lists the device's ui tree nodes (where it has a tree).
    ``model``: the model spec run_instruction uses (``gpt-4o``, ``scripted:FILE``...), with
    ``base_url`` and ``api_key_env``; ``runs_dir``: where run folders go. ``ask``: the agent of
    run_instruction may ask the user (Ask User, Take Over): the question comes back to the client
    as the tool's result (outcome ``needs_user``) and :meth:`PhoneTools.answer_user` answers it."""

    confirm: bool = True
    allowed_apps: tuple[str, ...] = ()
    tree: bool = True
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    runs_dir: Path = field(default_factory=lambda: Path("runs"))
    device_name: str = ""
    ask: bool = True


class _Run:
    """A run_instruction run on its own thread, which may stop to ask the user: ``question`` is
    the request waiting for an answer, ``result`` the run's end; ``changed`` wakes the tool call
    waiting for either, ``answered`` the run waiting for the answer."""

    def __init__(self, run_id: str) -> None:
        self.id = run_id
        self.question: Any = None
        self.answer: str | None = None
        self.result: Any = None
        self.failure: BaseException | None = None
        self.declined: list[str] = []
        self.changed = threading.Event()
        self.answered = threading.Event()
        self.thread: threading.Thread | None = None


class PhoneTools:
    """The MCP server's tools as Python methods, over one device. Thread-safe: calls run one at a time
    (``lock``: a lock shared with the other devices of one server, whose perception is shared)."""

    def __init__(self, device: Any, perception: Any = None, options: ToolOptions | None = None,
                 chat_model_factory: Callable[[], Any] | None = None, *, name: str = "",
                 lock: Any = None) -> None:
        if perception is None:
            from mobile_agent.perception import Perception

            perception = Perception()
        self.device = device
        self.perception = perception
        self.options = options or ToolOptions()
        self.name = name or self.options.device_name or "phone"
        self._chat_model_factory = chat_model_factory
        self._lock = lock if lock is not None else threading.RLock()
        self._gestures = 0
        self._listings: OrderedDict[str, _Listing] = OrderedDict()  # the element lists by id, newest last
        self._listed = 0
        self._rules: Any = None
        self._apps: Any = None  # agent.allowlist.InstalledApps, made at its first use
        self._waiting: _Run | None = None  # a run_instruction run waiting for the user's answer
        self._runs = 0

    @property
    def has_model(self) -> bool:
        """Whether run_instruction can run (a model spec or a factory was given)."""
        return bool(self.options.model or self._chat_model_factory)

    # ------------------------------------------------------------------------------ looking
    def screenshot(self, max_side: int | None = None) -> Image.Image:
        """The current screen (RGB), scaled down so that its longest side is at most ``max_side``."""
        if max_side is not None and (isinstance(max_side, bool) or not isinstance(max_side, int)
                                     or not MIN_SIDE <= max_side <= MAX_SIDE):
            raise ConfigError(f"max_side must be a whole number of pixels in {MIN_SIDE}..{MAX_SIDE}, got "
                              f"{_short(max_side)}")
        with self._lock:
            img = self.device.screenshot()
        if max_side is not None and max(img.size) > max_side:
            scale = max_side / max(img.size)
            img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))),
                             Image.Resampling.LANCZOS)
        return img

    def screen_elements(self, icons: bool = True) -> dict[str, Any]:
        """What is on the screen, numbered from 1 for :meth:`tap_element`, each thing once: the ui
        tree's labelled or clickable nodes where the device has a tree; text lines (OCR) that no node
        already names; icons (detector) that no node or text already covers, the outer box where a
        glyph sits in a circle, and none read as text."""
        with self._lock:
            img = self.device.screenshot()
            res = self.perception.parse(img, icons=icons)
            w, h = img.size
            found_icons = list(res.icons or []) if icons else []  # a cached parse may hold icons: not asked
            xml = self._tree_xml() if self.options.tree else None
            st = ScreenTree(xml, w, h) if xml is not None else None
            tree = "off" if not self.options.tree else ("read" if st is not None and st.read else "none")
            # a dialog over a page its scrim dims: what lies outside it is listed, marked as behind it
            find_dialog = getattr(self.perception, "dialog", None)
            dialog = find_dialog(img) if callable(find_dialog) else None
            # the tree where it lists something; else the picture alone says where a dialog is
            listed = st if st is not None and tree_elements(st) else None
            if dialog is None and listed is not None:
                # the dump's own window, where it is a dialog's or a popup menu's (hybrid.ScreenTree.window)
                dialog = listed.window
            if dialog is not None and listed is not None:
                # the page's nodes behind it, those under its card included where the tree names the
                # dialog's own nodes (perception.hybrid.ScreenTree.set_dialog)
                listed.set_dialog(dialog)
            elements = list_screen((w, h), res.lines, found_icons, st if tree == "read" else None, dialog,
                                   max_icon_width=gates.MAX_GLYPH_WIDTH)
            named = None
            if dialog is not None:
                # named by its topmost text wholly on the card (its title)
                own = [e.label for e in sorted(elements, key=lambda e: e.box.y1)
                       if not e.behind_dialog and dialog.intersect(e.box).area >= 0.95 * e.box.area and e.label]
                named = (list(dialog.as_tuple()), own[0] if own else "")
            self._listed += 1
            ident = f"L{self._listed}"
            self._listings[ident] = _Listing(ident, elements, self._gestures, named)
            while len(self._listings) > MAX_LISTINGS:
                self._listings.popitem(last=False)
            listing = {"listing": ident, "width": w, "height": h, "tree": tree, "count": len(elements),
                       "elements": [e.to_json() for e in elements]}
            if dialog is not None:
                listing["dialog"] = list(dialog.as_tuple())
            return listing

    def _tree_xml(self) -> str | None:
        get = getattr(self.device, "ui_tree", None)
        if not callable(get):
            return None
        try:
            xml = get()
        except MobileAgentError:
            return None
        return xml or None

    # ------------------------------------------------------------------------------ tapping
    def tap_text(self, text: str, position: str | None = None, confirm: bool = False) -> dict[str, Any]:
        """Tap the text ``text`` on the screen: the ui tree's text or content-desc where the device
        has a tree, else OCR (exact, then contained, then close matches). ``position`` (top, bottom,
        left, right, center, or a pair) picks among several."""
        text = _check_text(text, "the text to tap", MAX_TARGET_CHARS)
        pos = _check_position(position)
        with self._lock:
            img = self.device.screenshot()
            xml = self._tree_xml() if self.options.tree else None
            g = self.perception.ground_text(img, text, position=pos, tree=xml)
            return self._tap_grounding(g, img, f'"{text}"', text, confirm)

    def tap_icon(self, description: str, position: str | None = None, confirm: bool = False) -> dict[str, Any]:
        """Tap the icon that ``description`` names (``search``, ``send``, ``back arrow``...), optionally
        in the part of the screen ``position`` names."""
        description = _check_text(description, "the icon description", MAX_TARGET_CHARS)
        pos = _check_position(position)
        with self._lock:
            img = self.device.screenshot()
            g = self.perception.ground_icon(img, description, position=pos)
            return self._tap_grounding(g, img, f'the icon "{description}"', description, confirm, icon=True)

    def tap_element(self, number: int, confirm: bool = False, force: bool = False,
                    listing: str | None = None) -> dict[str, Any]:
        """Tap the centre of element ``number`` of the :meth:`screen_elements` list ``listing`` (its
        answer's ``listing``; left out: the newest list, refused where lists made since the last
        gesture disagree on that number). An element on the page behind a dialog
        (``behind_dialog``) is refused, naming the dialog, unless ``force``: a tap there closes the
        dialog or does nothing."""
        with self._lock:
            el = self._element(number, force, listing)
            label = el.label
            x, y = int(el.center.x), int(el.center.y)
            before = self.device.screenshot()
            self._gate_at(before, x, y, confirm, said=label, said_icon=bool(el.description),
                          glyph_box=None if label else el.box)
            self.device.tap(x, y)
            what = f'element {number} ({el.kind}{": " + repr(label) if label else ""})'
            return self._after(before, f"tapped {what} at ({x}, {y})", point=[x, y])

    def tap(self, x: int, y: int, confirm: bool = False) -> dict[str, Any]:
        """Tap the point (x, y) in screen pixels; gated by what lies there."""
        return self._tap_point(x, y, confirm, 1, "tapped")

    def double_tap(self, x: int, y: int, confirm: bool = False) -> dict[str, Any]:
        """Tap the point (x, y) twice in quick succession (zoom in a map or a photo, like a post)."""
        return self._tap_point(x, y, confirm, 2, "double-tapped")

    def _tap_point(self, x: int, y: int, confirm: bool, times: int, done: str) -> dict[str, Any]:
        """Tap (x, y) ``times`` times, ``DOUBLE_TAP_GAP_S`` apart, gated by what lies there; ``done``: the
        result's verb."""
        with self._lock:
            x, y = self._point(x, y)
            before = self.device.screenshot()
            self._gate_at(before, x, y, confirm)
            for i in range(times):
                if i:
                    time.sleep(DOUBLE_TAP_GAP_S)
                    # issue 51, item 4: each tap is judged on the screen it meets (the first may open a
                    # page whose Subscribe lies under the same point)
                    self._gate_at(self.device.screenshot(), x, y, confirm,
                                  refused=f"tapped once at ({x}, {y}); the second tap was not sent, the screen "
                                          f"the first tap left is in front: ")
                self.device.tap(x, y)
            return self._after(before, f"{done} ({x}, {y})", point=[x, y])

    def long_press(self, text: str | None = None, number: int | None = None,
                   duration_ms: int = LONG_PRESS_MS, x: int | None = None, y: int | None = None,
                   confirm: bool = False, force: bool = False, listing: str | None = None) -> dict[str, Any]:
        """Press and hold on a text on the screen, on element ``number`` of a list (``listing``, as for
        :meth:`tap_element`), or at (x, y)."""
        given = sum(v is not None for v in (text, number)) + (x is not None or y is not None)
        if given != 1:
            raise ConfigError("long_press needs exactly one of text (a text on the screen), number (an element) "
                              "or x and y (a point)")
        if isinstance(duration_ms, bool) or not isinstance(duration_ms, int) or not 100 <= duration_ms <= 10000:
            raise ConfigError(f"duration_ms must be a whole number of milliseconds in 100..10000, got "
                              f"{_short(duration_ms)}")
        with self._lock:
            before = self.device.screenshot()
            if text is not None:
                text = _check_text(text, "the text to press", MAX_TARGET_CHARS)
                g = self.perception.ground_text(before, text)
                if not g.found:
                    raise ConfigError(g.message or f'"{text}" is not on the screen')
                x, y = int(g.point.x), int(g.point.y)
                what = f'"{text}"'
            elif number is not None:
                c = self._element(number, force, listing).center
                x, y = int(c.x), int(c.y)
                what = f"element {number}"
            else:
                if x is None or y is None:
                    raise ConfigError("long_press at a point needs both x and y")
                x, y = self._point(x, y)
                what = "the point"
            self._gate_at(before, x, y, confirm)
            self._long_press(x, y, duration_ms)
            return self._after(before, f"pressed {what} at ({x}, {y}) for {duration_ms} ms", point=[x, y])

    def _listing_of(self, number: int, listing_id: str | None) -> _Listing:
        """The element list ``number`` refers to: the one named ``listing_id``, else the newest one;
        refused where the lists made since the last gesture (several clients', or one with icons
        and one without) number ``number`` differently and none is named."""
        if not self._listings:
            raise ConfigError("no element list yet: call screen_elements first, then pass a number from it")
        if listing_id is not None:
            listing = self._listings.get(str(listing_id))
            if listing is None:
                newest = next(reversed(self._listings))
                raise ConfigError(f"there is no element list {_short(listing_id)} (the newest is {newest!r}): "
                                  "pass the listing of your last screen_elements answer, or call it again")
        else:
            listing = self._listings[next(reversed(self._listings))]
        if listing.at != self._gestures:
            raise ConfigError("the screen may have changed since screen_elements (a gesture was made since): "
                              "call screen_elements again for current numbers")
        if listing_id is None:
            def at(lst: _Listing) -> Any:
                return lst.elements[number - 1].to_json() if 1 <= number <= len(lst.elements) else None

            others = [lst for lst in self._listings.values() if lst.at == self._gestures and lst is not listing
                      and at(lst) != at(listing)]
            if others:
                names = ", ".join(repr(lst.id) for lst in others + [listing])
                raise ConfigError(f"element {number} is not the same in the element lists {names}, all made "
                                  "since the last gesture (another client's, or a list with icons and one "
                                  "without): pass listing= with the listing of your screen_elements answer")
        return listing

    def _element(self, number: Any, force: bool = False, listing_id: str | None = None) -> Element:
        if isinstance(number, bool) or not isinstance(number, int):
            raise ConfigError(f"the element number must be a whole number, got {_short(number)}")
        listing = self._listing_of(number, listing_id)
        elements = listing.elements
        if not 1 <= number <= len(elements):
            raise ConfigError(f"there is no element {number} on the screen: the last screen_elements list "
                              f"has {len(elements)} element(s), numbered 1..{len(elements)}")
        el = elements[number - 1]
        if el.behind_dialog and not force:
            box, title = listing.dialog or ([], "")
            label = el.label
            named = f" {quote_screen_text(title)}" if title else ""
            raise ConfigError(
                f"element {number} ({el.kind}{': ' + quote_screen_text(label) if label else ''}) is on the page "
                f"behind the dialog{named} at {box}: a tap there closes the dialog or does "
                "nothing. Tap an element of the dialog (or press back to close it), or pass force=true to tap "
                "there anyway")
        return el

    def _point(self, x: Any, y: Any) -> tuple[int, int]:
        for v, axis in ((x, "x"), (y, "y")):
            if isinstance(v, bool) or not isinstance(v, int):
                raise ConfigError(f"{axis} must be a whole number of screen pixels, got {_short(v)}")
        w, h = self.device.size()
        if not (0 <= x < w and 0 <= y < h):
            raise ConfigError(f"({x}, {y}) is off the screen: the screen is {w}x{h} pixels, x in 0..{w - 1}, "
                              f"y in 0..{h - 1} (screenshot coordinates scaled back by the screenshot's scale)")
        return x, y

    def _long_press(self, x: int, y: int, duration_ms: int) -> None:
        if "long_press" in device_capabilities(self.device):
            LongPress(x, y, duration_ms).perform(self.device)
        else:  # a swipe that does not move is a press on Android
            Swipe(x, y, x, y, duration_ms).perform(self.device)

    # ------------------------------------------------------------------------------ other gestures
    def type_text(self, text: str, enter: bool = False, confirm: bool = False) -> dict[str, Any]:
        """Type into the focused field (tap the field first); ``enter`` presses Enter after it, which
        may send or submit: gated like a risky tap."""
        text = _check_text(text, "the text to type", MAX_TYPE_CHARS)
        if enter or "\n" in text or "\r" in text:
            self._gate_enter(confirm, "typed")
        with self._lock:
            before = self.device.screenshot()
            self.device.type_text(text + ("\n" if enter else ""))
            return self._after(before, f"typed {_short(text, 80)}" + (" and pressed Enter" if enter else ""))

    def press_key(self, key: str, confirm: bool = False) -> dict[str, Any]:
        """Press a key: enter (gated: it may send), back, home, app_switch, volume_up, volume_down,
        volume_mute, delete, tab, escape, search or menu. Devices without a key (the simulated
        phone has no volume keys) answer with an error naming the keys they have."""
        k = str(key).strip().lower()[:40]
        if k not in KEYS:
            raise ConfigError(f"unknown key {_short(key, 40)}: use {', '.join(KEYS)}")
        if k == "enter":
            self._gate_enter(confirm, "pressed")
        with self._lock:
            before = self.device.screenshot()
            if k == "back":
                self.device.back()
            elif k == "home":
                self.device.home()
            elif callable(getattr(self.device, "press_key", None)):
                self.device.press_key(k)
            elif k == "enter":
                self.device.type_text("\n")
            else:
                raise ConfigError(f"this device has no {k} key: it has enter, back and home")
            return self._after(before, f"pressed {k}")

    def swipe(self, direction: str, fraction: float = 0.5, x: int | None = None, y: int | None = None,
              distance: int | None = None, confirm: bool = False) -> dict[str, Any]:
        """Move the finger ``direction``: ``up`` moves it upwards (the content scrolls down, showing
        what is below), ``left`` to the left (the next page). From the screen's middle, ``fraction``
        of the content band (0.1..0.9; the band leaves out the top and bottom fifth of the screen,
        where bars take the gesture, and a tenth at each side); or from the point (``x``, ``y``),
        ``distance`` pixels (default: ``fraction`` of the screen's side), stopping at the edge. A
        swipe shorter than the touch slop is a press where it starts (``as_press``): gated like a tap."""
        d = str(direction).strip().lower()
        if d not in _DIRECTIONS:
            raise ConfigError(f"unknown direction {_short(direction, 40)}: use up, down, left or right")
        if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0.1 <= fraction <= 0.9:
            raise ConfigError(f"fraction must be a number in 0.1..0.9, got {_short(fraction)}")
        if (x is None) != (y is None):
            raise ConfigError("a swipe from a point needs both x and y")
        if distance is not None and (isinstance(distance, bool) or not isinstance(distance, int)
                                     or not 1 <= distance <= MAX_COORD):
            raise ConfigError(f"distance must be a whole number of pixels in 1..{MAX_COORD}, got {_short(distance)}")
        with self._lock:
            w, h = self.device.size()
            if x is None or y is None:
                if distance is not None:
                    raise ConfigError("distance goes with a starting point: give x and y too")
                cx, cy, dx, dy = w // 2, h // 2, int(w * 0.8 * fraction / 2), int(h * 0.6 * fraction / 2)
                x1, y1, x2, y2 = {"up": (cx, cy + dy, cx, cy - dy), "down": (cx, cy - dy, cx, cy + dy),
                                  "left": (cx + dx, cy, cx - dx, cy), "right": (cx - dx, cy, cx + dx, cy)}[d]
            else:
                x1, y1 = self._point(x, y)
                n = distance if distance is not None else int((h if d in ("up", "down") else w) * fraction)
                ux, uy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[d]
                x2 = min(w - 1, max(0, x1 + ux * n))
                y2 = min(h - 1, max(0, y1 + uy * n))
            before = self.device.screenshot()
            press = as_press(Swipe(x1, y1, x2, y2, 400), w)
            if press is not None:
                self._gate_at(before, press.x, press.y, confirm,
                              refused=f"not swiped: a swipe this short is a press at ({press.x}, {press.y}), and ")
            self.device.swipe(x1, y1, x2, y2, 400)
            return self._after(before, f"swiped {d} from ({x1}, {y1}) to ({x2}, {y2})")

    def page(self, direction: str) -> dict[str, Any]:
        """The agent's Page Down (``down``: show what is below) or Page Up (``up``)."""
        d = str(direction).strip().lower()
        if d not in ("up", "down"):
            raise ConfigError(f"unknown page direction {_short(direction, 40)}: use down (show what is below) or up")
        with self._lock:
            w, h = self.device.size()
            y_from, y_to = (int(h * 0.7), int(h * 0.3)) if d == "down" else (int(h * 0.3), int(h * 0.7))
            before = self.device.screenshot()
            self.device.swipe(w // 2, y_from, w // 2, y_to, 400)
            return self._after(before, f"paged {d}")

    def back(self) -> dict[str, Any]:
        """Press Back."""
        with self._lock:
            before = self.device.screenshot()
            self.device.back()
            return self._after(before, "pressed Back")

    def home(self) -> dict[str, Any]:
        """Press Home (go to the home screen)."""
        with self._lock:
            before = self.device.screenshot()
            self.device.home()
            return self._after(before, "pressed Home")

    # ------------------------------------------------------------------------------ apps
    def open_app(self, name: str) -> dict[str, Any]:
        """Go to the home screen and open the app labelled ``name`` (by its icon, as the agent does;
        on a device that can launch apps by name or package, that is the fallback). An app already
        in front is left as it is, and the answer says so."""
        name = _check_text(name, "the app name", MAX_TARGET_CHARS).strip()
        self._check_allowed(name)
        with self._lock:
            front = self._foreground()
            if front is not None and self._same_app(name, front):
                return {"done": f"{name} is already in front", "screen_changed": False, "already_open": True}
            before = self.device.screenshot()
            self.device.home()
            self._gestures += 1
            self._settle()
            img = self.device.screenshot()
            g = self.perception.ground_app(img, name)
            if g.found:
                x, y = int(g.point.x), int(g.point.y)
                self.device.tap(x, y)
                return self._after(before, f"opened {name} (tapped its icon at ({x}, {y}))", point=[x, y])
            launch = getattr(self.device, "launch", None)
            if callable(launch):
                ok = launch(name)  # the simulated phone raises ConfigError naming its apps
                if ok is not False:
                    return self._after(before, f"opened {name} (launched by name)")
            raise ConfigError(g.message or f'no app named "{name}" on the home screen')

    def list_apps(self) -> dict[str, Any]:
        """The installed apps (name and package; adb knows packages only) and the app in front."""
        get = getattr(self.device, "installed_apps", None)
        if not callable(get):
            raise ConfigError("this device cannot list its apps")
        with self._lock:
            apps = list(get())
            front = self._foreground()
        return {"count": len(apps), "apps": apps, "foreground": front}

    def current_app(self) -> dict[str, Any]:
        """The app in front (a name on the simulated phone, a package on adb); null on the home screen."""
        with self._lock:
            front = self._foreground()
            known = callable(getattr(self.device, "foreground_app", None)) or front is not None
        if not known:
            raise ConfigError("this device cannot tell which app is in front")
        return {"app": front, "home": front is None}

    def launch_app(self, package: str) -> dict[str, Any]:
        """Start an installed app by its package (``com.android.settings``; the simulated phone's apps
        have packages too, and their names work as well)."""
        package = _check_text(package, "the package", MAX_NAME_CHARS).strip()
        find = getattr(self.device, "app_by_package", None)
        if not callable(find):
            raise ConfigError("this device cannot launch apps by package")
        self._check_allowed(package)
        with self._lock:
            name = find(package)
            if name is None:
                raise ConfigError(f"no installed app has the package {_short(package, 80)}: list_apps lists them")
            before = self.device.screenshot()
            if self.device.launch(name) is False:
                raise ConfigError(f"{_short(package, 80)} could not be started")
            return self._after(before, f"launched {package}")

    def stop_app(self, package: str) -> dict[str, Any]:
        """Force-stop an app by its package (or name on the simulated phone); if it was in front, the
        home screen shows."""
        package = _check_text(package, "the package", MAX_NAME_CHARS).strip()
        stop = getattr(self.device, "stop_app", None)
        if not callable(stop):
            raise ConfigError("this device cannot stop apps")
        with self._lock:
            before = self.device.screenshot()
            if not stop(package):
                raise ConfigError(f"no installed app has the package {_short(package, 80)}: list_apps lists them")
            return self._after(before, f"stopped {package}")

    def open_url(self, url: str) -> dict[str, Any]:
        """Open an http(s) URL with the app that handles it (the browser)."""
        url = _check_text(url, "the URL", MAX_URL_CHARS).strip()
        bad = next((i for i, c in enumerate(url) if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")), None)
        if bad is not None:  # a line break, an escape, a bidi override: no URL holds one as it is
            raise ConfigError(f"the URL holds a control character (U+{ord(url[bad]):04X} at position {bad}): "
                              "write it percent-encoded (a line break is %0A)")
        parts = urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
            raise ConfigError(f"only http and https URLs are opened, got {_short(url, 80)}")
        opener = getattr(self.device, "open_url", None)
        if not callable(opener):
            raise ConfigError("this device cannot open URLs")
        with self._lock:
            before = self.device.screenshot()
            opener(url)
            return self._after(before, f"opened {_short(url, 200)}")

    def device_info(self) -> dict[str, Any]:
        """The device's name, kind, screen size and orientation, what it can do, and the app in front."""
        with self._lock:
            w, h = self.device.size()
            kind = getattr(self.device, "kind", None) or ("adb" if hasattr(self.device, "serial") else "sim")
            info: dict[str, Any] = {"name": self.name, "kind": kind,
                                    "width": w, "height": h, "orientation": "landscape" if w > h else "portrait",
                                    "capabilities": sorted(device_capabilities(self.device))}
            shell = getattr(self.device, "shell", None)
            if callable(shell):
                try:
                    info["model"] = shell("getprop ro.product.model").strip() or None
                    info["android"] = shell("getprop ro.build.version.release").strip() or None
                except MobileAgentError:
                    pass
            if getattr(self.device, "ios_version", None):
                info["ios"] = self.device.ios_version
            info["foreground"] = self._foreground()
        return info

    # ------------------------------------------------------------------------------ the agent
    def run_flow(self, flow: str, allow_risky: bool = False) -> dict[str, Any]:
        """Run a test flow (its YAML text, docs/flows.md) on this phone through this server's gates
        (:mod:`mobile_agent.mcpserver.flowtool`) and return how it went and its folder."""
        from mobile_agent.mcpserver.flowtool import run_flow_tool

        return run_flow_tool(self, flow, allow_risky)

    def run_instruction(self, instruction: str, max_steps: int = 20, allow_risky: bool = False) -> dict[str, Any]:
        """Carry out ``instruction`` with the whole agent (its own model, set when the server
        started) and return how it ended and its run folder. When the agent asks the user
        something (Ask User, Take Over), the answer is ``needs_user`` with the question and a
        ``run_id``: :meth:`answer_user` answers it and returns what comes next the same way. A new
        run_instruction ends a run still waiting for an answer (it ends ``needs_user``)."""
        instruction = _check_text(instruction, "the instruction", MAX_INSTRUCTION_CHARS)
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or not 1 <= max_steps <= MAX_RUN_STEPS:
            raise ConfigError(f"max_steps must be a whole number in 1..{MAX_RUN_STEPS}, got {_short(max_steps)}")
        from mobile_agent.agent import StepLoop, AgentSettings, LLMPlanner
        from mobile_agent.report import write_report

        chat = self._chat_model()
        self._give_up_waiting()
        planner = LLMPlanner(chat)
        if self.options.allowed_apps:
            planner = _AllowListPlanner(planner, self)
        self._runs += 1
        run = _Run(f"run-{self._runs}")
        declined = run.declined

        def confirm(op: Any, description: str) -> bool:
            if allow_risky:
                return True
            declined.append(description)
            return False

        def ask(request: Any) -> str | None:
            """The agent asks: the tool call waiting on this run returns the question; the run waits,
            without the device (the client may use the phone meanwhile), for answer_user."""
            run.question, run.answer = request, None
            run.answered.clear()
            run.changed.set()
            depth = 0
            while True:  # let go of the device while the person decides (the tools may be used meanwhile)
                try:
                    self._lock.release()
                except RuntimeError:
                    break
                depth += 1
            try:
                run.answered.wait()
            finally:
                for _ in range(depth):
                    self._lock.acquire()
            return run.answer

        out = Path(self.options.runs_dir) / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{_slug(instruction)}"
        n = 1
        while out.exists():
            n += 1
            out = out.with_name(f"{out.name.rsplit('~', 1)[0]}~{n}")
        settings = AgentSettings(max_steps=max_steps, confirm=confirm if self.options.confirm else None,
                                 device_name=self.options.device_name, on_finish=write_report,
                                 ask=ask if self.options.ask else None)

        def body() -> None:
            try:
                with self._lock:
                    run.result = StepLoop(self.device, planner, self.perception, settings).run(instruction, out)
                    self._gestures += 1
                    outside = self.front_refusal()
                    if outside is not None:  # the run ended inside an app it may not use: leave it
                        self.device.home()
                        self._settle()
            except BaseException as exc:  # noqa: BLE001 - handed to the tool call, which raises it
                run.failure = exc
            finally:
                run.changed.set()

        run.thread = threading.Thread(target=body, name=f"mcp-{run.id}", daemon=True)
        run.thread.start()
        return self._next(run)

    def answer_user(self, run_id: str, answer: str = "", give_up: bool = False) -> dict[str, Any]:
        """Answer the question a run_instruction run is waiting on (the user's words, passed to the
        agent as data), or with ``give_up`` leave it unanswered (the run ends ``needs_user``); returns
        how the run goes on, as run_instruction does: its end, or its next question."""
        run = self._waiting
        if run is None or not isinstance(run_id, str) or run.id != run_id:
            waiting = f" (the run waiting is {run.id})" if run is not None else ""
            raise ConfigError(f"no run {run_id!r} is waiting for an answer{waiting}")
        if not isinstance(give_up, bool):
            raise ConfigError(f"give_up must be true or false, got {give_up!r}")
        if not give_up:
            answer = _check_text(answer, "the answer", MAX_INSTRUCTION_CHARS) if answer else ""
        self._waiting = None
        run.question = None
        run.answer = None if give_up else answer
        run.changed.clear()
        run.answered.set()
        return self._next(run)

    def _next(self, run: _Run) -> dict[str, Any]:
        """Wait until ``run`` ends or asks the user; its end, or its question with ``run_id``."""
        run.changed.wait()
        run.changed.clear()
        if run.question is not None and run.result is None and run.failure is None:
            self._waiting = run
            q = run.question
            what = "do it on the phone, then answer 'done'" if q.kind == "take_over" else "answer the question"
            return {"outcome": "needs_user", "completed": False, "run_id": run.id,
                    "question": {"kind": q.kind, "text": q.text, "step": q.step},
                    "next": f"ask the user, then call answer_user with run_id {run.id!r} and their words ({what}); "
                            "the agent reads them as the user's words"}
        if run.failure is not None:
            raise run.failure
        result = run.result
        error = result.error
        if run.declined:
            error = (f"stopped before {run.declined[0]}: it looks risky; call run_instruction again with "
                     f"allow_risky=true if it should be carried out")
        out = {"outcome": result.outcome, "completed": result.completed, "steps": result.steps,
               "run_folder": str(Path(result.out_dir).resolve()), "duration_s": round(result.duration_s, 2),
               "tokens": result.usage.total_tokens, "error": error}
        if result.needs_user is not None:
            out["question"] = result.needs_user.to_dict()
        return out

    def _give_up_waiting(self) -> None:
        """A run still waiting for an answer ends unanswered (``needs_user``) before another starts."""
        run, self._waiting = self._waiting, None
        if run is None:
            return
        run.question, run.answer = None, None
        run.answered.set()
        if run.thread is not None:
            run.thread.join()

    def _chat_model(self) -> Any:
        if self._chat_model_factory is not None:
            return self._chat_model_factory()
        if not self.options.model:
            raise ConfigError("run_instruction needs a model: start the server with --model NAME "
                              "(for example gpt-4o, claude-sonnet-4-5, scripted:replies.txt)")
        from mobile_agent.model import make_chat_model

        return make_chat_model(self.options.model, base_url=self.options.base_url,
                               api_key_env=self.options.api_key_env)

    # ------------------------------------------------------------------------------ allow-list
    def is_allowed(self, app: str) -> bool:
        """Whether ``app`` (a name or a package) is on the allow-list (any app when the list is empty)."""
        allowed = self.options.allowed_apps
        return not allowed or any(self._same_app(a, app) for a in allowed)

    def _same_app(self, name: str, app: str) -> bool:
        """Whether ``name`` (a label or a package) names ``app`` (a label or a package): the agent's
        judging (``agent/allowlist.py`` ``same_app``), with this device's installed apps."""
        from mobile_agent.agent.allowlist import same_app

        return same_app(name, app, self._installed())

    def _installed(self) -> list[dict[str, str]]:
        """The device's installed apps, for the other names of an app (``agent/allowlist.py``
        ``InstalledApps``: read at most every 10 s; empty where the device cannot list them)."""
        if self._apps is None:
            from mobile_agent.agent.allowlist import InstalledApps

            self._apps = InstalledApps(self.device)
        return self._apps()

    def _check_allowed(self, app: str) -> None:
        if not self.is_allowed(app):
            from mobile_agent.agent.allowlist import not_allowed

            raise RefusedError(not_allowed(_short(app, 80)[1:-1], self.options.allowed_apps, "this server's"))

    def _foreground(self) -> str | None:
        """The app in front: the device's answer, else the package of the ui tree's first node;
        None on the home screen (a launcher) or where the device cannot tell."""
        get = getattr(self.device, "foreground_app", None)
        front: str | None = None
        if callable(get):
            try:
                front = get()
            except MobileAgentError:
                front = None
        else:
            xml = self._tree_xml()
            m = re.search(r'<node [^>]*package="([^"]+)"', xml or "")
            front = m.group(1) if m else None
        if front is None or _is_home(front):
            return None
        return front

    def front_refusal(self) -> str | None:
        """The app in front when the allow-list does not allow it, else None."""
        if not self.options.allowed_apps:
            return None
        front = self._foreground()
        if front is None or self.is_allowed(front):
            return None
        return front

    # ------------------------------------------------------------------------------ the gate
    def _risk_rules(self) -> Any:
        if self._rules is None:
            from mobile_agent.agent.risk import load_rules

            self._rules = load_rules()
        return self._rules

    def _gate_enter(self, confirm: bool, verb: str) -> None:
        if not self.options.confirm or confirm:
            return
        from mobile_agent.agent.operations import Type
        from mobile_agent.agent.risk import assess

        decision = assess(Type("\n"), rules=self._risk_rules())
        if decision.risky:
            raise RefusedError(f"not {verb}: {decision.why}. Ask the user, then call again with confirm=true")

    def _gate_at(self, img: Image.Image, x: int, y: int, confirm: bool, *, said: str | None = None,
                 said_icon: bool = False, said_texts: Sequence[str] = (), glyph_box: Box | None = None,
                 refused: str = "not tapped: ") -> None:
        """Refuse a tap at (x, y) that would touch something risky: the words of the call
        (``said``), the texts read there, the tree's labels there, and the glyph of the icon there
        (or of ``glyph_box``), each judged by the agent's confirm rule."""
        if not self.options.confirm or confirm:
            return
        from mobile_agent.agent.touch import receiver

        rules = self._risk_rules()
        xml = self._tree_xml()
        t = gates.touched_at(self.perception, img, x, y, tree_elements(xml))
        if glyph_box is not None:
            t.glyphs = gates.glyph_names(self.perception, np.asarray(img), glyph_box, img.size[0]) or t.glyphs
        # what the phone gives the touch to: the innermost clickable node (the menu row around its
        # word), or the text line's row, or the icon there (agent/touch.py)
        got = receiver(self.perception, img, x, y, xml)
        t.texts += [w for w in got.texts if w not in t.texts]
        t.descriptions += [w for w in got.descriptions if w not in t.descriptions]
        if not t.glyphs:
            for box in got.icon_boxes[:2]:
                t.glyphs = gates.glyph_names(self.perception, np.asarray(img), box, img.size[0])
                if t.glyphs:
                    break
        ctx = t.screen_texts
        checks: list[tuple[str, bool, str | None, str]] = []
        if said:
            checks.append((said, said_icon, None, ""))
        checks += [(s, False, s, "") for s in list(said_texts) + t.texts]
        checks += [(d, True, None, "") for d in t.descriptions]
        if t.glyphs and all(risk_of(g, icon=True, rules=rules) for g in t.glyphs):  # no benign reading ties
            checks += [(g, True, None, f"the icon there looks like a {g}: ") for g in t.glyphs]
        for target, icon, touched, prefix in checks:
            why = risk_of(target, icon=icon, touched_text=touched, screen_texts=ctx, rules=rules)
            if why is not None:
                raise RefusedError(f"{refused}{prefix}{why}. Ask the user, then call again with confirm=true "
                                   f"to tap it")

    def _tap_grounding(self, g: Any, img: Image.Image, what: str, label: str, confirm: bool,
                       icon: bool = False) -> dict[str, Any]:
        if not g.found:
            raise ConfigError(g.message or f"{what} is not on the screen")
        chosen = g.chosen
        x, y = int(chosen.point.x), int(chosen.point.y)
        self._gate_at(img, x, y, confirm, said=label, said_icon=icon,
                      said_texts=[chosen.text] if chosen.text else [], glyph_box=chosen.box if icon else None)
        self.device.tap(x, y)
        found = f" (read as {chosen.text!r})" if chosen.text and chosen.text != label else ""
        return self._after(img, f"tapped {what}{found} at ({x}, {y})", point=[x, y],
                           box=list(chosen.box.as_tuple()))

    def _settle(self) -> None:
        if "wait_still" in device_capabilities(self.device):
            self.device.wait_still(timeout_s=3.0)

    def _after(self, before: Image.Image, done: str, **extra: Any) -> dict[str, Any]:
        """The answer to a gesture: what was done, and whether the screen changed. With an
        allow-list, an app outside it that came to the front is left at once (Home) and the call
        is refused, whatever brought it there (a tap on a launcher label, a link)."""
        self._gestures += 1
        self._settle()
        outside = self.front_refusal()
        if outside is not None:
            self.device.home()
            self._gestures += 1
            self._settle()
            raise RefusedError(f"{done}, which brought {outside!r} to the front; it is not in this server's "
                               f"allow-list ({', '.join(self.options.allowed_apps)}), so Home was pressed")
        after = self.device.screenshot()
        changed = bool(self.perception.screen_changed(before, after))
        tail = "the screen changed" if changed else "the screen did not change"
        return {"done": f"{done}; {tail}", "screen_changed": changed, **extra}


def _is_home(app: str) -> bool:
    """A launcher or the system UI counts as the home screen (``agent/allowlist.py`` ``is_home``)."""
    from mobile_agent.agent.allowlist import is_home

    return is_home(app)


class _AllowListPlanner:
    """A planner that ends the run when an app outside the allow-list is in front after a step
    (however it got there: Open App, a tap on its label on the launcher, a link), or when its model
    asks to open one."""

    def __init__(self, inner: Any, tools: PhoneTools) -> None:
        self.inner, self.tools = inner, tools
        self.name = getattr(inner, "name", "planner")

    def plan(self, ctx: Any) -> Any:
        from mobile_agent.agent.operations import OpenApp
        from mobile_agent.agent.planner import PlanningError

        outside = self.tools.front_refusal()
        if outside is not None:
            raise PlanningError(f"the last step brought {outside!r} to the front, which is not in this server's "
                                f"allow-list ({', '.join(self.tools.options.allowed_apps)})", "", [], [])
        plan = self.inner.plan(ctx)
        op = plan.operation
        if isinstance(op, OpenApp) and not self.tools.is_allowed(op.name):
            raise PlanningError(f'the model asked to open "{op.name}", which is not in this server\'s allow-list '
                                f"({', '.join(self.tools.options.allowed_apps)})", plan.raw, plan.calls, [])
        return plan

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
