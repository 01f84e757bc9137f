"""A WebDriverAgent in front of the simulated phone: a real HTTP server on localhost that answers
WDA's routes with WDA's JSON, at scale 3 like a real iPhone (the phone's pixels are 3 points each).

Routes and shapes follow appium/WebDriverAgent's sources:

- ``WebDriverAgentLib/Routing/FBResponsePayload.m`` (``FBResponseWithStatus``): every answer is
  ``{"value": ..., "sessionId": ...}``; an error's value is ``{"error", "message", "traceback"}``,
  with the HTTP status of ``Routing/FBCommandStatus.m`` (``invalid session id`` 404, ``no such
  alert`` 404, ``no such element`` 404, ``unexpected alert open`` 500, ``unknown command`` 404,
  ``invalid argument`` 400, ``unknown error`` 500);
- ``Commands/FBSessionCommands.m``: ``GET /status`` (``ready``, ``message``, ``state``, ``os``:
  ``name``/``version``/``sdkVersion``, ``ios``, ``build``), ``POST /session`` (value:
  ``sessionId`` and ``capabilities``), ``POST /session/:id/url``, ``/wda/apps/launch`` and
  ``/wda/apps/terminate`` (``bundleId``);
- ``Commands/FBScreenshotCommands.m``: ``GET /screenshot`` (a base64 PNG, in pixels);
- ``Commands/FBDebugCommands.m``: ``GET /source`` (the XML of ``Utilities/FBXPath.m``: tags are the
  ``XCUIElementType*`` names, attributes ``type``, ``value``, ``name``, ``label``, ``enabled``,
  ``visible``, ``x``, ``y``, ``width``, ``height``, ``index``, frames in points);
- ``Commands/FBElementCommands.m``: ``GET /window/size`` (points), ``POST /wda/tap``,
  ``/wda/doubleTap``, ``/wda/touchAndHold`` (``x``, ``y``, ``duration`` in seconds),
  ``/wda/dragfromtoforduration`` (``fromX``... ``duration``), ``/wda/keys`` (``value``: a list of
  strings), ``/element/:uuid/clear``;
- ``Commands/FBTouchActionCommands.m``: W3C ``POST /actions``;
- ``Commands/FBCustomCommands.m``: ``GET /wda/screen`` (``screenSize``, ``statusBarSize``,
  ``scale``), ``POST /wda/homescreen``, ``/wda/pressButton`` (``name``), ``GET /wda/locked``,
  ``POST /wda/unlock``, ``GET /wda/activeAppInfo`` (``pid``, ``bundleId``, ``name``,
  ``processArguments``), ``GET /wda/device/info``;
- ``Commands/FBFindElementCommands.m``: ``GET /element/active``; ``Commands/FBAlertViewCommands.m``:
  ``GET /alert/text``, ``GET /wda/alert/buttons``.

How the simulated phone's (Android-like) tree is shown as an iOS source is ours: its status and
navigation bars are left out (iOS draws them outside the app), a "Navigate up" button becomes the
navigation bar's ``BackButton``, launcher icons are ``XCUIElementTypeIcon``, text views
``StaticText``, fields ``TextField``, switches ``Switch`` with value ``1``/``0``. A swipe that starts
at the left edge and moves right is the system's back gesture (as iOS's interactive pop); the
phone's own Back is reached no other way.
"""

from __future__ import annotations

import base64
import io
import json
import re
import threading
import uuid
import xml.etree.ElementTree as ET
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from mobile_agent.types import Box

