"""``IosDevice``: an iPhone (or an iOS simulator) driven through WebDriverAgent's HTTP API.

WebDriverAgent (WDA, appium/WebDriverAgent) is an XCTest runner that the user starts on the phone
(docs/devices.md); it listens on port 8100 (``iproxy 8100 8100`` forwards it over USB). Its API is
small JSON over HTTP, so this module speaks it with the standard library's ``http.client``: no
client library is needed, and none is added (docs/devices.md says which ones were looked at).

WDA speaks **points**; screenshots are **pixels**. The scale (3 on most iPhones, 2 on some) comes
from ``GET /wda/screen``; every coordinate the agent gives (screenshot pixels, as for every device)
is divided by it on its way to WDA, and every frame of the source tree is multiplied by it on its
way back, so that the rest of the package sees pixels only.

The routes used, and the JSON they answer, are those of appium/WebDriverAgent's
``WebDriverAgentLib/Commands`` (``FBSessionCommands.m``: ``/status``, ``/session``, ``/url``;
``FBScreenshotCommands.m``: ``/screenshot``; ``FBDebugCommands.m``: ``/source``;
``FBElementCommands.m``: ``/window/size``, ``/wda/doubleTap``, ``/wda/touchAndHold``,
``/wda/dragfromtoforduration``, ``/wda/keys``, ``/element/:uuid/clear``;
``FBTouchActionCommands.m``: W3C ``/actions``; ``FBCustomCommands.m``: ``/wda/screen``,
``/wda/homescreen``, ``/wda/pressButton``, ``/wda/locked``, ``/wda/activeAppInfo``,
``/wda/device/info``; ``FBSessionCommands.m``: ``/wda/apps/launch``, ``/wda/apps/terminate``;
``FBFindElementCommands.m``: ``/element/active``; ``FBAlertViewCommands.m``: ``/alert/text``,
``/wda/alert/buttons``) and its error payload (``Routing/FBResponsePayload.m``,
``Routing/FBCommandStatus.m``: ``{"value": {"error", "message", "traceback"}, "sessionId"}``).

An iPhone has no Back button. :meth:`IosDevice.back` taps the app's own back button where the
source tree shows one (a ``BackButton``, or the first button at the left of a navigation bar),
else swipes in from the left edge (the system's interactive back gesture); :data:`NOTES` says so
to the model. Exit is Home.
"""

from __future__ import annotations

import base64
import binascii
import http.client
import io
import json
import logging
import re
import socket
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from PIL import Image, UnidentifiedImageError

from mobile_agent.device.base import check_point
from mobile_agent.errors import DeviceDisconnectedError, DeviceError, DeviceNotFoundError, InvalidGestureError
from mobile_agent.types import Box, check_pixels, to_rgb

__all__ = ["DEFAULT_URL", "IosDevice", "NOTES", "WdaError", "wda_source_to_hierarchy", "wda_status"]

log = logging.getLogger(__name__)

DEFAULT_URL = "http://localhost:8100"
#: What the model is told about this phone (the first step's feedback; agent/loop.py).
NOTES = ("This phone is an iPhone: it has no Back button. Back taps the app's own back button (top left) where "
         "the screen shows one, else swipes in from the left edge of the screen; on the home screen it does "
         "nothing. Exit goes to the home screen.")
