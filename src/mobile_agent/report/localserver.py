"""A small threaded HTTP server on localhost for the live view and the phone in the browser.

Routes are plain functions of (method, path, query, body) returning (status, content type, bytes).
The server binds to the given host (127.0.0.1 by default; port 0 picks a free one), serves from a
daemon thread, and :meth:`LocalServer.close` stops it and frees the port.

Guards, because any web page the user visits can send requests to localhost:

- the ``Host`` header must name this server (127.0.0.1, localhost or [::1] with its port) when it
  listens on a loopback address: a DNS-rebinding page (evil.example resolving to 127.0.0.1) gets 421;
- a request that changes something (POST) must be same-origin: a foreign ``Origin`` or a
  ``Sec-Fetch-Site`` of cross-site/same-site gets 403, and its body must be ``application/json``
  (415 otherwise: a cross-site form or text/plain POST cannot be made to look like one);
- an idle connection is closed after ``idle_timeout`` seconds; a request's head and body must
  arrive within ``request_timeout`` seconds in all (a client that sends a header line every few
  seconds cannot hold a slot); at most ``max_connections`` are served at once (one thread each);
  more get 503 at once;
- a JSON body nested too deeply for the parser is a 400, as any unreadable body.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
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


IDLE_TIMEOUT_S = 15.0
REQUEST_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 32
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 24\r\n"
         b"Connection: close\r\nRetry-After: 1\r\n\r\ntoo many connections now")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler],
                 max_connections: int = MAX_CONNECTIONS) -> None:
        self._slots = threading.BoundedSemaphore(max_connections)
        super().__init__(address, handler)
        host, port = self.server_address[:2]
        self.loopback = _is_loopback(str(host))
        names = {"127.0.0.1", "localhost", "[::1]", f"[{host}]" if ":" in str(host) else str(host)}
        self.allowed_hosts = {f"{n}:{port}" for n in names} | ({f"{n}" for n in names} if port == 80 else set())

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):  # every thread is busy: answer at once, start none
            try:
                request.sendall(_BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


def _is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _make_handler(route: Handler, idle_timeout: float = IDLE_TIMEOUT_S,
                  request_timeout: float = REQUEST_TIMEOUT_S) -> type[BaseHTTPRequestHandler]:
    class _H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "mobile-agent"
        timeout = idle_timeout  # a connection that sends nothing for this long is closed
        _deadline: threading.Timer | None = None

        def handle_one_request(self) -> None:
            # The request's head (and body) in request_timeout seconds in all, however slowly it comes:
            # past it the connection is cut, which ends the read and frees the slot.
            self._deadline = threading.Timer(request_timeout, self._cut)
            self._deadline.daemon = True
            self._deadline.start()
            try:
                super().handle_one_request()
            finally:
                self._deadline.cancel()

        def _cut(self) -> None:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

        def _received(self) -> None:
            """The whole request is in: its deadline no longer applies (the answer may take longer)."""
            if self._deadline is not None:
                self._deadline.cancel()

        def _refusal(self, method: str) -> Response | None:
            """Why this request is refused (Host, Origin, body type), or None."""
            srv = self.server
            host = (self.headers.get("Host") or "").strip().lower()
            if getattr(srv, "loopback", False) and host not in getattr(srv, "allowed_hosts", set()):
                return text_response(f"this server answers only to {self.server_address_text()}; "
                                     f"Host {host or '(none)'} refused", 421)
            if method != "POST":
                return None
            origin = (self.headers.get("Origin") or "").strip().lower()
            if origin and origin != "null" and origin.removeprefix("http://") not in getattr(srv, "allowed_hosts", set()):
                return text_response(f"cross-site request from {origin} refused", 403)
            if origin == "null" or (self.headers.get("Sec-Fetch-Site") or "").lower() in ("cross-site", "same-site"):
                return text_response("cross-site request refused", 403)
            ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            if ctype != "application/json":
                return text_response("the request body must be application/json", 415)
            return None

        def server_address_text(self) -> str:
            port = self.server.server_address[1]
            return f"http://127.0.0.1:{port}/ or http://localhost:{port}/"

        def _serve(self, method: str) -> None:
            parts = urlsplit(self.path)
            refused = self._refusal(method)
            if refused is not None:
                self.close_connection = True
                self._send(refused)
                return
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
                if len(body) < n:  # cut short (the request's deadline, or the client left)
                    self.close_connection = True
                    return
            self._received()
            try:
                resp = route(method, parts.path, parse_qs(parts.query), body)
            except RecursionError:  # a JSON body nested deeper than the parser goes
                resp = text_response("the request body is nested too deeply", 400)
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
            except (BrokenPipeError, ConnectionResetError, socket.timeout):
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

    def __init__(self, route: Handler, host: str = "127.0.0.1", port: int = 0, *,
                 idle_timeout: float = IDLE_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS,
                 request_timeout: float = REQUEST_TIMEOUT_S) -> None:
        self._route = route
        self.host = host
        self.port = port
        self.idle_timeout = idle_timeout
        self.request_timeout = request_timeout
        self.max_connections = max_connections
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
                self._httpd = _Server((self.host, self.port),
                                      _make_handler(self._route, self.idle_timeout, self.request_timeout),
                                      self.max_connections)
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
