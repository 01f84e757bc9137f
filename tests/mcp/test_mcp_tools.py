"""The MCP server's tools through the SDK's own client, connected in-process to the server object,
on the simulated phone with the real perception pipeline."""

from __future__ import annotations

import base64
import io
import json

import numpy as np
from PIL import Image
import pytest
from mcp import Client

from mobile_agent.device.sim import SimPhone
from mobile_agent.mcpserver import PhoneTools, ToolOptions, build_server
from mobile_agent.model import ScriptedChatModel
from mobile_agent.perception import Perception

from mcp_helpers import (
    EXPECTED_TOOLS, bad_arguments_scenario, check_bad_arguments, data_of, image_of, run, settings_display_scenario,
    text_of,
)


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def serve(phone: SimPhone, perception: Perception, **options) -> Client:
    factory = options.pop("chat_model_factory", None)
    return Client(build_server(PhoneTools(phone, perception, ToolOptions(**options), chat_model_factory=factory)))


def test_list_screenshot_open_settings_tap_display_read(perception):
    phone = SimPhone()
    home = phone.screenshot()

    async def scenario():
        async with serve(phone, perception) as client:
            return await settings_display_scenario(client)

    out = run(scenario)
    assert out["names"] == EXPECTED_TOOLS
    tools = {t.name: t for t in out["tools"]}
    assert all(len(t.description or "") > 30 for t in out["tools"])
    assert tools["screenshot"].annotations.read_only_hint is True
    assert tools["tap_text"].annotations.read_only_hint is False
    assert "text" in tools["tap_text"].input_schema["required"]
    # the screenshot is the phone's screen, pixel for pixel
    assert out["shot"].size == (1080, 2400)
    assert np.array_equal(np.asarray(out["shot"]), np.asarray(home))
    assert out["opened"]["screen_changed"] and "Settings" in out["opened"]["done"]
    assert out["tapped"]["screen_changed"]
    assert phone.state.foreground == "Settings"
    texts = [e.get("text") for e in out["elements"]["elements"] if e["kind"] in ("text", "node")]
    assert "Display" in texts and "Dark theme" in texts and "Brightness" in texts
    nodes = [e for e in out["elements"]["elements"] if e["kind"] == "node"]
    assert out["elements"]["tree"] == "read" and nodes
    assert any(e.get("text") == "Dark theme" for e in nodes)
    numbers = [e["n"] for e in out["elements"]["elements"]]
    assert numbers == list(range(1, len(numbers) + 1))
    for e in out["elements"]["elements"]:
        x1, y1, x2, y2 = e["box"]
        assert 0 <= x1 <= e["center"][0] <= x2 <= 1080 and 0 <= y1 <= e["center"][1] <= y2 <= 2400


def test_bad_arguments_are_tool_errors_and_the_server_goes_on(perception):
    phone = SimPhone()

    async def scenario():
        async with serve(phone, perception) as client:
            return await bad_arguments_scenario(client)

    check_bad_arguments(run(scenario))
    assert phone.state.foreground is None  # nothing was opened by the failed calls


def test_tap_element_then_stale_numbers_are_refused(perception):
    phone = SimPhone()
    phone.launch("Settings")

    async def scenario():
        async with serve(phone, perception, tree=False) as client:
            raw = await client.call_tool("screen_elements", {"icons": False})
            listed = data_of(raw)
            assert listed["tree"] == "off"
            display = next(e for e in listed["elements"] if e.get("text") == "Display")
            tapped = data_of(await client.call_tool("tap_element", {"number": display["n"]}))
            again = await client.call_tool("tap_element", {"number": display["n"]})
            return raw, display, tapped, again

    raw, display, tapped, again = run(scenario)
    assert display["kind"] == "text"
    # the text answer lists one element a line, for clients that read only text
    lines = text_of(raw).splitlines()
    assert lines[0].startswith("1080x2400 screen,") and len(lines) == 1 + data_of(raw)["count"]
    assert f'#{display["n"]} text "Display" [{",".join(map(str, display["box"]))}]' in lines
    assert tapped["point"] == display["center"] and tapped["screen_changed"]
    assert "Dark theme" in phone.ui_tree()
    assert again.is_error and "call screen_elements again" in text_of(again)


