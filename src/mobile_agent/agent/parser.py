"""The one parser of model replies: ReAct sections, operations, and short verdicts.

It reads the forms models really write: any case (``click text``, ``Click the text``), Markdown
emphasis and headings, code fences, full-width colons and parentheses, quotes around parameters,
commas inside an icon description, a trailing explanation after the operation. It dispatches on
the operation's name at the start of the Action line, never on substrings anywhere in the reply:
``Type (bus stop)`` is a Type, not a Stop.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from typing import Sequence

from mobile_agent.perception.positions import read_position
from mobile_agent.agent.operations import (
    OPERATION_TYPES, ClickIcon, LongPress, Operation, Type, grammar, normalize_position,
)
from mobile_agent.errors import ParseError

_FULLWIDTH = str.maketrans({"（": "(", "）": ")", "：": ":", "，": ",", "　": " ", "“": '"', "”": '"',
                            "‘": "'", "’": "'", "「": '"', "」": '"', "『": '"', "』": '"'})
_QUOTES = {'"': '"', "'": "'", "`": "`"}
_FENCE = re.compile(r"^\s*(```|~~~)")
_SECTION = re.compile(r"^[\s#>*_-]*(observation|thought|action)[\s*_]*(?::|$)[\s*_`]*(.*)$", re.IGNORECASE)
_LIST_MARK = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)")

# Operation names at the start of an action line, from each class's pattern, in the classes' order.
_NAMES: tuple[tuple[type, re.Pattern[str]], ...] = tuple(
    (t, re.compile(r"^(?:" + t.pattern + r")(?![a-z0-9])", re.IGNORECASE)) for t in OPERATION_TYPES
)
# The Chinese names (打开应用, 点击文本...), longest first so that 输入文本 wins over 输入.
_CHINESE: tuple[tuple[type, str], ...] = tuple(sorted(
    ((t, name) for t in OPERATION_TYPES for name in t.chinese), key=lambda p: -len(p[1])))
# The "action" values of JSON-shaped actions.
_JSON_NAMES: dict[str, type] = {name: t for t in OPERATION_TYPES for name in t.json_names}
# Keys a JSON-shaped action may hold its parameter under, besides the field's own name.
_JSON_ARG_KEYS = ("text", "name", "app", "app_name", "description", "target", "element", "value", "content")
_POSITION_SYNONYMS = {"upper": "top", "lower": "bottom", "middle": "center", "centre": "center", "central": "center"}
_POSITION_FILLER = {"the", "of", "screen", "corner", "side", "part", "area", "and", "at", "in", "on", "edge"}


@dataclass(frozen=True)
class ParsedReply:
    """A ReAct reply: its Observation, Thought, the Action line and the operation it names."""

    observation: str
    thought: str
    action: str
    operation: Operation


def normalize_text(text: str) -> str:
    """Full-width punctuation to ASCII, code-fence lines removed."""
    lines = [ln for ln in text.translate(_FULLWIDTH).splitlines() if not _FENCE.match(ln)]
    return "\n".join(lines)


def sections(reply: str) -> dict[str, str]:
    """The ReAct sections of ``reply`` by lower-case name; a repeated section keeps its last text."""
    out: dict[str, str] = {}
    current: str | None = None
    buf: list[str] = []
    for line in normalize_text(reply).splitlines():
        m = _SECTION.match(line)
        if m:
            if current is not None:
                out[current] = "\n".join(buf).strip()
            current = m.group(1).lower()
            buf = [m.group(2)]
        elif current is not None:
            buf.append(line)
    if current is not None:
        out[current] = "\n".join(buf).strip()
    return out


def parse_reply(reply: str, operations: Sequence[type] = OPERATION_TYPES) -> ParsedReply:
    """Parse a whole ReAct reply. Raises :class:`ParseError` saying briefly what is wrong, in words
    the model can act on (:func:`mobile_agent.agent.prompts.parse_error_feedback` adds the form and
    the operations on offer). An operation that is not among ``operations`` (those the device
    supports) is an error too. A reply that is one JSON object (``{"observation": ..., "thought":
    ..., "action": "click_text", "text": ...}``) is read too."""
    whole = normalize_text(reply).strip()
    if whole.startswith("{") and whole.endswith("}"):
        try:
            d = json.loads(whole)
        except json.JSONDecodeError:
            d = None
        if isinstance(d, dict):
            op = _offered(_json_action(whole), operations)
            text = lambda k: d[k] if isinstance(d.get(k), str) else ""  # noqa: E731
            return ParsedReply(text("observation"), text("thought"), str(op), op)
    secs = sections(reply)
    if "action" not in secs:
        body = [ln for ln in normalize_text(reply).splitlines() if ln.strip()]
        if not secs and len(body) == 1:  # a bare operation, no sections
            try:
                op = parse_operation(body[0])
            except ParseError:
                pass
            else:
                return ParsedReply("", "", _clean_line(body[0]), _offered(op, operations))
        if not body:
            raise ParseError("your reply is empty")
        raise ParseError("your reply has no 'Action:' line")
    action_text = secs["action"]
    lines = [ln for ln in action_text.splitlines() if ln.strip()]
    if not lines:
        raise ParseError("your 'Action:' line is empty")
    first_error: ParseError | None = None
    for line in lines:
        try:
            op = parse_operation(line)
        except ParseError as exc:
            first_error = first_error or exc
            continue
        return ParsedReply(secs.get("observation", ""), secs.get("thought", ""), _clean_line(line),
                           _offered(op, operations))
    assert first_error is not None
    raise first_error


def _offered(op: Operation, operations: Sequence[type]) -> Operation:
    if type(op) not in operations:
        if op.needs == "user":
            raise ParseError(f"{op.op} is not available in this run: no person can answer; decide from the screen "
                             "and the instruction, or Stop")
        raise ParseError(f"{op.op} is not available on this device")
    return op


def _clean_line(line: str) -> str:
    s = normalize_text(line).strip()
    s = _LIST_MARK.sub("", s)
    return s.strip().strip("*_`").strip()


def _balanced(s: str) -> tuple[str, str] | None:
    """For ``s`` starting with ``(``: (inside, after) up to the matching ``)``, or None if unclosed."""
    depth = 0
    for i, ch in enumerate(s):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return s[1:i], s[i + 1:]
    return None


def _unquote(s: str) -> str:
    s = s.strip()
    while len(s) >= 2 and s[0] in _QUOTES and s[-1] == _QUOTES[s[0]]:
        s = s[1:-1].strip()
    return s


def _argument(rest: str) -> str | None:
    """The parameter after an operation name: ``(...)``, ``: ...``, a quoted string, or the rest."""
    r = rest.lstrip()
    if r.startswith(":"):
        r = r[1:].lstrip()
    r = r.lstrip("*_` ")
    if not r:
        return None
    if r.startswith("("):
        b = _balanced(r)
        return b[0] if b is not None else r[1:].rstrip(")")
    if r[0] in _QUOTES:
        end = r.find(_QUOTES[r[0]], 1)
        if end > 0 and not r[end + 1:].lstrip().startswith(","):
            return r[1:end].strip()
        if end > 0:  # several quoted fields: "blue plus", "bottom right"
            return r.rstrip(". ")
    return r.rstrip(". ")


def _split_top_level(s: str) -> list[str]:
    parts, depth, cur, quote = [], 0, [], None
    for ch in s:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in _QUOTES:
            quote = _QUOTES[ch]
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts]


def _strip_label(field: str, label: str) -> str:
    """``position: top right`` / ``position="top right"`` -> ``top right``."""
    return _unquote(re.sub(rf"^\s*{label}\s*[:=]\s*", "", field.strip(), flags=re.IGNORECASE))


def _as_position(field: str) -> tuple[str, ...] | None:
    f = _strip_label(_unquote(field), "position").lower()
    words = [w for w in re.split(r"[\s\-/]+", f) if w]
    words = [_POSITION_SYNONYMS.get(w, w) for w in words if w not in _POSITION_FILLER]
    if not words:
        return None
    try:
        return read_position(words)
    except ValueError:
        return None


def _icon(arg: str, t: type = ClickIcon) -> ClickIcon | LongPress:
    fields = [f for f in _split_top_level(arg) if f]
    position: tuple[str, ...] = ()
    if len(fields) == 1 and _as_position(fields[0]) is not None:
        fields = []
    if len(fields) >= 2:
        pos = _as_position(fields[-1])
        if pos is not None:
            fields = fields[:-1]
            position = pos
            if len(pos) == 1 and len(fields) >= 2:  # "red circle, top, right"
                two = _as_position(fields[-1] + " " + pos[0])
                if two is not None and len(two) == 2:
                    fields, position = fields[:-1], two
    if fields:
        fields[0] = _strip_label(_unquote(fields[0]), "description")
    description = ", ".join(_unquote(f) for f in fields).strip()
    if not position and description:
        from mobile_agent.perception.icons.languages import description_position

        position = description_position(description)  # "右上角的设置": top right (English: its own field)
    if not description:
        if t is LongPress:
            raise ParseError("Long Press needs the text or a description of the icon to hold, e.g. "
                             "'Long Press (Shopping list)'")
        raise ParseError("Click Icon needs a description of the icon (colour and shape), e.g. "
                         "'Click Icon (grey gear, top right)'")
    return t(description, position)


def _name(s: str) -> tuple[type, str] | None:
    """The operation named at the start of ``s`` (English or Chinese) and the rest of the line."""
    for t, pattern in _NAMES:
        m = pattern.match(s)
        if m:
            return t, s[m.end():]
    for t, name in _CHINESE:
        if s.startswith(name):
            return t, s[len(name):]
    return None


def _build(t: type, arg: str | None, shown: str) -> Operation:
    """The operation of class ``t`` with the parameter text ``arg``."""
    if t.argument == "none":
        return t()
    if arg is not None and t.argument != "target":
        arg = _unquote(arg)
    if not arg:
        raise ParseError(f"'{shown}' has no parameter: write it in parentheses, e.g. '{t.op} (...)'")
    if t.argument == "target":
        return _icon(arg, t)
    if t is Type and arg.endswith("\\n"):
        arg = arg[:-2] + "\n"  # a written \n at the end presses Enter
    return t(arg)


def parse_operation(line: str) -> Operation:
    """Parse one action line (``Click Text (Settings)``, the variants models write, the Chinese
    names, or a JSON-shaped action such as ``{"action": "click_text", "text": "Settings"}``)."""
    s = _clean_line(line)
    if s.startswith("{"):
        return _json_action(s)
    found = _name(s)
    if found is not None:
        t, rest = found
        return _build(t, None if t.argument == "none" else _argument(rest), s)
    shown = s if len(s) <= 120 else s[:117] + "..."
    raise ParseError(f"'{shown}' is not one of the operations")


def _json_action(s: str) -> Operation:
    """An action written as a JSON object: ``{"action": "click_icon", "description": ..., "position": ...}``."""
    try:
        d = json.loads(s)
    except json.JSONDecodeError as exc:
        raise ParseError(f"the action looks like JSON but is not valid JSON ({exc.msg})") from None
    if not isinstance(d, dict):
        raise ParseError("a JSON action is an object with an \"action\" key")
    if isinstance(d.get("action"), dict):  # {"thought": ..., "action": {"action": ...}}
        d = d["action"]
    name = next((d[k] for k in ("action", "action_type", "operation", "op", "type") if isinstance(d.get(k), str)), None)
    if name is None:
        raise ParseError("the JSON action has no \"action\" name")
    key = name.strip().lower()
    t = _JSON_NAMES.get(key) or _JSON_NAMES.get(re.sub(r"[\s-]+", "_", key))
    if t is None:
        found = _name(name.strip())
        t = found[0] if found is not None and not found[1].strip() else None
    if t is None:
        raise ParseError(f"'{name}' is not one of the operations")
    if t.argument == "none":
        return t()
    own = [f for f in t.__dataclass_fields__ if f != "position"][0]
    arg = next((d[k] for k in (own, *_JSON_ARG_KEYS) if isinstance(d.get(k), str) and d[k].strip()), None)
    if arg is None:
        raise ParseError(f"the JSON action {name!r} has no {own!r}: write e.g. {{\"action\": \"{name}\", \"{own}\": \"...\"}}")
    if t.argument == "target":
        pos = d.get("position")
        if isinstance(pos, list):
            pos = " ".join(str(p) for p in pos)
        position = _as_position(pos) if isinstance(pos, str) and pos.strip() else None
        if isinstance(pos, str) and pos.strip() and position is None:
            raise ParseError(f"position {pos!r} is not one or two of top, bottom, left, right, center")
        return t(arg.strip(), position or ())
    return t(arg)


# --- short answers: choice among numbered marks, completion check, reflection -------------------

_ANSWER = re.compile(r"^[\s#>*_]*(answer|choice|verdict|reason)[\s*_]*(?::|$)[\s*_`]*(.*)$", re.IGNORECASE)


def _answer_sections(reply: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in normalize_text(reply).splitlines():
        m = _ANSWER.match(line)
        if m:
            out[m.group(1).lower()] = m.group(2).strip()
    return out


def _answer_text(reply: str, *keys: str) -> str:
    secs = _answer_sections(reply)
    for k in keys:
        if secs.get(k):
            return secs[k]
    lines = [ln.strip() for ln in normalize_text(reply).splitlines() if ln.strip()]
    if len(lines) == 1:
        return lines[0]
    raise ParseError(f"start a line with '{keys[0].capitalize()}:' followed by your answer")


def parse_choice(reply: str, count: int, base: int = 0) -> int | None:
    """The mark chosen in ``reply`` (``Answer: 2``) as a 0-based index into ``count`` marks whose
    drawn numbers start at ``base``; None for ``Answer: none``."""
    text = _answer_text(reply, "answer", "choice").strip("*_`\"' ")
    m = re.match(r"^(?:mark|box|number|no\.?)?\s*#?(\d+)(?![\d.])", text, re.IGNORECASE)
    last = base + count - 1
    if m:
        n = int(m.group(1))
        if not base <= n <= last:
            raise ParseError(f"mark {n} does not exist: answer a number from {base} to {last}, or 'none'")
        return n - base
    if re.match(r"^(none|neither|no)(?![a-z])", text, re.IGNORECASE):
        return None
    raise ParseError(f"answer with the number of a mark ({base} to {last}) or 'none', e.g. 'Answer: {base}'")


@dataclass(frozen=True)
class Verdict:
    """A short verdict and the model's reason."""

    value: str
    reason: str


