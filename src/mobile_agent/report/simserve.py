"""The simulated phone in a browser (``mobile-agent sim serve``).

A click on the screen is a tap, a drag is a swipe (its duration is how long the button was held),
typing goes to the focused field (a printable key types it, Enter presses Enter, Backspace taps the
keyboard's Delete key, Escape is Back), and the page has Back and Home buttons. With ``record_to``
every gesture is appended to that file as one JSON line as it happens, which gives the human step
count of a task (:func:`count_human_steps`).

Recorded line: ``{"t": seconds since the server started, "kind": "tap"|"swipe"|"type"|"key"|"back"|"home",
...the gesture's fields (x, y | x1, y1, x2, y2, duration_ms | text | key), "app": foreground app
after the gesture or null}``.

HTTP: ``GET /`` the page; ``GET /screen.png`` the current screen; ``GET /api/state`` version,
size, foreground app; ``POST /api/gesture`` one gesture as JSON (the fields above), answered with
the new state.
"""

from __future__ import annotations

import io
import json
import math
import threading
import time
from pathlib import Path
from typing import IO, Any, Callable

from mobile_agent.errors import ConfigError, InvalidGestureError
from mobile_agent.report.htmlkit import static_text
from mobile_agent.report.localserver import LocalServer, Response, json_response, text_response

GESTURES = ("tap", "swipe", "type", "key", "back", "home")
MAX_TEXT = 200