def test_each_client_keeps_its_own_element_numbers(perception):
    """Two clients of one server (two agents on one HTTP server; MCP's requests carry no client
    identity): the second's listing, numbered differently (icons left out), does not renumber the
    first's. A number given with its listing taps that listing's element; a number without one, where
    the two lists disagree on it, is refused naming both; a gesture makes every list stale, since the
    screen is shared (issue 51, low item)."""
    phone = SimPhone()
    phone.launch("Settings")
    server = build_server(PhoneTools(phone, perception, ToolOptions(tree=False)))

    async def scenario():
        async with Client(server) as a, Client(server) as b:
            mine = data_of(await a.call_tool("screen_elements", {"icons": True}))
            theirs = data_of(await b.call_tool("screen_elements", {"icons": False}))
            display_a = next(e for e in mine["elements"] if e.get("text") == "Display")
            unnamed = await a.call_tool("tap_element", {"number": display_a["n"]})
            unknown = await a.call_tool("tap_element", {"number": display_a["n"], "listing": "L99"})
            tapped = data_of(await a.call_tool("tap_element", {"number": display_a["n"],
                                                               "listing": mine["listing"]}))
            stale = await b.call_tool("tap_element", {"number": 1, "listing": theirs["listing"]})
            return mine, theirs, display_a, unnamed, unknown, tapped, stale

    mine, theirs, display_a, unnamed, unknown, tapped, stale = run(scenario)
    assert mine["listing"] != theirs["listing"]
    display_b = next(e for e in theirs["elements"] if e.get("text") == "Display")
    # the two lists number "Display" differently: with the other's numbers, a would tap something else
    assert display_a["n"] != display_b["n"] and mine["count"] > theirs["count"]
    assert unnamed.is_error and "not the same in the element lists" in text_of(unnamed)
    assert mine["listing"] in text_of(unnamed) and theirs["listing"] in text_of(unnamed)
    assert unknown.is_error and "no element list 'L99'" in text_of(unknown)
    assert tapped["point"] == display_a["center"] and "Display" in tapped["done"]
    assert "Dark theme" in phone.ui_tree()
    # a's gesture changed the shared screen: b's numbers are refused as stale, not taken
    assert stale.is_error and "call screen_elements again" in text_of(stale)


def test_risky_tap_needs_confirm_and_allow_list(perception):
    phone = SimPhone()

    async def scenario():
        async with serve(phone, perception, allowed_apps=("Mail", "Settings")) as client:
            refused_app = await client.call_tool("open_app", {"name": "Shop"})
            data_of(await client.call_tool("open_app", {"name": "Mail"}))
            data_of(await client.call_tool("tap_text", {"text": "Compose"}))
            refused = await client.call_tool("tap_icon", {"description": "send"})
            screen_before = phone.ui_tree()
            confirmed = await client.call_tool("tap_icon", {"description": "send", "confirm": True})
            return refused_app, refused, screen_before, confirmed

    refused_app, refused, screen_before, confirmed = run(scenario)
    assert refused_app.is_error and "allow-list" in text_of(refused_app) and "Mail, Settings" in text_of(refused_app)
    assert refused.is_error and "confirm=true" in text_of(refused) and "sends" in text_of(refused)
    assert 'text="Compose"' in screen_before  # the refused tap did nothing
    assert not confirmed.is_error, text_of(confirmed)
    assert "tapped the icon" in data_of(confirmed)["done"]


