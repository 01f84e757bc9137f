"""The apps a run may open: ``AgentSettings.allowed_apps`` (``run --allow-app``), and the judging of
app names that the MCP server's ``--allow-app`` shares (``mcpserver/tools.py`` imports it).

An app is named by its launcher label or its package: ``Settings`` also names
``com.android.settings`` (its package's last part), and a device that lists its installed apps
(``installed_apps()``: ``{"name", "package"}`` each) gives each label its package and back.

Inside a run (:class:`AllowGate`, asked by the loop after grounding, before anything is touched):

- an Open App of an app not allowed is refused, by its name;
- a press at a point (Click Text, Click Icon, Long Press, a point model's Tap, Double Tap, Long Press
  At, a swipe shorter than the touch slop) on the home screen is refused where it lands on the
  launcher icon of an app not allowed: what lies at the point is read as the launcher draws an app,
  a label (an OCR line) with its icon above it (``perception.core.icon_above_label``, the picture
  that Open App grounds on). The home screen is what the device says (``foreground_app()`` None or a
  launcher; else the ui tree's package is a launcher's); where it cannot say, a label counts only
  where it names an installed app.

A refusal is a step error: recorded in the step (``error``, no gesture), told to the model, and the
run goes on.
"""

from __future__ import annotations

import re
import time
from typing import Any, Iterable, Sequence

import numpy as np
from PIL import Image

from mobile_agent.errors import MobileAgentError

#: How long the device's list of installed apps is taken as current (seconds).
APPS_TTL_S = 10.0

Installed = Sequence[dict[str, str]]


