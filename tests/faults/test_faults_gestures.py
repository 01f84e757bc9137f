"""A gesture is judged by what it touches, never by its name (issue 42 item 1): a swipe shorter than
the touch slop is a tap where it starts, on Android and on the simulated phone alike, so the confirm
gates of the MCP server and of `run --confirm` judge it as one. Real parts: the SDK's own MCP client
on the server object, the simulated phone's Mail, the real perception pipeline."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp import Client

from mobile_agent.agent.operations import PageDown
from mobile_agent.agent.risk import RiskRules, decide
from mobile_agent.device.gestures import LongPress, Swipe, Tap, as_press, touch_slop_px
from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import parse_tree
from mobile_agent.mcpserver import PhoneTools, ToolOptions, build_server
from mobile_agent.perception import Perception

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mcp"))
from mcp_helpers import data_of, run, text_of  # noqa: E402


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def node_center(phone: SimPhone, **match) -> tuple[int, int]:
    for n in parse_tree(phone.ui_tree()):
        if all(getattr(n, k) == v for k, v in match.items()):
            return int(n.bounds.center.x), int(n.bounds.center.y)
    raise AssertionError(f"no node {match}")


def open_lunch_mail(phone: SimPhone) -> None:
    phone.launch("Mail")
    phone.tap(*node_center(phone, text="Lunch on Friday?"))


def test_a_short_swipe_is_a_press_at_its_start():
    slop = touch_slop_px(1080)
    assert slop >= SimPhone().dp(8)  # never smaller than the simulated phone's own slop
    assert as_press(Swipe(755, 147, 755, 148, 100), 1080) == Tap(755, 147)
    assert as_press(Swipe(755, 147, 755 + slop - 1, 147, 400), 1080) == LongPress(755, 147, 400)
    assert as_press(Swipe(540, 1680, 540, 720, 400), 1080) is None  # a scroll presses nothing
    assert as_press(Tap(3, 4), 1080) == Tap(3, 4)


def test_mcp_swipe_of_one_pixel_on_delete_is_refused_like_the_tap(perception):
    phone = SimPhone()
    open_lunch_mail(phone)
    inbox = len(phone.state.mail.inbox)
    x, y = node_center(phone, desc="Delete")

    async def scenario():
        async with Client(build_server(PhoneTools(phone, perception, ToolOptions()))) as client:
            tapped = await client.call_tool("tap", {"x": x, "y": y})
            swiped = await client.call_tool("swipe", {"direction": "up", "x": x, "y": y, "distance": 1})
            kept = len(phone.state.mail.inbox)
            scrolled = data_of(await client.call_tool("swipe", {"direction": "up"}))
            confirmed = data_of(await client.call_tool("swipe", {"direction": "up", "x": x, "y": y,
                                                                 "distance": 1, "confirm": True}))
            return tapped, swiped, kept, scrolled, confirmed

    tapped, swiped, kept, scrolled, confirmed = run(scenario)
    assert tapped.is_error and "deletes" in text_of(tapped)
    assert swiped.is_error, text_of(swiped)
    assert "not swiped" in text_of(swiped) and "deletes" in text_of(swiped) and "confirm=true" in text_of(swiped)
    assert kept == inbox  # the refused swipe deleted nothing
    assert "swiped up" in scrolled["done"]  # a real swipe is not gated
    assert confirmed["screen_changed"] and len(phone.state.mail.inbox) == inbox - 1


def test_run_confirm_judges_a_page_swipe_shorter_than_the_slop_as_a_tap(perception):
    phone = SimPhone()
    open_lunch_mail(phone)
    shot = phone.screenshot()
    x, y = node_center(phone, desc="Delete")
    rules = RiskRules()
    short = decide(PageDown(), None, perception, shot, rules, phone.ui_tree(), Swipe(x, y, x, y + 2, 400))
    assert short.risky and "deletes" in short.why and f"({x}, {y})" in short.why
    assert not decide(PageDown(), None, perception, shot, rules, phone.ui_tree(),
                      Swipe(540, 1680, 540, 720, 400)).risky
