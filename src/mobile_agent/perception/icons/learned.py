"""Click Icon scored by the learned recogniser (``recogniser.py``) beside the shape matcher.

``LearnedIconMatcher`` (matcher ``learned``, the default) asks the recogniser, once a box and
screenshot, how likely each box shows a concept the description names (its vocabulary glyphs, each
at its weight), and blends that with the shape matcher's score (``offline.OfflineIconMatcher``,
which keeps what it judges beyond the glyph: colour words, pictures and avatars, a photo's clutter,
a switch, a chip's frame, a sliver of a glyph). ``blend`` 0 is the shape matcher alone, 1 the
recogniser alone wherever the description names a concept.

A description the vocabulary does not know ("Anchor", "Rocket") is looked up by name among the
glyphs of Material Design Icons (the qtawesome wheel's font): the glyphs whose names hold its words
are drawn, embedded by the recogniser, and each box scores by how close its embedding comes
(``open_scores``: cosine similarity mapped to [0, 1], ``OPEN_FLOOR`` and below count 0).

When the recogniser's model cannot be loaded (missing or corrupt file), the matcher says so in
``problem`` and knows no description: perception then falls back to the detector's boxes and the
numbered marks, and its answer carries the problem.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from functools import lru_cache
from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.perception.icons.lexicon import IconQuery
from mobile_agent.perception.icons.offline import (OfflineIconMatcher, description_glyphs, glyph_weight,
                                                   glyph_zone, in_zone, qta_font_file)
from mobile_agent.perception.icons.recogniser import (NOT_ICON, IconRecogniser, RecogniserError, concept_of_spec,
                                                      default_recogniser, prepare)
from mobile_agent.types import Box

#: The share of the recogniser's probability in a box's score (the rest is the shape matcher's).
DEFAULT_BLEND = 0.3
#: Cosine similarity of embeddings at or under which an unknown description's glyph is not there.
OPEN_FLOOR = 0.35
#: An unknown description's best box is taken for its glyph from this score up (below, the marks).
OPEN_SURE = 0.4


def concept_weights(description: str | IconQuery) -> list[tuple[str, float, str]]:
    """(concept, weight, zone) for each glyph the description (its text, or the query read from it)
    names, earlier glyphs weighing more (as the shape matcher weighs them)."""
    out: dict[tuple[str, str], float] = {}
    for k, spec in enumerate(description_glyphs(description)):
        w = glyph_weight(spec) * (1.0 - 0.03 * min(k, 3))
        base, zone = glyph_zone(spec)
        c = concept_of_spec(base)
        out[(c, zone)] = max(out.get((c, zone), 0.0), w)
    return [(c, w, z) for (c, z), w in out.items()]


class LearnedIconMatcher:
    """The recogniser's probabilities blended with the shape matcher's scores."""

    name = "learned"

    def __init__(self, model: str | None = None, blend: float = DEFAULT_BLEND, cache: int = 4096) -> None:
        self.offline = OfflineIconMatcher()
        self.blend = blend
        self.problem = ""
        self.recogniser: IconRecogniser | None = None
        try:
            self.recogniser = IconRecogniser(model) if model else default_recogniser()
        except RecogniserError as exc:
            if model:  # a model the user named: say so at once
                raise
            self.problem = f"{exc}; icons are chosen among numbered marks instead"
        self._memo: OrderedDict[tuple[bytes, tuple[int, int, int, int]], tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._cache = cache

    # -- the recogniser's answers, once a box and screenshot ---------------------------------------
    def recognise(self, rgb: np.ndarray, boxes: Sequence[Box]) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities [N, classes] and embeddings [N, D] of ``boxes`` (memoised)."""
        assert self.recogniser is not None
        key = _key(rgb)
        todo = [b for b in boxes if (key, b.as_tuple()) not in self._memo]
        if todo:
            p, e = self.recogniser.classify(rgb, todo)
            for b, pr, em in zip(todo, p, e):
                self._memo[(key, b.as_tuple())] = (pr, em)
            while len(self._memo) > self._cache:
                self._memo.popitem(last=False)
        rows = [self._memo[(key, b.as_tuple())] for b in boxes]
        if not rows:
            n = len(self.recogniser.classes)
            return np.zeros((0, n), np.float32), np.zeros((0, 1), np.float32)
        return np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows])

    def describe(self, rgb: np.ndarray, boxes: Sequence[Box]) -> list[tuple[str, float]]:
        """What each box looks like in a word people use ("search") and its probability, the
        concepts one word names counted together (Font Awesome's two Bluetooth runes are one);
        ``("", p)`` where no icon is likeliest."""
        if self.recogniser is None or not boxes:
            return [("", 0.0)] * len(boxes)
        probs, _ = self.recognise(rgb, boxes)
        words = [("" if c == NOT_ICON else concept_word(c)) for c in self.recogniser.classes]
        out = []
        for row in probs:
            by_word: dict[str, float] = {}
            for wd, p in zip(words, row):
                by_word[wd] = by_word.get(wd, 0.0) + float(p)
            best = max(by_word.items(), key=lambda kv: kv[1])
            out.append(best)
        return out

    # -- the matcher protocol ----------------------------------------------------------------------
    def knows(self, description: str) -> bool:
        """Whether the description names a glyph of the lexicon, a colour or a picture (a
        description it does not know is answered by ``open_scores``, after Click Icon's other terms)."""
        return self.recogniser is not None and self.offline.knows(description)

    def score(self, rgb: np.ndarray, boxes: Sequence[Box], description: str) -> list[float]:
        if self.recogniser is None:
            return [0.0] * len(boxes)
        query = IconQuery.parse(description)  # the description read once
        weights = concept_weights(query)
        # a picture of a person (a photo or a letter on a disc: the recogniser knows glyphs, not
        # faces or initials) or a switch (the row's control, which the words name the glyph of)
        if not weights or query.someone or query.switch:
            if self.offline.knows(description):  # colour, picture, avatar or switch words: the shape matcher's terms
                return self.offline.score(rgb, boxes, description)
            return self.open_scores(rgb, boxes, description)
        learned = self.learned_scores(rgb, boxes, weights)
        if self.blend >= 1.0:
            return learned
        shapes = self.offline.score(rgb, boxes, description)
        return [float((1 - self.blend) * s + self.blend * p) for s, p in zip(shapes, learned)]

    def learned_scores(self, rgb: np.ndarray, boxes: Sequence[Box],
                       weights: list[tuple[str, float, str]]) -> list[float]:
        """For each box, the probability that it shows a concept of ``weights`` (each at its weight,
        a zone's concept only inside its zone), at most 1."""
        assert self.recogniser is not None
        if not boxes:
            return []
        probs, _ = self.recognise(rgb, boxes)
        h, w = rgb.shape[:2]
        out = []
        idx = self.recogniser.index
        for b, row in zip(boxes, probs):
            s = sum(wt * float(row[idx[c]]) for c, wt, zone in weights
                    if c in idx and (not zone or in_zone(zone, b, w, h)))
            out.append(min(1.0, s))
        return out

    def open_scores(self, rgb: np.ndarray, boxes: Sequence[Box], description: str) -> list[float]:
        """Scores for a description the vocabulary does not know, by the embeddings of the glyphs
        whose names hold its words (0 for every box where none is found)."""
        refs = open_glyphs(description)
        if self.recogniser is None or not refs or not boxes:
            return [0.0] * len(boxes)
        _, ref_emb = self.recogniser.run(np.stack([r[1] for r in refs]))
        _, emb = self.recognise(rgb, boxes)
        sims = (emb @ ref_emb.T).max(axis=1)
        return [float(np.clip((s - OPEN_FLOOR) / (1.0 - OPEN_FLOOR), 0.0, 1.0)) for s in sims]


