"""The tools at a point, the app and key tools, several devices in one server, and the gates that
judge what a tap touches (issue 27 items 1-6, issue 31 item 6): the SDK's own client on the server
object, simulated phones, the real perception pipeline."""

from __future__ import annotations

import base64
import io

import pytest
from mcp import Client
from PIL import Image

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import parse_tree
from mobile_agent.mcpserver import PhoneTools, ToolOptions, build_server
from mobile_agent.model import ScriptedChatModel
from mobile_agent.perception import Perception

from mcp_helpers import data_of, run, text_of


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def serve(phone: SimPhone, perception: Perception, **options) -> Client:
    factory = options.pop("chat_model_factory", None)
    return Client(build_server(PhoneTools(phone, perception, ToolOptions(**options), chat_model_factory=factory)))


class NoTree:
    """The simulated phone as a device that gives no ui tree (a real phone where uiautomator fails,
    a game, a WebView): what lies under a tap is read from the pixels alone."""

    capabilities = SimPhone.capabilities - {"ui_tree"}
    ui_tree = None

    def __init__(self, phone: SimPhone) -> None:
        self.phone = phone

    def __getattr__(self, name: str):
        return getattr(self.phone, name)


def center(phone: SimPhone, **match) -> list[int]:
    """The centre of the first tree node whose attributes (text, desc, rid) are as given."""
    for n in parse_tree(phone.ui_tree()):
        if all(getattr(n, k) == v for k, v in match.items()):
            c = n.bounds.center
            return [int(c.x), int(c.y)]
    raise AssertionError(f"no node {match}")


def open_first_mail(phone: SimPhone) -> None:
    phone.launch("Mail")
    x, y = center(phone, rid="sender")
    phone.tap(x, y)


def compose(phone: SimPhone) -> None:
    phone.launch("Mail")
    x, y = center(phone, text="Compose")
    phone.tap(x, y)


def test_point_key_and_app_tools_act_on_the_phone(perception):
    phone = SimPhone()

    async def scenario():
        out = {}
        async with serve(phone, perception) as client:
            out["info"] = data_of(await client.call_tool("device_info", {}))
            out["apps"] = data_of(await client.call_tool("list_apps", {}))
            out["launched"] = data_of(await client.call_tool("launch_app", {"package": "com.android.settings"}))
            out["front"] = data_of(await client.call_tool("current_app", {}))
            x, y = center(phone, text="Display")
            out["tap"] = data_of(await client.call_tool("tap", {"x": x, "y": y}))
            out["after_tap"] = phone.ui_tree()
            out["key_back"] = data_of(await client.call_tool("press_key", {"key": "back"}))
            out["swipe"] = data_of(await client.call_tool("swipe", {"direction": "up", "x": 540, "y": 1800,
                                                                     "distance": 900}))
            out["volume"] = await client.call_tool("press_key", {"key": "volume_up"})
            out["stopped"] = data_of(await client.call_tool("stop_app", {"package": "com.android.settings"}))
            out["front_after_stop"] = data_of(await client.call_tool("current_app", {}))
            out["url"] = data_of(await client.call_tool("open_url", {"url": "https://example.org/news"}))
            out["bad_url"] = await client.call_tool("open_url", {"url": "file:///etc/passwd"})
            out["unknown_pkg"] = await client.call_tool("launch_app", {"package": "com.example.nothing"})
            data_of(await client.call_tool("open_app", {"name": "Notes"}))
            x, y = center(phone, text="New note")
            out["press"] = data_of(await client.call_tool("long_press", {"x": x, "y": y, "duration_ms": 300}))
            out["double"] = data_of(await client.call_tool("double_tap", {"x": 540, "y": 1200}))
            out["again"] = data_of(await client.call_tool("open_app", {"name": "Notes"}))
        return out

    out = run(scenario)
    assert out["info"]["kind"] == "sim" and (out["info"]["width"], out["info"]["height"]) == (1080, 2400)
    assert out["info"]["orientation"] == "portrait" and "long_press" in out["info"]["capabilities"]
    assert {"name": "Settings", "package": "com.android.settings"} in out["apps"]["apps"]
    assert out["apps"]["foreground"] is None and out["apps"]["count"] == len(out["apps"]["apps"])
    assert out["launched"]["screen_changed"] and out["front"] == {"app": "Settings", "home": False}
    assert out["tap"]["point"] and 'text="Dark theme"' in out["after_tap"]  # the tap at x,y opened Display
    assert out["key_back"]["screen_changed"] and out["swipe"]["done"].startswith("swiped up from (540, 1800) to (540, 900)")
    assert out["volume"].is_error and "no volume_up key" in text_of(out["volume"])
    assert out["stopped"]["screen_changed"] and out["front_after_stop"] == {"app": None, "home": True}
    assert out["url"]["screen_changed"] and phone.state.browser.current_url == "https://example.org/news"
    assert out["bad_url"].is_error and "only http and https" in text_of(out["bad_url"])
    assert out["unknown_pkg"].is_error and "list_apps" in text_of(out["unknown_pkg"])
    assert "for 300 ms" in out["press"]["done"] and "double-tapped (540, 1200)" in out["double"]["done"]
    # open_app on the app in front is no failure
    assert out["again"]["already_open"] and "already in front" in out["again"]["done"]


