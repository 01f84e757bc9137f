"""The verifier: after each operation, a deterministic check where one exists, then (with
``reflect``) the reflection verdict of the verifier's model.

The checks need no model:

- ``typed_text``: the text of a Type is read back from the focused field, through the accessibility
  tree where the user allows reading it, else through OCR of the screen after typing (a single-line
  field shows the end of a long text: the visible end is compared).
- ``app_in_front``: after Open App the screen changed and the app's launcher label is no longer where
  it was (the home screen is gone).
- ``screen_changed``: after a tap or a swipe, the screen changed.

A failed check goes back to the manager with what was seen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Sequence

from PIL import Image

from mobile_agent.agent import parser, prompts
from mobile_agent.agent.multi.prompts import system_prompt
from mobile_agent.agent.operations import ClickIcon, ClickText, OpenApp, Operation, PageDown, PageUp, Type
from mobile_agent.agent.planner import Calls, PlanContext, Reflection, ask, encoded
from mobile_agent.agent.reflection import screen_changed
from mobile_agent.model.base import ChatModel, Message, TextPart
from mobile_agent.types import quote_screen_text

#: How alike (0..1) a line on screen must be to the typed text to be taken for the field showing it wrongly.
SIMILAR = 0.6
#: The fewest characters of a visible end that count as the field showing the typed text.
MIN_VISIBLE = 6


@dataclass(frozen=True)
class Check:
    """The outcome of one deterministic check. ``passed`` is None when it could not be decided."""

    name: str
    passed: bool | None
    expected: str
    seen: str
    method: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "expected": self.expected, "seen": self.seen,
                "method": self.method}

    def message(self) -> str:
        """What the manager is told when the check failed."""
        if self.name == "typed_text":
            return (f"the verifier read the field back: it shows {quote_screen_text(str(self.seen))}, not "
                    f"{quote_screen_text(str(self.expected))} "
                    f"(read through {self.method}); the text must be corrected")
        if self.name == "app_in_front":
            return f"Open App ({self.expected}) did not bring the app to the front: {self.seen}"
        return f"the screen did not change after the operation: {self.seen}"


def squash(text: str) -> str:
    """Lower case without white space, with one kind of quote and dash (OCR spaces and quotes vary)."""
    t = text.lower().replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    t = t.replace("–", "-").replace("—", "-")
    return re.sub(r"\s+", "", t)


def _reading_order(lines: Sequence[Any]) -> list[Any]:
    return sorted(lines, key=lambda ln: (ln.box.y1 // 8, ln.box.x1))


def _focused_text(xml: str | None) -> str | None:
    if not xml:
        return None
    from mobile_agent.device.uitree import parse_tree

    for n in parse_tree(xml):
        if n.focused:
            return n.text
    return None


def check_typed_text(text: str, after: Image.Image, perception: Any, tree_xml: str | None = None) -> Check | None:
    """Read ``text`` back from the screen after a Type. None when nothing can be read back (the text
    ends with Enter, which submits search fields and clears them)."""
    expected = text
    if "\n" in text or not text.strip():
        return None  # Enter submits or starts a line: the field's look after it says little
    want = squash(expected)
    field = _focused_text(tree_xml)
    if field is not None:
        ok = squash(field).endswith(want)
        return Check("typed_text", ok, expected, field, "tree")
    if perception is None:
        return None
    lines = list(perception.parse(after).lines)
    joined = squash("".join(ln.text for ln in _reading_order(lines)))
    if want in joined:
        return Check("typed_text", True, expected, expected, "ocr")
    best, seen = 0.0, ""
    for ln in lines:
        got = squash(ln.text)
        # the visible end of a scrolled one-line field; a glyph cut at the left edge or the cursor read as a letter
        if len(got) >= MIN_VISIBLE and any(want.endswith(g) for g in (got, got[1:], got[:-1], got[1:-1])):
            return Check("typed_text", True, expected, ln.text, "ocr (the visible end)")
        score = SequenceMatcher(None, want, got).ratio()
        if len(got) >= 2 * MIN_VISIBLE and len(got) < len(want):  # a long text scrolled in a one-line field
            score = max(score, SequenceMatcher(None, want[-len(got):], got).ratio())
        if score > best:
            best, seen = score, ln.text
    if best >= SIMILAR:
        return Check("typed_text", False, expected, seen, "ocr")
    return Check("typed_text", None, expected, "nothing like the text is on the screen", "ocr")


def check_app_in_front(name: str, before: Image.Image, after: Image.Image, perception: Any) -> Check:
    """After Open App: the screen changed and the launcher label ``name`` left its place."""
    if not screen_changed(perception, before, after):
        return Check("app_in_front", False, name, "the screen did not change", "pixels")
    if perception is None:
        return Check("app_in_front", None, name, "the screen changed (no OCR to read labels)", "pixels")
    want = squash(name)
    labels = [ln.box for ln in perception.parse(before).lines if squash(ln.text) == want]
    if not labels:
        return Check("app_in_front", None, name, f"no label {name!r} was on the screen before", "ocr")
    for ln in perception.parse(after).lines:
        if squash(ln.text) == want and any(ln.box.iou(b) > 0.5 for b in labels):
            return Check("app_in_front", False, name, f"the label {name!r} is still where it was: the home "
                         "screen or the app list is still shown", "ocr")
    return Check("app_in_front", True, name, "the screen changed and the launcher label is gone", "ocr")


def check_changed(before: Image.Image, after: Image.Image, perception: Any, changed: bool | None = None) -> Check:
    ok = screen_changed(perception, before, after) if changed is None else changed
    return Check("screen_changed", ok, "a changed screen", "the screen changed" if ok else "the same screen", "pixels")


def deterministic_check(op: Operation, typed: str | None, before: Image.Image, after: Image.Image,
                        perception: Any, changed: bool | None, tree_xml: str | None = None) -> Check | None:
    """The check that fits ``op`` (``typed``: the text really typed, notes expanded), or None."""
    if isinstance(op, Type):
        return check_typed_text(typed if typed is not None else op.text, after, perception, tree_xml)
    if isinstance(op, OpenApp):
        return check_app_in_front(op.name, before, after, perception)
    if isinstance(op, (ClickText, ClickIcon, PageUp, PageDown)):
        return check_changed(before, after, perception, changed)
    return None


def reads_after(op: Operation, typed: str | None, read_tree: bool = False) -> bool:
    """Whether :func:`deterministic_check` reads the text of the screen after ``op`` by OCR (a Type
    read back, Open App's launcher label): the check needs that parse at once."""
    if isinstance(op, Type):
        text = typed if typed is not None else op.text
        return not read_tree and "\n" not in text and bool(text.strip())
    return isinstance(op, OpenApp)


class Verifier:
    """The verifier role: deterministic checks, then (when ``model`` is given) the reflection call."""

    role = "verifier"

    def __init__(self, model: ChatModel | None, *, parse_retries: int = 2, max_tokens: int | None = None) -> None:
        self.model = model
        self.parse_retries = parse_retries
        self.max_tokens = max_tokens

    def reflect(self, ctx: PlanContext, before: Image.Image, after: Image.Image, op: Operation,
                expectation: str) -> Reflection:
        if self.model is None:
            return Reflection(None)
        text = prompts.reflection_prompt(ctx.instruction, op, expectation)
        images = (encoded(before, ctx.image_max_side, ctx.jpeg_quality),
                  encoded(after, ctx.image_max_side, ctx.jpeg_quality))
        messages = [Message.text("system", system_prompt("verifier")), Message("user", (TextPart(text), *images))]
        calls = Calls()
        verdict, raw, _ = ask(self.model, messages, parser.parse_reflection, calls, kind="reflect",
                              what="the verifier's reflection", retry_text=prompts.reflection_retry_text,
                              retries=self.parse_retries, max_tokens=self.max_tokens, role=self.role)
        return Reflection(verdict.value, verdict.reason, raw, calls)
