"""Replay: a recorded run's operations handed again to the same loop, checked screen by screen.

A recorded run folder (``steps.jsonl`` and ``screens/``) holds each step's operation in words
("Click Text (Display)") and the screenshot it was planned on. :class:`ReplayPlanner` is a planner
like the model's: before each recorded step it checks that the current screen is the same kind of
screen as the recorded one (:func:`signature`: its text lines, less the status bar, the clock,
digits, badges and single glyphs, and where they sit), then hands the recorded operation to the
loop, which grounds it afresh through perception, acts, reflects and records as for any plan.
Nothing in the loop learns that a step was replayed except the record (``source``).

Where the phone has changed (a screen unlike the recorded one, or a recorded target that is not
on the screen), the replay diverges: without a model it ends, naming the step, what was expected
and what is there (:class:`ReplayDiverged`); with a model (``fallback``) the model plans from there
with the run's instruction and history, and as soon as a screen again matches a later recorded
step, the replay resumes there. A recorded ``Type`` is replayed only right after the recorded step
before it was (the field it types into is the one the recording focused): the replay resumes
at the first recorded step ahead whose screen matches, and not at all when that step is a ``Type``
(unless it is the step right after the last one replayed, with the keyboard still up as recorded:
the model only cleared something out of the way) or a ``Stop`` past recorded steps still to do (a last screen can look like an earlier one: an inbox
before and after sending).

``params`` (``{"Anna": "Ben"}``) replace typed texts (and Click Text targets equal to them), in
the operations and in the recorded screens' texts the check compares with.

What the recording did not have and whose closing decides nothing (an ad banner, the notification
shade: :func:`find_interruption`) the replay closes itself, with no model, and goes on. A recorded
``Type`` types only into the recorded field: with the keyboard up where the recording had it, and
the field's line (its hint or label) on the screen (:meth:`ReplayPlanner._field_problem`).
"""

from __future__ import annotations

import json
import logging
import math
import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

from PIL import Image

from mobile_agent.agent.loop import NOT_CARRIED_OUT, placeholder
from mobile_agent.agent.operations import Back, ClickIcon, ClickText, Operation, Stop, Type, Wait
from mobile_agent.agent.planner import BasePlanner, Choice, Completion, Plan, PlanContext, Reflection
from mobile_agent.agent.record import StepRecord
from mobile_agent.agent.trajectory import SUMMARY, read_steps
from mobile_agent.errors import ConfigError, ImageError, MobileAgentError
from mobile_agent.fsutil import atomic_write_text, load_json, path_inside
from mobile_agent.types import load_image, open_checked

log = logging.getLogger(__name__)

#: two screens whose signatures agree at least this much are the same kind of screen
MATCH = 0.6
#: Waits (no model) for a recorded screen before a replay diverges: a screen still loading, a toast
PATIENCE = 2
#: the top of the screen that holds the status bar (the clock, the battery, notifications' icons)
STATUS_BAR = 0.035
#: how many horizontal bands the layout part of a signature places lines in
BANDS = 8
#: an on-screen keyboard: at least this many single letters read below this share of the height
KEYBOARD_KEYS, KEYBOARD_TOP = 10, 0.55
#: tries at closing one kind of interruption (an ad banner, the shade) before it goes to the model
DISMISS_TRIES = 2
#: the least score an icon candidate needs for the replay to tap it as the close button of an
#: interruption (a close icon scores 0.95 and more on the simulated phone's banners; Mail's "Mark
#: unread" was tapped as one at 0.151): under it the replay does not guess, the model is asked
MIN_CLOSE_SCORE = 0.5


class ReplayError(ConfigError):
    """A folder that cannot be replayed: not a run folder, a corrupt one, or a run of another kind."""


class ReplayDiverged(MobileAgentError):
    """The phone is not where the recording was, and no model is there to take over."""


# --- the screen's signature ----------------------------------------------------------------------

_DIGITS = re.compile(r"\d+")


def normalise_text(text: str) -> str:
    """A line's words for comparing screens: lower case, no digits (counts, times, badges), no
    punctuation; empty when fewer than two letters are left (a glyph, a badge, a key of the keyboard)."""
    t = unicodedata.normalize("NFKC", text).lower()
    t = _DIGITS.sub(" ", t)
    t = "".join(ch if ch.isalpha() or ch.isspace() else " " for ch in t)
    t = " ".join(t.split())
    return t if sum(ch.isalpha() for ch in t) >= 2 else ""


