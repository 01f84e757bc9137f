"""The MCP server: :class:`~mobile_agent.mcpserver.tools.PhoneTools` published as MCP tools with the
official ``mcp`` SDK, over stdio or streamable HTTP.

Every tool error (bad arguments, nothing found on the screen, a refused risky tap, a device
failure) reaches the client as an MCP tool error (``isError: true``) carrying the same message
the CLI would print; the server itself keeps running.
"""

from __future__ import annotations

import io
import json
import logging
import os
import socket
import sys
from typing import Annotated, Any, Callable, Literal, Mapping

from mcp.types import CallToolResult
from pydantic import BeforeValidator, Field
from typing_extensions import NotRequired, Required, TypedDict

from mobile_agent import __version__
from mobile_agent.errors import MobileAgentError
from mobile_agent.mcpserver.tools import (
    KEYS, MAX_COORD, MAX_INSTRUCTION_CHARS, MAX_NAME_CHARS, MAX_RUN_STEPS, MAX_SIDE, MAX_TARGET_CHARS, MAX_TYPE_CHARS,
    MAX_URL_CHARS, MIN_SIDE, POSITION_WORDS, PhoneTools,
)
from mobile_agent.mcpserver.flowtool import MAX_FLOW_CHARS

log = logging.getLogger(__name__)

INSTRUCTIONS = """\
Operates Android phones (real ones over adb, or built-in simulated phones) the way a person would.
Look first: `screenshot` shows the screen (a JPEG of at most 1024 px by default; its note gives the
scale to screen pixels), `screen_elements` lists what is on it (ui tree nodes where the device has a
tree, text lines, icons), each with a number and a box in screen pixels. Then act: `open_app`,
`tap_text`, `tap_icon`, `tap_element` (a number from the last list), `tap` / `double_tap` /
`long_press` at x, y, `type_text` (tap the field first), `swipe`, `page`, `press_key`, `back`,
`home`, `launch_app` / `stop_app` by package, `open_url`. Each action says whether the screen changed.
Taps on what may send, pay, delete, install or sign out, and Enter, are refused until the call says
confirm=true: ask the user first. With several devices, `list_devices` names them and every tool
takes `device`.
`run_instruction` (with a model) may return outcome needs_user with a question: ask the user and
pass their words to `answer_user`.
"""
RUN_INSTRUCTION_LINE = "`run_instruction` hands a whole task to the phone agent and its own model.\n"

Position = Annotated[Literal[POSITION_WORDS] | None,  # type: ignore[valid-type]
                     Field(description="Where on the screen, when several match: one of top, bottom, left, "
                                       "right, center, or a vertical word with a horizontal one ('top right').")]
Confirm = Annotated[bool, Field(description="Set true only after the user agreed to an action the server "
                                            "refused as risky (send, pay, delete, install, sign out, Enter).")]
Force = Annotated[bool, Field(description="Set true to tap an element marked behind_dialog anyway (a tap on "
                                        "the page behind a dialog closes the dialog or does nothing).")]
def _no_bool(value: Any) -> Any:
    """A number argument given as true or false is refused (pydantic alone reads true as 1: a tap at x=1)."""
    if isinstance(value, bool):
        raise ValueError(f"a whole number of screen pixels, not {str(value).lower()}")
    return value


Pixel = BeforeValidator(_no_bool)
Coord = Annotated[int, Pixel, Field(ge=0, le=MAX_COORD, description="Screen pixels (the screenshot's coordinates "
                                                                    "divided by its scale).")]
Listing = Annotated[str | None, Field(max_length=20, description=(
    "The listing of the screen_elements answer the number comes from (its \"listing\", e.g. \"L3\"); "
    "left out: the newest list."))]
DeviceArg = Annotated[str | None, Field(max_length=100, description="Which device (a name from list_devices); "
                                                                    "may be left out when the server has one.")]


class Action(TypedDict, total=False):
    """What an action did."""

    done: Required[str]
    screen_changed: Required[bool]
    point: list[int]
    box: list[int]
    already_open: bool


