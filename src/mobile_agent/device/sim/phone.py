"""The simulated phone: an Android-like device rendered with Pillow, operated through the
:class:`~mobile_agent.device.base.Device` protocol.

Each frame is built afresh from the phone's state as a tree of nodes (status bar, the foreground
app's screen or the home screen, dialogs, the keyboard, the navigation bar); the same tree is
painted, dumped by :meth:`SimPhone.ui_tree` and hit by taps.
"""

from __future__ import annotations

import datetime as dt
import logging
import zlib
from dataclasses import dataclass
from typing import Callable, ClassVar, Generic, Iterable, TypeVar

from PIL import Image

from mobile_agent.device.base import check_point
from mobile_agent.device.sim.look import DEFAULT_LOOK, Look, vendor_status_bar
from mobile_agent.device.sim.render import RGB, Canvas, Theme, active_look, mix, on_color, text_width
from mobile_agent.device.sim.state import PhoneState
from mobile_agent.device.sim.ui import UI, Node, hit, paint_tree, scroll_target, tree_xml
from mobile_agent.errors import ConfigError, InvalidGestureError
from mobile_agent.types import Box

log = logging.getLogger(__name__)

DISTURBANCES = ("permission", "loading", "ads", "typo", "shade")
#: With the "shade" disturbance, the notification shade opens at the end of this gesture (a swipe that
#: grazed the status bar), once per run.
SHADE_GESTURE = 2
#: With the "loading" disturbance, an app shows a loading screen on its first launch for 1 to this
#: many screenshots (drawn from the seed and the app: :func:`loading_screens`).
LOADING_MAX = 2
KEYBOARD_PACKAGE = "com.sim.inputmethod"
SYSTEMUI_PACKAGE = "com.android.systemui"
LAUNCHER_PACKAGE = "com.sim.launcher"


def loading_screens(seed: int, app: str) -> int:
    """How many screenshots the loading screen of ``app``'s first launch lasts on a phone of ``seed``
    with the "loading" disturbance (1 to :data:`LOADING_MAX`): the same on every run."""
    return 1 + zlib.crc32(f"{seed}:{app}".encode()) % LOADING_MAX


AppT = TypeVar("AppT", bound="App")


class Screen(Generic[AppT]):
    """One screen of an app (an Activity or a full-screen fragment). Subclasses implement ``build``;
    ``Screen["NotesApp"]`` types ``self.app`` as the app's own class."""

    #: Colour of the status bar above this screen (None: the theme's background), as apps that
    #: draw edge to edge (video feeds, maps) colour it.
    status_bar_color: RGB | None = None

    def __init__(self, app: AppT) -> None:
        self.app: AppT = app
        self.fields: dict[str, str] = {}  # text field values by key
        self.scroll: dict[str, int] = {}  # scroll offsets by scroll-area key

    @property
    def phone(self) -> "SimPhone":
        return self.app.phone

    def build(self, ui: UI) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def on_back(self) -> bool:
        """Handle Back inside the screen (close a sheet or dialog); True when handled."""
        return False


class App:
    """An app: a name, a launcher icon, a package, and a back stack of screens."""

    name: ClassVar[str] = ""
    package: ClassVar[str] = ""
    icon: ClassVar[str] = "application"  # MDI glyph for the launcher icon
    color: ClassVar[RGB] = (26, 115, 232)  # launcher icon background and accent
    installable: ClassVar[bool] = False  # only on the phone once installed from the Store

    _root_screen: ClassVar[Callable[["App"], Screen] | None] = None

    def __init_subclass__(cls, *, name: str | None = None, package: str | None = None, icon: str | None = None,
                          color: RGB | None = None, root: Callable[["App"], Screen] | None = None,
                          **kwargs: object) -> None:
        """An app declares itself in its class line: ``class NotesApp(App, name="Notes",
        package="com.sim.notes", icon="note-edit-outline", color=(240, 170, 30), root=NoteListScreen)``;
        ``root`` builds the screen it opens on from the app (an app whose first screen depends on its
        state writes the method :meth:`root` instead)."""
        super().__init_subclass__(**kwargs)
        for key, value in (("name", name), ("package", package), ("icon", icon), ("color", color)):
            if value is not None:
                setattr(cls, key, value)
        if root is not None:
            cls._root_screen = staticmethod(root)  # type: ignore[assignment]

    def __init__(self, phone: "SimPhone") -> None:
        self.phone = phone
        self.stack: list[Screen] = []

    def root(self) -> Screen:
        """The screen the app opens on."""
        if self._root_screen is None:  # pragma: no cover - every app names one
            raise NotImplementedError(f"{type(self).__name__} names no root screen")
        return self._root_screen(self)

    @property
    def screen(self) -> Screen:
        if not self.stack:
            self.stack.append(self.root())
        return self.stack[-1]

    def push(self, screen: Screen) -> None:
        self.phone.clear_focus()
        self.stack.append(screen)

    def on_wait(self) -> None:
        """Time passed while the user waited (the Wait operation on a screen they had looked at);
        an app with work under way (a download) lets it finish."""

    def pop(self) -> None:
        """Go back one screen; at the root, leave the app for the home screen."""
        self.phone.clear_focus()
        if len(self.stack) > 1:
            self.stack.pop()
        else:
            self.stack.clear()
            self.phone.go_home()

    def reset(self, screen: Screen | None = None) -> None:
        """Replace the whole stack with ``screen`` (or the root)."""
        self.phone.clear_focus()
        self.stack = [screen or self.root()]

    def toast(self, message: str) -> None:
        self.phone.toast(message)