@dataclass(frozen=True)
class Signature:
    """The kind of a screen: its lines' words (:func:`normalise_text`) and the band each sits in."""

    texts: frozenset[str]
    placed: frozenset[tuple[str, int]]
    #: an on-screen keyboard is up (a field has the focus): not part of the similarity
    keyboard: bool = False

    def similarity(self, other: Signature) -> float:
        """1.0 for the same kind of screen, 0.0 for nothing in common: the share of words the two
        screens have in common (Jaccard; a line read one letter off, as OCR does, counts as the
        same: :data:`SAME_LINE`), with a quarter of the weight on where they sit."""
        if not self.texts and not other.texts:
            return 1.0
        same = _near_pairs(self.texts, other.texts)
        t = len(same) / max(1, len(self.texts) + len(other.texts) - len(same))
        bands_a = {(same.get(x, x), b) for x, b in self.placed}  # a near line under the other's words
        p = len(bands_a & other.placed) / max(1, len(bands_a | other.placed))
        return 0.75 * t + 0.25 * p

    def difference(self, other: Signature, limit: int = 6) -> tuple[list[str], list[str]]:
        """(words this screen has that ``other`` lacks, words ``other`` has that this one lacks)."""
        return sorted(self.texts - other.texts)[:limit], sorted(other.texts - self.texts)[:limit]


#: two lines whose words agree this much (rapidfuzz's ratio, 0-100) are the same line read twice:
#: OCR reads a glyph as a letter ('q search' for the search icon and 'Search'), drops one
#: ('chargig'); 'settings' and 'setting' agree 93, 'news' and 'notes' 67
SAME_LINE = 90.0


def _near_pairs(a: frozenset[str], b: frozenset[str]) -> dict[str, str]:
    """Texts of ``a`` paired with the same or a near text of ``b`` (one to one): {a's: b's}."""
    from rapidfuzz import fuzz

    pairs = {t: t for t in a & b}
    rest_b = sorted(b - a)
    for t in sorted(a - b):
        best, score = None, SAME_LINE
        for u in rest_b:
            r = fuzz.ratio(t, u, score_cutoff=score)
            if r >= score:
                best, score = u, r
        if best is not None:
            pairs[t] = best
            rest_b.remove(best)
    return pairs


def _with_values(text: str, params: dict[str, str] | None) -> str:
    """A recorded screen's ``text`` with each OLD of ``params`` replaced by its NEW."""
    for old, new in (params or {}).items():
        text = text.replace(old, new)
    return text


def signature(lines: Sequence[Any], height: int, params: dict[str, str] | None = None) -> Signature:
    """The signature of a screen from its text lines (objects with ``text`` and ``box``, as
    ``Perception.parse`` gives them): lines inside the status bar are left out, and ``params``
    replace recorded texts (so that a recording's screens compare with the new values')."""
    texts: set[str] = set()
    placed: set[tuple[str, int]] = set()
    keys = 0
    for line in lines:
        box = line.box
        if len(line.text.strip()) == 1 and line.text.strip().isalpha() and box.y1 > height * KEYBOARD_TOP:
            keys += 1
        if box.y2 <= height * STATUS_BAR or (box.y1 + box.y2) / 2 < height * STATUS_BAR:
            continue
        t = normalise_text(_with_values(line.text, params))
        if not t:
            continue
        texts.add(t)
        placed.add((t, min(BANDS - 1, int((box.y1 + box.y2) / 2 / max(1, height) * BANDS))))
    return Signature(frozenset(texts), frozenset(placed), keys >= KEYBOARD_KEYS)


def screen_signature(perception: Any, image: Image.Image, params: dict[str, str] | None = None) -> Signature:
    """The signature of ``image`` as ``perception`` reads it."""
    return signature(perception.parse(image).lines, image.size[1], params)


# --- interruptions the replay closes itself ---------------------------------------------------------

#: the first words of an ad banner's label ("Ad · SuperSaver VPN", "Sponsored")
_AD_WORDS = ("ad", "ads", "sponsored", "advertisement")


@dataclass(frozen=True)
class Interruption:
    """Something over the screen that the recording did not have and that the replay closes itself,
    with no model: ``kind`` (``ad`` or ``shade``), the operation that closes it, and for a tap the
    point its close button should be near (for the choice among candidates)."""

    kind: str
    operation: Operation
    near: tuple[int, int] | None = None