# the schema of perception.elements.Element.to_json (a tree node also has "class"); no docstring:
# it would become the schema's description
class Element(TypedDict, total=False):
    n: Required[int]
    kind: Required[Literal["node", "text", "icon"]]
    box: Required[list[int]]
    center: Required[list[int]]
    text: str
    description: str
    id: str
    clickable: bool
    checkable: bool
    checked: bool
    scrollable: bool
    focused: bool
    selected: bool
    behind_dialog: bool  # on the page behind a dialog's scrim: a tap there does not reach it


class Elements(TypedDict):
    listing: str  # pass it with a number to tap_element / long_press: another client's list does not renumber it
    width: int
    height: int
    tree: Literal["read", "none", "off"]
    count: int
    elements: list[Element]
    dialog: NotRequired[list[int]]  # a dialog over a page its scrim dims: its box


class DeviceEntry(TypedDict):
    name: str
    kind: str
    width: int
    height: int


class Devices(TypedDict):
    count: int
    devices: list[DeviceEntry]


class Info(TypedDict, total=False):
    name: Required[str]
    kind: Required[str]
    width: Required[int]
    height: Required[int]
    orientation: Required[Literal["portrait", "landscape"]]
    capabilities: Required[list[str]]
    foreground: Required[str | None]
    model: str | None
    android: str | None


class App(TypedDict):
    name: str
    package: str


class Apps(TypedDict):
    count: int
    apps: list[App]
    foreground: str | None


class Front(TypedDict):
    app: str | None
    home: bool


class Question(TypedDict):
    kind: Literal["question", "take_over"]
    text: str
    step: int


class FlowStep(TypedDict):
    n: int
    step: str
    status: str
    reason: str


class FlowOutcome(TypedDict):
    """How a run_flow flow went: ``passed``, the failing step (``failure``), each step, the values
    its queries read, its model calls, its folder and HTML page."""

    passed: bool
    failure: str
    steps: list[FlowStep]
    values: dict[str, Any]
    model_calls: int
    folder: str
    report: str


class RunOutcome(TypedDict, total=False):
    """How a run ended (``outcome`` completed, step_limit...), or, with outcome ``needs_user``, the
    question it waits on (``question``, ``run_id`` for answer_user, ``next``)."""

    outcome: Required[str]
    completed: Required[bool]
    steps: int
    run_folder: str
    duration_s: float
    tokens: int
    error: str | None
    run_id: str
    question: Question
    next: str


def describe(fn: Callable[..., Any]) -> str:
    """A docstring as one paragraph: the line breaks and indentation of the source left out."""
    return " ".join((fn.__doc__ or "").split())


class Phones:
    """The devices of one server by name, each with its :class:`PhoneTools`."""

    def __init__(self, tools: PhoneTools | Mapping[str, PhoneTools]) -> None:
        if isinstance(tools, PhoneTools):
            tools = {tools.name: tools}
        if not tools:
            raise ValueError("a server needs at least one device")
        self.by_name: dict[str, PhoneTools] = dict(tools)

    @property
    def has_model(self) -> bool:
        return any(t.has_model for t in self.by_name.values())

    def pick(self, device: str | None) -> PhoneTools:
        from mobile_agent.errors import ConfigError

        names = list(self.by_name)
        if device is None or device == "":
            if len(names) == 1:
                return self.by_name[names[0]]
            raise ConfigError(f"this server has {len(names)} devices: say which with device (one of "
                              f"{', '.join(names)}; list_devices describes them)")
        found = self.by_name.get(device)
        if found is None:
            shown = device if len(device) <= 60 else device[:40] + "..."
            raise ConfigError(f"no device named {shown!r}: use one of {', '.join(names)}")
        return found

    def listing(self) -> dict[str, Any]:
        out = []
        for name, t in self.by_name.items():
            w, h = t.device.size()
            out.append({"name": name, "kind": "adb" if hasattr(t.device, "serial") else "sim", "width": w, "height": h})
        return {"count": len(out), "devices": out}