#: The scale of the fake phone (an iPhone's Retina scale; WDA's ``FBScreen scale``).
SCALE = 3
#: Bundle ids the fake gives the simulated phone's apps (ours: Apple's ids for the two it has).
BUNDLES = {"Settings": "com.apple.Preferences", "Browser": "com.apple.mobilesafari"}
SPRINGBOARD = "com.apple.springboard"
_STATUS = {  # FBSessionCommands.m handleGetStatus's keys; the values are ours
    "ready": True, "message": "WebDriverAgent is ready to accept commands", "state": "success",
    "os": {"name": "iOS", "version": "17.4", "sdkVersion": "17.4", "testmanagerdVersion": 65535},
    "ios": {"ip": "127.0.0.1"}, "build": {"time": "Dec  1 2026 10:00:00",
                                          "productBundleIdentifier": "com.facebook.WebDriverAgentRunner"},
    "device": "iphone",
}
_ERRORS = {  # FBCommandStatus.m: W3C error name -> HTTP status
    "invalid session id": 404, "no such alert": 404, "no such element": 404, "unexpected alert open": 500,
    "unknown command": 404, "invalid argument": 400, "unknown error": 500, "invalid element state": 400,
}


class WdaFailure(Exception):
    def __init__(self, error: str, message: str) -> None:
        super().__init__(message)
        self.error, self.message = error, message


def _pt(v: float) -> str:
    return f"{round(v / SCALE, 2):g}"