def find_interruption(lines: Sequence[Any], size: tuple[int, int], recorded: Signature) -> Interruption | None:
    """An interruption on a screen read as ``lines``, that the recorded screen (``recorded``) did
    not show; None when there is none.

    Only those whose closing decides nothing are closed: an ad banner (a line that begins with
    "Ad", "Sponsored"...: its close icon, on the banner's row at the right) and the notification
    shade pulled down over the app ("Clear all" on the screen: Back). A permission dialog is a
    decision (allow or not): it goes to the model, as anything else the recording did not have."""
    w, h = size
    ads = []
    for line in lines:
        t = normalise_text(line.text)
        if not t or t in recorded.texts:
            continue
        if t == "clear all" and (line.box.y1 + line.box.y2) / 2 < h * 0.6:  # the shade: pulled down from the top
            return Interruption("shade", Back())
        if t.split()[0] in _AD_WORDS and len(t.split()) > 1 or t in ("sponsored", "advertisement"):
            ads.append(line)
    if not ads:
        return None
    box = ads[0].box
    # the banner's other lines (its message) sit right below its label: the close icon is at the
    # right end of the banner, at the middle of its label and the line below
    below = [ln for ln in lines if ln.box.y1 >= box.y1 and ln.box.y1 - box.y2 < (box.y2 - box.y1) * 2
             and ln is not ads[0]]
    # the banner must be all that is new: over a dialog (a scrim takes the taps), or on a screen
    # the replay does not know, the ad is not what is in the way
    new = {normalise_text(ln.text) for ln in lines if (ln.box.y1 + ln.box.y2) / 2 >= h * STATUS_BAR}
    new -= recorded.texts | {""}
    new -= {normalise_text(ln.text) for ln in [ads[0], *below[:1]]}
    if len(new) > 1:
        return None
    y2 = max([box.y2] + [ln.box.y2 for ln in below[:1]])
    cy = (box.y1 + y2) // 2
    vertical = "top" if cy < h * 0.36 else "bottom" if cy > h * 0.64 else "center"
    return Interruption("ad", ClickIcon("close", (vertical, "right")), (int(w * 0.95), int(cy)))


# --- the recording ----------------------------------------------------------------------------------

@dataclass
class RecordedStep:
    """One step the replay hands to the loop: the recorded step's number, its operation (with the
    params applied), its screenshot, the point and text its grounding chose, and its thought."""

    step: int
    operation: Operation
    screenshot: Path
    point: tuple[int, int] | None = None
    chosen_text: str | None = None
    thought: str = ""