#: The home screen's bundle id: ``foreground_app`` answers None there, as for a launcher.
SPRINGBOARD = "com.apple.springboard"
#: Apple's own apps, by the name under their icon (Apple's documented bundle ids): launched by id,
#: without looking for the icon on the home screen.
APPLE_APPS = {
    "settings": "com.apple.Preferences", "safari": "com.apple.mobilesafari", "photos": "com.apple.mobileslideshow",
    "camera": "com.apple.camera", "messages": "com.apple.MobileSMS", "mail": "com.apple.mobilemail",
    "maps": "com.apple.Maps", "calendar": "com.apple.mobilecal", "notes": "com.apple.mobilenotes",
    "reminders": "com.apple.reminders", "clock": "com.apple.mobiletimer", "weather": "com.apple.weather",
    "music": "com.apple.Music", "phone": "com.apple.mobilephone", "contacts": "com.apple.MobileAddressBook",
    "app store": "com.apple.AppStore", "files": "com.apple.DocumentsApp", "calculator": "com.apple.calculator",
    "health": "com.apple.Health", "wallet": "com.apple.Passbook", "facetime": "com.apple.facetime",
    "shortcuts": "com.apple.shortcuts", "news": "com.apple.news", "podcasts": "com.apple.podcasts",
    "books": "com.apple.iBooks", "home": "com.apple.Home", "translate": "com.apple.Translate",
}
_BUNDLE_RE = re.compile(r"^[A-Za-z][\w-]*(\.[\w-]+)+$")
#: WDA's element key in a W3C element reference (``FBProtocolHelpers``/``FBElementUtils``).
W3C_ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
#: Buttons WDA's ``/wda/pressButton`` knows (``XCUIDevice+FBHelpers.m`` ``fb_pressButton``), by our key names.
BUTTONS = {"home": "home", "volume_up": "volumeUp", "volume_down": "volumeDown"}
#: A swipe held this long before it moves is a drag (``/wda/dragfromtoforduration``, which presses first).
DRAG_MS = 1000

# XCUIElementType* kinds, as the tree is read for grounding (ours: how they are read into nodes).
_TEXTUAL = {"StaticText", "Button", "Cell", "Link", "MenuItem", "Tab", "Key", "Icon", "SegmentedControl",
            "NavigationBar", "Alert", "Sheet"}
_FIELDS = {"TextField", "SecureTextField", "SearchField", "TextView"}
_CLICKABLE = {"Button", "Cell", "Link", "MenuItem", "Tab", "Key", "Icon", "Switch", "Toggle", "Slider",
              "SegmentedControl", "PickerWheel", "Stepper", "TextField", "SecureTextField", "SearchField", "TextView"}
_SCROLLABLE = {"ScrollView", "Table", "CollectionView", "WebView", "Picker"}
_CHECKABLE = {"Switch", "Toggle", "CheckBox"}


class WdaError(DeviceError):
    """WebDriverAgent answered with an error: its W3C ``error`` name and its ``message``."""

    def __init__(self, message: str, error: str = "", status: int = 0) -> None:
        super().__init__(message)
        self.error, self.status = error, status


@dataclass(frozen=True)
class WdaStatus:
    """What ``GET /status`` (and ``/wda/device/info``) say of the phone: for ``mobile-agent devices``."""

    url: str
    ready: bool
    name: str | None = None
    ios: str | None = None
    model: str | None = None
    problem: str | None = None


def _split_url(url: str) -> tuple[str, int, str, bool]:
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DeviceNotFoundError(f"--device ios:{url}: the WebDriverAgent URL must be http://HOST:PORT "
                                  f"(e.g. {DEFAULT_URL})")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 8100)
    except ValueError as exc:
        raise DeviceNotFoundError(f"--device ios:{url}: {exc}") from None
    return parts.hostname, port, parts.path.rstrip("/"), parts.scheme == "https"


