"""The real ``mobile-agent mcp`` command in a subprocess, driven by the SDK's own client over stdio
and over streamable HTTP on localhost; it ends cleanly on EOF and on Ctrl-C (SIGINT)."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import sys
import time

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from mcp_helpers import (
    EXPECTED_TOOLS, bad_arguments_scenario, check_bad_arguments, cli_command, cli_env, run, settings_display_scenario,
    start_cli, text_of,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "test", "version": "1"}}}


def check_display_walk(out) -> None:
    assert out["names"] == EXPECTED_TOOLS
    assert out["shot"].size == (1080, 2400)
    assert out["opened"]["screen_changed"] and out["tapped"]["screen_changed"]
    texts = [e.get("text") for e in out["elements"]["elements"] if e["kind"] in ("text", "node")]
    assert "Dark theme" in texts and "Brightness" in texts


@pytest.mark.slow
def test_stdio_client_walks_settings_and_bad_arguments_are_tool_errors(tmp_path):
    cmd = cli_command("mcp", "--device", "sim")
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=cli_env(), cwd=str(tmp_path))

    async def scenario():
        with open(tmp_path / "stderr.txt", "w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                walk = await settings_display_scenario(client)
                bad = await bad_arguments_scenario(client)
                return walk, bad

    walk, bad = run(scenario)
    check_display_walk(walk)
    check_bad_arguments(bad)
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


def _initialized(proc: subprocess.Popen) -> dict:
    proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    proc.stdin.flush()
    line = proc.stdout.readline()
    assert line, proc.stderr.read().decode()
    return json.loads(line)


@contextlib.contextmanager
def _server(tmp_path, *args: str):
    """``mobile-agent mcp --device sim ARGS`` as a process; killed if the test leaves it running,
    and its stderr must hold no traceback."""
    proc = start_cli("mcp", "--device", "sim", *args, cwd=tmp_path)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read().decode()
    assert "Traceback" not in err, err


def test_stdio_server_ends_cleanly_on_eof(tmp_path):
    with _server(tmp_path) as proc:
        reply = _initialized(proc)
        assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "mobile-agent"
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0


def test_stdio_answers_the_tool_call_in_flight_when_its_input_closes(tmp_path):
    # a client that sends its last request and closes stdin (a pipe: `printf ... | mobile-agent mcp`)
    # gets that request's answer before the server exits
    with _server(tmp_path) as proc:
        _initialized(proc)
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "screen_elements", "arguments": {"icons": True}}}
        proc.stdin.write((json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n"
                          + json.dumps(call) + "\n").encode())
        proc.stdin.close()
        replies = [json.loads(line) for line in proc.stdout.read().splitlines() if line.strip()]
        assert proc.wait(timeout=60) == 0
    answer = [r for r in replies if r.get("id") == 2]
    assert answer and "result" in answer[0], replies
    assert not answer[0]["result"].get("isError") and "Dark theme" not in json.dumps(answer[0])
    assert "Settings" in json.dumps(answer[0]["result"])


def test_stdio_server_ends_cleanly_on_ctrl_c(tmp_path):
    with _server(tmp_path) as proc:
        _initialized(proc)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0


def _url(proc: subprocess.Popen, timeout_s: float = 60.0) -> str:
    deadline = time.monotonic() + timeout_s
    seen = []
    while time.monotonic() < deadline:
        line = proc.stderr.readline().decode()
        if not line and proc.poll() is not None:
            break
        seen.append(line)
        m = re.search(r"at (http://127\.0\.0\.1:\d+/mcp)", line)
        if m:
            return m.group(1)
    raise AssertionError("the server printed no URL: " + "".join(seen))


@pytest.mark.slow
def test_http_client_walks_settings_then_ctrl_c_ends_the_server(tmp_path):
    with _server(tmp_path, "--transport", "http", "--port", "0") as proc:
        url = _url(proc)

        async def scenario():
            async with Client(url) as client:
                walk = await settings_display_scenario(client)
                bad = await client.call_tool("tap_element", {"number": 10_000})
                return walk, bad

        walk, bad = run(scenario)
        check_display_walk(walk)
        assert bad.is_error and "there is no element 10000" in text_of(bad)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0


def test_http_port_in_use_is_a_usage_error(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(cli_command("mcp", "--transport", "http", "--port", str(port)), env=cli_env(),
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and "Traceback" not in done.stderr


def test_unknown_transport_and_device_are_usage_errors(tmp_path):
    for args, words in ((["--transport", "carrier-pigeon"], "unknown transport"),
                        (["--device", "toaster"], "unknown device")):
        done = subprocess.run(cli_command("mcp", *args), env=cli_env(), cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, stdin=subprocess.DEVNULL)
        assert done.returncode == 2, done.stderr
        assert words in done.stderr and "Traceback" not in done.stderr