@lru_cache(maxsize=1)
def _concept_words() -> dict[str, str]:
    from mobile_agent.perception.icons.lexicon import VOCABULARY

    out: dict[str, str] = {}
    for word, specs in VOCABULARY.items():
        if specs:
            out.setdefault(concept_of_spec(specs[0]), word.replace("_", " "))
    return out


def concept_word(concept: str) -> str:
    """A word people use for a concept ("magnifying_glass" -> "search")."""
    return _concept_words().get(concept, concept.removeprefix("mi:").replace("_", " "))


def _key(rgb: np.ndarray) -> bytes:
    h = hashlib.sha256(b"%dx%d:" % (rgb.shape[1], rgb.shape[0]))
    h.update(memoryview(np.ascontiguousarray(rgb)).cast("B"))
    return h.digest()[:16]


# ---------------------------------------------------------------------------------------------
# glyphs by name, for descriptions the vocabulary does not know
# ---------------------------------------------------------------------------------------------
_STOP = {"icon", "button", "the", "a", "an", "of", "on", "in", "to", "and", "or", "with", "for", "my", "your",
         "open", "show", "go", "tap", "image", "symbol", "logo", "new", "more", "top", "bottom", "left", "right"}


def _mdi() -> tuple[str, dict[str, int]] | None:
    """Material Design Icons 6, the font of the qtawesome wheel (a dependency)."""
    return qta_font_file("materialdesignicons6-webfont")


@lru_cache(maxsize=256)
def open_glyphs(description: str, most: int = 4) -> tuple[tuple[str, np.ndarray], ...]:
    """Up to ``most`` glyphs of Material Design Icons named by the description's words (a name
    whose first word is one of them, the plainest names first), each drawn and prepared as the
    recogniser's input."""
    mdi = _mdi()
    words = [w for w in re.findall(r"[a-z]+", description.lower()) if len(w) > 2 and w not in _STOP]
    if mdi is None or not words:
        return ()
    font_path, cmap = mdi
    names: list[str] = []
    for w in words:
        for n in sorted((n for n in cmap if n.split("-")[0] in (w, w.rstrip("s"))), key=lambda n: (n.count("-"), n)):
            if n not in names:
                names.append(n)
    out = []
    font = ImageFont.truetype(font_path, 96)
    for n in names[:most]:
        img = Image.new("RGB", (144, 144), (255, 255, 255))
        ImageDraw.Draw(img).text((24, 24), chr(cmap[n]), fill=(0, 0, 0), font=font)
        a = np.asarray(img)
        ys, xs = np.nonzero(a[..., 0] < 128)
        if len(xs) < 10:
            continue
        pad = 6
        crop = a[max(0, ys.min() - pad):ys.max() + pad + 1, max(0, xs.min() - pad):xs.max() + pad + 1]
        out.append((n, prepare(np.ascontiguousarray(crop))))
    return tuple(out)


__all__ = ["LearnedIconMatcher", "concept_weights", "concept_word", "open_glyphs", "DEFAULT_BLEND", "OPEN_FLOOR", "OPEN_SURE"]