@dataclass
class _Focus:
    screen: Screen
    key: str
    on_submit: Callable[[], None] | None
    multiline: bool


@dataclass
class _Toast:
    text: str
    until: int  # gesture count after which it disappears


@dataclass
class _Menu:
    """A long-press menu: its items (label, action) and the y it opens at."""

    items: list[tuple[str, Callable[[], None]]]
    y: int


@dataclass
class _Frame:
    root: Node
    image: Image.Image | None = None
    xml: str | None = None


KEY_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]


#: The longest side of a simulated screen (a 4K tablet's is 3840): 4096x4096 is 50 MB a frame.
MAX_SIDE = 4096


class SimPhone:
    """A simulated Android phone. Deterministic: the same seed and gestures give the same pixels.

    Args:
        seed: chooses the clock, the weather, the order of feeds and other content.
        width, height: screen size in pixels (default 1080x2400); layout scales with the width.
        dark: start with the dark theme on (the Settings switch changes it later).
        disturbances: any of ``"permission"`` (a dialog on an app's first launch), ``"loading"``
            (a loading screen after an app's first launch, seen in :func:`loading_screens` screenshots:
            it ends when time passes (``wait_still``, the Wait operation, or any gesture) after each of
            them; a tap lands on the loading screen, not on the app), ``"ads"`` (an ad banner),
            ``"typo"`` (the keyboard drops one character that is not a space, drawn from the seed in
            the second half, of the first text of four or more characters typed into a field),
            ``"shade"`` (the notification shade opened by mistake at the end of gesture :data:`SHADE_GESTURE`;
            Back, Home or a tap below it closes it).
        look: how the phone draws (fonts, icon set, theme colours, status bar, JPEG, language);
            see :mod:`mobile_agent.device.sim.look`. The default look changes nothing.
    """

    #: What the simulated phone does beyond the basic gestures (see ``device.base.CAPABILITIES``).
    capabilities = frozenset({"long_press", "wait_still", "launch", "ui_tree", "clear_text"})

    def __init__(self, seed: int = 0, width: int = 1080, height: int = 2400, dark: bool = False,
                 disturbances: Iterable[str] = (), look: Look | None = None) -> None:
        if width < 240 or height < 320:
            raise ConfigError(f"screen {width}x{height} is too small: at least 240x320")
        if width > MAX_SIDE or height > MAX_SIDE:  # checked before any pixel is allocated
            raise ConfigError(f"screen {width}x{height} is too large: at most {MAX_SIDE} pixels a side")
        self.look = look or DEFAULT_LOOK
        self.look.check()
        self.seed = seed
        self.width, self.height = width, height
        self.density = width / 411.43
        self.disturbances = frozenset(disturbances)
        unknown = self.disturbances - set(DISTURBANCES)
        if unknown:
            raise ConfigError(f"unknown disturbance(s) {sorted(unknown)}: use {', '.join(DISTURBANCES)}")
        self.state = PhoneState.initial(seed)
        self.state.settings.dark_mode = dark
        self.gestures = 0
        self.last_tap: tuple[int, int] | None = None
        self.home_scroll: dict[str, int] = {}
        self._focus: _Focus | None = None
        self._toasts: list[_Toast] = []
        self._frame: _Frame | None = None
        self._launched: set[str] = set()
        self._permission_pending: str | None = None
        self._load_app: str | None = None  # the app whose loading screen is up
        self._load_left = 0  # screenshots of it still to be seen (then time passes once more)
        self._load_seen = False  # a screenshot of it was taken since time last passed
        self.loading_waited = 0  # times that time passed on the loading screen now up (the benchmark's probe)
        self._seen = False  # a screenshot was taken since the last gesture or wait
        self.waits = 0  # waits on a screen looked at (wait_still after a screenshot): time that passed
        self._ads_closed: set[str] = set()
        self._typo_pending = "typo" in self.disturbances
        self.shade_open = False
        self._menu: _Menu | None = None
        from mobile_agent.device.sim.apps import APP_CLASSES

        self.apps: dict[str, App] = {cls.name: cls(self) for cls in APP_CLASSES}

    # ---------------------------------------------------------------- units, theme, clock
    def dp(self, v: float) -> int:
        return int(round(v * self.density))

    @property
    def theme(self) -> Theme:
        return self.look.theme(self.state.settings.dark_mode)

    @property
    def now(self) -> dt.datetime:
        """The phone's clock: the seed's start time, one minute later every ten gestures."""
        return dt.datetime.fromisoformat(self.state.now) + dt.timedelta(minutes=self.gestures // 10)

    def full_box(self) -> Box:
        return Box(0, 0, self.width, self.height)

    @property
    def status_h(self) -> int:
        return self.dp(24)

    @property
    def nav_h(self) -> int:
        return self.dp(48)

    @property
    def keyboard_h(self) -> int:
        return self.dp(260)

    # ---------------------------------------------------------------- apps and navigation
    def app_names(self, installed_only: bool = True) -> list[str]:
        """Names of the apps on the phone (store apps only once installed)."""
        return [n for n, a in self.apps.items() if not installed_only or self.is_installed(n)]

    def is_installed(self, name: str) -> bool:
        app = self.apps.get(name)
        return app is not None and (not app.installable or name in self.state.store.installed)

    @property
    def foreground(self) -> App | None:
        name = self.state.foreground
        return self.apps.get(name) if name else None

    def find_app(self, name: str) -> App:
        for n, app in self.apps.items():
            if n.lower() == name.strip().lower() and self.is_installed(n):
                return app
        raise ConfigError(f"no app named {name!r} on the phone; apps: {', '.join(self.app_names())}")

    def launch(self, name: str) -> bool:
        """Open an app by name as the launcher would (the test and benchmark set-up use it; the
        agent only as the Open App fallback). Raises ``ConfigError`` for an app not installed."""
        app = self.find_app(name)
        self._dirty()
        self._menu = None
        self.clear_focus()
        self.state.foreground = app.name
        first = app.name not in self._launched
        self._launched.add(app.name)
        if not app.stack:
            app.stack.append(app.root())
        if first and "loading" in self.disturbances:
            self._load_app, self._load_left = app.name, loading_screens(self.seed, app.name)
            self._load_seen, self.loading_waited = False, 0
        if first and "permission" in self.disturbances and app.name != "Settings":
            self._permission_pending = app.name
        return True

    # ---------------------------------------------------------------- apps, as a package manager would
    def foreground_app(self) -> str | None:
        """The name of the app on the screen; None on the home screen."""
        return self.state.foreground

    def installed_apps(self) -> list[dict[str, str]]:
        """The installed apps: ``{"name": label, "package": package}`` each."""
        return [{"name": n, "package": getattr(self.apps[n], "package", "") or ""} for n in self.app_names()]

    def app_by_package(self, package: str) -> str | None:
        """The name of the installed app whose package is ``package`` (or whose name it is), or None."""
        want = package.strip().lower()
        for app in self.installed_apps():
            if want in (app["package"].lower(), app["name"].lower()):
                return app["name"]
        return None

    def stop_app(self, name: str) -> bool:
        """Force-stop an app (by name or package): its screens are forgotten; if it is in front, the
        home screen shows. False when no installed app has that name or package."""
        found = self.app_by_package(name)
        if found is None:
            return False
        app = self.apps[found]
        app.stack.clear()
        self._launched.discard(found)
        if self.state.foreground == found:
            self.go_home()
        self._dirty()
        return True

    def open_url(self, url: str) -> None:
        """Open ``url`` in the Browser app, as a VIEW intent would."""
        self._gesture()
        self.launch("Browser")
        app = self.apps["Browser"]
        app.reset()
        screen = app.screen
        navigate = getattr(screen, "navigate", None)
        if callable(navigate):
            navigate(url if "://" in url else "https://" + url)
        self._dirty()

    def show_menu(self, items: list[tuple[str, Callable[[], None]]], y: int) -> None:
        """Open a long-press menu of ``items`` near ``y``; an item's tap closes it and runs it, a tap
        outside or Back closes it."""
        self._menu = _Menu(list(items), y)
        self._dirty()

    def close_menu(self) -> None:
        self._menu = None
        self._dirty()

    def go_home(self) -> None:
        self.shade_open = False
        self._menu = None
        self.clear_focus()
        self.state.foreground = None
        self._permission_pending = None
        self._dirty()

    def toast(self, message: str) -> None:
        """Show a short message near the bottom for the next two gestures."""
        self._toasts = [_Toast(message, self.gestures + 2)]
        self._dirty()

    # ---------------------------------------------------------------- focus and keyboard
    def focus_field(self, screen: Screen, key: str, on_submit: Callable[[], None] | None = None,
                    multiline: bool = False) -> None:
        self._focus = _Focus(screen, key, on_submit, multiline)

    def clear_focus(self) -> None:
        self._focus = None

    def is_focused(self, screen: Screen, key: str) -> bool:
        f = self._focus
        return f is not None and f.screen is screen and f.key == key

    @property
    def keyboard_shown(self) -> bool:
        f = self._focus
        return f is not None and self.foreground is not None and f.screen is self.foreground.screen

    def _press_enter(self) -> None:
        f = self._focus
        if f is None:
            return
        if f.on_submit is not None:
            self.clear_focus()
            f.on_submit()
        elif f.multiline:
            f.screen.fields[f.key] = f.screen.fields.get(f.key, "") + "\n"

    def _insert(self, text: str) -> None:
        f = self._focus
        if f is None:
            return
        f.screen.fields[f.key] = f.screen.fields.get(f.key, "") + text

    def _backspace(self) -> None:
        f = self._focus
        if f is not None:
            f.screen.fields[f.key] = f.screen.fields.get(f.key, "")[:-1]

    # ---------------------------------------------------------------- Device protocol
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def loading(self) -> bool:
        """A loading screen is on screen (its app in front, its last screenshot not yet past)."""
        return self._load_left > 0 and self.state.foreground == self._load_app

    def _pass_time(self) -> None:
        """Time passes (a wait, a gesture): a loading screen seen since it last passed goes one
        screenshot further; after its last one the app's content is there."""
        if self._load_left > 0 and self._load_seen:
            self._load_left -= 1
            self.loading_waited += 1
            self._load_seen = False
            if self._load_left == 0:
                self._load_app = None
                self._dirty()

    def screenshot(self) -> Image.Image:
        self._seen = True
        if self.loading:
            self._load_seen = True
        frame = self._current()
        if frame.image is None:
            img = Image.new("RGB", (self.width, self.height), self.theme.bg)
            try:
                with active_look(self.look):
                    paint_tree(Canvas(img), frame.root)
            except Exception:  # noqa: BLE001 - a screen that cannot be drawn must not stop the phone
                # as an app that fails to draw: its frame stays blank; home, back and other apps still work
                log.warning("the simulated phone could not draw this screen", exc_info=True)
                img = Image.new("RGB", (self.width, self.height), self.theme.bg)
            frame.image = self.look.finish(img)
        return frame.image.copy()

    def wait_still(self, timeout_s: float = 0.0) -> bool:
        """The simulated phone renders synchronously: the screen is still as soon as a gesture
        returns, unless a loading screen is up: then time passes (see ``disturbances``) and the
        answer is whether the loading is over. A wait on a screen looked at since the last gesture
        (a screenshot) lets time pass for the apps too (:meth:`App.on_wait`: a download finishes);
        the wait of the agent's settling after a gesture, before its screenshot, does not."""
        self._pass_time()
        if self._seen:
            self._seen = False
            self.waits += 1
            for app in list(self.apps.values()):
                app.on_wait()
            self._dirty()
        return not self.loading

    def ui_tree(self) -> str:
        frame = self._current()
        if frame.xml is None:
            frame.xml = tree_xml(frame.root)
        return frame.xml

    def tap(self, x: int, y: int) -> None:
        check_point(self.size(), x, y)
        node = hit(self._current().root, x, y)
        self.last_tap = (x, y)
        self._gesture()
        if node is not None and node.on_tap is not None:
            node.on_tap()

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        """Press and hold: the node's long-press action (a menu); a node without one clicks on
        release, as on Android."""
        check_point(self.size(), x, y)
        if duration_ms < 0:
            raise InvalidGestureError(f"long press duration must be >= 0 ms, got {duration_ms}")
        node = hit(self._current().root, x, y)
        if node is None or node.on_long_press is None:
            self.tap(x, y)
            return
        self.last_tap = (x, y)
        self._gesture()
        node.on_long_press()

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        check_point(self.size(), x1, y1)
        check_point(self.size(), x2, y2)
        if duration_ms < 0:
            raise InvalidGestureError(f"swipe duration must be >= 0 ms, got {duration_ms}")
        if abs(x2 - x1) < self.dp(8) and abs(y2 - y1) < self.dp(8):
            # Android: a swipe that does not move is a press; a view without a long-click
            # listener clicks on release.
            self.tap(x1, y1)
            return
        target = scroll_target(self._current().root, x1, y1)
        self._gesture()
        if target is not None and target.swipe is not None:
            target.swipe(x1, y1, x2, y2)

    def type_text(self, text: str) -> None:
        """Type into the focused field; each ``\\n`` presses Enter. With no focus, nothing changes."""
        shade = self.shade_open
        self._gesture()
        if self._focus is None or not self.keyboard_shown or shade:
            return
        if self._typo_pending and len(text.split("\n")[0]) >= 4:
            self._typo_pending = False
            first = text.split("\n")[0]
            half = len(first) // 2
            drop = half + self.seed % (len(first) - half)
            while drop < len(first) - 1 and first[drop].isspace():  # a letter, not a space, goes missing
                drop += 1
            text = text[:drop] + text[drop + 1:]
        for i, part in enumerate(text.split("\n")):
            if i > 0:
                self._press_enter()
                if self._focus is None:
                    break
            if part:
                self._insert(part)

    def clear_text(self) -> None:
        """Empty the focused field (the part of a Type that replaces what it holds); with no focus,
        nothing changes."""
        f = self._focus
        if f is None or not self.keyboard_shown or self.shade_open:
            return
        f.screen.fields[f.key] = ""

    def back(self) -> None:
        self._gesture()
        self._back()

    def _back(self) -> None:
        """What the Back key does (the key press itself is counted by the caller's gesture)."""
        if self.shade_open:
            self.shade_open = False
            return
        if self._menu is not None:
            self.close_menu()
            return
        if self.keyboard_shown:
            self.clear_focus()  # Back first hides the keyboard, as on Android
            return
        if self._permission_pending is not None:
            self._permission_pending = None
            return
        app = self.foreground
        if app is None:
            return
        if app.screen.on_back():
            return
        app.pop()

    def home(self) -> None:
        self._gesture()
        self.go_home()

    # ---------------------------------------------------------------- frames
    def _dirty(self) -> None:
        self._frame = None

    def state_changed(self) -> None:
        """Something other than a gesture changed the phone (a person using it by hand: the
        benchmark's simulated user signing in): the next screenshot and tree are drawn anew."""
        self._dirty()

    def _gesture(self) -> None:
        self._pass_time()
        self._seen = False
        self.gestures += 1
        if "shade" in self.disturbances and self.gestures == SHADE_GESTURE:
            self.shade_open = True
        self._toasts = [t for t in self._toasts if t.until > self.gestures]
        self._dirty()

    def _current(self) -> _Frame:
        if self._frame is None:
            with active_look(self.look):
                self._frame = _Frame(self._build())
        return self._frame

    def _build(self) -> Node:
        t = self.theme
        W, H = self.width, self.height
        app = self.foreground
        package = app.package if app else LAUNCHER_PACKAGE
        root = Node(self.full_box(), cls="android.widget.FrameLayout", package=package)
        kb = self.keyboard_shown
        area = Box(0, self.status_h, W, H - self.nav_h - (self.keyboard_h if kb else 0))
        if app is None:
            from mobile_agent.device.sim.home import build_home

            ui = UI(self, None, Box(0, 0, W, H - self.nav_h), t, LAUNCHER_PACKAGE)
            build_home(self, ui)
            root.children.append(ui.root)
            root.children.append(self._status_bar(on_wallpaper=True))
        else:
            root.children.append(self._status_bar(on_wallpaper=False, color=app.screen.status_bar_color))
            ui = UI(self, app.screen, area, t, app.package, accent=self._accent(app))
            if self._load_left > 0 and self._load_app == app.name:
                self._loading(ui, app)
            else:
                app.screen.build(ui)
                if "ads" in self.disturbances and app.name not in self._ads_closed:
                    self._ad(ui, app)
                if self._permission_pending == app.name:
                    self._permission(ui, app)
            root.children.append(ui.root)
        if self._menu is not None:
            root.children.append(self._menu_node(app, package, area))
        if self._toasts:
            root.children.append(self._toast_node(self._toasts[-1].text, area))
        if kb:
            root.children.append(self._keyboard())
        if self.shade_open:
            root.children.append(self._shade())
        root.children.append(self._nav_bar())
        return root

    def _accent(self, app: App) -> RGB:
        return mix(app.color, (255, 255, 255), 0.35) if self.state.settings.dark_mode else app.color

    # ---------------------------------------------------------------- system UI
    def _status_bar(self, on_wallpaper: bool, color: RGB | None = None) -> Node:
        t = self.theme
        s = self.state.settings
        box = Box(0, 0, self.width, self.status_h)
        bg = None if on_wallpaper else (color or t.bg)
        fg = (255, 255, 255) if on_wallpaper else (on_color(color) if color else t.statusbar_fg)
        clock = self.now.strftime("%H:%M")
        px = self.dp(14)
        ic = self.dp(16)
        cy = box.center.y
        speed = None
        if s.show_network_speed:
            rate = ((self.seed * 37 + self.gestures * 13) % 97) / 10 + (0 if s.airplane_mode else 0.3)
            speed = "0.0 KB/s" if s.airplane_mode else f"{rate:.1f} KB/s"
        battery_text = f"{s.battery_level}%" if s.battery_percentage else ""
        icons: list[str] = []
        if s.airplane_mode:
            icons.append("airplane")
        else:
            if s.wifi:
                icons.append("wifi")
            icons.append("signal-cellular-3" if s.mobile_data else "signal-cellular-outline")
        if s.bluetooth and not s.airplane_mode:
            icons.append("bluetooth")
        if self.look.status_bar != "pixel":
            descs = {"airplane": "Airplane mode on", "wifi": f"Wi-Fi {s.wifi_network}", "bluetooth": "Bluetooth on"}
            return vendor_status_bar(self, box, fg, bg, clock, s.battery_level,
                                     [(n, descs.get(n, "Phone signal")) for n in icons], SYSTEMUI_PACKAGE)
        children: list[Node] = []
        x = self.width - self.dp(16)
        # battery: glyph, then optional percentage to its left
        bat = "battery-70" if s.battery_level >= 65 else "battery-50"
        children.append(Node(Box(x - ic, cy - ic // 2, x, cy + ic // 2), cls="android.widget.ImageView",
                             desc=f"Battery {s.battery_level} percent", package=SYSTEMUI_PACKAGE,
                             paint=lambda c, b: c.icon(b.center.x, b.center.y, bat, ic, fg)))
        x -= ic + self.dp(2)
        if battery_text:
            w = text_width(battery_text, px, 500)
            children.append(Node(Box(x - w, cy - px // 2, x, cy + px // 2 + 2), cls="android.widget.TextView",
                                 text=battery_text, package=SYSTEMUI_PACKAGE, rid="battery_percentage",
                                 paint=lambda c, b, tx=battery_text: c.text(b.x1, b.center.y, tx, px, fg, 500, "lm")))
            x -= w + self.dp(4)
        for name in reversed(icons):
            desc = {"airplane": "Airplane mode on", "wifi": f"Wi-Fi {s.wifi_network}",
                    "bluetooth": "Bluetooth on"}.get(name, "Phone signal")
            children.append(Node(Box(x - ic, cy - ic // 2, x, cy + ic // 2), cls="android.widget.ImageView",
                                 desc=desc, package=SYSTEMUI_PACKAGE,
                                 paint=lambda c, b, n=name: c.icon(b.center.x, b.center.y, n, ic, fg)))
            x -= ic + self.dp(4)
        if speed:
            spx = self.dp(11)
            w = text_width(speed, spx, 500)
            children.append(Node(Box(x - w - self.dp(2), cy - spx // 2, x - self.dp(2), cy + spx // 2 + 2),
                                 cls="android.widget.TextView", text=speed, package=SYSTEMUI_PACKAGE,
                                 rid="network_speed",
                                 paint=lambda c, b, tx=speed: c.text(b.x1, b.center.y, tx, spx, fg, 500, "lm")))
        cw = text_width(clock, px, 500)
        x0 = self.dp(24)
        children.append(Node(Box(x0, cy - px // 2, x0 + cw, cy + px // 2 + 2), cls="android.widget.TextView",
                             text=clock, package=SYSTEMUI_PACKAGE, rid="clock",
                             paint=lambda c, b: c.text(b.x1, b.center.y, clock, px, fg, 500, "lm")))
        return Node(box, cls="android.widget.FrameLayout", package=SYSTEMUI_PACKAGE, rid="status_bar",
                    paint=(lambda c, b: c.rect(b, fill=bg)) if bg else None, children=children)

    def _nav_bar(self) -> Node:
        t = self.theme
        box = Box(0, self.height - self.nav_h, self.width, self.height)
        on_home = self.foreground is None
        bg = None if on_home else mix(t.bg, t.surface, 0.5)
        fg = (255, 255, 255) if on_home else t.on_bg
        cy = box.center.y
        r = self.dp(9)
        w = self.width

        def back_paint(c: Canvas, b: Box) -> None:
            x = b.center.x
            c.polygon([(x - r, cy), (x + r * 2 // 3, cy - r), (x + r * 2 // 3, cy + r)], fill=fg)

        def home_paint(c: Canvas, b: Box) -> None:
            x = b.center.x
            c.ellipse(Box(x - r, cy - r, x + r, cy + r), outline=fg, width=max(2, self.dp(2)))

        def recents_paint(c: Canvas, b: Box) -> None:
            x = b.center.x
            c.rect(Box(x - r + 2, cy - r + 2, x + r - 2, cy + r - 2), outline=fg, width=max(2, self.dp(2)), radius=2)

        half = self.dp(40)
        # The tap on a nav button is the gesture; its action is the key's, not a second gesture.
        cells = [(w * 3 // 10, "Back", back_paint, self._back), (w // 2, "Home", home_paint, self.go_home),
                 (w * 7 // 10, "Overview", recents_paint, lambda: None)]
        children = [Node(Box(cx - half, box.y1, cx + half, box.y2), cls="android.widget.ImageView", desc=desc,
                         package=SYSTEMUI_PACKAGE, clickable=True, paint=paint,
                         on_tap=fn, rid=f"nav_{desc.lower()}")
                    for cx, desc, paint, fn in cells]
        return Node(box, cls="android.widget.FrameLayout", package=SYSTEMUI_PACKAGE, rid="navigation_bar",
                    paint=(lambda c, b: c.rect(b, fill=bg)) if bg else None, children=children)

    def _keyboard(self) -> Node:
        t = self.theme
        W = self.width
        top = self.height - self.nav_h - self.keyboard_h
        box = Box(0, top, W, self.height - self.nav_h)
        kids: list[Node] = []
        pad = self.dp(3)
        row_h = (self.keyboard_h - self.dp(48)) // 4
        key_w = W // 10
        px = self.dp(22)
        f = self._focus
        submit = f is not None and f.on_submit is not None

        def key(b: Box, label: str, on_tap: Callable[[], None], desc: str = "", icon: str | None = None,
                special: bool = False, text: str = "") -> None:
            inner = Box(b.x1 + pad, b.y1 + pad * 2, b.x2 - pad, b.y2 - pad * 2)
            fill = t.surface2 if special else t.key
            if icon == "submit":
                fill = mix(self.theme.primary, t.key, 0.1)

            def paint(c: Canvas, _b: Box, label=label, icon=icon, inner=inner, fill=fill) -> None:
                c.rect(inner, fill=fill, radius=self.dp(6))
                if icon == "submit":
                    c.icon(inner.center.x, inner.center.y, "magnify" if submit else "keyboard-return", self.dp(24),
                           (255, 255, 255) if not t.dark else t.on_primary)
                elif icon:
                    c.icon(inner.center.x, inner.center.y, icon, self.dp(24), t.on_bg)
                else:
                    c.text(inner.center.x, inner.center.y, label, px if len(label) == 1 else self.dp(15), t.on_bg,
                           400, "mm")

            kids.append(Node(inner, cls="android.widget.Button" if not icon else "android.widget.ImageButton",
                             text=text or label, desc=desc, clickable=True, package=KEYBOARD_PACKAGE,
                             on_tap=on_tap, paint=paint))

        y = top + self.dp(40)
        for r, letters in enumerate(KEY_ROWS):
            x0 = (W - key_w * len(letters)) // 2 if r < 2 else (W - key_w * 7) // 2
            if r == 2:
                key(Box(pad, y, x0 - pad, y + row_h), "", lambda: None, desc="Shift", icon="apple-keyboard-shift",
                    special=True)
                key(Box(x0 + key_w * 7 + pad, y, W - pad, y + row_h), "", self._backspace, desc="Delete",
                    icon="backspace-outline", special=True)
            for i, ch in enumerate(letters):
                key(Box(x0 + i * key_w, y, x0 + (i + 1) * key_w, y + row_h), ch, lambda ch=ch: self._insert(ch))
            y += row_h
        key(Box(0, y, key_w * 3 // 2, y + row_h), "?123", lambda: None, special=True)
        key(Box(key_w * 3 // 2, y, key_w * 5 // 2, y + row_h), ",", lambda: self._insert(","))
        key(Box(key_w * 5 // 2, y, key_w * 15 // 2, y + row_h), "", lambda: self._insert(" "), desc="Space",
            icon=None, text=" ")
        key(Box(key_w * 15 // 2, y, key_w * 17 // 2, y + row_h), ".", lambda: self._insert("."))
        key(Box(key_w * 17 // 2, y, W, y + row_h), "", self._press_enter, desc="Search" if submit else "Enter",
            icon="submit")

        def paint_bg(c: Canvas, b: Box) -> None:
            c.rect(b, fill=t.keyboard)
            # suggestion strip: three slots with a divider, as keyboards show
            for i in (1, 2):
                x = b.x1 + b.width * i // 3
                c.rect(Box(x, b.y1 + self.dp(12), x + 1, b.y1 + self.dp(30)), fill=t.divider)

        return Node(box, cls="android.widget.FrameLayout", package=KEYBOARD_PACKAGE, rid="keyboard_view",
                    paint=paint_bg, children=kids)

    def _toast_node(self, text: str, area: Box) -> Node:
        t = self.theme
        px = self.dp(14)
        w = text_width(text, px, 400) + self.dp(32)
        h = self.dp(40)
        cx = self.width // 2
        y2 = area.y2 - self.dp(64)
        box = Box(cx - w // 2, y2 - h, cx + w // 2, y2)
        bg = (60, 62, 68) if not t.dark else (226, 226, 230)
        fg = (255, 255, 255) if not t.dark else (30, 30, 34)
        return Node(box, cls="android.widget.Toast", text=text, package="android",
                    paint=lambda c, b: (c.rect(b, fill=bg, radius=h // 2), c.text(b.center.x, b.center.y, text, px, fg,
                                                                                   400, "mm")))

    def _menu_node(self, app: App | None, package: str, area: Box) -> Node:
        """The open long-press menu over a dimmed screen: a card of items below its anchor (above
        it where there is no room)."""
        menu = self._menu
        assert menu is not None
        t = self.theme
        ui = UI(self, app.screen if app is not None else None, area, t, package)
        ui.scrim(self.close_menu, alpha=0.25)
        row = ui.dp(52)
        w = ui.dp(220)
        h = row * len(menu.items) + ui.dp(16)
        y1 = menu.y + ui.dp(8) if menu.y + ui.dp(8) + h <= area.y2 else max(area.y1, menu.y - h - ui.dp(8))
        box = Box(area.center.x - w // 2, y1, area.center.x + w // 2, y1 + h)

        def run(action: Callable[[], None]) -> None:
            self.close_menu()
            action()

        with ui.group(box, cls="android.widget.ListView", rid="popup_menu",
                      paint=lambda c, b: c.rect(b, fill=t.surface, radius=ui.dp(8))):
            for i, (label, action) in enumerate(menu.items):
                rb = Box(box.x1, box.y1 + ui.dp(8) + i * row, box.x2, box.y1 + ui.dp(8) + (i + 1) * row)
                with ui.group(rb, cls="android.widget.LinearLayout", on_tap=lambda a=action: run(a), rid="menu_item"):
                    ui.text(rb.x1 + ui.dp(20), rb.center.y - ui.dp(10), label, 16, t.on_bg)
        return ui.root

    # ---------------------------------------------------------------- disturbances
    def _loading(self, ui: UI, app: App) -> None:
        """The app's logo, a spinner and "Loading…" over a skeleton of grey bars (where its content
        will be), as apps show while they fetch."""
        a, t = ui.area, ui.theme
        bar = mix(t.bg, t.on_bg, 0.08)
        pad = ui.dp(16)

        def skeleton(cv: Canvas, b: Box) -> None:
            y = b.y1 + pad
            for i in range(9):
                h = ui.dp(56 if i == 0 else 18)
                w = b.width - 2 * pad if i % 3 != 2 else (b.width - 2 * pad) * 3 // 5
                cv.rect(Box(b.x1 + pad, y, b.x1 + pad + w, y + h), fill=bar, radius=ui.dp(6))
                y += h + ui.dp(14 if i % 3 != 2 else 30)

        ui.add(Node(Box(a.x1, a.y1, a.x2, a.y1 + a.height * 2 // 5), cls="android.view.View", desc="Loading content",
                    paint=skeleton))
        c = Box(a.x1, a.y1 + a.height * 2 // 5, a.x2, a.y2).center
        r = ui.dp(40)
        col = app.color
        ui.add(Node(Box(c.x - r, c.y - r, c.x + r, c.y + r), cls="android.widget.ImageView", desc=f"{app.name} logo",
                    paint=lambda cv, b: (cv.ellipse(b, fill=col), cv.icon(b.center.x, b.center.y, app.icon,
                                                                           ui.dp(40), (255, 255, 255)))))
        sr, sy = ui.dp(14), c.y + ui.dp(76)
        spin = Box(c.x - sr, sy - sr, c.x + sr, sy + sr)

        def spinner(cv: Canvas, b: Box) -> None:
            cv.ellipse(b, outline=bar, width=ui.dp(4))
            cv.draw.arc(cv._b(b), start=-90, end=120, fill=col, width=ui.dp(4))

        ui.add(Node(spin, cls="android.widget.ProgressBar", desc="Loading", paint=spinner))
        ui.text(c.x, sy + ui.dp(30), "Loading…", 16, t.on_bg2, align="center")

    def _ad(self, ui: UI, app: App) -> None:
        t = ui.theme
        h = ui.dp(64)
        box = Box(ui.area.x1, ui.area.y2 - h, ui.area.x2, ui.area.y2)
        with ui.group(box, cls="android.widget.FrameLayout", rid="ad_banner", on_tap=lambda: None,
                      paint=lambda c, b: c.rect(b, fill=(255, 244, 214) if not t.dark else (70, 60, 30))):
            ui.text(box.x1 + ui.dp(16), box.y1 + ui.dp(10), "Ad · SuperSaver VPN", 12, (120, 100, 40))
            ui.text(box.x1 + ui.dp(16), box.y1 + ui.dp(30), "Browse faster. Try it free for 30 days!", 14,
                    (60, 50, 20) if not t.dark else (240, 230, 200))
            ui.icon_button(box.x2 - ui.dp(28), box.center.y, "close", "Close ad",
                           lambda: (self._ads_closed.add(app.name), None)[1], size=20)

    def _shade(self) -> Node:
        """The notification shade over everything but the navigation bar."""
        t = self.theme
        ui = UI(self, None, Box(0, 0, self.width, self.height - self.nav_h), t, SYSTEMUI_PACKAGE)

        def close() -> None:
            self.shade_open = False
            self._dirty()

        ui.scrim(close, alpha=0.6)
        panel = Box(0, 0, self.width, int(self.height * 0.45))
        with ui.group(panel, cls="android.widget.FrameLayout", rid="notification_shade", on_tap=lambda: None,
                      paint=lambda c, b: c.rect(b, fill=t.surface)):
            ui.text(ui.dp(24), self.status_h + ui.dp(12), self.now.strftime("%H:%M"), 32, t.on_bg)
            ui.text(ui.dp(24), self.status_h + ui.dp(60), self.now.strftime("%a, %b %d").replace(" 0", " "), 14,
                    t.on_bg2)
            y = self.status_h + ui.dp(100)
            for title, sub in (("System update available", "Tap to download version 14.2"),
                               ("Backup complete", "Photos and contacts were backed up")):
                y = ui.list_row(y, title, sub, on_tap=lambda: None, icon="bell-outline").y2
            ui.text(panel.x2 - ui.dp(24), panel.y2 - ui.dp(40), "Clear all", 14, t.on_bg, 500, align="right",
                    on_tap=close)
        return ui.root

    def _permission(self, ui: UI, app: App) -> None:
        def answer() -> None:
            self._permission_pending = None

        ui.dialog(f"Allow {app.name} to send you notifications?", "You can change this later in Settings.",
                  [("Don't allow", answer), ("Allow", answer)])