def test_gestures_back_home_page_swipe_type_long_press(perception):
    phone = SimPhone()

    async def scenario():
        async with serve(phone, perception) as client:
            out = {}
            data_of(await client.call_tool("open_app", {"name": "Settings"}))
            out["page"] = data_of(await client.call_tool("page", {"direction": "down"}))
            out["swipe"] = data_of(await client.call_tool("swipe", {"direction": "down", "fraction": 0.8}))
            out["back"] = data_of(await client.call_tool("back", {}))
            out["fg_after_back"] = phone.state.foreground
            data_of(await client.call_tool("open_app", {"name": "Notes"}))
            out["press"] = data_of(await client.call_tool("long_press", {"text": "Notes", "duration_ms": 600}))
            out["home"] = data_of(await client.call_tool("home", {}))
            out["fg_after_home"] = phone.state.foreground
            small = image_of(await client.call_tool("screenshot", {"max_side": 480, "format": "png"}))
            out["small"] = small.size
            out["bad_side"] = await client.call_tool("screenshot", {"max_side": 3})
            out["jpeg"] = await client.call_tool("screenshot", {"format": "jpeg", "max_side": None})
            return out

    out = run(scenario)
    assert out["page"]["screen_changed"] and out["swipe"]["screen_changed"]
    assert out["fg_after_back"] is None  # Back from the Settings root leaves the app
    assert "for 600 ms" in out["press"]["done"]
    assert out["fg_after_home"] is None
    assert out["small"] == (216, 480)
    assert out["bad_side"].is_error and "greater than or equal to 64" in text_of(out["bad_side"])
    (jpeg,) = [c for c in out["jpeg"].content if c.type == "image"]
    assert jpeg.mime_type == "image/jpeg"
    decoded = Image.open(io.BytesIO(base64.b64decode(jpeg.data)))
    assert decoded.format == "JPEG" and decoded.size == (1080, 2400)


def test_type_text_reaches_the_focused_field(perception):
    phone = SimPhone()

    async def scenario():
        async with serve(phone, perception) as client:
            data_of(await client.call_tool("open_app", {"name": "Notes"}))
            data_of(await client.call_tool("tap_text", {"text": "New note"}))
            typed = data_of(await client.call_tool("type_text", {"text": "Groceries"}))
            listed = data_of(await client.call_tool("screen_elements", {"icons": False}))
            return typed, listed

    typed, listed = run(scenario)
    assert typed["screen_changed"] and "'Groceries'" in typed["done"]
    fields = [e for e in listed["elements"] if e["kind"] == "node" and e.get("class") == "EditText"]
    assert any(e.get("text") == "Groceries" for e in fields), fields
    # the line OCR reads is the field's text, listed once: as the node
    assert not any(e["kind"] == "text" and "Groceries" in e["text"] for e in listed["elements"])


STEPS = [
    "Observation: the home screen.\nThought: Settings holds the display options.\nAction: Open App (Settings)",
    "Observation: Settings.\nThought: open Display.\nAction: Click Text (Display)",
    "Observation: the Display page.\nThought: done.\nAction: Stop",
    "Verdict: complete\nReason: the Display page is shown",
]


def test_run_instruction_runs_the_agent_and_returns_its_folder(perception, tmp_path):
    phone = SimPhone()
    model = ScriptedChatModel(STEPS)

    async def scenario():
        async with serve(phone, perception, runs_dir=tmp_path, chat_model_factory=lambda: model) as client:
            return data_of(await client.call_tool("run_instruction", {"instruction": "Open the display settings",
                                                                     "max_steps": 5}))

    out = run(scenario)
    assert out["outcome"] == "completed" and out["completed"] and out["steps"] == 3, out
    folder = tmp_path / out["run_folder"].rsplit("/", 1)[-1]
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["outcome"] == "completed" and (folder / "report.html").exists()
    assert "Dark theme" in phone.ui_tree()