def _int(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {v!r}")
    return int(round(v))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows: send finite numbers")


class PhoneServer:
    """Serves one phone (any :class:`~mobile_agent.device.base.Device`; the simulated phone is the
    one it is made for) to a browser. Gestures are applied one at a time under a lock."""

    def __init__(self, phone: Any, host: str = "127.0.0.1", port: int = 0, record_to: Path | None = None) -> None:
        self.phone = phone
        self._server = LocalServer(self._route, host, port)
        self._lock = threading.Lock()
        self._version = 0
        self._png: tuple[int, bytes] | None = None
        self._t0 = time.monotonic()
        self._record: IO[str] | None = None
        self.record_to = Path(record_to) if record_to is not None else None
        self.gestures = 0

    # ------------------------------------------------------------ lifecycle
    def bind(self) -> str:
        url = self._server.bind()
        if self.record_to is not None and self._record is None:
            try:
                self.record_to.parent.mkdir(parents=True, exist_ok=True)
                self._record = self.record_to.open("a", encoding="utf-8")
            except OSError as exc:
                self._server.close()
                raise ConfigError(f"cannot write the recording to {self.record_to}: {exc.strerror or exc} "
                                  f"(choose a writable path)") from exc
        return url

    def start(self) -> str:
        """Serve from a background thread; returns the URL."""
        self.bind()
        return self._server.start()

    @property
    def url(self) -> str:
        return self._server.url

    def close(self) -> None:
        self._server.close()
        rec, self._record = self._record, None
        if rec is not None:
            rec.close()

    def __enter__(self) -> "PhoneServer":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ gestures
    def _app(self) -> str | None:
        state = getattr(self.phone, "state", None)
        return getattr(state, "foreground", None) if state is not None else None

    def _backspace(self) -> bool:
        """Tap the on-screen keyboard's Delete key (found in the ui tree); False when none is shown."""
        from mobile_agent.device.uitree import parse_tree

        xml = self.phone.ui_tree()
        if not xml:
            return False
        for n in parse_tree(xml):
            if n.desc == "Delete" and n.clickable and not n.bounds.is_empty():
                c = n.bounds.center
                self.phone.tap(c.x, c.y)
                return True
        return False

    def apply(self, g: dict[str, Any]) -> dict[str, Any]:
        """Carry out one gesture (a dict as posted by the page) and record it; returns the state.
        Raises ``ValueError`` for a malformed gesture and ``InvalidGestureError`` for one off the screen."""
        kind = g.get("kind")
        if kind not in GESTURES:
            raise ValueError(f"unknown gesture kind {kind!r}; use one of {', '.join(GESTURES)}")
        line: dict[str, Any] = {"kind": kind}
        with self._lock:
            if kind == "tap":
                x, y = _int(g.get("x"), "x"), _int(g.get("y"), "y")
                self.phone.tap(x, y)
                line.update(x=x, y=y)
            elif kind == "swipe":
                x1, y1, x2, y2 = (_int(g.get(k), k) for k in ("x1", "y1", "x2", "y2"))
                d = max(1, min(5000, _int(g.get("duration_ms", 300), "duration_ms")))
                self.phone.swipe(x1, y1, x2, y2, d)
                line.update(x1=x1, y1=y1, x2=x2, y2=y2, duration_ms=d)
            elif kind == "type":
                text = g.get("text")
                if not isinstance(text, str) or not text or len(text) > MAX_TEXT:
                    raise ValueError(f"type needs a text of 1..{MAX_TEXT} characters")
                self.phone.type_text(text)
                line.update(text=text)
            elif kind == "key":
                key = g.get("key")
                if key == "Enter":
                    self.phone.type_text("\n")
                elif key == "Backspace":
                    line["handled"] = self._backspace()
                else:
                    raise ValueError(f"unknown key {key!r}; use Enter or Backspace")
                line["key"] = key
            elif kind == "back":
                self.phone.back()
            else:
                self.phone.home()
            self._version += 1
            self.gestures += 1
            line["app"] = self._app()
            if self._record is not None:
                rec = {"t": round(time.monotonic() - self._t0, 3), **line}
                self._record.write(json.dumps(rec, ensure_ascii=False) + "\n")
                self._record.flush()
            return self._state_locked()

    def _state_locked(self) -> dict[str, Any]:
        w, h = self.phone.size()
        return {"version": self._version, "width": w, "height": h, "app": self._app(), "gestures": self.gestures}

    def screen_png(self) -> bytes:
        """The current screen as PNG (cached until the next gesture)."""
        with self._lock:
            if self._png is None or self._png[0] != self._version:
                buf = io.BytesIO()
                self.phone.screenshot().save(buf, "PNG", compress_level=1)
                self._png = (self._version, buf.getvalue())
            return self._png[1]

    # ------------------------------------------------------------ HTTP
    def _route(self, method: str, path: str, query: dict[str, list[str]], body: bytes) -> Response:
        if method == "GET" and path in ("/", "/index.html"):
            return text_response(static_text("sim.html"), ctype="text/html; charset=utf-8")
        if method == "GET" and path == "/screen.png":
            return 200, "image/png", self.screen_png()
        if method == "GET" and path == "/api/state":
            with self._lock:
                return json_response(self._state_locked())
        if method == "POST" and path == "/api/gesture":
            try:
                g = json.loads(body.decode("utf-8") or "{}", parse_constant=_no_constant)
                if not isinstance(g, dict):
                    raise ValueError("the gesture must be a JSON object")
                return json_response(self.apply(g))
            except RecursionError:
                return json_response({"error": "the gesture is nested too deeply to be one"}, 400)
            except (ValueError, UnicodeDecodeError, InvalidGestureError) as exc:
                return json_response({"error": str(exc)}, 400)
        if path in ("/", "/index.html", "/screen.png", "/api/state", "/api/gesture"):
            return text_response("method not allowed", 405)
        return text_response("not found", 404)


def serve_phone(phone: Any, host: str = "127.0.0.1", port: int = 0, record_to: Path | None = None,
                ready: Callable[[str], None] | None = None, stop: threading.Event | None = None) -> None:
    """Serve ``phone`` in the browser until Ctrl-C (or until ``stop`` is set).

    ``ready`` is called with the page's URL once the port is bound (port 0: a free port).
    ``record_to``: append each gesture to this file as a JSON line (see the module docstring).
    Raises :class:`ConfigError` when the port is taken or the recording cannot be written.
    """
    server = PhoneServer(phone, host, port, record_to)
    try:
        url = server.start()
        if ready is not None:
            ready(url)
        done = stop or threading.Event()
        while not done.wait(0.2):
            pass
    finally:
        server.close()


def count_human_steps(record: Path) -> int:
    """The number of operations in a recorded session, counted as the benchmark counts a plan's
    steps: each tap, swipe, back and home is one; a run of typing (keys, Enter, Backspace) is one
    Type; a Backspace that found no keyboard is not counted. Lines that are not JSON (a session cut
    off mid-line) are skipped."""
    steps = 0
    typing = False
    for line in Path(record).read_text(encoding="utf-8").splitlines():
        try:
            g = json.loads(line)
        except json.JSONDecodeError:
            continue
        kind = g.get("kind") if isinstance(g, dict) else None
        if kind == "key" and g.get("handled") is False:
            continue  # Backspace with no keyboard on screen: nothing happened
        if kind in ("type", "key"):
            if not typing:
                steps += 1
            typing = True
        elif kind in ("tap", "swipe", "back", "home"):
            steps += 1
            typing = False
    return steps