def test_a_tap_at_a_point_is_judged_by_what_lies_there(perception):
    phone = SimPhone()
    compose(phone)

    async def scenario():
        async with serve(phone, perception) as client:
            x, y = center(phone, desc="Send")
            refused = await client.call_tool("tap", {"x": x, "y": y})
            still = phone.ui_tree()
            pressed = await client.call_tool("long_press", {"x": x, "y": y})
            via_text = await client.call_tool("tap_text", {"text": "Send"})  # the tree's desc is a label
            return refused, still, pressed, via_text

    refused, still, pressed, via_text = run(scenario)
    assert refused.is_error and "sends" in text_of(refused) and "confirm=true" in text_of(refused)
    assert 'rid="subject"' in still or "Subject" in still  # nothing was tapped: still composing
    assert pressed.is_error and "sends" in text_of(pressed)
    assert via_text.is_error and "sends" in text_of(via_text)  # found through the tree, then gated


def test_unlabelled_icons_are_gated_by_their_glyph(perception):
    """Without a tree the send button is an unlabelled icon: tap_element and tap judge its glyph;
    tap_icon("dustbin") and ("waste basket") are judged by the trash can they find."""
    sending = SimPhone()
    compose(sending)
    deleting = SimPhone()
    open_first_mail(deleting)
    inbox = len(deleting.state.mail.inbox)

    async def scenario():
        async with serve(NoTree(sending), perception) as client:
            listed = data_of(await client.call_tool("screen_elements", {}))
            x, y = center(sending, desc="Send")
            send_icon = next(e for e in listed["elements"] if e["kind"] == "icon"
                             and e["box"][0] <= x <= e["box"][2] and e["box"][1] <= y <= e["box"][3])
            by_element = await client.call_tool("tap_element", {"number": send_icon["n"]})
        async with serve(NoTree(deleting), perception) as client:
            dustbin = await client.call_tool("tap_icon", {"description": "dustbin"})
            basket = await client.call_tool("tap_icon", {"description": "waste basket", "position": "top"})
            kept = len(deleting.state.mail.inbox)
            confirmed = data_of(await client.call_tool("tap_icon", {"description": "dustbin", "confirm": True}))
        return listed, by_element, dustbin, basket, kept, confirmed

    listed, by_element, dustbin, basket, kept, confirmed = run(scenario)
    assert listed["tree"] == "none"
    assert by_element.is_error and "looks like a send" in text_of(by_element), text_of(by_element)
    for r in (dustbin, basket):
        assert r.is_error and "looks like a trash" in text_of(r) and "deletes" in text_of(r), text_of(r)
    assert kept == inbox  # the refused taps deleted nothing
    assert confirmed["screen_changed"] and len(deleting.state.mail.inbox) == inbox - 1


def test_enter_is_gated_and_strings_are_bounded(perception):
    phone = SimPhone()
    phone.launch("Notes")
    tools = PhoneTools(phone, perception)

    async def scenario():
        async with Client(build_server(tools)) as client:
            x, y = center(phone, text="New note")
            data_of(await client.call_tool("tap", {"x": x, "y": y}))
            typed = await client.call_tool("type_text", {"text": "hello", "enter": True})
            newline = await client.call_tool("type_text", {"text": "hello\nthere"})
            key = await client.call_tool("press_key", {"key": "enter"})
            ok = data_of(await client.call_tool("type_text", {"text": "hello", "enter": True, "confirm": True}))
            return typed, newline, key, ok

    typed, newline, key, ok = run(scenario)
    for r in (typed, newline, key):
        assert r.is_error and "Enter" in text_of(r) and "confirm=true" in text_of(r)
    assert "pressed Enter" in ok["done"]
    # in-process, where no schema stands guard, a long value never comes back whole
    from mobile_agent.errors import ConfigError

    for call in (lambda: tools.tap_icon("send", position="top " * 25_000),
                 lambda: tools.press_key("k" * 100_000),
                 lambda: tools.swipe("d" * 100_000),
                 lambda: tools.tap_element("n" * 100_000)):
        with pytest.raises(ConfigError) as err:
            call()
        assert len(str(err.value)) < 300


