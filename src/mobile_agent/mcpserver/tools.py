"""The phone tools behind the MCP server, callable in-process: one :class:`PhoneTools` over a
:class:`~mobile_agent.device.base.Device` and a :class:`~mobile_agent.perception.Perception`.

Each method checks its arguments, acts, and returns plain data (a dict, or a PIL image for the
screenshot). A user mistake or a refusal raises a :class:`~mobile_agent.errors.MobileAgentError`
whose message says what was wrong and what to do; the MCP server hands that message to the client
as a tool error, word for word, as the CLI prints it.

```python
from mobile_agent.device import open_device
from mobile_agent.mcpserver import PhoneTools
tools = PhoneTools(open_device("sim"))
tools.open_app("Settings")
tools.tap_text("Display")
[e["text"] for e in tools.screen_elements()["elements"] if e["kind"] == "text"]
```
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Sequence

from PIL import Image

from mobile_agent.device.base import device_capabilities
from mobile_agent.device.gestures import LongPress, Swipe
from mobile_agent.errors import ConfigError, MobileAgentError

#: Longest texts the tools take (a longer one is refused with a message, never truncated silently).
MAX_TARGET_CHARS = 300
MAX_TYPE_CHARS = 2000
MAX_INSTRUCTION_CHARS = 2000
MAX_RUN_STEPS = 50
#: Gestures on the simulated phone and most real ones take this long to count as a long press.
LONG_PRESS_MS = 800

_DIRECTIONS = ("up", "down", "left", "right")


class RefusedError(MobileAgentError):
    """The server declines a call by its own rules: a risky tap not confirmed, an app not allowed."""


def _check_text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{what} must be a string, got {type(value).__name__}")
    if not value.strip():
        raise ConfigError(f"{what} is empty: say what to use")
    if len(value) > limit:
        raise ConfigError(f"{what} is {len(value)} characters long; at most {limit} are taken")
    return value


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "run"


def risk_of(target: str, *, icon: bool = False, touched_text: str | None = None,
            screen_texts: Sequence[str] = (), rules: Any = None) -> str | None:
    """Why tapping ``target`` looks risky, or ``None``: the one place the server's confirm gate asks.

    ``target`` is the text tapped (or, with ``icon``, the icon's description); ``touched_text`` the
    text read where the tap lands; ``screen_texts`` the screen's other lines (a generic "OK" is
    risky under "Delete 3 messages?"). The decision is the agent's ``--confirm`` rule
    (:func:`mobile_agent.agent.risk.assess`), with the user's confirm-words file where there is one.
    """
    from mobile_agent.agent.operations import ClickIcon, ClickText
    from mobile_agent.agent.risk import assess

    op = ClickIcon(target) if icon else ClickText(target)
    decision = assess(op, touched_text=touched_text, screen_text=list(screen_texts), rules=rules)
    return decision.why if decision.risky else None


@dataclass
class ToolOptions:
    """How the tools behave. ``confirm``: risky taps need ``confirm=True`` in the call.
    ``allowed_apps``: when not empty, the only apps open_app and run_instruction may open.
    ``tree``: screen_elements also lists the device's ui tree nodes (where it has a tree).
    ``model``: the model spec run_instruction uses (``gpt-4o``, ``scripted:FILE``...), with
    ``base_url`` and ``api_key_env``; ``runs_dir``: where run folders go. ``ask``: the agent of
    run_instruction may ask the user (Ask User, Take Over): the question comes back to the client
    as the tool's result (outcome ``needs_user``) and :meth:`PhoneTools.answer_user` answers it."""

    confirm: bool = True
    allowed_apps: tuple[str, ...] = ()
    tree: bool = True
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    runs_dir: Path = field(default_factory=lambda: Path("runs"))
    device_name: str = ""
    ask: bool = True


class _Run:
    """A run_instruction run on its own thread, which may stop to ask the user: ``question`` is
    the request waiting for an answer, ``result`` the run's end; ``changed`` wakes the tool call
    waiting for either, ``answered`` the run waiting for the answer."""

    def __init__(self, run_id: str) -> None:
        self.id = run_id
        self.question: Any = None
        self.answer: str | None = None
        self.result: Any = None
        self.failure: BaseException | None = None
        self.declined: list[str] = []
        self.changed = threading.Event()
        self.answered = threading.Event()
        self.thread: threading.Thread | None = None