class _Http:
    """One JSON request at a time to WDA (a new connection each: WDA closes idle ones itself)."""

    def __init__(self, url: str, timeout_s: float) -> None:
        self.url = url.rstrip("/")
        self.host, self.port, self.prefix, self.tls = _split_url(url)
        self.timeout_s = timeout_s

    def request(self, method: str, path: str, body: Any = None, timeout_s: float | None = None) -> Any:
        """The ``value`` of WDA's answer; :class:`WdaError` for an error payload,
        :class:`DeviceNotFoundError` when nothing answers."""
        cls = http.client.HTTPSConnection if self.tls else http.client.HTTPConnection
        conn = cls(self.host, self.port, timeout=timeout_s or self.timeout_s)
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"} if data is not None else {}
        try:
            conn.request(method, self.prefix + path, body=data, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
        except (ConnectionRefusedError, socket.gaierror) as exc:
            raise DeviceNotFoundError(
                f"no WebDriverAgent answers at {self.url} ({exc.strerror or exc}): start WebDriverAgent on the iPhone "
                "(Xcode, or `go-ios runwda` / `pymobiledevice3`; docs/devices.md) and forward its port over USB with "
                "`iproxy 8100 8100`") from None
        except (socket.timeout, TimeoutError):
            raise DeviceError(f"WebDriverAgent at {self.url} did not answer {method} {path} within "
                              f"{timeout_s or self.timeout_s:.0f} s (the phone may be busy or asleep)") from None
        except (OSError, http.client.HTTPException) as exc:
            raise DeviceDisconnectedError(f"the connection to WebDriverAgent at {self.url} broke during {method} "
                                          f"{path}: {exc}; is WebDriverAgent still running?") from None
        finally:
            conn.close()
        try:
            payload = json.loads(raw.decode("utf-8")) if raw else {}
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise DeviceError(f"{self.url} answered {method} {path} with HTTP {resp.status} and no JSON "
                              f"({raw[:80]!r}): is it WebDriverAgent?") from None
        value = payload.get("value") if isinstance(payload, dict) else None
        if isinstance(value, dict) and isinstance(value.get("error"), str):
            msg = str(value.get("message") or "").strip().splitlines()
            raise WdaError(f"WebDriverAgent refused {method} {path}: {value['error']}"
                           + (f" ({msg[0][:300]})" if msg else ""), value["error"], resp.status)
        if resp.status >= 400:
            raise WdaError(f"WebDriverAgent answered {method} {path} with HTTP {resp.status}", "", resp.status)
        return value


def wda_status(url: str = DEFAULT_URL, timeout_s: float = 3.0) -> WdaStatus:
    """Whether a WDA answers at ``url``, with the phone's name and iOS version (``mobile-agent devices``).
    Never raises: what is wrong is in ``problem``."""
    http_ = None
    try:
        http_ = _Http(url, timeout_s)
        status = http_.request("GET", "/status") or {}
    except DeviceError as exc:
        return WdaStatus(url, False, problem=str(exc))
    os_ = status.get("os") if isinstance(status, dict) else None
    ios = str(os_.get("version")) if isinstance(os_, dict) and os_.get("version") else None
    name = model = None
    try:
        info = http_.request("GET", "/wda/device/info") or {}
        if isinstance(info, dict):
            name, model = info.get("name"), info.get("model")
    except DeviceError:
        pass
    ready = bool(status.get("ready", True)) if isinstance(status, dict) else False
    return WdaStatus(url, ready, name, ios, model, None if ready else "WebDriverAgent says it is not ready")


class IosDevice:
    """An iPhone through WebDriverAgent; implements :class:`mobile_agent.device.Device`.

    Args:
        url: where WDA listens (default ``http://localhost:8100``: ``iproxy 8100 8100`` for a phone on
            USB, or a simulator's WDA).
        timeout_s: the longest wait for any answer.
        unlock: ask WDA to unlock a locked phone (works where it has no passcode); else a locked
            phone is an error that says to unlock it.
    """

    capabilities = frozenset({"long_press", "wait_still", "launch", "ui_tree", "clear_text"})
    notes = (NOTES,)
    kind = "ios"

    def __init__(self, url: str | None = None, *, timeout_s: float = 20.0, unlock: bool = False) -> None:
        self.url = (url or DEFAULT_URL).rstrip("/")
        self._http = _Http(self.url, timeout_s)
        self.timeout_s = timeout_s
        status = self._http.request("GET", "/status") or {}
        if isinstance(status, dict) and status.get("ready") is False:
            raise DeviceError(f"WebDriverAgent at {self.url} says it is not ready: {status.get('message') or ''}".strip())
        os_ = status.get("os") if isinstance(status, dict) else None
        self.ios_version = str(os_.get("version")) if isinstance(os_, dict) and os_.get("version") else None
        self._check_unlocked(unlock)
        self.session_id = self._new_session()
        screen = self._http.request("GET", "/wda/screen") or {}
        scale = screen.get("scale") if isinstance(screen, dict) else None
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 1 <= scale <= 4:
            raise DeviceError(f"WebDriverAgent at {self.url} gave no usable screen scale in /wda/screen: {screen!r}")
        self.scale = float(scale)
        bar = screen.get("statusBarSize") if isinstance(screen, dict) else None
        bar_h = bar.get("height") if isinstance(bar, dict) else None
        self.status_bar_px = int(round(float(bar_h) * self.scale)) if isinstance(bar_h, (int, float)) else 0
        self._points = self._window_size()
        # the frame wait_still found still, and when; None once anything is sent to the phone
        self._still: tuple[Image.Image, float] | None = None

    def __repr__(self) -> str:
        return f"IosDevice(url={self.url!r}, scale={self.scale:g})"

    # ----------------------------------------------------------------- talking to WDA

    def _check_unlocked(self, unlock: bool) -> None:
        try:
            locked = self._http.request("GET", "/wda/locked")
        except WdaError:
            return  # an old WDA without the route: the screenshot shows the lock screen
        if locked is True:
            if unlock:
                self._http.request("POST", "/wda/unlock", {})
                if self._http.request("GET", "/wda/locked") is not True:
                    return
            raise DeviceError(f"the iPhone at {self.url} is locked: unlock it (and keep it awake: Settings > Display & "
                              "Brightness > Auto-Lock > Never while the agent works), then start again")

    def _new_session(self) -> str:
        # W3C capabilities (FBSessionCommands.m handleCreateSession); no bundleId: the session drives
        # whatever app is in front.
        value = self._http.request("POST", "/session", {"capabilities": {"alwaysMatch": {}, "firstMatch": [{}]}})
        sid = value.get("sessionId") if isinstance(value, dict) else None
        if not isinstance(sid, str) or not sid:
            raise DeviceError(f"WebDriverAgent at {self.url} created no session: {value!r}")
        return sid

    def _call(self, method: str, path: str, body: Any = None, timeout_s: float | None = None) -> Any:
        """A command of the session. A session WDA no longer knows (WDA restarted, or its session
        timed out) is created afresh and the command sent once more: WDA refused it before doing
        anything. An alert over the app, or a locked phone, becomes a message that says so."""
        if method != "GET":
            self._still = None
        for attempt in range(2):
            try:
                return self._http.request(method, f"/session/{self.session_id}{path}", body, timeout_s)
            except WdaError as exc:
                if exc.error == "invalid session id" and attempt == 0:
                    log.info("WebDriverAgent at %s lost session %s: creating a new one", self.url, self.session_id)
                    self.session_id = self._new_session()
                    continue
                raise self._explain(exc) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _explain(self, exc: WdaError) -> DeviceError:
        if exc.error == "unexpected alert open":
            return DeviceError(self.alert_problem() or str(exc))
        try:
            if self._http.request("GET", "/wda/locked") is True:
                return DeviceError(f"the iPhone at {self.url} is locked ({exc}): unlock it and start again")
        except DeviceError:
            pass
        return exc

    def alert_problem(self) -> str | None:
        """A line naming the alert over the app and its buttons, or None when there is none."""
        try:
            text = self._http.request("GET", f"/session/{self.session_id}/alert/text")
        except WdaError:
            return None
        try:
            buttons = self._http.request("GET", f"/session/{self.session_id}/wda/alert/buttons") or []
        except WdaError:
            buttons = []
        names = ", ".join(json.dumps(str(b), ensure_ascii=False) for b in buttons if isinstance(b, str))
        first = " ".join(str(text or "").split())[:200]
        return (f"an alert is over the app ({json.dumps(first, ensure_ascii=False)}"
                + (f"; its buttons: {names}" if names else "") + "): tap one of its buttons first")

    def _window_size(self) -> tuple[float, float]:
        size = self._call("GET", "/window/size") or {}
        try:
            w, h = float(size["width"]), float(size["height"])
        except (KeyError, TypeError, ValueError):
            raise DeviceError(f"WebDriverAgent at {self.url} gave no window size: {size!r}") from None
        if w <= 0 or h <= 0:
            raise DeviceError(f"WebDriverAgent at {self.url} gave a window of {w}x{h} points")
        return w, h

    # ----------------------------------------------------------------- pixels and points

    def size(self) -> tuple[int, int]:
        """(width, height) in screenshot pixels: the window in points times the scale."""
        w, h = self._points
        return int(round(w * self.scale)), int(round(h * self.scale))

    def to_points(self, x: float, y: float) -> tuple[float, float]:
        """A screenshot pixel as WDA's points (two decimals: a pixel comes back as the same pixel)."""
        return round(x / self.scale, 2), round(y / self.scale, 2)

    def to_pixels(self, x: float, y: float) -> tuple[int, int]:
        return int(round(x * self.scale)), int(round(y * self.scale))

    def screenshot(self) -> Image.Image:
        """The screen as RGB pixels of :meth:`size` (a rotation since the last one is followed).
        Right after :meth:`wait_still` found the screen still (within a second, nothing sent to the
        phone since), that frame is the screenshot."""
        still = self._still
        if still is not None and time.monotonic() - still[1] <= 1.0:
            return still[0].copy()
        data = self._http.request("GET", "/screenshot", timeout_s=self.timeout_s + 10)
        try:
            opened = Image.open(io.BytesIO(base64.b64decode(str(data or ""), validate=False)))
            check_pixels(opened, "the iPhone's screenshot")
            opened.load()  # decoded here: a lazy PNG read later from two threads fails
            image = to_rgb(opened)
        except (binascii.Error, UnidentifiedImageError, OSError, ValueError) as exc:
            raise DeviceError(f"WebDriverAgent at {self.url} sent a screenshot that is not an image: {exc}") from None
        if image.size != self.size():
            pw, ph = self._points
            if (image.width > image.height) != (pw > ph):  # turned since: the window's size again
                self._points = self._window_size()
            if image.size != self.size():
                image = image.resize(self.size(), Image.Resampling.BILINEAR)
        return image

    def wait_still(self, timeout_s: float = 3.0) -> bool:
        """Wait until two successive screenshots are alike (the status bar aside); False on timeout."""
        from mobile_agent.device.adb.still import still_frame

        if self._still is not None and time.monotonic() - self._still[1] <= 1.0:
            return True
        frame = still_frame(self.screenshot, self.status_bar_px, timeout_s, pause_s=0.1)
        if frame is None:
            return False
        self._still = (frame, time.monotonic())
        return True

    # ----------------------------------------------------------------- gestures

    def _point(self, x: float, y: float) -> tuple[float, float]:
        x, y = int(round(x)), int(round(y))
        check_point(self.size(), x, y)
        return self.to_points(x, y)

    def tap(self, x: int, y: int) -> None:
        """Tap at (x, y) in screenshot pixels: a W3C pointer action (every WDA version has it)."""
        px, py = self._point(x, y)
        self._actions([{"type": "pointerMove", "duration": 0, "x": px, "y": py},
                       {"type": "pointerDown", "button": 0}, {"type": "pause", "duration": 50},
                       {"type": "pointerUp", "button": 0}])

    def double_tap(self, x: int, y: int) -> None:
        """Two taps as one gesture (``/wda/doubleTap``): two HTTP taps are too far apart for iOS."""
        px, py = self._point(x, y)
        self._call("POST", "/wda/doubleTap", {"x": px, "y": py})

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        if duration_ms < 0:
            raise InvalidGestureError(f"long press duration must be 0 ms or more, got {duration_ms}")
        px, py = self._point(x, y)
        self._call("POST", "/wda/touchAndHold", {"x": px, "y": py, "duration": duration_ms / 1000.0},
                   timeout_s=self.timeout_s + duration_ms / 1000.0)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """A swipe (W3C pointer actions); one held :data:`DRAG_MS` or longer is a drag
        (``/wda/dragfromtoforduration``: press, then move)."""
        if duration_ms < 0:
            raise InvalidGestureError(f"swipe duration must be 0 ms or more, got {duration_ms}")
        ax, ay = self._point(x1, y1)
        bx, by = self._point(x2, y2)
        wait = self.timeout_s + duration_ms / 1000.0
        if duration_ms >= DRAG_MS:
            self._call("POST", "/wda/dragfromtoforduration",
                       {"fromX": ax, "fromY": ay, "toX": bx, "toY": by, "duration": 0.5}, timeout_s=wait)
            return
        self._actions([{"type": "pointerMove", "duration": 0, "x": ax, "y": ay},
                       {"type": "pointerDown", "button": 0},
                       {"type": "pointerMove", "duration": max(int(duration_ms), 1), "x": bx, "y": by},
                       {"type": "pointerUp", "button": 0}], timeout_s=wait)

    def _actions(self, steps: list[dict[str, Any]], timeout_s: float | None = None) -> None:
        self._call("POST", "/actions", {"actions": [{"type": "pointer", "id": "finger1",
                                                     "parameters": {"pointerType": "touch"}, "actions": steps}]},
                   timeout_s=timeout_s)

    def type_text(self, text: str) -> None:
        """Type into the focused field through ``/wda/keys``: any Unicode text (XCTest types it as the
        keyboard would); a newline presses Return. A secure (password) field takes it the same way;
        the screen and the tree show it as dots."""
        if not isinstance(text, str):
            raise InvalidGestureError(f"type_text needs a string, got {type(text).__name__}")
        if not text:
            return
        self._call("POST", "/wda/keys", {"value": list(text)}, timeout_s=self.timeout_s + 0.1 * len(text))

    def clear_text(self) -> None:
        """Empty the focused field (``/element/active``, then its ``/clear``); nothing is focused:
        nothing to clear."""
        try:
            el = self._call("GET", "/element/active")
        except WdaError as exc:
            if exc.error == "no such element":
                return
            raise
        uuid = (el.get(W3C_ELEMENT) or el.get("ELEMENT")) if isinstance(el, dict) else None
        if uuid:
            self._call("POST", f"/element/{uuid}/clear", {})

    def home(self) -> None:
        self._still = None
        self._http.request("POST", "/wda/homescreen", {})

    def back(self) -> None:
        """The app's own back button where the tree shows one, else an edge swipe (see :data:`NOTES`)."""
        if self.foreground_app() is None:
            return  # the home screen: nothing to go back to
        box = self._back_button()
        if box is not None:
            c = box.center
            self.tap(c.x, c.y)
            return
        w, h = self.size()
        self.swipe(0, h // 2, int(w * 0.7), h // 2, 250)

    def _back_button(self) -> Box | None:
        try:
            root = ET.fromstring(self._source().encode("utf-8"))
        except (ET.ParseError, DeviceError) as exc:
            log.warning("no source tree for Back on %s: %s", self.url, exc)
            return None
        w, h = self._points
        in_bars = {id(b) for bar in root.iter("XCUIElementTypeNavigationBar") for b in bar.iter("XCUIElementTypeButton")}
        found: list[tuple[int, Box]] = []
        for el in root.iter("XCUIElementTypeButton"):
            if el.get("visible") == "false" or el.get("enabled") == "false":
                continue
            box = _frame(el, 1.0)
            if box is None or box.is_empty() or box.x1 > w / 3 or box.y1 > h / 4:
                continue
            name, label = (el.get("name") or ""), (el.get("label") or "")
            if name == "BackButton" or label in ("Back", "Navigate up"):
                found.append((0, box))
            elif id(el) in in_bars:
                found.append((1, box))
        if not found:
            return None
        box = min(found, key=lambda t: (t[0], t[1].x1))[1]
        x1, y1 = self.to_pixels(box.x1, box.y1)
        x2, y2 = self.to_pixels(box.x2, box.y2)
        return Box(x1, y1, x2, y2)

    def press_key(self, key: str) -> None:
        """Home and the volume buttons (``/wda/pressButton``); enter types a newline."""
        if key == "enter":
            self.type_text("\n")
            return
        if key == "back":
            self.back()
            return
        name = BUTTONS.get(key)
        if name is None:
            raise InvalidGestureError(f"an iPhone has no {key[:40]!r} key: it has enter, back, {', '.join(BUTTONS)}")
        self._call("POST", "/wda/pressButton", {"name": name})

    # ----------------------------------------------------------------- apps and the tree

    def foreground_app(self) -> str | None:
        """The bundle id of the app in front (``/wda/activeAppInfo``), None on the home screen."""
        info = self._http.request("GET", "/wda/activeAppInfo") or {}
        bundle = info.get("bundleId") if isinstance(info, dict) else None
        return None if not bundle or bundle == SPRINGBOARD else str(bundle)

    def app_by_package(self, package: str) -> str | None:
        """``package`` where it is a bundle id (WDA cannot list the installed apps: a launch says)."""
        name = package.strip()
        return name if _BUNDLE_RE.match(name) else None

    def installed_apps(self) -> list[dict[str, str]]:
        """Apple's own apps by name and bundle id (every iPhone has them; WDA lists no others)."""
        return [{"name": n.title() if n != "facetime" else "FaceTime", "package": b} for n, b in APPLE_APPS.items()]

    def launch(self, app: str) -> bool:
        """Open an app by bundle id (``com.apple.Preferences``) or by the name under its icon
        (``Settings``: Apple's apps by their id, others by their icon on the home screen's pages).
        False when no app matches."""
        name = app.strip()
        if not name:
            raise InvalidGestureError("launch needs an app name or bundle id, got an empty string")
        bundle = name if _BUNDLE_RE.match(name) else APPLE_APPS.get(name.casefold())
        if bundle is not None:
            try:
                self._call("POST", "/wda/apps/launch", {"bundleId": bundle})
            except WdaError as exc:
                log.warning("WebDriverAgent could not launch %s: %s", bundle, exc)
                if _BUNDLE_RE.match(name):
                    return False
            else:
                return True
        return self._tap_icon(name)

    def _tap_icon(self, label: str, pages: int = 4) -> bool:
        self.home()
        want = label.casefold()
        for page in range(pages):
            try:
                root = ET.fromstring(self._source().encode("utf-8"))
            except ET.ParseError:
                return False
            for el in root.iter("XCUIElementTypeIcon"):
                if (el.get("label") or "").strip().casefold() == want and el.get("visible") != "false":
                    box = _frame(el, self.scale)
                    if box is not None and not box.is_empty():
                        w, h = self.size()
                        c = box.center
                        if 0 <= c.x < w and 0 <= c.y < h:
                            self.tap(c.x, c.y)
                            return True
            if page + 1 < pages:
                w, h = self.size()
                self.swipe(int(w * 0.8), h // 2, int(w * 0.2), h // 2, 250)
        self.home()
        return False

    def stop_app(self, package: str) -> bool:
        """Terminate an app by bundle id (``/wda/apps/terminate``); False when WDA says it was not running."""
        if not _BUNDLE_RE.match(package.strip()):
            return False
        return bool(self._call("POST", "/wda/apps/terminate", {"bundleId": package.strip()}))

    def open_url(self, url: str) -> None:
        """Open ``url`` with the app that handles it (``POST /url``: Safari for http(s))."""
        self._call("POST", "/url", {"url": url})

    def _source(self) -> str:
        xml = self._call("GET", "/source", timeout_s=self.timeout_s + 20)
        if not isinstance(xml, str):
            raise DeviceError(f"WebDriverAgent at {self.url} sent a source that is not XML text")
        return xml

    def ui_tree(self) -> str | None:
        """The source tree (``GET /source``) as the uiautomator form every reader of trees takes
        (:func:`wda_source_to_hierarchy`): frames in pixels; None where WDA gives none."""
        try:
            xml = self._source()
            bundle = self.foreground_app() or SPRINGBOARD
        except DeviceDisconnectedError:
            raise
        except DeviceError as exc:
            log.warning("no source tree from %s: %s", self.url, exc)
            return None
        try:
            return wda_source_to_hierarchy(xml, self.scale, bundle)
        except ValueError as exc:
            log.warning("the source tree of %s cannot be read: %s", self.url, exc)
            return None


def _frame(el: ET.Element, scale: float) -> Box | None:
    try:
        x, y, w, h = (float(el.get(k, "")) for k in ("x", "y", "width", "height"))
    except ValueError:
        return None
    return Box(int(round(x * scale)), int(round(y * scale)), int(round((x + w) * scale)), int(round((y + h) * scale)))


def wda_source_to_hierarchy(xml: str, scale: float, package: str = "") -> str:
    """WDA's source (``XCUIElementType*`` elements with ``type``, ``name``, ``label``, ``value``,
    ``enabled``, ``visible`` and a frame ``x``/``y``/``width``/``height`` in points, as
    appium/WebDriverAgent's ``Utilities/FBXPath.m`` writes it) as a uiautomator ``<hierarchy>`` of
    ``<node>`` elements in pixels, the form every reader of trees takes (``perception/hybrid.py``,
    ``perception/elements.py``'s one ``Element``, the gates' ``tree_label_at``).

    How each is read (ours): ``class`` is the XCUIElementType; a text's, a button's or a cell's
    label is its ``text``, a field's value is its ``text`` and its label its ``content-desc``,
    another element's label its ``content-desc``; ``name`` (the accessibility identifier) is the
    ``resource-id`` where it differs from the label; a switch's value ``1``/``0`` is ``checked``;
    an element WDA says is not visible has an empty frame. Raises ``ValueError`` for bad XML."""
    try:
        root = ET.fromstring(xml.encode("utf-8") if isinstance(xml, str) else xml)
    except ET.ParseError as exc:
        raise ValueError(f"not WebDriverAgent's source XML: {exc}") from None
    out = ET.Element("hierarchy", rotation="0")

    def visit(el: ET.Element, parent: ET.Element, index: int) -> None:
        kind = el.tag.removeprefix("XCUIElementType")
        label, value, name = el.get("label") or "", el.get("value") or "", el.get("name") or ""
        if kind in ("Application", "Window"):
            text, desc = "", ""  # the whole screen: its name is the app's, not a thing to tap
        elif kind in _FIELDS:
            text, desc = value, label
        elif kind in _TEXTUAL:
            text, desc = label or value, ""
        elif kind in _CHECKABLE:
            text, desc = "", label
        else:
            text, desc = "", label or (value if kind in ("Image", "Other") else "")
        enabled = el.get("enabled", "true") != "false"
        box = _frame(el, scale) if el.get("visible", "true") != "false" else None
        attrs = {
            "index": str(index), "text": text, "resource-id": name if name and name != label else "",
            "class": el.tag, "package": package, "content-desc": desc,
            "checkable": str(kind in _CHECKABLE).lower(),
            "checked": str(kind in _CHECKABLE and value in ("1", "true")).lower(),
            "clickable": str(kind in _CLICKABLE and enabled).lower(), "enabled": str(enabled).lower(),
            "focused": str(el.get("focused") == "true").lower(),
            "scrollable": str(kind in _SCROLLABLE).lower(), "selected": str(el.get("selected") == "true").lower(),
            "password": str(kind == "SecureTextField").lower(),
            "bounds": (box or Box(0, 0, 0, 0)).to_bounds(),
        }
        node = ET.SubElement(parent, "node", attrs)
        for i, child in enumerate(c for c in el if c.tag.startswith("XCUIElementType")):
            visit(child, node, i)

    if not root.tag.startswith("XCUIElementType"):
        raise ValueError(f"not WebDriverAgent's source XML: the root is <{root.tag}>")
    visit(root, out, 0)
    return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>" + ET.tostring(out, encoding="unicode")