def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run one tool; our own errors become MCP tool errors (``isError``) whose text is the message,
    unchanged (raising the SDK's ToolError would prefix it with "Error executing tool ...")."""
    from mcp.types import CallToolResult, TextContent

    try:
        return fn(*args, **kwargs)
    except MobileAgentError as exc:
        log.info("tool %s refused: %s", getattr(fn, "__name__", fn), exc)
        return CallToolResult(content=[TextContent(type="text", text=str(exc))], is_error=True)


def _answer(result: Any, text: str | None = None) -> Any:
    """A tool's dict as structured content, with a compact text for clients that read text only
    (the SDK's default text is indented JSON, several times longer)."""
    from mcp.types import CallToolResult, TextContent

    if not isinstance(result, dict):  # a tool error already
        return result
    if text is None:
        text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=result)


def elements_text(listing: dict[str, Any]) -> str:
    """screen_elements as lines a model reads easily: ``#7 text "Display" [194,1902,334,1975]``."""
    lines = [f"{listing['width']}x{listing['height']} screen, {listing['count']} elements (ui tree: "
             f"{listing['tree']}), listing {listing['listing']}; pass a number to tap_element or long_press "
             "until the next gesture."]
    if listing.get("dialog"):
        lines[0] += (" A dialog is up at [" + ",".join(str(v) for v in listing["dialog"]) + "]: elements marked "
                     "behind-dialog lie on the page its scrim dims, where a tap closes the dialog or does nothing "
                     "(tap_element refuses them unless force).")
    for e in listing["elements"]:
        parts = [f"#{e['n']}", e["kind"]]
        if e["kind"] == "node":
            parts.append(e.get("class", ""))
        if e.get("text"):
            parts.append(json.dumps(e["text"], ensure_ascii=False))
        if e.get("description"):
            parts.append("desc=" + json.dumps(e["description"], ensure_ascii=False))
        if e.get("id"):
            parts.append(f"id={e['id']}")
        parts += [flag for flag in ("clickable", "scrollable", "focused", "selected") if e.get(flag)]
        if e.get("behind_dialog"):
            parts.append("behind-dialog")
        if "checked" in e:
            parts.append(f"checked={'true' if e['checked'] else 'false'}")
        parts.append("[" + ",".join(str(v) for v in e["box"]) + "]")
        lines.append(" ".join(p for p in parts if p))
    return "\n".join(lines)


def encode(img: Any, format: str = "jpeg") -> bytes:
    """The screenshot as the server sends it: JPEG 85, or PNG at the fastest compression level."""
    buf = io.BytesIO()
    if format == "jpeg":
        img.convert("RGB").save(buf, format="JPEG", quality=85)
    else:
        img.save(buf, format="PNG", optimize=False, compress_level=1)
    return buf.getvalue()