def test_the_allow_list_judges_the_app_in_front_after_each_action(perception, tmp_path):
    phone = SimPhone()
    walker = ScriptedChatModel([
        "Observation: Mail.\nThought: leave.\nAction: Exit",
        "Observation: home.\nThought: the shop's label.\nAction: Click Text (Shop)",
        "Observation: Shop.\nThought: buy.\nAction: Stop",
    ], cycle=True)

    async def scenario():
        async with serve(phone, perception, allowed_apps=("Mail",), runs_dir=tmp_path,
                         chat_model_factory=lambda: walker) as client:
            data_of(await client.call_tool("open_app", {"name": "Mail"}))
            data_of(await client.call_tool("home", {}))
            by_label = await client.call_tool("tap_text", {"text": "Shop"})
            front = phone.state.foreground
            by_package = await client.call_tool("launch_app", {"package": "com.sim.shop"})
            data_of(await client.call_tool("open_app", {"name": "Mail"}))
            ran = data_of(await client.call_tool("run_instruction", {"instruction": "Buy something",
                                                                     "max_steps": 5}))
            return by_label, front, by_package, ran

    by_label, front, by_package, ran = run(scenario)
    assert by_label.is_error and "'Shop'" in text_of(by_label) and "allow-list" in text_of(by_label)
    assert front is None  # Home was pressed at once
    assert by_package.is_error and "allow-list" in text_of(by_package)
    assert ran["outcome"] == "error" and "Shop" in ran["error"] and "allow-list" in ran["error"], ran
    assert phone.state.foreground is None


def test_several_devices_in_one_server(perception):
    a, b = SimPhone(seed=1), SimPhone(seed=2)
    server = build_server({"left": PhoneTools(a, perception, name="left"),
                           "right": PhoneTools(b, perception, name="right")})

    async def scenario():
        async with Client(server) as client:
            listed = data_of(await client.call_tool("list_devices", {}))
            which = await client.call_tool("home", {})
            unknown = await client.call_tool("home", {"device": "middle"})
            opened = data_of(await client.call_tool("open_app", {"name": "Settings", "device": "right"}))
            elements = data_of(await client.call_tool("screen_elements", {"icons": False, "device": "right"}))
            return listed, which, unknown, opened, elements

    listed, which, unknown, opened, elements = run(scenario)
    assert [d["name"] for d in listed["devices"]] == ["left", "right"] and listed["count"] == 2
    assert which.is_error and "left, right" in text_of(which)
    assert unknown.is_error and "no device named 'middle'" in text_of(unknown)
    assert opened["screen_changed"] and b.state.foreground == "Settings" and a.state.foreground is None
    assert any(e.get("text") == "Display" for e in elements["elements"])


def test_screenshots_schemas_and_a_short_element_list(perception):
    phone = SimPhone()

    async def scenario():
        async with serve(phone, perception) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            shot = await client.call_tool("screenshot", {})
            png = await client.call_tool("screenshot", {"format": "png", "max_side": 800})
            full = data_of(await client.call_tool("screen_elements", {"icons": True}))
            plain = data_of(await client.call_tool("screen_elements", {"icons": False}))
            return tools, shot, png, full, plain

    tools, shot, png, full, plain = run(scenario)
    (img,) = [c for c in shot.content if c.type == "image"]
    assert img.mime_type == "image/jpeg"
    decoded = Image.open(io.BytesIO(base64.b64decode(img.data)))
    assert decoded.size == (461, 1024) and "scale 0.4267" in text_of(shot) and "screen 1080x2400" in text_of(shot)
    (p,) = [c for c in png.content if c.type == "image"]
    assert p.mime_type == "image/png" and Image.open(io.BytesIO(base64.b64decode(p.data))).size == (360, 800)
    # schemas carry the ranges, enums and lengths; descriptions are one paragraph
    assert "run_instruction" not in tools  # no model: not offered
    props = {name: t.input_schema["properties"] for name, t in tools.items()}
    assert props["long_press"]["duration_ms"]["minimum"] == 100 and props["long_press"]["duration_ms"]["maximum"] == 10000
    assert props["swipe"]["fraction"]["minimum"] == 0.1 and props["swipe"]["fraction"]["maximum"] == 0.9
    assert props["type_text"]["text"]["maxLength"] == 2000
    assert props["screenshot"]["max_side"]["anyOf"][0]["minimum"] == 64
    assert "top right" in props["tap_icon"]["position"]["anyOf"][0]["enum"]
    assert "volume_up" in props["press_key"]["key"]["enum"]
    assert all("device" in p for name, p in props.items() if name != "list_devices")
    assert all("\n" not in t.description and "  " not in t.description for t in tools.values())
    assert tools["tap"].output_schema["required"] == ["done", "screen_changed"]
    assert tools["screen_elements"].output_schema and tools["list_apps"].output_schema
    # the home screen: every app once (its node), no glyph boxes or glyphs read as text
    assert full["count"] <= 30, full["count"]
    kinds = {e["kind"] for e in full["elements"]}
    assert kinds == {"node"}, [e for e in full["elements"] if e["kind"] != "node"]
    assert not any(e["kind"] == "icon" for e in plain["elements"])  # icons=false after a parse with icons