class FakeWda:
    """WDA at ``url`` in front of ``phone`` (a SimPhone whose sides divide by 3).

    ``requests`` holds ``(method, path, body)`` of every request; ``gestures`` what reached the
    phone, in the points WDA was sent (``("tap", x, y)``, ``("swipe", x1, y1, x2, y2, ms)``,
    ``("double_tap", x, y)``, ``("long_press", x, y, ms)``, ``("drag", ...)``, ``("keys", text)``,
    ``("back_swipe",)``, ``("home",)``). ``locked`` and ``alert`` (its text and buttons) stand for
    a locked phone and an alert over the app; :meth:`restart` forgets the session, as a WDA that
    restarted does.
    """

    def __init__(self, phone: Any = None, *, locked: bool = False) -> None:
        if phone is None:
            from mobile_agent.device.sim import SimPhone

            phone = SimPhone(width=540, height=1170)
        w, h = phone.size()
        if w % SCALE or h % SCALE:
            raise ValueError(f"the simulated phone's sides must divide by {SCALE}, got {w}x{h}")
        self.phone = phone
        self.locked = locked
        self.alert: tuple[str, list[str]] | None = None
        self.session_id: str | None = None
        self.sessions_created = 0
        self.requests: list[tuple[str, str, Any]] = []
        self.gestures: list[tuple[Any, ...]] = []
        self._lock = threading.RLock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "FakeWda":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()

    def restart(self) -> None:
        """WDA restarted: the session the client holds is no longer known."""
        with self._lock:
            self.session_id = None

    # ----------------------------------------------------------------- the HTTP side

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _answer(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except json.JSONDecodeError:
                    body = None
                with fake._lock:
                    fake.requests.append((method, self.path, body))
                    try:
                        status, value = 200, fake.route(method, self.path, body)
                    except WdaFailure as exc:
                        status = _ERRORS.get(exc.error, 500)
                        value = {"error": exc.error, "message": exc.message, "traceback": ""}
                    data = json.dumps({"value": value, "sessionId": fake.session_id}).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json;charset=UTF-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802
                self._answer("GET")

            def do_POST(self) -> None:  # noqa: N802
                self._answer("POST")

            def do_DELETE(self) -> None:  # noqa: N802
                self._answer("DELETE")

        return Handler

    # ----------------------------------------------------------------- routes

    def route(self, method: str, path: str, body: Any) -> Any:
        m = re.match(r"^/session/([^/]+)(/.*)?$", path)
        if m and not (method == "POST" and m.group(2) is None):
            if m.group(1) != self.session_id:
                raise WdaFailure("invalid session id", "Session does not exist")
            path = m.group(2) or "/"
            with_session = True
        else:
            with_session = False
        body = body if isinstance(body, dict) else {}
        key = (method, path)
        if key == ("GET", "/status"):
            return dict(_STATUS, sessionId=self.session_id)
        if key == ("POST", "/session"):
            self.session_id = str(uuid.uuid4()).upper()
            self.sessions_created += 1
            return {"sessionId": self.session_id, "capabilities": {"device": "iphone", "sdkVersion": "17.4"}}
        if key == ("GET", "/wda/screen"):
            w, h = self.phone.size()
            return {"screenSize": {"width": w / SCALE, "height": h / SCALE},
                    "statusBarSize": {"width": w / SCALE, "height": 20}, "scale": SCALE}
        if key == ("GET", "/wda/locked"):
            return self.locked
        if key == ("POST", "/wda/unlock"):
            self.locked = False
            return None
        if key == ("GET", "/wda/device/info"):
            return {"name": "Test iPhone", "model": "iPhone", "uuid": "FAKE-WDA", "isSimulator": True,
                    "userInterfaceIdiom": 0, "currentLocale": "en_US"}
        if key == ("GET", "/wda/activeAppInfo"):
            front = self.phone.foreground_app()
            bundle = self._bundle(front) if front else SPRINGBOARD
            return {"pid": 1234, "bundleId": bundle, "name": "", "processArguments": {}}
        if key == ("GET", "/screenshot"):
            buf = io.BytesIO()
            self.phone.screenshot().save(buf, format="PNG")
            return base64.b64encode(buf.getvalue()).decode("ascii")
        if key == ("GET", "/source"):
            return self.source()
        if key == ("POST", "/wda/homescreen"):
            self.gestures.append(("home",))
            self.phone.home()
            return None
        if not with_session:
            raise WdaFailure("unknown command", f"Unhandled endpoint: {path} -- http://127.0.0.1/ with parameters {{\n}}")
        return self._session_route(method, path, body)

    def _session_route(self, method: str, path: str, body: dict[str, Any]) -> Any:
        key = (method, path)
        w, h = self.phone.size()
        if key == ("GET", "/window/size"):
            return {"width": w / SCALE, "height": h / SCALE}
        if key == ("GET", "/alert/text"):
            if self.alert is None:
                raise WdaFailure("no such alert", "An attempt was made to operate on a modal dialog when one was not open")
            return self.alert[0]
        if key == ("GET", "/wda/alert/buttons"):
            if self.alert is None:
                raise WdaFailure("no such alert", "An attempt was made to operate on a modal dialog when one was not open")
            return list(self.alert[1])
        if key == ("POST", "/actions"):
            return self._w3c(body)
        if key in (("POST", "/wda/tap"), ("POST", "/wda/doubleTap"), ("POST", "/wda/touchAndHold")):
            x, y = self._num(body, "x"), self._num(body, "y")
            px, py = self._px(x, y)
            if path == "/wda/tap":
                self.gestures.append(("tap", x, y))
                self.phone.tap(px, py)
            elif path == "/wda/doubleTap":
                self.gestures.append(("double_tap", x, y))
                self.phone.tap(px, py)
                self.phone.tap(px, py)
            else:
                ms = int(round(self._num(body, "duration") * 1000))
                self.gestures.append(("long_press", x, y, ms))
                self.phone.long_press(px, py, ms)
            return None
        if key == ("POST", "/wda/dragfromtoforduration"):
            a = [self._num(body, k) for k in ("fromX", "fromY", "toX", "toY")]
            self.gestures.append(("drag", *a, self._num(body, "duration")))
            (x1, y1), (x2, y2) = self._px(a[0], a[1]), self._px(a[2], a[3])
            self.phone.swipe(x1, y1, x2, y2, 1500)
            return None
        if key == ("POST", "/wda/keys"):
            if self.alert is not None:
                raise WdaFailure("unexpected alert open", "A modal dialog was open, blocking this operation")
            value = body.get("value")
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise WdaFailure("invalid argument", "The 'value' argument must be an array of strings")
            text = "".join(value)
            self.gestures.append(("keys", text))
            self.phone.type_text(text)
            return None
        if key == ("POST", "/wda/pressButton"):
            name = body.get("name")
            if name not in ("home", "volumeUp", "volumeDown"):
                raise WdaFailure("unknown error", f"The button '{name}' is unknown. Only the following button names "
                                                  "are supported: home, volumeUp, volumeDown")
            self.gestures.append(("button", name))
            if name == "home":
                self.phone.home()
            return None
        if key == ("POST", "/wda/apps/launch"):
            name = self._app_of(str(body.get("bundleId") or ""))
            if name is None:
                raise WdaFailure("unknown error", f"Application '{body.get('bundleId')}' is not installed on the device")
            self.gestures.append(("launch", body.get("bundleId")))
            self.phone.launch(name)
            return None
        if key == ("POST", "/wda/apps/terminate"):
            name = self._app_of(str(body.get("bundleId") or ""))
            return bool(name and self.phone.stop_app(name))
        if key == ("POST", "/url"):
            self.phone.open_url(str(body.get("url")))
            return None
        if key == ("GET", "/element/active"):
            if not self._focused():
                raise WdaFailure("no such element", "No element is currently focused")
            return {"ELEMENT": "FOCUSED-1", "element-6066-11e4-a52e-4f735466cecf": "FOCUSED-1"}
        if key == ("POST", "/element/FOCUSED-1/clear"):
            self.gestures.append(("clear",))
            self.phone.clear_text()
            self.phone.state_changed()  # the simulated phone's clear_text leaves its last frame drawn
            return None
        raise WdaFailure("unknown command", f"Unhandled endpoint: {path}")

    # ----------------------------------------------------------------- the phone's side

    @staticmethod
    def _num(body: dict[str, Any], key: str) -> float:
        v = body.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise WdaFailure("invalid argument", f"'{key}' must be a number, got {v!r}")
        return float(v)

    def _px(self, x: float, y: float) -> tuple[int, int]:
        w, h = self.phone.size()
        px, py = int(round(x * SCALE)), int(round(y * SCALE))
        if not (0 <= px < w and 0 <= py < h):
            raise WdaFailure("invalid coordinates", f"The point ({x}, {y}) is outside the screen")
        return px, py

    def _w3c(self, body: dict[str, Any]) -> None:
        """One pointer's W3C actions, read as a tap, a long press, a swipe or the back gesture."""
        chains = body.get("actions")
        if not isinstance(chains, list) or len(chains) != 1 or not isinstance(chains[0], dict):
            raise WdaFailure("invalid argument", "the fake takes one pointer's actions")
        pos: tuple[float, float] | None = None
        down_at: tuple[float, float] | None = None
        held = moved = 0
        for a in chains[0].get("actions") or []:
            t = a.get("type")
            if t == "pointerMove":
                pos = (self._num(a, "x"), self._num(a, "y"))
                if down_at is not None:
                    moved += int(a.get("duration") or 0)
            elif t == "pointerDown":
                if pos is None:
                    raise WdaFailure("invalid argument", "pointerDown before any pointerMove")
                down_at = pos
            elif t == "pause" and down_at is not None:
                held += int(a.get("duration") or 0)
            elif t == "pointerUp":
                break
        if down_at is None or pos is None:
            raise WdaFailure("invalid argument", "no pointerDown in the actions")
        (x1, y1), (x2, y2) = down_at, pos
        p1, p2 = self._px(x1, y1), self._px(x2, y2)
        if (x1, y1) == (x2, y2):
            if held >= 500:
                self.gestures.append(("long_press", x1, y1, held))
                self.phone.long_press(*p1, held)
            else:
                self.gestures.append(("tap", x1, y1))
                self.phone.tap(*p1)
            return None
        w = self.phone.size()[0] / SCALE
        if x1 <= 5 and x2 - x1 >= w / 3 and abs(y2 - y1) < w / 4:  # the edge swipe: iOS's back gesture
            self.gestures.append(("back_swipe",))
            self.phone.back()
            return None
        self.gestures.append(("swipe", x1, y1, x2, y2, moved + held))
        self.phone.swipe(*p1, *p2, max(moved, 1))
        return None

    def _bundle(self, app: str) -> str:
        return BUNDLES.get(app) or next((a["package"] for a in self.phone.installed_apps() if a["name"] == app), app)

    def _app_of(self, bundle: str) -> str | None:
        for a in self.phone.installed_apps():
            if bundle in (BUNDLES.get(a["name"]), a["package"]):
                return a["name"]
        return None

    def _focused(self) -> bool:
        root = ET.fromstring(self.phone.ui_tree().encode("utf-8"))
        return any(n.get("focused") == "true" for n in root.iter("node"))

    def source(self) -> str:
        """The simulated phone's tree as WDA's source XML, in points (see the module's words)."""
        sim = ET.fromstring(self.phone.ui_tree().encode("utf-8"))
        front = self.phone.foreground_app()
        w, h = self.phone.size()
        if self.locked:
            front = None
        label = front or "SpringBoard"
        app = ET.Element("XCUIElementTypeApplication", {
            "type": "XCUIElementTypeApplication", "name": label, "label": label, "enabled": "true",
            "visible": "true", "x": "0", "y": "0", "width": _pt(w), "height": _pt(h), "index": "0"})
        window = ET.SubElement(app, "XCUIElementTypeWindow", self._attrs("XCUIElementTypeWindow", "", "", "",
                                                                          Box(0, 0, w, h), True, 0))
        apps = {a["name"].lower() for a in self.phone.installed_apps()}
        self._convert(list(sim), window, home=front is None, apps=apps)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(app, encoding="unicode")

    @staticmethod
    def _attrs(tag: str, name: str, label: str, value: str, box: Box, enabled: bool, index: int) -> dict[str, str]:
        visible = not box.is_empty()
        a = {"type": tag}
        if value:
            a["value"] = value
        if name:
            a["name"] = name
        if label:
            a["label"] = label
        a.update({"enabled": str(enabled).lower(), "visible": str(visible).lower(),
                  "x": _pt(box.x1), "y": _pt(box.y1), "width": _pt(box.width), "height": _pt(box.height),
                  "index": str(index)})
        return a

    def _convert(self, nodes: list[ET.Element], parent: ET.Element, home: bool, apps: set[str]) -> None:
        for i, n in enumerate(x for x in nodes if x.tag == "node"):
            if n.get("package") == "com.android.systemui":
                continue  # iOS draws its status bar outside the app's tree, and has no navigation bar
            cls = (n.get("class") or "").rsplit(".", 1)[-1]
            text, desc, rid = n.get("text") or "", n.get("content-desc") or "", n.get("resource-id") or ""
            try:
                box = Box.from_bounds(n.get("bounds") or "[0,0][0,0]")
            except ValueError:
                box = Box(0, 0, 0, 0)
            clickable = n.get("clickable") == "true"
            enabled = n.get("enabled", "true") != "false"
            name, label, value = rid, text or desc, ""
            if desc == "Navigate up":
                row = Box(0, box.y1, self.phone.size()[0], box.y2)
                bar = ET.SubElement(parent, "XCUIElementTypeNavigationBar",
                                    self._attrs("XCUIElementTypeNavigationBar", "", "", "", row, True, i))
                ET.SubElement(bar, "XCUIElementTypeButton",
                              self._attrs("XCUIElementTypeButton", "BackButton", "Back", "", box, enabled, 0))
                continue
            if cls == "Switch":
                tag, label, value = "XCUIElementTypeSwitch", desc, "1" if n.get("checked") == "true" else "0"
            elif cls == "EditText":
                tag, label, value = ("XCUIElementTypeSecureTextField" if n.get("password") == "true"
                                     else "XCUIElementTypeTextField"), desc, text
            elif home and clickable and (text or desc).lower() in apps:
                tag = "XCUIElementTypeIcon"
            elif cls == "TextView" and not clickable:
                tag = "XCUIElementTypeStaticText"
            elif clickable and cls in ("Button", "ImageButton", "ImageView", "TextView"):
                tag = "XCUIElementTypeButton"
            elif clickable:
                tag = "XCUIElementTypeCell"
            elif cls == "ImageView":
                tag = "XCUIElementTypeImage"
            elif n.get("scrollable") == "true":
                tag = "XCUIElementTypeScrollView"
            else:
                tag = "XCUIElementTypeOther"
            el = ET.SubElement(parent, tag, self._attrs(tag, name, label, value, box, enabled, i))
            if n.get("focused") == "true":
                el.set("focused", "true")
            self._convert(list(n), el, home, apps)
