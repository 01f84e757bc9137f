"""The family oracle with the quirks real GUI models show in their replies: ``mobile-agent eval --planner
noisy --model-family F`` plays each reference step as family F's reply (as ``--planner oracle
--model-family F`` does) and, drawn from a generator seeded by the run's seed, the family and the task,
writes it the way real replies of that family come back now and then:

- **a point a few pixels off**: 2 to 8 pixels of the phone on each axis, kept inside the element's box
  (a model aims at the element, not at its exact centre);
- **a box instead of a point**, where the family writes one: UI-TARS's ``<bbox>x1 y1 x2 y2</bbox>`` in
  the point's place, MAI-UI's four-number ``coordinate``, UI-Venus's four-number ``box`` (the element's
  box in the family's coordinates: the adapter takes its centre, as the authors' parsers do);
- **spacing and quoting variants**: spaces inside lists and points (``[ 540 , 1200 ]``,
  ``<point>540  1200</point>``, ``(540, 1200)``), compact or indented JSON, a tool call on one line
  without its closing tag, double quotes, spaces around ``=``, an AutoGLM action without ``<answer>``;
- **an unknown action** first: an action of another action space (UI-TARS's desktop ``hover`` and
  ``right_single``, Qwen's computer-use ``left_click`` and ``scroll``, a ``Scroll`` and a ``Hotkey`` that
  AutoGLM has not, UI-Venus's web ``DoubleClick`` and ``Hotkey``). The family's parser refuses it; the error is
  recorded in the step's ``parse_errors`` and what the planner would send back to the model
  (``Family.retry_text``) is in the run's noise log; then the reply comes again, as a model answers
  after that feedback, and the run goes on.

A quirky reply the family's parser cannot read is treated the same way (recorded, sent back, answered
again in the family's plain form): the run measures how robust each adapter is to its own family's
quirks. What was changed, step by step, is in the run's ``detail["noise"]``.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any, Callable

from mobile_agent.agent.families import Family, Frame
from mobile_agent.agent.families.planner import read_reply
from mobile_agent.agent.planner import Plan
from mobile_agent.bench.family_conventions import model_point
from mobile_agent.bench.family_oracle import FamilyOraclePlanner
from mobile_agent.bench.noisy import NoiseLog
from mobile_agent.bench.task import Task
from mobile_agent.errors import ParseError


@dataclass(frozen=True)
class FamilyNoiseRates:
    """Chances per step of each quirk (``point_off`` and ``box``: per tap or long press)."""

    point_off: float = 0.3
    box: float = 0.2
    spacing: float = 0.3
    unknown: float = 0.1


#: The largest offset of a point, in the phone's pixels on each axis, and the margin kept inside the box.
MOST_OFF = 8
MARGIN = 3

Rewrite = Callable[[str], str]


def _in_call(pattern: str, repl: Any) -> Rewrite:
    return lambda raw: re.sub(pattern, repl, raw)


def _json_variant(style: str) -> Rewrite:
    """The tool call's JSON written another way: ``compact``, ``indented``, ``spaced lists`` or
    ``one line, no closing tag``."""
    def rewrite(raw: str) -> str:
        m = re.search(r"<tool_call>\s*(.*?)\s*</tool_call>", raw, re.DOTALL)
        if m is None:
            return raw
        call = json.loads(m.group(1))
        if style == "compact":
            body = "<tool_call>\n" + json.dumps(call, separators=(",", ":"), ensure_ascii=False) + "\n</tool_call>"
        elif style == "indented":
            body = "<tool_call>\n" + json.dumps(call, indent=2, ensure_ascii=False) + "\n</tool_call>"
        elif style == "spaced lists":
            text = json.dumps(call, ensure_ascii=False)
            text = re.sub(r"\[([-\d, ]+)\]", lambda n: "[ " + " , ".join(n.group(1).split(", ")) + " ]", text)
            body = "<tool_call>\n" + text + "\n</tool_call>"
        else:  # one line, no closing tag: a reply cut at the stop token (nothing after it)
            return raw[:m.start()] + "<tool_call>" + json.dumps(call, ensure_ascii=False)
        return raw[:m.start()] + body + raw[m.end():]
    return rewrite


#: Spacing and quoting variants by the family's syntax: (name, rewrite of the reply).
SPACING: dict[str, list[tuple[str, Rewrite]]] = {
    "mobile_use tool call": [(s, _json_variant(s)) for s in
                             ("compact", "indented", "spaced lists", "one line, no closing tag")],
    "UI-TARS call": [
        ("two spaces inside <point>", _in_call(r"<point>(-?\d+) (-?\d+)</point>", r"<point>\1  \2</point>")),
        ("a space inside (x, y)", _in_call(r"\((-?\d+),(-?\d+)\)", r"(\1, \2)")),
        ("double quotes", _in_call(r"=\'(<point>[^']*</point>|<\|box_start\|>[^']*<\|box_end\|>)\'", r'="\1"')),
        ("spaces inside the call", _in_call(r"(?m)^Action: (\w+)\((.+)\)$", r"Action: \1( \2 )")),
    ],
    "AutoGLM do()/finish()": [
        ("a space inside [x, y]", _in_call(r"\[(-?\d+),(-?\d+)\]", r"[\1, \2]")),
        ("spaces around =", _in_call(r"(\w)=(?=[\"\[])", r"\1 = ")),
        ("no <answer> tags", _in_call(r"</?answer>", "")),
    ],
    "UI-Venus call": [
        ("a space inside (x, y)", _in_call(r"\((-?\d+),(-?\d+)\)", r"(\1, \2)")),
        ("a list for the box", _in_call(r"box=\((-?\d+),(-?\d+)\)", r"box=[\1,\2]")),
        ("spaces around =", _in_call(r"(\w)=(?=[\(\[\'\"])", r"\1 = ")),
    ],
}

#: Actions of another action space, by the family's syntax (``{x}``, ``{y}``: a point in its coordinates).
UNKNOWN: dict[str, list[str]] = {
    "UI-TARS call": ["Thought: Hover over it.\nAction: hover(point='<point>{x} {y}</point>')",
                     "Thought: Open the context menu.\nAction: right_single(point='<point>{x} {y}</point>')"],
    "mobile_use tool call": ['Click it.\n<tool_call>\n{{"name": "mobile_use", "arguments": {{"action": "left_click", '
                             '"coordinate": [{x}, {y}]}}}}\n</tool_call>',
                             'Scroll down.\n<tool_call>\n{{"name": "mobile_use", "arguments": {{"action": "scroll", '
                             '"coordinate": [{x}, {y}], "pixels": -300}}}}\n</tool_call>'],
    "AutoGLM do()/finish()": ['<think>See more.</think>\n<answer>do(action="Scroll", direction="down")</answer>',
                              '<think>Submit.</think>\n<answer>do(action="Hotkey", key="enter")</answer>'],
    "UI-Venus call": ["<think>Open it.</think>\n<action>DoubleClick(box=({x},{y}))</action>\n<conclusion>Open it."
                      "</conclusion>",
                      "<think>Submit.</think>\n<action>Hotkey(key='enter')</action>\n<conclusion>Submit.</conclusion>"],
}

#: Families that write a box where a point goes, and how (rewrite of the written point into the box).
BOX_FORMS: dict[str, str] = {"ui-tars-1.5": "bbox", "ui-tars-v1": "bbox", "mai-ui": "coordinate",
                             "ui-venus-navi": "box", "ui-venus-1.5": "box"}


def write_box(raw: str, family: Family, box: tuple[int, int, int, int]) -> str:
    """``raw``'s point replaced by the element's ``box`` (in the family's coordinates) as the family
    writes a box; ``raw`` unchanged for a family that writes none."""
    x1, y1, x2, y2 = box
    form = BOX_FORMS.get(family.name)
    if form == "bbox":
        return re.sub(r"<point>-?\d+ -?\d+</point>|<\|box_start\|>\(-?\d+,-?\d+\)<\|box_end\|>",
                      f"<bbox>{x1} {y1} {x2} {y2}</bbox>", raw, count=1)
    if form == "coordinate":
        return re.sub(r'"coordinate": \[-?\d+, -?\d+\]', f'"coordinate": [{x1}, {y1}, {x2}, {y2}]', raw, count=1)
    if form == "box":
        return re.sub(r"box=\(-?\d+,-?\d+\)", f"box=({x1},{y1},{x2},{y2})", raw, count=1)
    return raw


class NoisyFamilyOraclePlanner(FamilyOraclePlanner):
    """The family oracle of ``task`` with ``family``'s quirks, drawn from ``seed`` at ``rates``."""

    def __init__(self, task: Task, family: Family, perception: Any, seed: int = 0,
                 rates: FamilyNoiseRates | None = None) -> None:
        super().__init__(task, family, perception)
        self.rates = rates or FamilyNoiseRates()
        self.rng = random.Random(f"family-noisy:{seed}:{family.name}:{task.key}")
        self.log = NoiseLog()
        self.name = f"noisy oracle ({family.name})"
        self.steps = 0

    def _chance(self, p: float) -> bool:
        return self.rng.random() < p

    def _nudge(self, v: int, lo: float, hi: float) -> int:
        if hi - lo <= 2 * MARGIN:
            return v
        d = self.rng.choice((-1, 1)) * self.rng.randint(2, MOST_OFF)
        return int(min(max(v + d, lo + MARGIN), hi - MARGIN))

    def answer(self, action: str, args: dict[str, Any], thought: str, frame: Frame, box: Any = None) -> Plan:
        self.steps += 1
        fam, r, n = self.family, self.rates, self.steps
        syntax = fam.syntax
        args = dict(args)
        quirks: list[str] = []
        errors: list[str] = []
        at_element = action in ("tap", "long_press") and box is not None
        as_box = at_element and fam.name in BOX_FORMS and self._chance(r.box)
        if at_element and not as_box and self._chance(r.point_off):
            x, y = args["x"], args["y"]
            args["x"], args["y"] = self._nudge(x, box.x1, box.x2), self._nudge(y, box.y1, box.y2)
            quirks.append(f"the point {args['x'] - x:+d}, {args['y'] - y:+d} px off")
        conv = self.convention

        def pt(x: int, y: int) -> tuple[int, int]:  # the authors' coordinates (bench/family_conventions.py)
            return model_point(x, y, frame.screen_w, frame.screen_h, conv)
        plain = fam.write(action, args, thought, frame, point=pt)
        raw = plain
        if as_box:
            bx1, by1 = pt(int(box.x1), int(box.y1))
            bx2, by2 = pt(int(box.x2), int(box.y2))
            raw = write_box(raw, fam, (bx1, by1, bx2, by2))
            quirks.append("a box for the point")
        if syntax in SPACING and self._chance(r.spacing):
            variants = [(name, rewrite(raw)) for name, rewrite in SPACING[syntax]]
            variants = [(name, v) for name, v in variants if v != raw]  # those that apply to this reply
            if variants:
                name, raw = self.rng.choice(variants)
                quirks.append(f"spacing: {name}")
        if syntax in UNKNOWN and self._chance(r.unknown):
            mx, my = pt(frame.screen_w // 2, frame.screen_h // 2)
            bad = self.rng.choice(UNKNOWN[syntax]).format(x=mx, y=my)
            try:
                read_reply(fam, bad, frame)
            except ParseError as exc:
                errors.append(str(exc))
                self.log.add(f"step {n}: an unknown action first ({bad.splitlines()[-1][:60]}); sent back: "
                             f"{fam.retry_text(str(exc))}")
            else:  # pragma: no cover - tests/bench/test_bench_family_noisy.py reads every one as refused
                self.log.add(f"step {n}: the unknown action {bad!r} was read as an action")
        if quirks:
            self.log.add(f"step {n}: {'; '.join(quirks)}")
        try:
            parsed = read_reply(fam, raw, frame)
        except ParseError as exc:  # the adapter does not read its family's quirk: sent back, then the plain form
            errors.append(str(exc))
            self.log.add(f"step {n}: the quirky reply was not read ({exc}); sent back, answered in the plain form")
            raw = plain
            parsed = read_reply(fam, raw, frame)
        return Plan("", parsed.thought, parsed.operation, raw=raw, parse_errors=errors,
                    input_summary=f"noisy oracle in {fam.name}'s format: no model")
