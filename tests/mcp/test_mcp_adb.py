"""``mobile-agent mcp --device adb`` serves every attached phone: the real CLI over stdio, the SDK's
client, the fake adb server of tests/fakes with two phones; the app and key tools over adb."""

from __future__ import annotations

import os

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from mcp_helpers import cli_command, cli_env, data_of, run, text_of
from tests.fakes.adb_server import FakeAdbServer, FakePhone


def test_one_server_for_every_attached_phone_with_app_and_key_tools(tmp_path):
    phones = [FakePhone(serial="emulator-5554"), FakePhone(serial="emulator-5556")]
    with FakeAdbServer(phones) as server:
        cmd = cli_command("mcp", "--device", "adb")
        env = cli_env() | {"ANDROID_ADB_SERVER_PORT": str(server.port)}
        env.pop("ANDROID_ADB_SERVER_HOST", None)
        params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=env, cwd=str(tmp_path))

        async def scenario():
            out = {}
            with open(tmp_path / "stderr.txt", "w") as errlog:
                async with Client(stdio_client(params, errlog=errlog)) as client:
                    out["devices"] = data_of(await client.call_tool("list_devices", {}))
                    out["no_device"] = await client.call_tool("current_app", {})
                    d = {"device": "emulator-5556"}
                    out["front"] = data_of(await client.call_tool("current_app", d))
                    out["apps"] = data_of(await client.call_tool("list_apps", d))
                    out["volume"] = data_of(await client.call_tool("press_key", {"key": "volume_up", **d}))
                    out["stop"] = data_of(await client.call_tool("stop_app", {"package": "com.android.settings", **d}))
                    out["front_after"] = data_of(await client.call_tool("current_app", d))
                    out["url"] = data_of(await client.call_tool("open_url", {"url": "https://example.org/", **d}))
                    out["info"] = data_of(await client.call_tool("device_info", d))
            return out

        out = run(scenario)
    assert [x["name"] for x in out["devices"]["devices"]] == ["emulator-5554", "emulator-5556"]
    assert all(x["kind"] == "adb" for x in out["devices"]["devices"])
    assert out["no_device"].is_error and "emulator-5554, emulator-5556" in text_of(out["no_device"])
    assert out["front"] == {"app": "com.android.settings", "home": False}
    assert {"name": "com.android.settings", "package": "com.android.settings"} in out["apps"]["apps"]
    assert out["front_after"] == {"app": None, "home": True}  # the launcher counts as the home screen
    first, second = phones
    assert ("key", 24) in second.gestures and ("force-stop", "com.android.settings") in second.gestures
    assert ("view", "https://example.org/") in second.gestures
    assert not any(g[0] in ("key", "force-stop", "view") for g in first.gestures)  # the other phone untouched
    assert out["info"]["model"] == "sdk_gphone64_x86_64" and out["info"]["android"] == "14"
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()