def _key(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def app_aliases(name: str, installed: Installed) -> set[str]:
    """The other names of the app ``name`` (lower case) among ``installed``: its package for a
    label, its label for a package."""
    out: set[str] = set()
    for app in installed:
        pair = {str(app.get("name", "")).lower(), str(app.get("package", "")).lower()}
        if name in pair:
            out |= pair
    return out - {""}


def same_app(name: str, app: str, installed: Installed = ()) -> bool:
    """Whether ``name`` (a label or a package) names ``app`` (a label or a package): equal, the
    other's package or label among ``installed``, or the package's last part (``Settings`` is
    ``com.android.settings``)."""
    a, b = name.strip().lower(), app.strip().lower()
    if not a or not b:
        return False
    if a == b or b in app_aliases(a, installed):
        return True
    return any(_key(p.rsplit(".", 1)[-1]) == _key(q) for p, q in ((a, b), (b, a)) if "." in p)


def is_allowed(app: str, allowed: Sequence[str], installed: Installed = ()) -> bool:
    """Whether ``app`` is on the allow-list ``allowed`` (any app when the list is empty)."""
    return not allowed or any(same_app(a, app, installed) for a in allowed)


def not_allowed(app: str, allowed: Sequence[str], whose: str = "this run's") -> str:
    """The one-line refusal: ``the app "Mail" is not in this run's allow-list (Settings, Notes)``."""
    shown = app if len(app) <= 80 else app[:77] + "..."
    return f'the app "{shown}" is not in {whose} allow-list ({", ".join(allowed)})'


def is_home(app: str) -> bool:
    """A launcher or the system UI (notification shade, recents) counts as the home screen."""
    a = app.lower()
    return "launcher" in a or a in ("com.android.systemui", "android")


def check_allowed_apps(apps: Iterable[str]) -> tuple[str, ...]:
    """The allow-list as given (``--allow-app``, ``AgentSettings.allowed_apps``), stripped; an empty
    name is a :class:`~mobile_agent.errors.ConfigError`."""
    from mobile_agent.errors import ConfigError

    out = tuple(str(a).strip() for a in apps)
    if any(not a for a in out):
        raise ConfigError("an allowed app needs a name or a package (--allow-app got an empty one)")
    return out


#: Without a tree: the top and bottom shares of the screen that are the system's bars, and how far
#: (a share of its size) an unlabelled icon's slot reaches around it
STATUS_SHARE, NAV_SHARE, ICON_PAD = 0.04, 0.055, 0.4


def launcher_app_at(perception: Any, image: Image.Image, x: int, y: int, names: Any) -> str | None:
    """The app whose launcher cell lies at (x, y) of ``image``, as ``names(label_text)`` reads a label
    (the app's name, or None for a text that names no app); None where the point is in no app's cell.

    A launcher cell takes the touch all over, its padding included (the launcher's view is the whole
    cell): each app's icon (drawn above its label) and label make its group, and its cell is the
    group's centre give or take half the launcher's pitch, the distance to the next group across and
    down (a lone group: its own size and a third more)."""
    return app_in_cells(launcher_cells(perception, image, names), x, y)


def launcher_cells(perception: Any, image: Image.Image, names: Any) -> list[tuple[Any, Any, str]]:
    """The launcher's cells on ``image``: (label box, cell box, app) for each label ``names`` reads
    as an app's (see :func:`launcher_app_at`)."""
    from mobile_agent.perception.core import icon_above_label
    from mobile_agent.types import Box

    lines = list(perception.parse(image).lines)
    rgb: np.ndarray | None = None
    groups: list[tuple[Any, Any, str]] = []  # (label box, box of icon and label, app)
    for line in lines:
        app = names(str(line.text))
        if app is None:
            continue
        b = line.box
        if rgb is None:
            rgb = np.asarray(image.convert("RGB"))
        icon = icon_above_label(rgb, b, [o.box for o in lines if o is not line])
        group = b if icon is None else Box(min(b.x1, icon.x1), icon.y1, max(b.x2, icon.x2), b.y2)
        groups.append((b, group, app, icon is not None))
    cells: list[tuple[Any, Any, str]] = []
    for b, g, app, has_icon in groups:
        if not has_icon:
            cells.append((b, b, app))  # a text that names an app, with no icon over it: the label alone
            continue
        cx, cy = (g.x1 + g.x2) / 2, (g.y1 + g.y2) / 2
        others = [o for _, o, _, i in groups if i and o is not g]
        across = [abs((o.x1 + o.x2) / 2 - cx) for o in others
                  if abs((o.y1 + o.y2) / 2 - cy) < (g.y2 - g.y1) / 2 and abs((o.x1 + o.x2) / 2 - cx) > 1]
        down = [abs((o.y1 + o.y2) / 2 - cy) for o in others
                if abs((o.x1 + o.x2) / 2 - cx) < (g.x2 - g.x1) / 2 and abs((o.y1 + o.y2) / 2 - cy) > 1]
        half_w = max((min(across) if across else (g.x2 - g.x1) * 4 / 3) / 2, (g.x2 - g.x1) / 2)
        half_h = max((min(down) if down else (g.y2 - g.y1) * 4 / 3) / 2, (g.y2 - g.y1) / 2)
        cells.append((b, Box(int(cx - half_w), int(cy - half_h), int(cx + half_w), int(cy + half_h)), app))
    return cells


def app_in_cells(cells: Sequence[tuple[Any, Any, str]], x: int, y: int) -> str | None:
    """The app of the cell of ``cells`` (:func:`launcher_cells`) that holds (x, y): a label under the
    point first, else the cell whose centre is nearest."""
    for label, _, app in cells:
        if label.x1 <= x <= label.x2 and label.y1 <= y <= label.y2:
            return app
    hits = [(abs(x - (c.x1 + c.x2) / 2) + abs(y - (c.y1 + c.y2) / 2), app) for _, c, app in cells
            if c.x1 <= x <= c.x2 and c.y1 <= y <= c.y2]
    return min(hits)[1] if hits else None


class InstalledApps:
    """A device's installed apps (``{"name", "package"}`` each), read at most every
    :data:`APPS_TTL_S` seconds; empty where the device cannot list them. Called for the list."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self._apps: tuple[float, list[dict[str, str]]] | None = None

    def __call__(self) -> list[dict[str, str]]:
        get = getattr(self.device, "installed_apps", None)
        if not callable(get):
            return []
        now = time.monotonic()
        if self._apps is None or now - self._apps[0] > APPS_TTL_S:
            try:
                self._apps = (now, [dict(a) for a in get()])
            except MobileAgentError:
                return []
        return self._apps[1]


class AllowGate:
    """The allow-list of one run: asks the device which apps it has and whether the home screen is
    in front, and reads what lies at a press's point (see the module's words)."""

    def __init__(self, device: Any, perception: Any, allowed: Sequence[str]) -> None:
        self.device, self.perception, self.allowed = device, perception, tuple(allowed)
        self.installed = InstalledApps(device)
        self._cells: tuple[Image.Image, list] | None = None  # the launcher's cells of the last screen read

    def allows(self, app: str) -> bool:
        return is_allowed(app, self.allowed, self.installed())

    def home(self) -> bool | None:
        """Whether the home screen is in front: the device's answer, else the ui tree's package;
        None where neither tells."""
        get = getattr(self.device, "foreground_app", None)
        if callable(get):
            try:
                front = get()
            except MobileAgentError:
                return None
            return front is None or is_home(str(front))
        tree = getattr(self.device, "ui_tree", None)
        if callable(tree):
            try:
                xml = tree()
            except MobileAgentError:
                return None
            m = re.search(r'<node [^>]*package="([^"]+)"', xml or "")
            if m:
                return is_home(m.group(1))
        return None

    def _names(self, home: bool | None) -> Any:
        installed = self.installed()
        labelled = [a for a in installed if a.get("name") and a.get("name") != a.get("package")]

        def name_of(text: str) -> str | None:
            t = text.strip()
            if not t:
                return None
            for app in installed:
                if same_app(t, str(app.get("name", "")), installed) or same_app(t, str(app.get("package", "")),
                                                                                   installed):
                    return str(app.get("name") or app.get("package"))
            # the device knows no labels (adb lists packages): on the home screen a label is an app's
            return t if home and not labelled else None

        return name_of

    def refusal(self, op: Any, gesture: Any, screenshot: Image.Image) -> str | None:
        """Why ``op`` (grounded as ``gesture`` on ``screenshot``) may not be carried out, or None."""
        if not self.allowed:
            return None
        from mobile_agent.agent.operations import OpenApp

        if isinstance(op, OpenApp):
            return None if self.allows(op.name) else not_allowed(op.name, self.allowed)
        point = press_point(gesture, screenshot.width)
        if point is None or self.perception is None:
            return None
        home = self.home()
        if home is False:
            return None
        x, y = point
        names = self._names(home)
        app, unknown = self._app_at(screenshot, x, y, names)
        if app is not None:
            if self.allows(app):
                return None
            return (f'({x}, {y}) is on the launcher icon of "{app}", which is not in this run\'s '
                    f'allow-list ({", ".join(self.allowed)})')
        if unknown and home:
            return (f"({x}, {y}) is on {unknown} of the home screen that opens an app this run cannot name (no label "
                    f"there says which); with an allow-list ({', '.join(self.allowed)}) open apps with Open App")
        return None

    def _app_at(self, screenshot: Image.Image, x: int, y: int, names: Any) -> tuple[str | None, str]:
        """The app a press at (x, y) of the home screen opens, and, where none can be named, what lies
        there that would open one ('' for nothing: the wallpaper). The element the phone gives the
        touch to (agent/touch.py: the launcher cell or dock slot in the tree, with its label) names it
        first, else the label under an icon (:func:`launcher_app_at`); an icon with no label the tree or
        the screen shows (a dock's) cannot be named."""
        from mobile_agent.agent.touch import in_tree

        tree = None
        get = getattr(self.device, "ui_tree", None)
        if callable(get):
            try:
                tree = get()
            except MobileAgentError:
                tree = None
        got = in_tree(tree, x, y) if tree else None
        if got is not None and "systemui" in got.package:
            return None, ""  # the status and navigation bars: Back, Home, Overview open no app
        if got is not None:
            for word in got.words:
                app = names(word)
                if app is not None:
                    return app, ""
        if self._cells is None or self._cells[0] is not screenshot:  # read once a screen
            self._cells = (screenshot, launcher_cells(self.perception, screenshot, names))
        app = app_in_cells(self._cells[1], x, y)
        if app is not None:
            return app, ""
        if got is not None:
            return None, "an element" if not got.words else f"{got.summary()}"
        h = screenshot.height
        if y < STATUS_SHARE * h or y > (1 - NAV_SHARE) * h:
            return None, ""  # the status and navigation bars (no tree to say so): they open no app
        try:
            icons = self.perception.parse(screenshot, icons=True).icons or []
        except Exception:  # noqa: BLE001 - a screen that cannot be read: nothing named, nothing known there
            return None, ""
        # an icon with no label (a dock's), its padding too: its slot takes the touch
        for ic in icons:
            b = ic.box
            pad_x, pad_y = (b.x2 - b.x1) * ICON_PAD, (b.y2 - b.y1) * ICON_PAD
            if b.x1 - pad_x <= x <= b.x2 + pad_x and b.y1 - pad_y <= y <= b.y2 + pad_y and b.y1 > STATUS_SHARE * h:
                return None, "an icon"
        return None, ""


def press_point(gesture: Any, width: int) -> tuple[int, int] | None:
    """Where ``gesture`` presses: a tap's, a double tap's or a long press's point, a swipe shorter
    than the touch slop's start; None for any other gesture."""
    from mobile_agent.device.gestures import as_press

    press = as_press(gesture, width)
    return None if press is None else (int(press.x), int(press.y))


def refusal_feedback(op: Any, why: str, allowed: Sequence[str]) -> str:
    """What the model is told of a refused operation."""
    return (f"Your last operation, {op}, was refused: {why}. Nothing was tapped. This run may open only "
            f"{', '.join(allowed)}: choose another action.")