@dataclass
class Recording:
    """A run folder read for replay (:meth:`load`)."""

    folder: Path
    instruction: str
    steps: list[RecordedStep]
    device: str = ""
    model: str = ""
    #: the text lines read off each recorded screen (step -> (height, [(text, y1, y2)])), kept in a
    #: cache entry's ``lines.json`` so that a replay of it reads no recorded screen again
    lines: dict[int, tuple[int, list[tuple[str, int, int]]]] = field(default_factory=dict)
    #: the secrets (``--secret NAME=VALUE``) the recording types as ``{NAME}``: a cache entry's
    #: ``cache.json`` lists them; the replay needs their values
    secrets: list[str] = field(default_factory=list)
    #: each recorded screen's parse as the recorded run read it (step -> ParseResult.to_record()),
    #: from ``parses.json``: handed to perception before the screen is checked (:meth:`ReplayPlanner._seed`)
    parses: dict[int, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, folder: str | Path, params: dict[str, str] | None = None) -> Recording:
        """Read ``folder``. Raises :class:`ReplayError` (one line: what is wrong) for a folder that
        is not a run, a corrupt one, a multi-mode run, or a run that did not complete."""
        folder = Path(folder)
        if not folder.is_dir():
            raise ReplayError(f"{folder} is not a folder: give a run folder (it holds steps.jsonl and screens/)")
        if not (folder / "steps.jsonl").is_file():
            raise ReplayError(f"{folder} is not a run folder: it has no steps.jsonl")
        try:
            summary = load_json((folder / SUMMARY).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ReplayError(f"{folder} holds no {SUMMARY}: the run did not finish, so it cannot be replayed") from None
        except (OSError, ValueError) as exc:
            raise ReplayError(f"{folder / SUMMARY} cannot be read: {exc}") from None
        if not isinstance(summary, dict) or not isinstance(summary.get("instruction"), str) \
                or "outcome" not in summary:
            raise ReplayError(f"{folder / SUMMARY} is not a mobile-agent run summary (no instruction and outcome)")
        try:
            records = read_steps(folder)
        except (OSError, ValueError) as exc:
            raise ReplayError(f"{folder} is corrupt: {exc}") from None
        if any(r.multi is not None for r in records):
            raise ReplayError(f"{folder} was recorded in multi mode; replay reads single-mode runs")
        if not summary.get("completed"):
            raise ReplayError(f"{folder} holds a run that did not complete (outcome: {summary.get('outcome')}); "
                              "replay plays completed runs")
        steps = [s for r in records if (s := _replayable(folder, r, params or {})) is not None]
        if not steps or not isinstance(steps[-1].operation, Stop):
            raise ReplayError(f"{folder} has no recorded steps that end in Stop: nothing to replay")
        for s in steps:
            _check_screenshot(folder, s)
        secrets: list[str] = []
        try:
            meta = load_json((folder / "cache.json").read_text(encoding="utf-8"))
            secrets = [str(n) for n in meta.get("secrets") or []]
        except (OSError, ValueError, AttributeError, TypeError):
            pass  # not a cache entry
        return cls(folder, summary["instruction"], steps, str(summary.get("device") or ""),
                   str(summary.get("model") or ""), _read_lines(folder / LINES), secrets, _read_parses(folder / PARSES))


def _check_screenshot(folder: Path, s: RecordedStep) -> None:
    """A :class:`ReplayError` for a recorded screenshot that is not a file of the run folder (a
    path out of it by ``..``, an absolute path, a symbolic link: ``fsutil.path_inside``, the
    report's own check), is missing, or whose header says more than 40 million pixels (read before
    the first step, never decoded)."""
    rel = s.screenshot.name
    if not s.screenshot.is_file():
        raise ReplayError(f"{folder} is corrupt: step {s.step}'s screenshot {s.screenshot.name} is missing")
    try:
        with open_checked(s.screenshot, "the image"):
            pass
    except ImageError as exc:
        raise ReplayError(f"{folder} is corrupt: step {s.step}'s screenshot {rel!r}: {exc}") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise ReplayError(f"{folder} is corrupt: step {s.step}'s screenshot {rel!r} cannot be read: {exc}") from None


#: where a cache entry keeps the text lines of its recorded screens
LINES = "lines.json"
#: each recorded screen's parse as the recorded run read it ({step: ParseResult.to_record()}), written
#: beside lines.json by a run whose planner asked a model (agent/overlap.py)
PARSES = "parses.json"


def _read_parses(path: Path) -> dict[int, dict[str, Any]]:
    """The parses kept in ``path`` ({} when there are none or they cannot be read: the screens are read)."""
    try:
        raw = load_json(path.read_text(encoding="utf-8")) if not path.is_symlink() else {}
        return {int(k): v for k, v in raw.items() if isinstance(v, dict)}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def _read_lines(path: Path) -> dict[int, tuple[int, list[tuple[str, int, int]]]]:
    """The lines kept in ``path`` (empty when there are none, or they cannot be read: they are read again)."""
    try:
        raw = load_json(path.read_text(encoding="utf-8"))
        return {int(k): (int(v[0]), [(str(t), int(a), int(b)) for t, a, b in v[1]]) for k, v in raw.items()}
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        return {}


def _replayable(folder: Path, r: StepRecord, params: dict[str, str]) -> RecordedStep | None:
    """The step to replay for record ``r``, or None for a step that did nothing to the phone (an
    error, a target not found, an operation that changed nothing, a Stop not confirmed)."""
    op = r.operation
    if op is None or r.error is not None or r.screenshot is None:
        return None
    if isinstance(op, Stop):
        if r.completion is not None and not r.completion.complete:
            return None
    elif not r.carried_out or r.reflection.verdict == "no_change":
        return None
    point = text = None
    g = r.grounding
    if g is not None and g.chosen is not None and 0 <= g.chosen < len(g.candidates):
        c = g.candidates[g.chosen]
        point, text = (int(c.point[0]), int(c.point[1])), c.text
    try:  # checked here, before the first step: never a file outside the run folder
        path = path_inside(folder, r.screenshot)
    except ValueError as exc:
        raise ReplayError(f"{folder} is corrupt: step {r.step}'s screenshot {r.screenshot!r}: {exc}") from None
    return RecordedStep(r.step, with_params(op, params), path, point, text, r.thought)


def with_params(op: Operation, params: dict[str, str]) -> Operation:
    """``op`` with ``params`` applied: each OLD replaced by NEW inside a typed text, and a Click
    Text target equal to OLD (case aside) replaced by NEW; a cache entry's placeholder (``{NAME}``)
    anywhere in a Click Text target too."""
    if not params:
        return op
    if isinstance(op, Type):
        text = op.text
        for old, new in params.items():
            text = text.replace(old, new)
        return replace(op, text=text)
    if isinstance(op, ClickText):
        for old, new in params.items():
            if op.text.strip().casefold() == old.strip().casefold():
                return replace(op, text=new)
        text = op.text
        for old, new in params.items():  # a cache entry's {NAME} stands for its value wherever it is
            if old.startswith("{") and old.endswith("}"):
                text = text.replace(old, new)
        return replace(op, text=text) if text != op.text else op
    return op


def parse_params(pairs: Sequence[str]) -> dict[str, str]:
    """``["OLD=NEW", ...]`` as a dict; a pair without ``=`` or with an empty OLD is a ConfigError."""
    out: dict[str, str] = {}
    for p in pairs:
        old, eq, new = p.partition("=")
        if not eq or not old:
            raise ConfigError(f"--param {p!r}: write OLD=NEW (the recorded text, then the one to use)")
        out[old] = new
    return out


# --- the planner ------------------------------------------------------------------------------------

@dataclass
class Divergence:
    step: int  # the step of the new run
    recorded_step: int
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "recorded_step": self.recorded_step, "why": self.why}


