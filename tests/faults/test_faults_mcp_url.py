"""A line break in MCP ``open_url`` (issue 42 item 6): refused with a clear message, and the
simulated phone stays usable whatever it is given to draw. Real parts: the SDK's own MCP client on
the server object, the simulated phone, the real perception pipeline."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp import Client

from mobile_agent.device.sim import SimPhone
from mobile_agent.mcpserver import PhoneTools, ToolOptions, build_server
from mobile_agent.perception import Perception

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mcp"))
from mcp_helpers import data_of, image_of, run, text_of  # noqa: E402


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def test_a_control_character_in_open_url_is_refused_and_the_phone_goes_on(perception):
    phone = SimPhone()

    async def scenario():
        async with Client(build_server(PhoneTools(phone, perception, ToolOptions()))) as client:
            broken = await client.call_tool("open_url", {"url": "https://example.com/a\nb"})
            escape = await client.call_tool("open_url", {"url": "https://example.com/\x1b[2J"})
            shot = await client.call_tool("screenshot", {"format": "png"})
            home = await client.call_tool("home", {})
            opened = await client.call_tool("open_app", {"name": "Notes"})
            return broken, escape, shot, home, opened

    broken, escape, shot, home, opened = run(scenario)
    assert broken.is_error and "control character (U+000A at position 21)" in text_of(broken), text_of(broken)
    assert "%0A" in text_of(broken)
    assert escape.is_error and "U+001B" in text_of(escape)
    assert image_of(shot).size[0] > 0
    data_of(home)
    data_of(opened)
    assert phone.state.foreground == "Notes"


def test_the_simulated_phone_draws_a_line_break_and_survives_a_drawing_error(monkeypatch):
    phone = SimPhone()
    phone.open_url("https://example.com/a\nb")  # straight to the device, past any tool's check
    assert phone.screenshot().size == (1080, 2400)  # drawn: the line break as a space
    phone.home()
    import mobile_agent.device.sim.phone as phone_module

    def broken(*args, **kwargs):
        raise RuntimeError("raqm_layout() failed.")

    monkeypatch.setattr(phone_module, "paint_tree", broken)
    phone.launch("Notes")
    assert phone.screenshot().size == (1080, 2400)  # a blank frame, not an exception
    monkeypatch.undo()
    phone.home()  # the phone goes on: home, and the next screen is drawn
    phone.launch("Settings")
    assert "Display" in phone.ui_tree() and phone.screenshot().getextrema() != ((255, 255), (255, 255), (255, 255))
