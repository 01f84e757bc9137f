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
from typing import Annotated, Any, Callable, Literal

from pydantic import Field

from mobile_agent import __version__
from mobile_agent.errors import MobileAgentError
from mobile_agent.mcpserver.tools import PhoneTools

log = logging.getLogger(__name__)

INSTRUCTIONS = """\
Operates an Android phone (a real one over adb, or the built-in simulated phone) the way a person
would. Look first: `screenshot` shows the screen, `screen_elements` lists what is on it (text lines,
icons and, where the device has one, ui tree nodes), each with a number and a box. Then act:
`open_app`, `tap_text`, `tap_icon`, `tap_element` (a number from the last list), `type_text` (tap the
field first), `swipe`, `page`, `back`, `home`, `long_press`. Each action says whether the screen
changed. Taps that may send, pay, delete, install or sign out are refused until the call says confirm=true:
ask the user first. `run_instruction` hands a whole task to the phone agent and its own model; when
that agent needs the user it returns outcome needs_user with a question: ask the user and pass their
words to `answer_user`.
"""

Position = Annotated[str | None, Field(description="Where on the screen, when several match: top, bottom, "
                                                    "left, right, center, or a pair such as 'top right'.")]
Confirm = Annotated[bool, Field(description="Set true only after the user agreed to a tap the server refused "
                                            "as risky (send, pay, delete, install, sign out).")]


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
             f"{listing['tree']}); pass a number to tap_element or long_press until the next gesture."]
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
        if "checked" in e:
            parts.append(f"checked={'true' if e['checked'] else 'false'}")
        parts.append("[" + ",".join(str(v) for v in e["box"]) + "]")
        lines.append(" ".join(p for p in parts if p))
    return "\n".join(lines)


def encode(img: Any, format: str = "png") -> bytes:
    """The screenshot as the server sends it: PNG at the fastest compression level, or JPEG 85."""
    buf = io.BytesIO()
    if format == "jpeg":
        img.convert("RGB").save(buf, format="JPEG", quality=85)
    else:
        img.save(buf, format="PNG", optimize=False, compress_level=1)
    return buf.getvalue()


