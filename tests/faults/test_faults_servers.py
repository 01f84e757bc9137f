"""The local servers (`sim serve`, the live view) against slow and odd clients: clients that send one
header line every few seconds cannot keep the others out (the request head has a total deadline), and
a JSON body nested 60,000 deep is a 400, not a 500."""

from __future__ import annotations

import socket
import threading
import time

from mobile_agent.device.sim import SimPhone
from mobile_agent.report.localserver import LocalServer, text_response
from mobile_agent.report.simserve import PhoneServer
from tests.fakes.clock import hang_guard


def _get(port: int, timeout: float = 5.0) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return int(data.split(b" ", 2)[1])


def test_clients_that_trickle_their_headers_cannot_keep_others_out():
    server = LocalServer(lambda m, p, q, b: text_response("ok"), max_connections=4, request_timeout=1.0)
    server.start()
    port = server._httpd.server_address[1]
    stop = threading.Event()
    cut: list[float] = []

    def slow_client() -> None:
        s = socket.create_connection(("127.0.0.1", port))
        t = time.monotonic()
        try:
            s.sendall(b"GET / HTTP/1.1\r\n")
            while not stop.is_set():
                s.sendall(b"X-Slow: 1\r\n")  # a header line every 0.3 s, never the end of the head
                time.sleep(0.3)
        except OSError:
            cut.append(time.monotonic() - t)
        finally:
            s.close()

    threads = [threading.Thread(target=slow_client, daemon=True) for _ in range(4)]
    try:
        for th in threads:
            th.start()
        time.sleep(0.3)  # every slot is held by a slow client now
        t = time.monotonic()
        while True:
            status = _get(port)
            if status == 200 or time.monotonic() - t > hang_guard(1.0):
                break
            time.sleep(0.2)
        assert status == 200  # served once the slow heads passed their deadline (they never end by themselves)
        for th in threads:
            th.join(timeout=hang_guard(1.0))
        assert len(cut) == 4 and max(cut) < hang_guard(1.0), cut  # each slow client was cut off
    finally:
        stop.set()
        server.close()


def test_a_deeply_nested_json_body_is_a_400():
    with PhoneServer(SimPhone(seed=0)) as server:
        port = int(server.url.rsplit(":", 1)[1].strip("/"))
        body = "[" * 60000  # 60 KB: under the body limit, far deeper than the parser goes
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall((f"POST /api/gesture HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                       f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}").encode())
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        assert int(data.split(b" ", 2)[1]) == 400, data[:200]
        assert b"nested too deeply" in data
        assert server.gestures == 0
