"""Shared by the MCP tests: run a scenario against a client, read tool results, start the real CLI."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable

import anyio
from PIL import Image

SRC = Path(__file__).resolve().parents[2] / "src"
CLI = "import sys; from mobile_agent.cli import console_main; sys.argv[0] = 'mobile-agent'; console_main()"

EXPECTED_TOOLS = {"list_devices", "device_info", "screenshot", "screen_elements", "tap_text", "tap_icon", "tap_element",
                  "tap", "double_tap", "long_press", "type_text", "press_key", "swipe", "page", "back", "home",
                  "open_app", "list_apps", "current_app", "launch_app", "stop_app", "open_url", "run_flow"}


def run(scenario: Callable[[], Awaitable[Any]]) -> Any:
    return anyio.run(scenario)


def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-c", CLI, *args]


def start_cli(*args: str, **kwargs: Any) -> subprocess.Popen:
    return subprocess.Popen(cli_command(*args), env=cli_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kwargs)


def text_of(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def data_of(result: Any) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    return result.structured_content if result.structured_content is not None else json.loads(text_of(result))


def image_of(result: Any, mime: str = "image/png") -> Image.Image:
    assert not result.is_error, text_of(result)
    (block,) = [c for c in result.content if getattr(c, "type", "") == "image"]
    assert block.mime_type == mime
    return Image.open(io.BytesIO(base64.b64decode(block.data))).convert("RGB")


async def settings_display_scenario(client: Any) -> dict[str, Any]:
    """The issue's walk: list the tools, take a screenshot, open Settings, tap "Display", read the screen."""
    tools = await client.list_tools()
    names = {t.name for t in tools.tools}
    shot = image_of(await client.call_tool("screenshot", {"format": "png", "max_side": None}))
    opened = data_of(await client.call_tool("open_app", {"name": "Settings"}))
    tapped = data_of(await client.call_tool("tap_text", {"text": "Display"}))
    elements = data_of(await client.call_tool("screen_elements", {"icons": False}))
    return {"names": names, "tools": tools.tools, "shot": shot, "opened": opened, "tapped": tapped,
            "elements": elements}


BAD_CALLS = [
    ("open_app", {"name": "Teleporter"}, "Teleporter"),
    ("tap_text", {"text": ""}, "empty"),
    ("type_text", {"text": "   "}, "empty"),
    ("tap_text", {"text": "x" * 200_000}, "at most"),
    ("type_text", {"text": "y" * 1_000_000}, "at most"),
    ("tap_text", {"text": "Quantum flux capacitor"}, "not on the screen"),
    ("tap_text", {}, "text"),
    ("tap_element", {"number": "seven"}, "number"),
    ("swipe", {"direction": "sideways"}, "sideways"),
    ("long_press", {}, "exactly one"),
    ("tap_icon", {"description": "send", "position": "p" * 100_000}, "position"),
    ("tap", {"x": 5000, "y": 10}, "off the screen"),
]


async def bad_arguments_scenario(client: Any) -> list[tuple[str, bool, str]]:
    """Every bad call answered as a tool error; then a number not on the screen; the server still works."""
    out = []
    for name, args, _ in BAD_CALLS:
        r = await client.call_tool(name, args)
        out.append((name, bool(r.is_error), text_of(r)))
    listed = data_of(await client.call_tool("screen_elements", {"icons": False}))
    r = await client.call_tool("tap_element", {"number": listed["count"] + 1})
    out.append(("tap_element", bool(r.is_error), text_of(r)))
    r = await client.call_tool("tap_element", {"number": 0})
    out.append(("tap_element", bool(r.is_error), text_of(r)))
    image_of(await client.call_tool("screenshot", {}), "image/jpeg")  # still serving
    return out


def check_bad_arguments(out: list[tuple[str, bool, str]], count_hint: bool = True) -> None:
    expected = [hint for _, _, hint in BAD_CALLS] + ["there is no element", "greater than or equal to 1"]
    assert len(out) == len(expected)
    for (name, is_error, text), hint in zip(out, expected):
        assert is_error, f"{name} should have failed: {text}"
        assert hint.lower() in text.lower(), f"{name}: {hint!r} not in {text!r}"
        assert "Traceback" not in text
        assert len(text) < 2000, f"{name}: the error echoes the input ({len(text)} chars)"
