"""`mobile-agent mcp --transport http` to the network (issue 42 item 4): a non-loopback bind needs
a token, every loopback address checks Host and Origin, a token is required on every request.
The real command in a subprocess, plain HTTP requests from the standard library."""

from __future__ import annotations

import http.client
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mcp"))
from mcp_helpers import cli_command, cli_env, start_cli  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

TOKEN = "test-token-0123456789abcdef"
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "test", "version": "1"}}})


@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_a_bind_others_can_reach_needs_a_token(tmp_path, host):
    done = subprocess.run(cli_command("mcp", "--transport", "http", "--host", host, "--port", "0"), env=cli_env(),
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    err = " ".join(done.stderr.split())
    assert done.returncode == 2, done.stderr
    assert f"--host {host} lets other machines reach the server" in err and "--token" in err
    assert "Traceback" not in done.stderr
    short = subprocess.run(cli_command("mcp", "--transport", "http", "--host", host, "--token", "abc"),
                           env=cli_env(), cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert short.returncode == 2 and "--token needs at least 16 characters" in " ".join(short.stderr.split())


def _post(port: int, headers: dict[str, str]) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.2", port, timeout=30)
    try:
        conn.request("POST", "/mcp", INITIALIZE, {"Content-Type": "application/json",
                                                  "Accept": "application/json, text/event-stream", **headers})
        resp = conn.getresponse()
        return resp.status, resp.read(2000).decode("utf-8", "replace")
    finally:
        conn.close()


def test_another_loopback_address_checks_host_origin_and_the_token(tmp_path):
    proc = start_cli("mcp", "--transport", "http", "--host", "127.0.0.2", "--port", "0", "--token", TOKEN,
                     cwd=tmp_path)
    try:
        deadline, seen, port = time.monotonic() + 90, [], None
        while port is None and time.monotonic() < deadline:
            line = proc.stderr.readline().decode()
            assert line or proc.poll() is None, "".join(seen)
            seen.append(line)
            m = re.search(r"at http://127\.0\.0\.2:(\d+)/mcp \(bearer token required\)", line)
            port = int(m.group(1)) if m else None
        assert port is not None, "".join(seen)
        assert TOKEN not in "".join(seen)
        own = f"127.0.0.2:{port}"
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        ok = _post(port, {"Host": own, **bearer})
        rebound = _post(port, {"Host": f"evil.example:{port}", **bearer})
        foreign = _post(port, {"Host": own, "Origin": "http://evil.example", **bearer})
        same_origin = _post(port, {"Host": own, "Origin": f"http://{own}", **bearer})
        anonymous = _post(port, {"Host": own})
        wrong = _post(port, {"Host": own, "Authorization": "Bearer not-the-token-at-all"})
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    assert ok[0] == 200, ok
    assert same_origin[0] == 200, same_origin
    assert rebound[0] == 421 and "Host evil.example" in rebound[1]
    assert foreign[0] == 403 and "cross-site" in foreign[1]
    assert anonymous[0] == 401 and "bearer token is required" in anonymous[1]
    assert wrong[0] == 401
