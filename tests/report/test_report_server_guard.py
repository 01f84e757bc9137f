"""The local servers (`sim serve`, `run --live`) against hostile pages: cross-site POSTs and foreign
Host headers (DNS rebinding) are refused, non-finite numbers are a 400, idle connections are closed,
and the number of connections served at once is bounded."""

from __future__ import annotations

import socket
import time

from mobile_agent.device.sim import SimPhone
from mobile_agent.report.localserver import LocalServer, text_response
from mobile_agent.report.simserve import PhoneServer
from tests.fakes.clock import hang_guard


def _raw(port: int, request: str, timeout: float = 5.0) -> tuple[int, str]:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(request.encode("utf-8"))
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), None)
            if length is not None and len(body) >= length:
                break
    status = int(data.split(b" ", 2)[1])
    return status, data.partition(b"\r\n\r\n")[2].decode("utf-8", "replace")


def _post(port: int, body: str, host: str | None = None, origin: str | None = None,
          ctype: str = "application/json", extra: str = "") -> tuple[int, str]:
    headers = f"Host: {host or f'127.0.0.1:{port}'}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
    if origin:
        headers += f"Origin: {origin}\r\n"
    return _raw(port, f"POST /api/gesture HTTP/1.1\r\n{headers}{extra}Connection: close\r\n\r\n{body}")


def test_cross_site_posts_and_foreign_hosts_are_refused():
    phone = SimPhone(seed=0)
    with PhoneServer(phone) as server:
        port = int(server.url.rsplit(":", 1)[1].strip("/"))
        tap = '{"kind": "home"}'
        # a page on another site posting a "simple" request (no preflight)
        assert _post(port, tap, origin="http://evil.example", ctype="text/plain")[0] == 403
        assert _post(port, tap, ctype="text/plain")[0] == 415
        assert _post(port, tap, extra="Sec-Fetch-Site: cross-site\r\n")[0] == 403
        # DNS rebinding: evil.example resolves to 127.0.0.1, the browser sends its own name
        assert _post(port, tap, host=f"evil.example:{port}", origin=f"http://evil.example:{port}")[0] == 421
        status, _ = _raw(port, f"GET /api/state HTTP/1.1\r\nHost: evil.example:{port}\r\nConnection: close\r\n\r\n")
        assert status == 421
        assert server.gestures == 0
        # the page itself (same origin) may drive the phone, by either local name
        assert _post(port, tap, origin=f"http://127.0.0.1:{port}")[0] == 200
        assert _post(port, tap, host=f"localhost:{port}", origin=f"http://localhost:{port}")[0] == 200
        assert server.gestures == 2


def test_non_finite_numbers_are_a_400_not_a_500():
    with PhoneServer(SimPhone(seed=0)) as server:
        port = int(server.url.rsplit(":", 1)[1].strip("/"))
        for body in ('{"kind": "tap", "x": Infinity, "y": 5}', '{"kind": "tap", "x": NaN, "y": 5}',
                     '{"kind": "tap", "x": 1e999, "y": 5}'):
            status, text = _post(port, body)
            assert status == 400, (body, status, text)
            assert "finite" in text


def test_idle_connections_are_closed_and_connections_are_bounded():
    server = LocalServer(lambda *a: text_response("ok"), idle_timeout=1.0, max_connections=2)
    url = server.start()
    port = int(url.rsplit(":", 1)[1].strip("/"))
    try:
        idle = [socket.create_connection(("127.0.0.1", port), timeout=hang_guard(1.0)) for _ in range(2)]
        time.sleep(0.3)
        status, body = _raw(port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n")
        assert status == 503 and "too many" in body
        t = time.monotonic()
        assert idle[0].recv(10) == b""  # the server closed the idle connection
        assert time.monotonic() - t < hang_guard(1.0)
        for s in idle:
            s.close()
        time.sleep(0.3)
        assert _raw(port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n") == (200, "ok")
    finally:
        server.close()