def test_icons_false_is_honoured_after_a_cached_parse(perception):
    phone = SimPhone()
    phone.launch("Settings")
    tools = PhoneTools(phone, perception, ToolOptions(tree=False))
    with_icons = tools.screen_elements(icons=True)
    without = tools.screen_elements(icons=False)
    assert any(e["kind"] == "icon" for e in with_icons["elements"])
    assert not any(e["kind"] == "icon" for e in without["elements"])


def test_device_specs_name_several_phones():
    from mobile_agent.cli.mcp import _device_specs
    from mobile_agent.errors import ConfigError

    assert _device_specs(["sim"]) == [("sim", "sim")]
    assert _device_specs(["sim", "sim", "adb:R58M"]) == [("sim-1", "sim"), ("sim-2", "sim"), ("R58M", "adb:R58M")]
    with pytest.raises(ConfigError, match="twice"):
        _device_specs(["adb:R58M", "adb:R58M"])
    with pytest.raises(ConfigError, match="unknown device"):
        _device_specs(["iphone"])  # (ios is an iPhone: tests/device_ios)


@pytest.mark.parametrize("device", ["tree", "pixels"])
def test_a_tap_off_the_word_inside_a_menu_row_is_judged_by_the_row(perception, device):
    # issue 51, item 1: the phone gives a touch right of "Delete" to its menu row (the innermost
    # clickable node that holds the point: Android's rule, read off the phone's own tree), so the
    # gate asks there as on the word; with and without the tree
    phone = SimPhone(seed=0)
    phone.launch("Mail")
    row = [n for n in parse_tree(phone.ui_tree()) if n.clickable and 300 < n.bounds.y1 < 900][0]
    phone.long_press(int(row.bounds.center.x), int(row.bounds.center.y))
    word = [n for n in parse_tree(phone.ui_tree()) if n.text == "Delete"][0]
    x, y = int(word.bounds.x2 + 300), int(word.bounds.center.y)  # in the row, far right of the word
    served = phone if device == "tree" else NoTree(phone)

    async def scenario():
        async with serve(served, perception) as client:
            return [await client.call_tool(tool, args) for tool, args in (
                ("tap", {"x": x, "y": y}), ("long_press", {"x": x, "y": y}), ("double_tap", {"x": x, "y": y}),
                ("swipe", {"direction": "left", "x": x, "y": y, "distance": 5}))]

    before = len(phone.state.mail.inbox) if hasattr(phone.state, "mail") else None
    for r in run(scenario):
        assert r.is_error and "deletes" in text_of(r) and "confirm=true" in text_of(r), text_of(r)
    if before is not None:
        assert len(phone.state.mail.inbox) == before  # nothing was deleted


def test_a_coordinate_given_as_true_or_false_is_refused_not_read_as_one(perception):
    # issue 51, low: x=true was read as 1 (a tap at the screen's left edge)
    phone = SimPhone(seed=0)
    taps: list[tuple[int, int]] = []
    real_tap = phone.tap
    phone.tap = lambda x, y: (taps.append((x, y)), real_tap(x, y))[1]

    async def scenario():
        async with serve(phone, perception) as client:
            return [await client.call_tool("tap", {"x": True, "y": 500}),
                    await client.call_tool("long_press", {"x": 300, "y": False}),
                    await client.call_tool("tap", {"x": 300, "y": 500})]

    bad_x, bad_y, good = run(scenario)
    assert bad_x.is_error and "not true" in text_of(bad_x), text_of(bad_x)
    assert bad_y.is_error and "not false" in text_of(bad_y), text_of(bad_y)
    assert not good.is_error and taps == [(300, 500)]

def test_a_double_taps_second_tap_is_judged_on_the_screen_the_first_tap_left(perception):
    # issue 51, item 4: on Video's home a double tap at (900, 960) lands on the first video's card
    # (the phone's tree: a clickable card 0..1080 x 325..1173); its first tap opens the video's page,
    # where Subscribe lies under the same point (the phone's tree: 776..1038 x 915..1010). The second
    # tap is asked about; nothing is subscribed
    phone = SimPhone(seed=0)
    phone.launch("Video")
    x, y = 900, 960

    async def scenario():
        async with serve(phone, perception) as client:
            return await client.call_tool("double_tap", {"x": x, "y": y})

    r = run(scenario)
    assert r.is_error and "pays" in text_of(r) and "second tap was not sent" in text_of(r), text_of(r)
    assert not phone.state.video.subscribed
    assert [n for n in parse_tree(phone.ui_tree()) if n.text == "Subscribe"]  # the first tap was carried out