def parse_completion(reply: str) -> Verdict:
    """``Verdict: complete`` or ``Verdict: incomplete`` (also yes/no, done/not done), with ``Reason:``."""
    text = _answer_text(reply, "verdict", "answer").strip("*_`\"' ").lower()
    reason = _answer_sections(reply).get("reason", "")
    if re.match(r"^(incomplete|not\b|no\b|unfinished|uncompleted)", text):
        return Verdict("incomplete", reason)
    if re.match(r"^(complete|completed|yes|done|finished)(?![a-z])", text):
        return Verdict("complete", reason)
    raise ParseError("answer 'Verdict: complete' or 'Verdict: incomplete', then 'Reason: ...'")


REFLECTION_VERDICTS = ("as_expected", "wrong_page", "no_change")


def parse_reflection(reply: str) -> Verdict:
    """``Verdict: A|B|C`` or ``as expected`` / ``wrong page`` / ``no change``, with ``Reason:``."""
    text = _answer_text(reply, "verdict", "answer").strip("*_`\"'() ").lower()
    reason = _answer_sections(reply).get("reason", "")
    words = re.sub(r"[\s_\-]+", " ", text)
    for letter, value, phrase in (("a", "as_expected", "as expected"), ("b", "wrong_page", "wrong page"),
                                  ("c", "no_change", "no change")):
        if re.match(rf"^(?:{letter}(?![a-z])|{phrase}(?![a-z]))", words):
            return Verdict(value, reason)
    raise ParseError("answer 'Verdict: A' (as expected), 'Verdict: B' (wrong page) or 'Verdict: C' (no change)")