@dataclass
class _Counts:
    replayed: int = 0
    planned: int = 0
    waited: int = 0
    dismissed: int = 0
    resumed: int = 0
    divergences: list[Divergence] = field(default_factory=list)


class ReplayPlanner(BasePlanner):
    """Plays ``recording`` step by step (see the module's docstring); ``fallback`` (a planner with
    a model, or None) takes over where the phone differs. ``perception`` reads the screens."""

    asks_model = False  # the screen check parses the screenshot itself, on the loop's thread

    def __init__(self, recording: Recording, perception: Any, fallback: Any = None, *,
                 params: dict[str, str] | None = None, threshold: float = MATCH,
                 secrets: dict[str, str] | None = None) -> None:
        self.recording = recording
        self.perception = perception
        self.fallback = fallback
        self.params = dict(params or {})
        # --secret NAME=VALUE: a recorded screen's {NAME} compares as VALUE (the operations keep {NAME}:
        # the loop types the value, and nothing written holds it)
        self._screen_params = {**self.params, **{placeholder(k): v for k, v in (secrets or {}).items()}}
        self.threshold = threshold
        self.name = "replay" + (f"+{fallback.name}" if fallback is not None else "")
        #: False for a cache entry this run may not write (``--cache-mode read-only``): the lines read off
        #: its screens are not kept in it
        self.write_lines = True
        self._seeded: set[int] = set()  # recorded steps whose parse perception was handed (_seed)
        self.cursor = 0  # the next recorded step to replay
        self.planning = False  # whether the fallback has the steps now
        self.last: RecordedStep | None = None  # the recorded step the current step replays
        self.now = ""  # the current step's source: "replayed", "waited" or "planned"
        self.patience = PATIENCE
        self._waits = 0  # Waits in a row for the next recorded step's screen
        self.counts = _Counts()
        self._sigs: dict[int, Signature] = {}
        self._dismissing: Interruption | None = None  # the interruption the current step closes
        self._tries: dict[str, int] = {}  # closing tries of each kind of interruption

    # what the loop asks

    def plan(self, ctx: PlanContext) -> Plan:
        steps = self.recording.steps
        last, self.last = self.last, None
        dismissing, self._dismissing = self._dismissing, None
        if dismissing is not None and ctx.history and ctx.history[-1].outcome.startswith(NOT_CARRIED_OUT):
            self._tries[dismissing.kind] = DISMISS_TRIES  # its close button was not found: the model's
        elif last is not None and ctx.history and ctx.history[-1].outcome.startswith(NOT_CARRIED_OUT):
            self.cursor = steps.index(last)  # to be tried again once the way is clear
            closing = self._interruption(ctx, last)  # an ad banner over the target: closed, no model
            if closing is not None:
                return closing
            return self._diverge(ctx, last.step, f"recorded step {last.step}'s {last.operation} found nothing to "
                                                 "act on on this screen")
        if self.cursor >= len(steps):
            return self._diverge(ctx, steps[-1].step, "the recording has no more steps, and the run is not over")
        self._seed(self.cursor)  # the recorded screen's parse: an unchanged screen reads nothing again
        here = screen_signature(self.perception, ctx.screenshot)
        if not self.planning:
            # the next recorded step; a recorded Wait (a loading screen) is passed over when the
            # screen is already the one after it
            wrong_field = None  # why a Type may not type here (not the recorded field)
            for j in range(self.cursor, len(steps)):
                score = self._score(j, here)
                if score >= self.threshold:
                    wrong_field = self._field_problem(j, here)
                    if wrong_field is None:
                        return self._replay(j, score)
                    break
                if not isinstance(steps[j].operation, Wait):
                    break
            rs = steps[self.cursor]
            closing = self._interruption(ctx, rs)
            if closing is not None:  # an ad banner, the shade: closed with no model
                return closing
            if self._waits < self.patience:  # a screen still loading, a toast: wait before giving up
                self._waits += 1
                return self._wait(rs, self._score(self.cursor, here))
            return self._diverge(ctx, rs.step, wrong_field or self._mismatch(rs, here))
        # with the model: back on a recorded screen? The first recorded step ahead planned on this
        # kind of screen, unless that is ambiguous: a Type (never typed into a field the replay did
        # not focus as the recording did: only the step right after the last replayed one, with
        # the keyboard still up, as recorded), or a Stop past steps still to do (an inbox before
        # and after sending looks the same)
        for j in range(self.cursor, len(steps)):
            score = self._score(j, here)
            if score < self.threshold:
                continue
            op = steps[j].operation
            if isinstance(op, Type) and (not (j == self.cursor and here.keyboard and self._recorded_signature(j).keyboard)
                                         or self._field_problem(j, here)):
                break  # a Type only where the replayed step before it focused the field (keyboard still up)
            if isinstance(op, Stop) and j > self.cursor:
                break
            self.planning = False
            self.counts.resumed += 1
            return self._replay(j, score, resumed=True)
        closing = self._interruption(ctx, steps[min(self.cursor, len(steps) - 1)])
        if closing is not None:
            return closing
        return self._planned(ctx)

    def choose(self, ctx: PlanContext, marked: Image.Image, candidates: Sequence[Any], question: str) -> Choice:
        if self.now == "planned":
            return self.fallback.choose(ctx, marked, candidates, question)
        if not candidates:
            return Choice(None, raw="replay")
        if self._dismissing is not None and self._dismissing.near is not None:
            near = self._dismissing.near
            strong = [i for i, c in enumerate(candidates) if c.score >= MIN_CLOSE_SCORE]
            if not strong:
                return Choice(None, raw=f"replay: no close button scores {MIN_CLOSE_SCORE} or more")
            return Choice(min(strong, key=lambda i: math.hypot(
                candidates[i].point.x - near[0], candidates[i].point.y - near[1])),
                raw=f"replay: the close button nearest the {self._dismissing.kind}")
        rs = self.last
        if rs is None or rs.point is None:
            return Choice(0, raw="replay: the best ranked")
        # the candidate the recording chose: its text, else the nearest to where it was
        same = [i for i, c in enumerate(candidates) if rs.chosen_text and getattr(c, "text", None) == rs.chosen_text]
        pool = same or list(range(len(candidates)))

        def dist(i: int) -> float:
            pt = candidates[i].point
            return math.hypot(pt.x - rs.point[0], pt.y - rs.point[1])  # type: ignore[index]

        return Choice(min(pool, key=dist), raw="replay: the recorded choice")

    def check_completion(self, ctx: PlanContext) -> Completion:
        if self.now == "planned":
            return self.fallback.check_completion(ctx)
        return Completion(True, "replayed: the screen matches the recorded run's last screen")

    def reflect(self, ctx: PlanContext, before: Image.Image, after: Image.Image, operation: Operation,
                thought: str) -> Reflection:
        if self.now == "planned":
            return self.fallback.reflect(ctx, before, after, operation, thought)
        return Reflection(None)

    def prepare(self, image: Image.Image, max_side: int | None, quality: int) -> None:
        prepare = getattr(self.fallback, "prepare", None)
        if prepare is not None and self.planning:
            prepare(image, max_side, quality)

    def summary_extra(self) -> dict[str, Any]:
        """What ``summary.json`` says of the replay: steps replayed and planned, the model calls a
        model planner would have made for the replayed steps (one each, and the completion check
        of a replayed Stop) and did not, and each divergence."""
        self.keep_lines()  # the end of the run
        c = self.counts
        return {"replay": {
            "recording": str(self.recording.folder), "recorded_steps": len(self.recording.steps),
            "replayed_steps": c.replayed, "planned_steps": c.planned, "waited_steps": c.waited,
            "dismissed_steps": c.dismissed, "resumed": c.resumed,
            "model_calls_saved": c.replayed + self._stops_replayed,
            "divergences": [d.to_dict() for d in c.divergences],
            "params": sorted(self.params),  # the names only: the values may be secrets
        }}

    _stops_replayed = 0

    # helpers

    def _score(self, j: int, here: Signature) -> float:
        return self._recorded_signature(j).similarity(here)

    def _recorded_signature(self, j: int) -> Signature:
        if j not in self._sigs:
            rs = self.recording.steps[j]
            if rs.step not in self.recording.lines:
                try:
                    image = load_image(rs.screenshot)  # at most 40 million pixels, checked before decoding
                except (ImageError, OSError, ValueError) as exc:
                    raise ReplayError(f"recorded step {rs.step}'s screenshot cannot be read: {exc}") from None
                lines = [(ln.text, int(ln.box.y1), int(ln.box.y2)) for ln in self.perception.parse(image).lines]
                self.recording.lines[rs.step] = (image.size[1], lines)
                self._new_lines = True
            height, lines = self.recording.lines[rs.step]
            self._sigs[j] = signature([_Line(t, _Rows(a, b)) for t, a, b in lines], height, self._screen_params)
        return self._sigs[j]

    _new_lines = False

    def _seed(self, j: int) -> None:
        """Hand perception the recorded parse of step ``j``'s screen (``parses.json``), once: the
        check of the current screen then reads only what differs from the recorded screen (nothing
        where it is the same), and grounding finds that parse done. The check itself is unchanged."""
        if j >= len(self.recording.steps) or j in self._seeded:
            return
        self._seeded.add(j)
        rs = self.recording.steps[j]
        record = self.recording.parses.get(rs.step)
        remember = getattr(self.perception, "remember", None)
        if record is None or not callable(remember):
            return
        try:
            from mobile_agent.perception.results import ParseResult

            remember(load_image(rs.screenshot), ParseResult.from_record(record))
        except (ImageError, OSError, ValueError) as exc:
            log.debug("the recorded parse of step %s is not used: %s", rs.step, exc)

    def keep_lines(self) -> None:
        """Write the recorded screens' lines read in this replay into a cache entry's ``lines.json``
        (a recording that is not a cache entry is left as it is)."""
        folder = self.recording.folder
        if not self._new_lines or not self.write_lines or not (folder / "cache.json").is_file():
            return
        try:
            atomic_write_text(folder / LINES, json.dumps(
                {str(k): [h, [list(x) for x in v]] for k, (h, v) in self.recording.lines.items()}, ensure_ascii=False))
        except OSError as exc:
            log.warning("the recorded screens' lines could not be kept: %s", exc)

    def _replay(self, j: int, score: float, resumed: bool = False) -> Plan:
        rs = self.recording.steps[j]
        self.cursor, self.last, self.now, self._waits = j + 1, rs, "replayed", 0
        self._tries.clear()  # on a recorded screen again: the next interruption gets its own tries
        self.counts.replayed += 1
        if isinstance(rs.operation, Stop):
            self._stops_replayed += 1
        how = "the replay resumes here" if resumed else "replayed"
        observation = f"The screen matches recorded step {rs.step} ({score:.2f}): {how}."
        thought = rs.thought or f"Recorded step {rs.step}."
        return Plan(observation, thought, rs.operation, raw=f"Thought: {thought}\nAction: {rs.operation}",
                    input_summary=f"replay: recorded step {rs.step}, no model", source="replayed")

    def _wait(self, rs: RecordedStep, score: float) -> Plan:
        self.now = "waited"
        self.counts.waited += 1
        observation = (f"The screen is not yet the one recorded step {rs.step} was planned on ({score:.2f}); "
                       f"waiting ({self._waits} of {self.patience}) before giving up on it.")
        return Plan(observation, "Wait for the screen to settle.", Wait(), raw="Action: Wait",
                    input_summary="replay: waiting, no model", source="waited")

    def _field_problem(self, j: int, here: Signature) -> str | None:
        """Why recorded step ``j``, a Type, must not type on the screen ``here``: the recording typed
        with the keyboard up and it is not up (no field has the focus), or the recorded field (its
        hint or label: :meth:`_field_line`) is not on the screen (another kind of field has the
        focus: a password where an e-mail address was typed). None when it may (and for other steps)."""
        rs = self.recording.steps[j]
        if not isinstance(rs.operation, Type):
            return None
        if self._recorded_signature(j).keyboard and not here.keyboard:
            return (f"recorded step {rs.step} ({rs.operation}) typed with the keyboard up (a field had the focus); "
                    "no keyboard is up on this screen, so no field has it")
        field = self._field_line(j)
        if field and field not in here.texts and not _near_pairs(frozenset([field]), here.texts):
            return (f"recorded step {rs.step} ({rs.operation}) typed into the field {field!r} (the line where the "
                    "step before it tapped); this screen has no such field")
        return None

    def _field_line(self, j: int) -> str | None:
        """The field recorded step ``j`` typed into, as words: the line of its recorded screen at the
        height where the recorded step before it (a Wait aside) tapped to focus it (its hint or its
        label), or None (no tap before it, or no line there: a field focused by itself)."""
        steps = self.recording.steps
        k = j - 1
        while k >= 0 and isinstance(steps[k].operation, Wait):
            k -= 1
        if k < 0 or steps[k].point is None:
            return None
        self._recorded_signature(j)  # the recorded screen's lines, read once
        height, lines = self.recording.lines[steps[j].step]
        y = steps[k].point[1]  # type: ignore[index]
        best: tuple[float, str] | None = None
        for text, y1, y2 in lines:
            t = normalise_text(_with_values(text, self._screen_params))
            d = abs((y1 + y2) / 2 - y)
            if t and d <= height * 0.04 and (best is None or d < best[0]):
                best = (d, t)
        return best[1] if best else None

    def _interruption(self, ctx: PlanContext, rs: RecordedStep) -> Plan | None:
        """A step that closes an interruption the recording did not have (:func:`find_interruption`),
        or None: none on the screen, or its kind tried :data:`DISMISS_TRIES` times already."""
        found = find_interruption(self.perception.parse(ctx.screenshot).lines, ctx.screenshot.size,
                                  self._recorded_signature(self.recording.steps.index(rs)))
        if found is None or self._tries.get(found.kind, 0) >= DISMISS_TRIES:
            return None
        if isinstance(found.operation, ClickIcon) and not self._close_buttons(ctx, found):
            log.info("replay: %s has no close button scoring %.2f or more: the model is asked", found.kind,
                     MIN_CLOSE_SCORE)
            return None
        self._tries[found.kind] = self._tries.get(found.kind, 0) + 1
        self._dismissing, self.now = found, "dismissed"
        self.counts.dismissed += 1
        what = {"ad": "an ad banner", "shade": "the notification shade"}.get(found.kind, found.kind)
        observation = (f"The screen is not the one recorded step {rs.step} was planned on: {what} the recording did "
                       "not have is over it.")
        thought = f"Close {what} (no model), then go on with the recording."
        return Plan(observation, thought, found.operation, raw=f"Thought: {thought}\nAction: {found.operation}",
                    input_summary=f"replay: closing {what}, no model", source="dismissed")

    def _close_buttons(self, ctx: PlanContext, found: Interruption) -> list[Any]:
        """The candidates for ``found``'s close button that score :data:`MIN_CLOSE_SCORE` or more."""
        op = found.operation
        g = self.perception.ground_icon(ctx.screenshot, op.description, position=op.position,
                                        choose=lambda *_: None)
        return [c for c in g.candidates if c.score >= MIN_CLOSE_SCORE]

    def _planned(self, ctx: PlanContext) -> Plan:
        self.now = "planned"
        self.counts.planned += 1
        plan: Plan = self.fallback.plan(ctx)
        plan.source = "planned"
        return plan

    def _mismatch(self, rs: RecordedStep, here: Signature) -> str:
        expected = self._recorded_signature(self.recording.steps.index(rs))
        missing, new = expected.difference(here)
        score = expected.similarity(here)
        return (f"the screen is not the one recorded step {rs.step} ({rs.operation}) was planned on "
                f"(similarity {score:.2f} < {self.threshold:.2f}): expected {_words(missing)}, "
                f"found {_words(new)} instead")

    def _diverge(self, ctx: PlanContext, recorded_step: int, why: str) -> Plan:
        self.counts.divergences.append(Divergence(ctx.step, recorded_step, why))
        if self.fallback is None:
            raise ReplayDiverged(f"replay diverged at step {ctx.step}: {why}")
        self.planning = True
        return self._planned(ctx)


@dataclass(frozen=True)
class _Rows:
    y1: int
    y2: int


@dataclass(frozen=True)
class _Line:
    text: str
    box: _Rows


def _words(texts: list[str]) -> str:
    return ", ".join(repr(t) for t in texts) if texts else "nothing else"