def test_run_instruction_stops_before_a_risky_step_and_outside_the_allow_list(perception, tmp_path):
    phone = SimPhone()
    risky = ScriptedChatModel([
        "Observation: home.\nThought: mail.\nAction: Open App (Mail)",
        "Observation: Mail.\nThought: compose.\nAction: Click Text (Compose)",
        "Observation: compose.\nThought: send it.\nAction: Click Icon (send, top)",
        "Answer: 0",  # where several icons look alike, the planner is asked to pick a mark
    ], cycle=True)
    outside = ScriptedChatModel(["Observation: home.\nThought: shop.\nAction: Open App (Shop)"])
    models = iter([risky, outside])

    async def scenario():
        async with serve(phone, perception, runs_dir=tmp_path, allowed_apps=("Mail",),
                         chat_model_factory=lambda: next(models)) as client:
            first = data_of(await client.call_tool("run_instruction", {"instruction": "Send an empty mail"}))
            second = data_of(await client.call_tool("run_instruction", {"instruction": "Buy something"}))
            return first, second

    first, second = run(scenario)
    assert first["outcome"] == "interrupted" and not first["completed"]
    assert "allow_risky=true" in first["error"] and "send" in first["error"]
    assert second["outcome"] == "error" and "allow-list" in second["error"], second
    assert phone.state.foreground != "Shop"


def test_the_gate_reads_the_screen_around_a_generic_answer():
    from mobile_agent.mcpserver import risk_of

    assert risk_of("OK", screen_texts=["Delete 3 messages?", "Cancel", "OK"]) is not None
    assert risk_of("OK", screen_texts=["Wi-Fi is on", "OK"]) is None
    assert risk_of("send", icon=True) is not None
    assert risk_of("Display", touched_text="Display") is None
    assert "Pay now" in (risk_of("Pay", touched_text="Pay now") or "")


def screen_elements(phone: SimPhone, perception: Perception):
    """The raw answer of the ``screen_elements`` tool on ``phone``'s screen."""

    async def scenario():
        async with serve(phone, perception) as client:
            return await client.call_tool("screen_elements", {})

    return run(scenario)


def test_screen_elements_mark_what_lies_behind_a_dialog(perception):
    # The simulated phone's permission dialog over Mail's inbox, its page dimmed by a scrim: the
    # dialog's buttons are listed as they are; the inbox's rows, title and menu, which a tap does
    # not reach, are marked behind the dialog (in the data and in the text answer).
    phone = SimPhone(disturbances=["permission"])
    phone.launch("Mail")
    raw = screen_elements(phone, perception)
    listed = data_of(raw)
    x1, y1, x2, y2 = listed["dialog"]
    assert 0 < x1 < x2 < 1080 and 300 < y1 < y2 < 2400
    by_text = {}
    for e in listed["elements"]:
        by_text.setdefault(e.get("text"), []).append(e)
    for own in ("Allow", "Don't allow"):
        assert by_text[own] and not any(e.get("behind_dialog") for e in by_text[own]), by_text.get(own)
    for page in ("Inbox", "anna.lee"):
        assert by_text[page] and all(e.get("behind_dialog") for e in by_text[page]), by_text.get(page)
    dialog_own = {"Allow Mail to send you notifications?", "You can change this later in Settings.", "Allow",
                  "Don't allow"}
    assert {e.get("text") for e in listed["elements"] if e.get("text") in dialog_own} == dialog_own
    for e in listed["elements"]:
        cx, cy = e["center"]
        # the system's navigation bar is drawn over the scrim: its Back works with a dialog up
        # (the tree's systemui nodes: the status bar's and the navigation bar's)
        system = e["kind"] == "node" and (e["box"][3] <= 63 or e["box"][1] >= 2274)
        if not (x1 <= cx < x2 and y1 <= cy < y2):
            assert e.get("behind_dialog", False) == (not system), e
        else:  # on the card: the dialog's own, or the page's rows (and the scrim) the tree draws under it
            assert e.get("behind_dialog", False) == (e.get("text") not in dialog_own), e
    assert [e["description"] for e in listed["elements"] if e.get("description") in ("Back", "Home", "Overview")
            and not e.get("behind_dialog")] == ["Back", "Home", "Overview"]
    lines = text_of(raw).splitlines()
    assert "A dialog is up at" in lines[0]
    assert any('"Inbox"' in l and l.split("[")[0].rstrip().endswith("behind-dialog") for l in lines), lines


def test_screen_elements_without_a_dialog_mark_nothing(perception):
    phone = SimPhone()
    phone.launch("Mail")
    raw = screen_elements(phone, perception)
    listed = data_of(raw)
    assert "dialog" not in listed and not any(e.get("behind_dialog") for e in listed["elements"])
    assert "behind-dialog" not in text_of(raw)