class PhoneTools:
    """The MCP server's tools as Python methods, over one device. Thread-safe: calls run one at a time."""

    def __init__(self, device: Any, perception: Any = None, options: ToolOptions | None = None,
                 chat_model_factory: Callable[[], Any] | None = None) -> None:
        if perception is None:
            from mobile_agent.perception import Perception

            perception = Perception()
        self.device = device
        self.perception = perception
        self.options = options or ToolOptions()
        self._chat_model_factory = chat_model_factory
        self._lock = threading.RLock()
        self._gestures = 0
        self._elements: list[dict[str, Any]] | None = None
        self._elements_at = -1
        self._rules: Any = None
        self._waiting: _Run | None = None  # a run_instruction run waiting for the user's answer
        self._runs = 0

    # ------------------------------------------------------------------------------ looking
    def screenshot(self, max_side: int | None = None) -> Image.Image:
        """The current screen (RGB), scaled down so that its longest side is at most ``max_side``."""
        if max_side is not None and (not isinstance(max_side, int) or max_side < 64):
            raise ConfigError(f"max_side must be a whole number of at least 64 pixels, got {max_side!r}")
        with self._lock:
            img = self.device.screenshot()
        if max_side is not None and max(img.size) > max_side:
            scale = max_side / max(img.size)
            img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))),
                             Image.Resampling.LANCZOS)
        return img

    def screen_elements(self, icons: bool = True) -> dict[str, Any]:
        """Everything found on the screen, numbered from 1 for :meth:`tap_element`: text lines (OCR),
        icons (detector), and the ui tree's labelled or clickable nodes where the device has a tree."""
        with self._lock:
            img = self.device.screenshot()
            res = self.perception.parse(img, icons=icons)
            elements: list[dict[str, Any]] = []

            def add(kind: str, box: Any, **extra: Any) -> None:
                c = box.center
                elements.append({"n": len(elements) + 1, "kind": kind, **extra,
                                 "box": list(box.as_tuple()), "center": [int(c.x), int(c.y)]})

            for line in res.lines:
                add("text", line.box, text=line.text)
            for ic in res.icons or []:
                add("icon", ic.box, score=round(float(ic.score), 3))
            tree = "none"
            if self.options.tree:
                nodes = self._tree_nodes()
                if nodes is not None:
                    tree = "read"
                    for node in nodes:
                        extra: dict[str, Any] = {"text": node.text} if node.text else {}
                        if node.desc:
                            extra["description"] = node.desc
                        extra["class"] = node.cls.rsplit(".", 1)[-1]
                        if node.rid:
                            extra["id"] = node.rid
                        for flag in ("clickable", "checkable", "scrollable", "focused", "selected"):
                            if getattr(node, flag):
                                extra[flag] = True
                        if node.checkable:
                            extra["checked"] = node.checked
                        add("node", node.bounds, **extra)
            else:
                tree = "off"
            self._elements, self._elements_at = elements, self._gestures
            w, h = img.size
            return {"width": w, "height": h, "tree": tree, "count": len(elements), "elements": elements}

    def _tree_nodes(self) -> list[Any] | None:
        from mobile_agent.device.uitree import parse_tree

        get = getattr(self.device, "ui_tree", None)
        if not callable(get):
            return None
        try:
            xml = get()
        except MobileAgentError:
            return None
        if not xml:
            return None
        try:
            nodes = parse_tree(xml)
        except ValueError:
            return None
        return [n for n in nodes if not n.bounds.is_empty() and (n.text or n.desc or n.clickable or n.checkable
                                                               or n.scrollable)]

    # ------------------------------------------------------------------------------ tapping
    def tap_text(self, text: str, position: str | None = None, confirm: bool = False) -> dict[str, Any]:
        """Tap the text ``text`` on the screen (OCR; exact, then contained, then close matches).
        ``position`` (top, bottom, left, right, center, or a pair) picks among several."""
        text = _check_text(text, "the text to tap", MAX_TARGET_CHARS)
        with self._lock:
            img = self.device.screenshot()
            g = self.perception.ground_text(img, text, position=position or ())
            return self._tap_grounding(g, img, f'"{text}"', text, confirm)

    def tap_icon(self, description: str, position: str | None = None, confirm: bool = False) -> dict[str, Any]:
        """Tap the icon that ``description`` names (``search``, ``send``, ``back arrow``...), optionally
        in the part of the screen ``position`` names."""
        description = _check_text(description, "the icon description", MAX_TARGET_CHARS)
        with self._lock:
            img = self.device.screenshot()
            g = self.perception.ground_icon(img, description, position=position or ())
            return self._tap_grounding(g, img, f'the icon "{description}"', description, confirm, icon=True)

    def tap_element(self, number: int, confirm: bool = False) -> dict[str, Any]:
        """Tap the centre of element ``number`` of the last :meth:`screen_elements` list."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise ConfigError(f"the element number must be a whole number, got {number!r}")
        with self._lock:
            if self._elements is None:
                raise ConfigError("no element list yet: call screen_elements first, then tap_element with a number from it")
            if self._elements_at != self._gestures:
                raise ConfigError("the screen may have changed since screen_elements (a gesture was made since): "
                                  "call screen_elements again for current numbers")
            if not 1 <= number <= len(self._elements):
                raise ConfigError(f"there is no element {number} on the screen: the last screen_elements list "
                                  f"has {len(self._elements)} element(s), numbered 1..{len(self._elements)}")
            el = self._elements[number - 1]
            label = el.get("text") or el.get("description") or ""
            self._gate(label, confirm, touched_text=label,
                       screen_texts=[e["text"] for e in self._elements if e["kind"] == "text"])
            x, y = el["center"]
            before = self.device.screenshot()
            self.device.tap(x, y)
            what = f'element {number} ({el["kind"]}{": " + repr(label) if label else ""})'
            return self._after(before, f"tapped {what} at ({x}, {y})", point=[x, y])

    def long_press(self, text: str | None = None, number: int | None = None,
                   duration_ms: int = LONG_PRESS_MS) -> dict[str, Any]:
        """Press and hold on a text on the screen, or on element ``number`` of the last list."""
        if (text is None) == (number is None):
            raise ConfigError("long_press needs exactly one of text (a text on the screen) or number (an element)")
        if isinstance(duration_ms, bool) or not isinstance(duration_ms, int) or not 100 <= duration_ms <= 10000:
            raise ConfigError(f"duration_ms must be a whole number of milliseconds in 100..10000, got {duration_ms!r}")
        with self._lock:
            if text is not None:
                text = _check_text(text, "the text to press", MAX_TARGET_CHARS)
                img = self.device.screenshot()
                g = self.perception.ground_text(img, text)
                if not g.found:
                    raise ConfigError(g.message or f'"{text}" is not on the screen')
                x, y = int(g.point.x), int(g.point.y)
                what = f'"{text}"'
            else:
                if self._elements is None or self._elements_at != self._gestures:
                    raise ConfigError("call screen_elements first (again, after a gesture), then pass a number from it")
                if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self._elements):
                    raise ConfigError(f"there is no element {number} on the screen: the last screen_elements list "
                                      f"has {len(self._elements)} element(s), numbered 1..{len(self._elements)}")
                x, y = self._elements[number - 1]["center"]
                what = f"element {number}"
            before = self.device.screenshot()
            self._long_press(x, y, duration_ms)
            return self._after(before, f"pressed {what} at ({x}, {y}) for {duration_ms} ms", point=[x, y])

    def _long_press(self, x: int, y: int, duration_ms: int) -> None:
        if "long_press" in device_capabilities(self.device):
            LongPress(x, y, duration_ms).perform(self.device)
        else:  # a swipe that does not move is a press on Android
            Swipe(x, y, x, y, duration_ms).perform(self.device)

    # ------------------------------------------------------------------------------ other gestures
    def type_text(self, text: str, enter: bool = False) -> dict[str, Any]:
        """Type into the focused field (tap the field first); ``enter`` presses Enter after it."""
        text = _check_text(text, "the text to type", MAX_TYPE_CHARS)
        with self._lock:
            before = self.device.screenshot()
            self.device.type_text(text + ("\n" if enter else ""))
            return self._after(before, f"typed {text!r}" + (" and pressed Enter" if enter else ""))

    def swipe(self, direction: str, fraction: float = 0.5) -> dict[str, Any]:
        """Move the finger across the screen's middle: ``up`` moves it upwards (the content scrolls
        down, showing what is below), ``left`` to the left (the next page). ``fraction``: how far,
        as a part of the content band (0.1..0.9; the band leaves out the top and bottom fifth of the
        screen, where bars take the gesture, and a tenth at each side)."""
        d = str(direction).strip().lower()
        if d not in _DIRECTIONS:
            raise ConfigError(f"unknown direction {direction!r}: use up, down, left or right")
        if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0.1 <= fraction <= 0.9:
            raise ConfigError(f"fraction must be a number in 0.1..0.9, got {fraction!r}")
        with self._lock:
            w, h = self.device.size()
            cx, cy, dx, dy = w // 2, h // 2, int(w * 0.8 * fraction / 2), int(h * 0.6 * fraction / 2)
            x1, y1, x2, y2 = {"up": (cx, cy + dy, cx, cy - dy), "down": (cx, cy - dy, cx, cy + dy),
                              "left": (cx + dx, cy, cx - dx, cy), "right": (cx - dx, cy, cx + dx, cy)}[d]
            before = self.device.screenshot()
            self.device.swipe(x1, y1, x2, y2, 400)
            return self._after(before, f"swiped {d} from ({x1}, {y1}) to ({x2}, {y2})")

    def page(self, direction: str) -> dict[str, Any]:
        """The agent's Page Down (``down``: show what is below) or Page Up (``up``)."""
        d = str(direction).strip().lower()
        if d not in ("up", "down"):
            raise ConfigError(f"unknown page direction {direction!r}: use down (show what is below) or up")
        with self._lock:
            w, h = self.device.size()
            y_from, y_to = (int(h * 0.7), int(h * 0.3)) if d == "down" else (int(h * 0.3), int(h * 0.7))
            before = self.device.screenshot()
            self.device.swipe(w // 2, y_from, w // 2, y_to, 400)
            return self._after(before, f"paged {d}")

    def back(self) -> dict[str, Any]:
        """Press Back."""
        with self._lock:
            before = self.device.screenshot()
            self.device.back()
            return self._after(before, "pressed Back")

    def home(self) -> dict[str, Any]:
        """Press Home (go to the home screen)."""
        with self._lock:
            before = self.device.screenshot()
            self.device.home()
            return self._after(before, "pressed Home")

    def open_app(self, name: str) -> dict[str, Any]:
        """Go to the home screen and open the app labelled ``name`` (by its icon, as the agent does;
        on a device that can launch apps by name or package, that is the fallback)."""
        name = _check_text(name, "the app name", MAX_TARGET_CHARS).strip()
        self._check_allowed(name)
        with self._lock:
            before = self.device.screenshot()
            self.device.home()
            self._gestures += 1
            self._settle()
            img = self.device.screenshot()
            g = self.perception.ground_app(img, name)
            if g.found:
                x, y = int(g.point.x), int(g.point.y)
                self.device.tap(x, y)
                return self._after(before, f"opened {name} (tapped its icon at ({x}, {y}))", point=[x, y])
            launch = getattr(self.device, "launch", None)
            if callable(launch):
                ok = launch(name)  # the simulated phone raises ConfigError naming its apps
                if ok is not False:
                    return self._after(before, f"opened {name} (launched by name)")
            raise ConfigError(g.message or f'no app named "{name}" on the home screen')

    # ------------------------------------------------------------------------------ the agent
    def run_instruction(self, instruction: str, max_steps: int = 20, allow_risky: bool = False) -> dict[str, Any]:
        """Carry out ``instruction`` with the whole agent (its own model, set when the server
        started) and return how it ended and its run folder. When the agent asks the user
        something (Ask User, Take Over), the answer is ``needs_user`` with the question and a
        ``run_id``: :meth:`answer_user` answers it and returns what comes next the same way. A new
        run_instruction ends a run still waiting for an answer (it ends ``needs_user``)."""
        instruction = _check_text(instruction, "the instruction", MAX_INSTRUCTION_CHARS)
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or not 1 <= max_steps <= MAX_RUN_STEPS:
            raise ConfigError(f"max_steps must be a whole number in 1..{MAX_RUN_STEPS}, got {max_steps!r}")
        from mobile_agent.agent import Agent, AgentSettings, LLMPlanner
        from mobile_agent.report import write_report

        chat = self._chat_model()
        self._give_up_waiting()
        planner = LLMPlanner(chat)
        if self.options.allowed_apps:
            planner = _AllowListPlanner(planner, self)
        self._runs += 1
        run = _Run(f"run-{self._runs}")
        declined = run.declined

        def confirm(op: Any, description: str) -> bool:
            if allow_risky:
                return True
            declined.append(description)
            return False

        def ask(request: Any) -> str | None:
            """The agent asks: the tool call waiting on this run returns the question; the run waits,
            without the device (the client may use the phone meanwhile), for answer_user."""
            run.question, run.answer = request, None
            run.answered.clear()
            run.changed.set()
            depth = 0
            while True:  # let go of the device while the person decides (the tools may be used meanwhile)
                try:
                    self._lock.release()
                except RuntimeError:
                    break
                depth += 1
            try:
                run.answered.wait()
            finally:
                for _ in range(depth):
                    self._lock.acquire()
            return run.answer

        out = Path(self.options.runs_dir) / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{_slug(instruction)}"
        n = 1
        while out.exists():
            n += 1
            out = out.with_name(f"{out.name.rsplit('~', 1)[0]}~{n}")
        settings = AgentSettings(max_steps=max_steps, confirm=confirm if self.options.confirm else None,
                                 device_name=self.options.device_name, on_finish=write_report,
                                 ask=ask if self.options.ask else None)

        def body() -> None:
            try:
                with self._lock:
                    run.result = Agent(self.device, planner, self.perception, settings).run(instruction, out)
                    self._gestures += 1
            except BaseException as exc:  # noqa: BLE001 - handed to the tool call, which raises it
                run.failure = exc
            finally:
                run.changed.set()

        run.thread = threading.Thread(target=body, name=f"mcp-{run.id}", daemon=True)
        run.thread.start()
        return self._next(run)

    def answer_user(self, run_id: str, answer: str = "", give_up: bool = False) -> dict[str, Any]:
        """Answer the question a run_instruction run is waiting on (the user's words, passed to the
        agent as data), or with ``give_up`` leave it unanswered (the run ends ``needs_user``); returns
        how the run goes on, as run_instruction does: its end, or its next question."""
        run = self._waiting
        if run is None or not isinstance(run_id, str) or run.id != run_id:
            waiting = f" (the run waiting is {run.id})" if run is not None else ""
            raise ConfigError(f"no run {run_id!r} is waiting for an answer{waiting}")
        if not isinstance(give_up, bool):
            raise ConfigError(f"give_up must be true or false, got {give_up!r}")
        if not give_up:
            answer = _check_text(answer, "the answer", MAX_INSTRUCTION_CHARS) if answer else ""
        self._waiting = None
        run.question = None
        run.answer = None if give_up else answer
        run.changed.clear()
        run.answered.set()
        return self._next(run)

    def _next(self, run: _Run) -> dict[str, Any]:
        """Wait until ``run`` ends or asks the user; its end, or its question with ``run_id``."""
        run.changed.wait()
        run.changed.clear()
        if run.question is not None and run.result is None and run.failure is None:
            self._waiting = run
            q = run.question
            what = "do it on the phone, then answer 'done'" if q.kind == "take_over" else "answer the question"
            return {"outcome": "needs_user", "completed": False, "run_id": run.id,
                    "question": {"kind": q.kind, "text": q.text, "step": q.step},
                    "next": f"ask the user, then call answer_user with run_id {run.id!r} and their words ({what}); "
                            "the agent reads them as the user's words"}
        if run.failure is not None:
            raise run.failure
        result = run.result
        error = result.error
        if run.declined:
            error = (f"stopped before {run.declined[0]}: it looks risky; call run_instruction again with "
                     f"allow_risky=true if it should be carried out")
        out = {"outcome": result.outcome, "completed": result.completed, "steps": result.steps,
               "run_folder": str(Path(result.out_dir).resolve()), "duration_s": round(result.duration_s, 2),
               "tokens": result.usage.total_tokens, "error": error}
        if result.needs_user is not None:
            out["question"] = result.needs_user.to_dict()
        return out

    def _give_up_waiting(self) -> None:
        """A run still waiting for an answer ends unanswered (``needs_user``) before another starts."""
        run, self._waiting = self._waiting, None
        if run is None:
            return
        run.question, run.answer = None, None
        run.answered.set()
        if run.thread is not None:
            run.thread.join()

    def _chat_model(self) -> Any:
        if self._chat_model_factory is not None:
            return self._chat_model_factory()
        if not self.options.model:
            raise ConfigError("run_instruction needs a model: start the server with --model NAME "
                              "(for example gpt-4o, claude-sonnet-4-5, scripted:replies.txt)")
        from mobile_agent.model import make_chat_model

        return make_chat_model(self.options.model, base_url=self.options.base_url,
                               api_key_env=self.options.api_key_env)

    # ------------------------------------------------------------------------------ helpers
    def is_allowed(self, app: str) -> bool:
        allowed = self.options.allowed_apps
        return not allowed or app.strip().lower() in {a.strip().lower() for a in allowed}

    def _check_allowed(self, app: str) -> None:
        if not self.is_allowed(app):
            raise RefusedError(f'the app "{app}" is not in this server\'s allow-list '
                               f"({', '.join(self.options.allowed_apps)})")

    def _gate(self, target: str, confirm: bool, *, icon: bool = False, touched_text: str | None = None,
              screen_texts: Sequence[str] = ()) -> None:
        if not self.options.confirm or confirm or not target:
            return
        if self._rules is None:
            from mobile_agent.agent.risk import load_rules

            self._rules = load_rules()
        why = risk_of(target, icon=icon, touched_text=touched_text, screen_texts=screen_texts, rules=self._rules)
        if why is not None:
            raise RefusedError(f"not tapped: {why}. Ask the user, then call again with confirm=true to tap it")

    def _tap_grounding(self, g: Any, img: Image.Image, what: str, label: str, confirm: bool,
                       icon: bool = False) -> dict[str, Any]:
        if not g.found:
            raise ConfigError(g.message or f"{what} is not on the screen")
        chosen = g.chosen
        if self.options.confirm and not confirm:
            lines = self.perception.parse(img).texts  # the parse grounding just made, from the memo
            self._gate(label, confirm, icon=icon, touched_text=chosen.text, screen_texts=lines)
        x, y = int(chosen.point.x), int(chosen.point.y)
        self.device.tap(x, y)
        found = f" (read as {chosen.text!r})" if chosen.text and chosen.text != label else ""
        return self._after(img, f"tapped {what}{found} at ({x}, {y})", point=[x, y],
                           box=list(chosen.box.as_tuple()))

    def _settle(self) -> None:
        if "wait_still" in device_capabilities(self.device):
            self.device.wait_still(timeout_s=3.0)

    def _after(self, before: Image.Image, done: str, **extra: Any) -> dict[str, Any]:
        """The answer to a gesture: what was done, and whether the screen changed."""
        self._gestures += 1
        self._settle()
        after = self.device.screenshot()
        changed = bool(self.perception.screen_changed(before, after))
        tail = "the screen changed" if changed else "the screen did not change"
        return {"done": f"{done}; {tail}", "screen_changed": changed, **extra}


class _AllowListPlanner:
    """A planner that ends the run when its model asks to open an app outside the allow-list."""

    def __init__(self, inner: Any, tools: PhoneTools) -> None:
        self.inner, self.tools = inner, tools
        self.name = getattr(inner, "name", "planner")

    def plan(self, ctx: Any) -> Any:
        from mobile_agent.agent.operations import OpenApp
        from mobile_agent.agent.planner import PlanningError

        plan = self.inner.plan(ctx)
        op = plan.operation
        if isinstance(op, OpenApp) and not self.tools.is_allowed(op.name):
            raise PlanningError(f'the model asked to open "{op.name}", which is not in this server\'s allow-list '
                                f"({', '.join(self.tools.options.allowed_apps)})", plan.raw, plan.calls, [])
        return plan

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
