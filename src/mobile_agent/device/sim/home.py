"""The launcher: wallpaper, a date widget, every app on the first page, and a dock."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Callable, Mapping, Protocol

import numpy as np
from PIL import Image

from mobile_agent.device.sim.render import RGB, Canvas, hsv, mix
from mobile_agent.device.sim.state import PhoneState
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box


class LauncherApp(Protocol):
    """What the launcher draws of an app (:class:`~mobile_agent.device.sim.phone.App`)."""

    @property
    def color(self) -> RGB: ...

    @property
    def icon(self) -> str: ...

    @property
    def installable(self) -> bool: ...


class Launcher(Protocol):
    """What the home screen reads of the phone and asks it to do
    (:class:`~mobile_agent.device.sim.phone.SimPhone`, which imports this module: named by its shape)."""

    width: int
    height: int
    seed: int
    state: PhoneState

    @property
    def apps(self) -> Mapping[str, LauncherApp]: ...

    @property
    def now(self) -> dt.datetime: ...

    @property
    def status_h(self) -> int: ...

    def app_names(self, installed_only: bool = True) -> list[str]: ...

    def is_installed(self, name: str) -> bool: ...

    def launch(self, name: str) -> bool: ...

    def show_menu(self, items: list[tuple[str, Callable[[], None]]], y: int) -> None: ...

    def toast(self, message: str) -> None: ...


DOCK = ("Browser", "Mail", "Music", "Clips")
COLUMNS = 4


@lru_cache(maxsize=8)
def wallpaper(width: int, height: int, seed: int, dark: bool) -> Image.Image:
    """A vertical two-colour gradient with a soft diagonal band; darker in the dark theme."""
    top = hsv(((seed * 47) % 360) / 360.0, 0.55, 0.55 if dark else 0.80)
    bottom = hsv(((seed * 47 + 60) % 360) / 360.0, 0.65, 0.25 if dark else 0.55)
    # Computed at a quarter of the size and scaled up: the gradient is smooth, and a full-size
    # float computation would cost hundreds of megabytes for a moment.
    w, h = max(1, width // 4), max(1, height // 4)
    t = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
    img = np.asarray(top, np.float32) * (1 - t) + np.asarray(bottom, np.float32) * t
    img = np.broadcast_to(img, (h, w, 3))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    band = np.exp(-(((xx * 0.6 + yy * 0.4) - h * 0.45) / (h * 0.12)) ** 2)[..., None]
    img = img * (1 - 0.12 * band) + 255 * 0.12 * band
    small = Image.fromarray(img.clip(0, 255).astype(np.uint8), "RGB")
    return small.resize((width, height), Image.BILINEAR)


def app_icon_painter(phone: Launcher, app: LauncherApp, size: int):
    """A painter for an adaptive launcher icon: a coloured disc with a white MDI glyph."""

    def paint(c: Canvas, b: Box, cx: int | None = None, cy: int | None = None) -> None:
        x = b.center.x if cx is None else cx
        y = (b.y1 + size // 2) if cy is None else cy
        r = size // 2
        c.ellipse(Box(x - r, y - r, x + r, y + r), fill=app.color)
        c.icon(x, y, app.icon, int(size * 0.56), (255, 255, 255))

    return paint


def icon_menu(phone: Launcher, name: str, y: int) -> None:
    """The long-press menu of a launcher icon: open, and uninstall for an app from the store."""
    items = [("Open", lambda: phone.launch(name))]
    if phone.apps[name].installable:
        def uninstall() -> None:
            installed = phone.state.store.installed
            if name in installed:
                installed.remove(name)
            phone.toast(f"{name} uninstalled")

        items.append(("Uninstall", uninstall))
    phone.show_menu(items, y)


def build_home(phone: Launcher, ui: UI) -> None:
    W = phone.width
    dark = phone.state.settings.dark_mode
    wp = wallpaper(W, phone.height, phone.seed, dark)
    ui.root.paint = lambda c, b: c.paste(wp, 0, 0)
    ui.root.cls = "android.widget.FrameLayout"
    white = (255, 255, 255)
    shadow = (0, 0, 0)
    now = phone.now

    # Date and weather widget (At a glance)
    y = phone.status_h + ui.dp(40)
    date_text = now.strftime("%A, %B ") + str(now.day)
    ui.text(ui.dp(24), y, date_text, 22, white, 500, rid="date_widget")
    w = phone.state.weather
    ui.text(ui.dp(24), y + ui.dp(34), f"{w.current_temp}°C · {w.condition}", 16, mix(white, shadow, 0.08))

    # App grid
    names = [n for n in phone.app_names()]
    cell_w = W // COLUMNS
    cell_h = ui.dp(104)
    icon = ui.dp(56)
    label_px = 13
    y0 = phone.status_h + ui.dp(150)
    for i, name in enumerate(names):
        app = phone.apps[name]
        col, row = i % COLUMNS, i // COLUMNS
        box = Box(col * cell_w, y0 + row * cell_h, (col + 1) * cell_w, y0 + (row + 1) * cell_h)
        icon_painter = app_icon_painter(phone, app, icon)
        lbl_y = box.y1 + ui.dp(8) + icon + ui.dp(6)

        label = ui.tr(name)  # the label in the look's language

        def paint(c: Canvas, b: Box, label=label, icon_painter=icon_painter, lbl_y=lbl_y) -> None:
            icon_painter(c, b, b.center.x, b.y1 + ui.dp(8) + icon // 2)
            px = ui.dp(label_px)
            c.text(b.center.x + 1, lbl_y + 1, label, px, shadow, 400, "mt")
            c.text(b.center.x, lbl_y, label, px, white, 400, "mt")

        ui.add(Node(box, cls="android.widget.TextView", text=label, desc=label, clickable=True,
                    on_tap=lambda name=name: phone.launch(name), paint=paint,
                    on_long_press=lambda name=name, y=box.y2: icon_menu(phone, name, y)))

    # Page indicator and dock
    dock_h = ui.dp(96)
    dock = Box(ui.dp(12), ui.area.y2 - dock_h - ui.dp(8), W - ui.dp(12), ui.area.y2 - ui.dp(8))
    dot_y = dock.y1 - ui.dp(16)
    ui.add(Node(Box(W // 2 - ui.dp(4), dot_y - ui.dp(4), W // 2 + ui.dp(4), dot_y + ui.dp(4)),
                cls="android.view.View", desc="Page 1 of 1",
                paint=lambda c, b: c.ellipse(b, fill=white)))
    band = mix(white, shadow, 0.1)
    with ui.group(dock, cls="android.view.ViewGroup", rid="hotseat",
                  paint=lambda c, b: c.rect(b, outline=band, width=max(1, ui.dp(1)), radius=ui.dp(28))):
        dock_apps = [n for n in DOCK if phone.is_installed(n)]
        n = len(dock_apps)
        for i, name in enumerate(dock_apps):
            app = phone.apps[name]
            cx = dock.x1 + dock.width * (2 * i + 1) // (2 * n)
            b = Box(cx - icon // 2 - ui.dp(8), dock.center.y - icon // 2 - ui.dp(8), cx + icon // 2 + ui.dp(8),
                    dock.center.y + icon // 2 + ui.dp(8))
            painter = app_icon_painter(phone, app, icon)
            ui.add(Node(b, cls="android.widget.TextView", desc=name, clickable=True,
                        on_tap=lambda name=name: phone.launch(name),
                        paint=lambda c, bb, painter=painter: painter(c, bb, bb.center.x, bb.center.y)))