def test_tap_element_refuses_the_page_behind_a_dialog_unless_forced(perception):
    # tap_element on the inbox behind the permission dialog: a clear error naming the dialog, and
    # the phone untouched; the dialog's own button is tapped; force taps the page anyway (the tap
    # lands on the scrim, which is what a user's tap there does).
    phone = SimPhone(disturbances=["permission"])
    phone.launch("Mail")
    before = np.asarray(phone.screenshot()).copy()

    async def scenario():
        async with serve(phone, perception) as client:
            listed = data_of(await client.call_tool("screen_elements", {"icons": False}))
            inbox = next(e for e in listed["elements"] if e.get("text") == "Inbox")
            refused = await client.call_tool("tap_element", {"number": inbox["n"]})
            pressed = await client.call_tool("long_press", {"number": inbox["n"]})
            shot = image_of(await client.call_tool("screenshot", {"format": "png", "max_side": None}))
            forced = await client.call_tool("tap_element", {"number": inbox["n"], "force": True})
            return listed, inbox, refused, pressed, shot, forced

    listed, inbox, refused, pressed, shot, forced = run(scenario)
    assert inbox["behind_dialog"]
    for answer in (refused, pressed):
        assert answer.is_error
        message = text_of(answer)
        assert f"element {inbox['n']}" in message and '"Inbox"' in message, message
        assert "behind the dialog" in message and "Allow Mail to send you notifications?" in message, message
        assert "force" in message and "\n" not in message.strip(), message
    assert np.array_equal(np.asarray(shot), before)  # nothing was tapped
    assert not forced.is_error, text_of(forced)
    assert data_of(forced)["point"] == inbox["center"]


def test_tap_element_taps_the_dialogs_own_button(perception):
    phone = SimPhone(disturbances=["permission"])
    phone.launch("Mail")

    async def scenario():
        async with serve(phone, perception) as client:
            listed = data_of(await client.call_tool("screen_elements", {"icons": False}))
            allow = next(e for e in listed["elements"] if e.get("text") == "Allow" and e["kind"] == "node")
            # (confirm: the gate reads "send" in "Allow Mail to send you notifications?")
            tapped = data_of(await client.call_tool("tap_element", {"number": allow["n"], "confirm": True}))
            after = data_of(await client.call_tool("screen_elements", {"icons": False}))
            return allow, tapped, after

    allow, tapped, after = run(scenario)
    assert not allow.get("behind_dialog") and tapped["screen_changed"]
    assert "dialog" not in after and not any(e.get("text") == "Allow" for e in after["elements"])


def test_a_popup_menus_window_marks_and_refuses_the_page_behind_it(perception):
    # screen_elements with a popup menu up (no scrim; the dump is the menu's window): the page's
    # texts read by OCR are marked behind_dialog, the menu's nodes are not; tap_element refuses the
    # page's row, naming the menu by its first item, and taps the menu's own item.
    from tests.fakes.popupphone import PopupPhone

    phone = PopupPhone()

    async def scenario():
        async with serve(phone, perception) as client:
            listed = data_of(await client.call_tool("screen_elements", {"icons": False}))
            row = next(e for e in listed["elements"] if e.get("text") == "Weekly report")
            refused = await client.call_tool("tap_element", {"number": row["n"]})
            item = next(e for e in listed["elements"] if e.get("text") == "Go to album")
            tapped = await client.call_tool("tap_element", {"number": item["n"]})
            return listed, row, refused, item, tapped

    listed, row, refused, item, tapped = run(scenario)
    assert listed["dialog"] == list(phone.menu.as_tuple())
    assert row["kind"] == "text" and row["behind_dialog"]
    assert not item.get("behind_dialog")
    assert refused.is_error and '"Weekly report"' in text_of(refused) and '"Play next"' in text_of(refused)
    assert not tapped.is_error, text_of(tapped)
    assert phone.taps == [tuple(item["center"])]
