"""A small threaded HTTP server on localhost for the live view and the phone in the browser.

Routes are plain functions of (method, path, query, body) returning (status, content type, bytes).
The server binds to the given host (127.0.0.1 by default; port 0 picks a free one), serves from a
daemon thread, and :meth:`LocalServer.close` stops it and frees the port.
"""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

from mobile_agent.errors import ConfigError

log = logging.getLogger(__name__)

Response = tuple[int, str, bytes]
Handler = Callable[[str, str, dict[str, list[str]], bytes], Response]
MAX_BODY = 64 * 1024


def json_response(data: Any, status: int = 200) -> Response:
    return status, "application/json; charset=utf-8", json.dumps(data, ensure_ascii=False).encode("utf-8")


def text_response(text: str, status: int = 200, ctype: str = "text/plain; charset=utf-8") -> Response:
    return status, ctype, text.encode("utf-8")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False


def _make_handler(route: Handler) -> type[BaseHTTPRequestHandler]:
    class _H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "mobile-agent"

        def _serve(self, method: str) -> None:
            parts = urlsplit(self.path)
            body = b""
            if method == "POST":
                try:
                    n = int(self.headers.get("Content-Length") or 0)
                except ValueError:
                    n = -1
                if n < 0 or n > MAX_BODY:
                    self._send((413, "text/plain", b"request body too large"))
                    return
                body = self.rfile.read(n)
            try:
                resp = route(method, parts.path, parse_qs(parts.query), body)
            except Exception as exc:  # noqa: BLE001 - one bad request must not stop the server
                log.exception("request %s %s failed", method, parts.path)
                resp = text_response(f"error: {exc}", 500)
            self._send(resp)

        def _send(self, resp: Response) -> None:
            status, ctype, data = resp
            try:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("X-Content-Type-Options", "nosniff")
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            self._serve("GET")

        def do_HEAD(self) -> None:  # noqa: N802
            self._serve("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._serve("POST")

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - base class signature
            log.debug("%s - %s", self.address_string(), format % args)

    return _H


class LocalServer:
    """Serve ``route`` over HTTP on ``host:port`` from a background thread."""

    def __init__(self, route: Handler, host: str = "127.0.0.1", port: int = 0) -> None:
        self._route = route
        self.host = host
        self.port = port
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None
        self._serving = threading.Event()

    @property
    def url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the server is not started")
        host, port = self._httpd.server_address[:2]
        shown = f"[{host}]" if ":" in str(host) else str(host)
        return f"http://{shown}:{port}/"

    def bind(self) -> str:
        """Bind the port (raises :class:`ConfigError` when it is taken) and return the URL."""
        if self._httpd is None:
            try:
                self._httpd = _Server((self.host, self.port), _make_handler(self._route))
            except OSError as exc:
                raise ConfigError(f"cannot listen on {self.host}:{self.port}: {exc.strerror or exc} "
                                  f"(choose another port, or 0 for a free one)") from exc
        return self.url

    def start(self) -> str:
        """Bind and serve from a daemon thread; returns the URL."""
        url = self.bind()
        if self._thread is None:
            assert self._httpd is not None
            self._serving.set()
            self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1},
                                            name="mobile-agent-http", daemon=True)
            self._thread.start()
        return url

    def serve_forever(self) -> None:
        """Serve in the calling thread until :meth:`close` is called from another thread."""
        self.bind()
        httpd = self._httpd
        assert httpd is not None
        self._serving.set()
        httpd.serve_forever(poll_interval=0.1)

    def close(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        if self._serving.is_set():
            httpd.shutdown()  # waits for serve_forever to return; never call it before serving began
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None