def build_server(tools: PhoneTools | Mapping[str, PhoneTools], name: str = "mobile-agent") -> Any:
    """An ``mcp.server.mcpserver.MCPServer`` whose tools call ``tools``: one :class:`PhoneTools`, or
    several by device name (every tool then takes ``device``). ``run_instruction`` is listed only
    when a device has a model."""
    from mcp.server.mcpserver import Image, MCPServer
    from mcp.types import ToolAnnotations

    phones = Phones(tools)
    instructions = INSTRUCTIONS + (RUN_INSTRUCTION_LINE if phones.has_model else "")
    server = MCPServer(name, instructions=instructions, version=__version__, log_level="WARNING")
    look = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
    act = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    risky = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=True)

    def tool(annotations: Any, **kw: Any) -> Callable[[Callable[..., Any]], Any]:
        def register(fn: Callable[..., Any]) -> Any:
            return server.tool(annotations=annotations, description=describe(fn), **kw)(fn)
        return register

    def on(device: str | None, method: str, *args: Any) -> Any:
        def go() -> Any:
            return getattr(phones.pick(device), method)(*args)
        go.__name__ = method
        return _answer(_call(go))

    @tool(look)
    def list_devices() -> Annotated[CallToolResult, Devices]:
        """The devices this server operates: name (pass it as device to the other tools), kind (sim
        or adb) and screen size in pixels."""
        return _answer(phones.listing())

    @tool(look)
    def device_info(device: DeviceArg = None) -> Annotated[CallToolResult, Info]:
        """One device: its kind, screen size and orientation, what it can do beyond taps and swipes,
        the model and Android version where it says, and the app in front."""
        return on(device, "device_info")

    @tool(look, structured_output=False)
    def screenshot(max_side: Annotated[int | None, Field(ge=MIN_SIDE, le=MAX_SIDE, description=(
                       "Scale the image down so its longest side is at most this many pixels; null: full "
                       "size."))] = 1024,
                   format: Annotated[Literal["jpeg", "png"], Field(description=(
                       "jpeg (default): quality 85, small and fast; png: exact pixels."))] = "jpeg",
                   device: DeviceArg = None) -> list[Any]:
        """The device's current screen as an image, with a line giving the screen's size and the
        image's scale. Coordinates in the other tools (x, y, boxes) are screen pixels: divide the
        image's coordinates by the scale."""
        def shot() -> Any:
            t = phones.pick(device)
            img = t.screenshot(max_side)
            w, h = t.device.size()
            return img, w, h

        got = _call(shot)
        if not isinstance(got, tuple):  # the tool error
            return got
        img, w, h = got
        scale = max(img.size) / max(w, h, 1)
        note = (f"screen {w}x{h} px; image {img.width}x{img.height} px, scale {scale:.4f} "
                f"(screen x = image x / {scale:.4f})" if img.size != (w, h) else f"screen {w}x{h} px (full size, scale 1)")
        return [Image(data=encode(img, format), format=format), note]

    @tool(look)
    def screen_elements(icons: Annotated[bool, Field(description="Also detect icons (slower).")] = True,
                        device: DeviceArg = None) -> Annotated[CallToolResult, Elements]:
        """What is on the screen, numbered from 1, each thing once: the ui tree's labelled or
        clickable nodes (kind "node", with class, id, clickable, checked...) where the device has a
        tree, text lines no node already names (kind "text"), and icons nothing else covers (kind
        "icon"). Each has a box [x1, y1, x2, y2] and a centre in screen pixels. Pass a number to
        tap_element or long_press; numbers hold until the next gesture. Where a dialog is up over a
        page its scrim dims, "dialog" gives its box and the page's elements are marked
        behind_dialog: a tap there closes the dialog or does nothing."""
        def listing() -> Any:
            return phones.pick(device).screen_elements(icons)

        got = _call(listing)
        return _answer(got, elements_text(got) if isinstance(got, dict) else None)

    @tool(risky)
    def tap_text(text: Annotated[str, Field(max_length=MAX_TARGET_CHARS,
                                            description="The text to tap, as it reads on the screen.")],
                 position: Position = None, confirm: Confirm = False,
                 device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Tap a text on the screen (a button, a list row, a link): the ui tree's text or
        content-desc where there is a tree, else the text read by OCR. Exact matches win over partial
        or close ones; when several places match, give a position or use screen_elements and
        tap_element. The error names the closest texts when nothing matches."""
        return on(device, "tap_text", text, position, confirm)

    @tool(risky)
    def tap_icon(description: Annotated[str, Field(max_length=MAX_TARGET_CHARS, description=(
                     "What the icon shows or does: search, settings gear, send, heart, back arrow, three "
                     "dots..."))],
                 position: Position = None, confirm: Confirm = False,
                 device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Tap an icon without text, found by its description and, optionally, its position. The
        gate judges the glyph found, not the words: a trash can is a trash can whatever it is called."""
        return on(device, "tap_icon", description, position, confirm)

    @tool(risky)
    def tap_element(number: Annotated[int, Field(ge=1, le=100_000, description=(
                        "The element's number in the last screen_elements answer."))],
                    confirm: Confirm = False, force: Force = False, listing: Listing = None,
                    device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Tap the centre of an element listed by screen_elements. Refused when a gesture was made
        since (the numbers may be stale: call screen_elements again), and for an element marked
        behind_dialog (a tap there closes the dialog or does nothing) unless force. Where several
        clients share this server, pass the listing your screen_elements answer gave."""
        return on(device, "tap_element", number, confirm, force, listing)

    @tool(risky)
    def tap(x: Coord, y: Coord, confirm: Confirm = False, device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Tap the point (x, y) in screen pixels. Refused without confirm when what lies there (a
        tree node's label, the text read there, the icon's glyph) sends, pays, deletes, installs or
        signs out."""
        return on(device, "tap", x, y, confirm)

    @tool(risky)
    def double_tap(x: Coord, y: Coord, confirm: Confirm = False,
                   device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Tap the point (x, y) twice in quick succession (zoom a map or a photo, like a post); gated
        as tap."""
        return on(device, "double_tap", x, y, confirm)

    @tool(risky)
    def long_press(text: Annotated[str | None, Field(max_length=MAX_TARGET_CHARS,
                                                     description="A text on the screen to press.")] = None,
                   number: Annotated[int | None, Field(ge=1, le=100_000, description=(
                       "Or: an element number from the last screen_elements answer."))] = None,
                   x: Annotated[int | None, Pixel, Field(ge=0, le=MAX_COORD, description="Or: a point's x.")] = None,
                   y: Annotated[int | None, Pixel, Field(ge=0, le=MAX_COORD, description="and its y.")] = None,
                   duration_ms: Annotated[int, Field(ge=100, le=10000, description="How long to hold.")] = 800,
                   confirm: Confirm = False, force: Force = False, listing: Listing = None,
                   device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Press and hold on a text, an element or a point (opens context menus, starts selection);
        gated as tap; an element behind a dialog is refused as by tap_element, unless force."""
        return on(device, "long_press", text, number, duration_ms, x, y, confirm, force, listing)

    @tool(act)
    def type_text(text: Annotated[str, Field(max_length=MAX_TYPE_CHARS, description="What to type.")],
                  enter: Annotated[bool, Field(description=(
                      "Press Enter afterwards (submit, search, send): refused without confirm."))] = False,
                  confirm: Confirm = False, device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Type into the focused text field. Tap the field first (tap_text or tap_element)."""
        return on(device, "type_text", text, enter, confirm)

    @tool(act)
    def press_key(key: Annotated[Literal[KEYS], Field(description=(  # type: ignore[valid-type]
                      "The key. enter may send or submit: refused without confirm."))],
                  confirm: Confirm = False, device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Press a key: enter, back, home, app_switch, volume_up, volume_down, volume_mute, delete,
        tab, escape, search or menu (the simulated phone has enter, back and home)."""
        return on(device, "press_key", key, confirm)

    @tool(act)
    def swipe(direction: Annotated[Literal["up", "down", "left", "right"], Field(description=(
                  "Which way the finger moves: up reveals what is below, left the next page."))],
              fraction: Annotated[float, Field(ge=0.1, le=0.9, description=(
                  "How far, as a part of the screen."))] = 0.5,
              x: Annotated[int | None, Pixel, Field(ge=0, le=MAX_COORD, description=(
                  "Start here instead of the middle (with y)."))] = None,
              y: Annotated[int | None, Pixel, Field(ge=0, le=MAX_COORD, description="The start's y.")] = None,
              distance: Annotated[int | None, Field(ge=1, le=MAX_COORD, description=(
                  "From a start point: how many pixels (default: fraction of the screen's side)."))] = None,
              confirm: Confirm = False, device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Swipe across the middle of the screen, or from a point (x, y) by a distance in pixels,
        stopping at the screen's edge. A swipe shorter than the touch slop (8 dp) is a tap where it
        starts: refused without confirm when what lies there is risky, as tap is."""
        return on(device, "swipe", direction, fraction, x, y, distance, confirm)

    @tool(act)
    def page(direction: Annotated[Literal["down", "up"], Field(description=(
                 "down: show what is below; up: what is above."))],
             device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Scroll the screen by most of a page (the agent's Page Down / Page Up)."""
        return on(device, "page", direction)

    @tool(act)
    def back(device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Press Back (close the keyboard, a dialog, or go to the previous screen)."""
        return on(device, "back")

    @tool(act)
    def home(device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Press Home: leave the app and show the home screen with the app icons."""
        return on(device, "home")

    @tool(act)
    def open_app(name: Annotated[str, Field(max_length=MAX_TARGET_CHARS, description=(
                     "The app's label on the home screen (Settings, Notes...), or on a real phone its "
                     "package name."))],
                 device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Open an app by its label, as a person does from the home screen. An app already in front is
        left as it is (already_open). Refused for apps outside the server's allow-list."""
        return on(device, "open_app", name)

    @tool(look)
    def list_apps(device: DeviceArg = None) -> Annotated[CallToolResult, Apps]:
        """The installed apps (name and package; over adb the package only) and the app in front."""
        return on(device, "list_apps")

    @tool(look)
    def current_app(device: DeviceArg = None) -> Annotated[CallToolResult, Front]:
        """The app in front (null on the home screen)."""
        return on(device, "current_app")

    @tool(act)
    def launch_app(package: Annotated[str, Field(max_length=MAX_NAME_CHARS, description=(
                       "The app's package, e.g. com.android.settings (list_apps lists them)."))],
                   device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Start an installed app by its package. Refused for apps outside the allow-list."""
        return on(device, "launch_app", package)

    @tool(act)
    def stop_app(package: Annotated[str, Field(max_length=MAX_NAME_CHARS, description=(
                     "The app's package."))],
                 device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Force-stop an app; if it was in front, the home screen shows."""
        return on(device, "stop_app", package)

    @tool(risky)
    def open_url(url: Annotated[str, Field(max_length=MAX_URL_CHARS, description=(
                     "An http or https URL."))],
                 device: DeviceArg = None) -> Annotated[CallToolResult, Action]:
        """Open a web address in the app that handles it (the browser)."""
        return on(device, "open_url", url)

    @tool(risky)
    def run_flow(flow: Annotated[str, Field(max_length=MAX_FLOW_CHARS, description=(
                     "A test flow's YAML, as a flow file holds it (docs/flows.md): name, app, steps of tap, "
                     "type, swipe, back, assertVisible, waitFor...; ai:, assert: and query: need the server's "
                     "--model."))],
                 allow_risky: Annotated[bool, Field(description=(
                     "Let the flow tap what sends, pays, deletes, installs or signs out (ask the user "
                     "first)."))] = False,
                 device: DeviceArg = None) -> Annotated[CallToolResult, FlowOutcome]:
        """Run a test flow on the phone and say whether it passed: each step's status and reason, the
        failing step, the values its queries read, and the folder with flow.json and report.html.
        Every tap goes through the same confirm gate and allow-list as tap; a refused one fails its
        step. A flow that cannot be run as written is refused naming its line."""
        return on(device, "run_flow", flow, allow_risky)

    if phones.has_model:
        @tool(risky)
        def run_instruction(instruction: Annotated[str, Field(max_length=MAX_INSTRUCTION_CHARS,
                                                              description="The task in words, e.g. 'Turn on "
                                                                          "the dark mode'.")],
                            max_steps: Annotated[int, Field(ge=1, le=MAX_RUN_STEPS, description="Step limit.")] = 20,
                            allow_risky: Annotated[bool, Field(description=(
                                "Let the agent carry out operations that send, pay, delete, install or sign "
                                "out (ask the user first)."))] = False,
                            device: DeviceArg = None) -> Annotated[CallToolResult, RunOutcome]:
            """Hand a whole task to the phone agent, which plans each step with its own model (set
            when the server started), grounds it and checks the result. Returns the outcome
            (completed, step_limit, loop, interrupted, error...) and the run folder with the
            trajectory and its HTML report. Takes as long as the run does. When the agent needs the
            user (a question only they can answer, or a sign-in to do by hand), it returns outcome
            needs_user with the question and a run_id: ask the user, then call answer_user."""
            return on(device, "run_instruction", instruction, max_steps, allow_risky)

        @tool(risky)
        def answer_user(run_id: Annotated[str, Field(max_length=MAX_NAME_CHARS, description=(
                            "The run_id of the run_instruction answer that asked (outcome needs_user)."))],
                        answer: Annotated[str, Field(max_length=MAX_INSTRUCTION_CHARS, description=(
                            "The user's answer in their words (for a take-over: done, once they did it on "
                            "the phone)."))] = "",
                        give_up: Annotated[bool, Field(description=(
                            "The user will not answer: the run ends needs_user."))] = False,
                        device: DeviceArg = None) -> Annotated[CallToolResult, RunOutcome]:
            """Answer the question of a run_instruction run that is waiting for the user, and let it
            go on. Returns as run_instruction does: how the run ended, or its next question."""
            return on(device, "answer_user", run_id, answer, give_up)

    return server


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve_stdio(server: Any) -> None:
    """Serve on stdin/stdout until stdin ends (the client closed it) or Ctrl-C (SIGINT).

    Ctrl-C ends the process at once with status 0: the SDK reads stdin in a worker thread that no
    signal can wake and that the event loop waits for, so an orderly shutdown would wait for the
    next line forever. Nothing is lost: every tool's effects are on the phone, and a run of
    run_instruction writes each step as it ends.
    """
    import signal

    import anyio

    def stop(signum: int, frame: Any) -> None:
        stderr_line("interrupted: the MCP server stops")
        os._exit(0)

    previous = signal.signal(signal.SIGINT, stop)
    try:
        anyio.run(_stdio_answering_in_flight, server)
    finally:
        signal.signal(signal.SIGINT, previous)


async def _stdio_answering_in_flight(server: Any) -> None:
    """The SDK's stdio serving (``run_stdio_async``), except that the end of stdin ends the session
    only once every request read before it is answered: a client that sends its last call and closes
    its end of the pipe (``printf ... | mobile-agent mcp``) gets that call's answer (the SDK alone
    cancels the calls in flight at EOF and exits without a word)."""
    import anyio
    from mcp.server.stdio import stdio_server
    from mcp_types import JSONRPCError, JSONRPCRequest, JSONRPCResponse

    lowlevel = server._lowlevel_server  # what run_stdio_async runs (the SDK is pinned)
    pending: set[Any] = set()
    answered = anyio.Event()
    async with stdio_server() as (read_stream, write_stream):
        to_server, from_client = anyio.create_memory_object_stream[Any](16)
        to_client, from_server = anyio.create_memory_object_stream[Any](16)

        async def read() -> None:
            nonlocal answered
            async with to_server:
                async for message in read_stream:
                    if isinstance(getattr(message, "message", None), JSONRPCRequest):
                        pending.add(message.message.id)
                    await to_server.send(message)
                while pending:  # stdin ended: answer what was asked, then end the session
                    answered = anyio.Event()
                    await answered.wait()

        async def write() -> None:
            async with write_stream:  # closed when the server is done: stdio_server's writer then ends
                try:
                    async for message in from_server:
                        await write_stream.send(message)
                        if isinstance(getattr(message, "message", None), (JSONRPCResponse, JSONRPCError)):
                            pending.discard(message.message.id)
                            answered.set()
                except (anyio.BrokenResourceError, anyio.ClosedResourceError):  # stdout gone: no one to answer
                    pending.clear()
                    answered.set()

        async with anyio.create_task_group() as tg:
            tg.start_soon(read)
            tg.start_soon(write)
            async with to_client:
                await lowlevel.run(from_client, to_client, lowlevel.create_initialization_options())


def serve_http(server: Any, sock: socket.socket, ready: Callable[[str], None] | None = None,
               path: str = "/mcp", token: str | None = None) -> None:
    """Serve streamable HTTP on an already bound socket until Ctrl-C; ``ready(url)`` once listening.
    Every request passes :class:`~mobile_agent.mcpserver.httpguard.HttpGuard` first (``Host`` on a
    loopback address, ``Origin``, and the bearer ``token`` where one is given)."""
    import anyio
    import uvicorn

    from mobile_agent.mcpserver.httpguard import HttpGuard

    host, port = sock.getsockname()[:2]
    app = HttpGuard(server.streamable_http_app(streamable_http_path=path, host=host), host, port, token)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    userver = uvicorn.Server(config)

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(userver.serve, [sock])
            while not userver.started:
                await anyio.sleep(0.02)
                if userver.should_exit:
                    return
            if ready is not None:
                shown = f"[{host}]" if ":" in host else host
                ready(f"http://{shown}:{port}{path}")

    anyio.run(main)


def stderr_line(text: str) -> None:
    """One line on stderr (stdout belongs to the protocol on stdio)."""
    print(text, file=sys.stderr, flush=True)
