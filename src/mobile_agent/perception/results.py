"""Value types that perception returns: text lines with word boxes, icon boxes, parse results,
grounding candidates and grounding outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Sequence

from PIL import Image

from mobile_agent.types import Box, Point


@dataclass(frozen=True, slots=True)
class Word:
    """A word (or, for CJK text, a character) inside a text line, with its own box."""

    text: str
    box: Box
    score: float = 1.0


@dataclass(frozen=True, slots=True)
class TextLine:
    """One line of text found by OCR: its text, box, recognition score and word boxes (may be empty)."""

    text: str
    box: Box
    score: float
    words: tuple[Word, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "box": list(self.box.as_tuple()),
            "score": round(float(self.score), 4),
            "words": [{"text": w.text, "box": list(w.box.as_tuple()), "score": round(float(w.score), 4)}
                      for w in self.words],
        }


@dataclass(frozen=True, slots=True)
class IconBox:
    """A region that looks like an icon or a non-text control, with a detector confidence."""

    box: Box
    score: float
    source: str = "cv"

    def to_dict(self) -> dict[str, Any]:
        return {"box": list(self.box.as_tuple()), "score": round(float(self.score), 4), "source": self.source}


@dataclass
class ParseResult:
    """Everything perception read off one screenshot.

    ``icons`` is ``None`` when icon detection was not asked for (it runs only when an operation
    needs it). ``timings`` holds seconds per stage (``ocr``, ``icons``, ``total``; with the RapidOCR
    engine, ``ocr_detect`` and ``ocr_recognize`` of a full read too) and
    ``reused_lines`` how many lines an incremental parse took over from the previous result.
    ``packed_glyphs``: boxes of glyph-sized crops (a digit, a badge's count, an icon read as text)
    that the RapidOCR engine read packed beside other crops, which is faster but reads a lone glyph
    less surely; their lines in ``lines`` hold those packed readings (or none, where the packed
    reading was empty). :meth:`Perception.lines_alone` gives the lines with them read alone, as
    Click Text matches a short target.
    ``glyphs``: readings set aside as no text: a lone Chinese character or two on a screen that
    shows no Chinese or Japanese text (an icon read as "日", "田", "口", a battery as "白", a Korean
    word misread); they are not in ``lines`` (nor in the screen's texts) but stay icon candidates.
    """

    width: int
    height: int
    lines: list[TextLine]
    icons: list[IconBox] | None = None
    timings: dict[str, float] = field(default_factory=dict)
    engine: str = ""
    incremental: bool = False
    reused_lines: int = 0
    changed_regions: list[Box] = field(default_factory=list)
    packed_glyphs: list[Box] = field(default_factory=list)
    glyphs: list[TextLine] = field(default_factory=list)

    @property
    def texts(self) -> list[str]:
        return [line.text for line in self.lines]

    def to_record(self) -> dict[str, Any]:
        """The text parse as a run keeps it (``parses.json``), with the glyphs set aside and the
        packed glyphs' boxes: :meth:`from_record` makes the same result again (its icons aside)."""
        return {"width": self.width, "height": self.height, "engine": self.engine,
                "lines": [line.to_dict() for line in self.lines], "glyphs": [g.to_dict() for g in self.glyphs],
                "packed_glyphs": [list(b.as_tuple()) for b in self.packed_glyphs]}

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> ParseResult:
        """The result :meth:`to_record` wrote (a ValueError for one that is not)."""
        try:
            def line(x: dict[str, Any]) -> TextLine:
                return TextLine(str(x["text"]), Box(*map(int, x["box"])), float(x["score"]),
                                tuple(Word(str(w["text"]), Box(*map(int, w["box"])), float(w["score"]))
                                      for w in x.get("words") or ()))

            return cls(int(d["width"]), int(d["height"]), [line(x) for x in d["lines"]], None, {}, str(d.get("engine", "")),
                       packed_glyphs=[Box(*map(int, b)) for b in d.get("packed_glyphs") or ()],
                       glyphs=[line(x) for x in d.get("glyphs") or ()])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a kept parse: {exc}") from None

    def to_dict(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "engine": self.engine,
            "incremental": self.incremental,
            "reused_lines": self.reused_lines,
            "changed_regions": [list(b.as_tuple()) for b in self.changed_regions],
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
            "lines": [line.to_dict() for line in self.lines],
            "icons": None if self.icons is None else [i.to_dict() for i in self.icons],
        }


@dataclass(frozen=True, slots=True)
class Candidate:
    """A place where an operation could act: a box, the point to tap in it, a score in [0, 1], and
    the text found there (``None`` for icons)."""

    box: Box
    point: Point
    score: float
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"box": list(self.box.as_tuple()), "point": [self.point.x, self.point.y],
                "score": round(float(self.score), 4), "text": self.text}


GroundingStatus = Literal["found", "none", "ambiguous", "too_many"]


@dataclass
class Grounding:
    """The outcome of grounding one operation.

    ``status``: ``found`` (``chosen`` is where to act), ``none`` (nothing matched; ``message``
    names the closest texts on the screen), ``ambiguous`` (several matched and nobody chose;
    ``marked`` shows them numbered), ``too_many`` (ask the planner for a more specific target).
    ``candidates`` are best first.
    """

    status: GroundingStatus
    candidates: list[Candidate] = field(default_factory=list)
    chosen: Candidate | None = None
    message: str = ""
    marked: Image.Image | None = None

    @property
    def found(self) -> bool:
        return self.status == "found" and self.chosen is not None

    @property
    def point(self) -> Point | None:
        return self.chosen.point if self.chosen is not None else None

    @property
    def chosen_index(self) -> int | None:
        if self.chosen is None:
            return None
        for i, c in enumerate(self.candidates):
            if c is self.chosen or c == self.chosen:
                return i
        return None

    def to_dict(self) -> dict[str, Any]:
        """The form the trajectory's ``grounding`` field takes (``chosen`` is an index or null)."""
        return {
            "status": self.status,
            "candidates": [c.to_dict() for c in self.candidates],
            "chosen": self.chosen_index,
            "message": self.message,
        }


ChooseFn = Callable[[Image.Image, Sequence[Candidate], str], "int | None"]
"""``choose(marked_image, candidates, question) -> index | None``: asks the planner to pick."""