def build_server(tools: PhoneTools, name: str = "mobile-agent") -> Any:
    """An ``mcp.server.mcpserver.MCPServer`` whose tools call ``tools``."""
    from mcp.server.mcpserver import Image, MCPServer
    from mcp.types import ToolAnnotations

    server = MCPServer(name, instructions=INSTRUCTIONS, version=__version__, log_level="WARNING")
    look = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
    act = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    risky = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=True)

    @server.tool(annotations=look, structured_output=False)
    def screenshot(max_side: Annotated[int | None, Field(description="Scale the image down so its longest side "
                                                                       "is at most this many pixels (64 or more); "
                                                                       "default: full size.")] = None,
                   format: Annotated[Literal["png", "jpeg"],
                                     Field(description="png: exact pixels (default); jpeg: quality 85, "
                                                       "smaller and several times faster to encode.")] = "png"
                   ) -> list[Any]:
        """The phone's current screen as an image, and its size. Coordinates in the other tools'
        answers are in full-size screenshot pixels."""
        img = _call(tools.screenshot, max_side)
        if not hasattr(img, "size"):  # the tool error
            return img
        w, h = tools.device.size()
        note = f"screen {w}x{h} px" + (f" (image scaled to {img.width}x{img.height})" if img.size != (w, h) else "")
        return [Image(data=encode(img, format), format=format), note]

    @server.tool(annotations=look)
    def screen_elements(icons: Annotated[bool, Field(description="Also detect icons (slower).")] = True) -> dict[str, Any]:
        """What is on the screen, numbered from 1: text lines read by OCR (kind "text"), icons
        (kind "icon") and, where the device gives a ui tree, its labelled or clickable nodes (kind
        "node", with class, id, clickable, checked...). Each has a box [x1, y1, x2, y2] and a centre
        in screen pixels. Pass a number to tap_element or long_press; numbers hold until the next
        gesture."""
        listing = _call(tools.screen_elements, icons)
        return _answer(listing, elements_text(listing) if isinstance(listing, dict) else None)

    @server.tool(annotations=risky)
    def tap_text(text: Annotated[str, Field(description="The text to tap, as it reads on the screen.")],
                 position: Position = None, confirm: Confirm = False) -> dict[str, Any]:
        """Tap a text on the screen (a button, a list row, a link). Exact matches win over partial or
        close ones; when several places match, give a position or use screen_elements and
        tap_element. The error names the closest texts on the screen when nothing matches."""
        return _answer(_call(tools.tap_text, text, position, confirm))

    @server.tool(annotations=risky)
    def tap_icon(description: Annotated[str, Field(description="What the icon shows or does: search, settings "
                                                               "gear, send, heart, back arrow, three dots...")],
                 position: Position = None, confirm: Confirm = False) -> dict[str, Any]:
        """Tap an icon without text, found by its description and, optionally, its position."""
        return _answer(_call(tools.tap_icon, description, position, confirm))

    @server.tool(annotations=risky)
    def tap_element(number: Annotated[int, Field(description="The element's number in the last "
                                                             "screen_elements answer.")],
                    confirm: Confirm = False) -> dict[str, Any]:
        """Tap the centre of an element listed by the last screen_elements call. Refused when a
        gesture was made since (the numbers may be stale: call screen_elements again)."""
        return _answer(_call(tools.tap_element, number, confirm))

    @server.tool(annotations=act)
    def long_press(text: Annotated[str | None, Field(description="A text on the screen to press.")] = None,
                   number: Annotated[int | None, Field(description="Or: an element number from the last "
                                                                   "screen_elements answer.")] = None,
                   duration_ms: Annotated[int, Field(description="How long to hold, 100..10000 ms.")] = 800
                   ) -> dict[str, Any]:
        """Press and hold on a text or an element (opens context menus, starts selection)."""
        return _answer(_call(tools.long_press, text, number, duration_ms))

    @server.tool(annotations=act)
    def type_text(text: Annotated[str, Field(description="What to type (at most 2000 characters).")],
                  enter: Annotated[bool, Field(description="Press Enter afterwards (submit, search).")] = False
                  ) -> dict[str, Any]:
        """Type into the focused text field. Tap the field first (tap_text or tap_element)."""
        return _answer(_call(tools.type_text, text, enter))

    @server.tool(annotations=act)
    def swipe(direction: Annotated[Literal["up", "down", "left", "right"],
                                   Field(description="Which way the finger moves: up reveals what is below, "
                                                     "left the next page.")],
              fraction: Annotated[float, Field(description="How far, as a part of the screen, 0.1..0.9.")] = 0.5
              ) -> dict[str, Any]:
        """Swipe across the middle of the screen."""
        return _answer(_call(tools.swipe, direction, fraction))

    @server.tool(annotations=act)
    def page(direction: Annotated[Literal["down", "up"],
                                  Field(description="down: show what is below; up: what is above.")]
             ) -> dict[str, Any]:
        """Scroll the screen by most of a page (the agent's Page Down / Page Up)."""
        return _answer(_call(tools.page, direction))

    @server.tool(annotations=act)
    def back() -> dict[str, Any]:
        """Press Back (close the keyboard, a dialog, or go to the previous screen)."""
        return _answer(_call(tools.back))

    @server.tool(annotations=act)
    def home() -> dict[str, Any]:
        """Press Home: leave the app and show the home screen with the app icons."""
        return _answer(_call(tools.home))

    @server.tool(annotations=act)
    def open_app(name: Annotated[str, Field(description="The app's label on the home screen (Settings, "
                                                        "Notes...), or on a real phone its package name.")]
                 ) -> dict[str, Any]:
        """Go to the home screen and open an app. Refused for apps outside the server's allow-list."""
        return _answer(_call(tools.open_app, name))

    @server.tool(annotations=risky)
    def run_instruction(instruction: Annotated[str, Field(description="The task in words, e.g. 'Turn on the "
                                                                      "dark mode'.")],
                        max_steps: Annotated[int, Field(description="Step limit, 1..50.")] = 20,
                        allow_risky: Annotated[bool, Field(description="Let the agent carry out operations "
                                                                       "that send, pay, delete, install or sign out "
                                                                       "(ask the user first).")] = False
                        ) -> dict[str, Any]:
        """Hand a whole task to the phone agent, which plans each step with its own model (set when
        the server started), grounds it and checks the result. Returns the outcome (completed,
        step_limit, loop, interrupted, error...) and the run folder with the trajectory and its
        HTML report. Takes as long as the run does. When the agent needs the user (a question only
        they can answer, or a sign-in to do by hand), it returns outcome needs_user with the
        question and a run_id: ask the user, then call answer_user."""
        return _answer(_call(tools.run_instruction, instruction, max_steps, allow_risky))

    @server.tool(annotations=risky)
    def answer_user(run_id: Annotated[str, Field(description="The run_id of the run_instruction answer that "
                                                             "asked (outcome needs_user).")],
                    answer: Annotated[str, Field(description="The user's answer in their words (for a "
                                                             "take-over: done, once they did it on the "
                                                             "phone).")] = "",
                    give_up: Annotated[bool, Field(description="The user will not answer: the run ends "
                                                               "needs_user.")] = False
                    ) -> dict[str, Any]:
        """Answer the question of a run_instruction run that is waiting for the user, and let it go
        on. Returns as run_instruction does: how the run ended, or its next question."""
        return _answer(_call(tools.answer_user, run_id, answer, give_up))

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
        anyio.run(server.run_stdio_async)
    finally:
        signal.signal(signal.SIGINT, previous)


def serve_http(server: Any, sock: socket.socket, ready: Callable[[str], None] | None = None,
               path: str = "/mcp") -> None:
    """Serve streamable HTTP on an already bound socket until Ctrl-C; ``ready(url)`` once listening."""
    import anyio
    import uvicorn

    host, port = sock.getsockname()[:2]
    app = server.streamable_http_app(streamable_http_path=path, host=host)
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
