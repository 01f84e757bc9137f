"""Matching a target text against OCR lines: normalisation, exact, contained and fuzzy matches.

Normalisation folds case, full-width forms (NFKC), quotes, dashes and runs of spaces, and drops
punctuation at word edges. Fuzzy thresholds depend on the target's length: short targets must
match (almost) exactly, long ones may differ by a few OCR slips.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from mobile_agent.perception.results import TextLine, Word
from mobile_agent.types import Box

_PUNCT_MAP = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
    "\u2212": "-", "\u00a0": " ", "\u3000": " ", "\u2026": "...",
    # OCR reads the degree sign as the ordinal indicator or a ring; NFKC would make those letters.
    "\u00ba": "\u00b0", "\u02da": "\u00b0", "\u2070": "\u00b0",
})
_SPACE = re.compile(r"\s+")


def _word_char(ch: str) -> bool:
    """A letter, digit, ``_``, one of ``&%+#@$`` or a combining mark: what a word keeps at its
    edges. A vowel sign or a virama ends many words of Indic scripts and Thai ("हाँ", "தமிழ்"):
    taken for punctuation at the word's edge it was cut off."""
    return ch.isalnum() or ch in "_&%+#@$" or unicodedata.category(ch).startswith("M")


def _lead_len(w: str) -> int:
    """How many characters before ``w``'s first word character (punctuation at its start)."""
    return next((i for i, ch in enumerate(w) if _word_char(ch)), len(w))


def _trail_len(w: str) -> int:
    """How many characters after ``w``'s last word character (punctuation at its end)."""
    return next((i for i, ch in enumerate(reversed(w)) if _word_char(ch)), len(w))


def _strip_edges(w: str) -> str:
    """``w`` without the punctuation at its edges."""
    a, b = _lead_len(w), _trail_len(w)
    return w[a:len(w) - b] if a < len(w) else ""


# Arabic script as OCR reads it: its letters differ from one another by their dots (ب ت ث ن ي,
# ج ح خ, ع غ...), which Tesseract's packs misread at screen sizes ("غمان" for "عُمان"), Persian and
# Urdu write some letters in forms of their own (ک ی پ) that the Arabic pack reads as the Arabic
# ones ("ياكستان" for "پاکستان"), and vowel marks (harakat) are small and often dropped. Texts are
# compared on the letters' dotless skeletons (rasm), without the marks.
_ARABIC_FOLD = str.maketrans({
    **{ch: "ٮ" for ch in "بتثنيپیىئں"},  # ٮ
    **{ch: "ح" for ch in "جخچ"},  # ح
    "ذ": "د", "ز": "ر", "ژ": "ر", "ش": "س", "ض": "ص",
    "ظ": "ط", "غ": "ع", "ق": "ف", "ک": "ك", "گ": "ك",
    "ة": "ه", "ہ": "ه", "ۃ": "ه", "ؤ": "و",
    **{ch: "ا" for ch in "أإآٱ"},  # ا
    **{chr(c): None for c in list(range(0x064B, 0x0660)) + [0x0670, 0x0640]},  # harakat, tatweel
})


def normalize_text(s: str) -> str:
    """Case-folded, NFKC (full-width to ASCII), unified quotes/dashes, single spaces, no edge
    punctuation; Arabic script on its letters' skeletons (see ``_ARABIC_FOLD``)."""
    s = unicodedata.normalize("NFKC", s.translate(_PUNCT_MAP)).translate(_PUNCT_MAP).casefold()
    if any("؀" <= ch <= "ۿ" for ch in s):
        s = s.translate(_ARABIC_FOLD)
    s = _SPACE.sub(" ", s).strip()
    return " ".join(t for t in (_strip_edges(w) for w in s.split(" ")) if t)


_GLYPH_FOLD = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "!": "l", "5": "s", "2": "z"})


def fold_glyphs(s: str) -> str:
    """Characters OCR confuses when they stand alone (o/0, l/1/i, s/5, z/2), folded together."""
    return s.translate(_GLYPH_FOLD)


def _symbols(s: str) -> str:
    """``s`` in NFKC form with unified punctuation and no spaces (for targets with no letters)."""
    return "".join(unicodedata.normalize("NFKC", s.translate(_PUNCT_MAP)).split())


def is_glyph_target(target: str) -> bool:
    """Whether ``target`` is one or two characters (a key, a digit, a symbol): such a target may be
    a lone glyph the line detector misses."""
    n = len(compact(target))
    return 1 <= n <= 2 or (n == 0 and 1 <= len(_symbols(target)) <= 2)


def compact(s: str) -> str:
    """``normalize_text`` without any spaces or punctuation (OCR often merges or splits words)."""
    return _kept_chars(normalize_text(s))


def _kept_chars(s: str) -> str:
    """The letters, digits, the signs ``&%+#@$`` and the combining marks of ``s`` (what
    :func:`compact` keeps). The marks are a letter's vowel sign or diacritic in the scripts that
    write them apart (Devanagari "हाँ": "ह" with "ा" and "ँ"; Bengali, Thai, Tamil...): without them
    "हाँ" ("yes") was "ह" and matched a line reading "ह", "बाद में" ("later") "बदम" (docs/perception.md,
    "Vowel signs and diacritics")."""
    return "".join(ch for ch in s if ch.isalnum() or ch in "&%+#@$" or unicodedata.category(ch).startswith("M"))


# Letters a language adds to Cyrillic that the Russian and Ukrainian packs read as the nearest
# Russian letter (Kazakh "Қазақ" as "Казак"), and Latin letters with a stroke or a form of their own
# that a recogniser without them reads as the plain letter ("Łódź" as "Lodz", "Azərbaycan" as
# "Azarbaycan" or "Azerbaycan").
_LETTER_FOLD = str.maketrans({
    "қ": "к", "ғ": "г", "ү": "у", "ұ": "у", "ә": "а", "ө": "о", "һ": "х", "ң": "н", "ў": "у", "ј": "j",
    "ї": "і", "ґ": "г", "є": "е", "ђ": "д", "ћ": "һ", "џ": "ц", "љ": "л", "њ": "н", "ѓ": "г", "ќ": "к",
    "ł": "l", "ø": "o", "đ": "d", "ı": "i", "ə": "e", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ð": "d",
    # the candrabindu, a small moon and dot over an Indic vowel (Bengali "হ্যাঁ", Devanagari "हाँ"),
    # which Tesseract's packs leave out ("হ্যা")
    "\u0901": None, "\u0981": None, "\u0a01": None, "\u0a81": None, "\u0b01": None,
})


def fold_marks(s: str) -> str:
    """``s`` (compact) without the diacritics of Latin, Greek and Cyrillic letters (the combining
    marks U+0300-U+036F once decomposed: "čeština" as "cestina", Greek's tonos, Vietnamese's
    stacked marks) and with the letters of :data:`_LETTER_FOLD` as their plain lookalikes: what a
    recogniser that does not read the marks or letters makes of them (the default one reads
    "Čeština" as "Cestina" or "Češtin"). The vowel signs of other scripts are kept: they tell
    words apart ("हाँ" is no "ह"); only the candrabindu, which Tesseract leaves out, is not."""
    d = unicodedata.normalize("NFKD", s)
    out = "".join(ch for ch in d if not "\u0300" <= ch <= "\u036f")
    return unicodedata.normalize("NFKC", out).translate(_LETTER_FOLD)


def skeleton(s: str) -> str:
    """``s`` without its combining marks (vowel signs, viramas, diacritics left apart)."""
    return "".join(ch for ch in s if not unicodedata.category(ch).startswith("M"))


def fuzzy_threshold(target: str) -> float:
    """Least similarity (0-100) a fuzzy match needs for a target of this length (compact form, its
    letters without their vowel signs: :func:`skeleton`)."""
    n = len(skeleton(compact(target)))
    if n <= 3:
        return 100.0
    if n <= 5:
        return 85.0
    if n <= 10:
        return 82.0
    return 78.0


@dataclass(frozen=True, slots=True)
class TextMatch:
    """One place a target text was found: the box to act on, a score in [0, 1] and how it matched."""

    box: Box
    score: float
    kind: str  # "exact", "contained", "fuzzy"
    line: TextLine


def _span_box(line: TextLine, words: tuple[Word, ...], start: int, end: int) -> Box:
    """Box of the words (by character span of the normalised line) covering [start, end)."""
    pos = 0
    chosen: list[Box] = []
    for w in words:
        wn = normalize_text(w.text)
        if not wn:
            continue
        ws, we = pos, pos + len(wn)
        if we > start and ws < end:
            a, b = max(ws, start), min(we, end)
            # The word's raw text may hold glyphs normalisation drops ("★★★★☆(275)" is "275"):
            # the normalised characters sit between them, each raw character taking an equal share.
            raw = w.text.strip()
            lead = _lead_len(raw)
            trail = _trail_len(raw) if lead < len(raw) else 0
            core = len(raw) - lead - trail
            if core <= 0:
                lead, core, total = 0, len(wn), float(len(wn))
            else:
                total = float(len(raw))
            step = core / float(len(wn))
            if a == ws and b == we and lead == 0 and core == total:
                chosen.append(w.box)
            else:
                # The target is part of a word ("4.1" of "4.1·52"): that share of the word's box.
                x1 = w.box.x1 + int(w.box.width * (lead + (a - ws) * step) / total)
                x2 = w.box.x1 + int(round(w.box.width * (lead + (b - ws) * step) / total))
                chosen.append(Box(x1, w.box.y1, max(x1 + 1, x2), w.box.y2))
        pos = we + 1
    if not chosen:
        return line.box
    box = Box.enclosing(chosen)
    return Box(box.x1, line.box.y1, box.x2, line.box.y2)


_FIELD_SEP = re.compile(r"\s*[\u00b7\u2022\u22c5\u2027|]\s*")


def _fields(text: str) -> set[str]:
    """The normalised fields of a line made of fields joined by separators (middle dot, bullet,
    bar); empty when there is no separator."""
    parts = _FIELD_SEP.split(text)
    if len(parts) < 2:
        return set()
    return {f for f in (normalize_text(p) for p in parts) if f}


def _words_box(line: TextLine) -> Box:
    """The line's box narrowed to its words (the detector's box also holds glyphs beside the text,
    such as a thumbs-up or a play triangle drawn before a count)."""
    xs = [(w.box.x1, w.box.x2) for w in line.words if any(ch.isalnum() for ch in w.text)]
    if not xs:
        return line.box
    x1, x2 = min(a for a, _ in xs), max(b for _, b in xs)
    if x2 - x1 < 4:
        return line.box
    return Box(x1, line.box.y1, x2, line.box.y2)


def _part_box(line: TextLine, target_n: str) -> Box:
    """The part of ``line`` holding ``target_n``: by word boxes when the engine gave them, else by
    character proportion along the line."""
    ln = normalize_text(line.text)
    start = ln.find(target_n)
    if start < 0:
        return line.box
    end = start + len(target_n)
    if line.words:
        joined = " ".join(normalize_text(w.text) for w in line.words if normalize_text(w.text))
        s2 = joined.find(target_n)
        if s2 >= 0:
            return _span_box(line, line.words, s2, s2 + len(target_n))
        # A line read character by character (lines holding CJK: "7", "8", "%", "日"): the target
        # on the characters' concatenation, boxed by the characters it covers.
        chars: list[str] = []
        owners: list[Word] = []
        for w in line.words:
            for ch in normalize_text(w.text).replace(" ", ""):
                chars.append(ch)
                owners.append(w)
        tgt = target_n.replace(" ", "")
        k = "".join(chars).find(tgt) if tgt else -1
        if k >= 0:
            box = Box.enclosing([o.box for o in owners[k:k + len(tgt)]])
            return Box(box.x1, line.box.y1, box.x2, line.box.y2)
    n = max(1, len(ln))
    w = line.box.width
    x1 = line.box.x1 + int(w * start / n)
    x2 = line.box.x1 + int(round(w * end / n))
    return Box(x1, line.box.y1, max(x1 + 1, x2), line.box.y2)


def _compact_part_box(line: TextLine, tc: str) -> Box:
    """The part of ``line`` holding ``tc`` (compact form, found in the line's compact form): the
    words it covers, a word it covers only in part by that share of the word's box; the line's box
    when the engine gave no words or they do not spell the line."""
    parts = [(w, compact(w.text)) for w in line.words]
    joined = "".join(c for _, c in parts)
    k = joined.find(tc)
    if k < 0:
        return line.box
    end = k + len(tc)
    pos = 0
    chosen: list[Box] = []
    for w, c in parts:
        a, b = max(pos, k), min(pos + len(c), end)
        if c and a < b:
            x1 = w.box.x1 + int(w.box.width * (a - pos) / len(c))
            x2 = w.box.x1 + int(round(w.box.width * (b - pos) / len(c)))
            chosen.append(Box(x1, w.box.y1, max(x1 + 1, x2), w.box.y2))
        pos += len(c)
    box = Box.enclosing(chosen)
    return Box(box.x1, line.box.y1, box.x2, line.box.y2)


def _spaced_glyph_matches(target: str, lines: list[TextLine]) -> list[TextMatch]:
    """A one- or two-character target on a line of widely spaced single glyphs (a keyboard row,
    a keypad): OCR reads such a row as one line, so the glyph is found by its place in it."""
    tc = compact(target)
    out: list[TextMatch] = []
    for line in lines:
        lc = compact(line.text)
        if len(lc) < 2 or tc not in lc:
            continue
        pitch = line.box.width / float(len(lc))
        if pitch < 1.2 * line.box.height:
            continue
        k = lc.find(tc)
        x1 = line.box.x1 + int(pitch * k)
        out.append(TextMatch(Box(x1, line.box.y1, x1 + int(pitch * len(tc)), line.box.y2), 0.6, "contained", line))
    return out


def match_lines(target: str, lines: list[TextLine]) -> list[TextMatch]:
    """Every line that matches ``target``, best first (see :func:`_match_one_line`).

    A target of several lines (``"Title\nsubtitle"``) or cut short (``"Long title…"``) is matched
    whole first, then by its first line. Lines that merge labels at an ellipsis are matched by
    their parts too (:func:`split_at_ellipses`); a part and its line in one place count once.
    """
    lines = list(lines) + [part for line in lines for part in split_at_ellipses(line)]
    return _dedupe(_match_lines(target.strip(), lines))


def _match_lines(target: str, lines: list[TextLine]) -> list[TextMatch]:
    found = _match(target, lines)
    if found and found[0].kind == "exact":
        return found
    # A target that runs over two or three lines of one paragraph (a wrapped title, a preview cut
    # after two lines): the lines joined, where no line alone matched. Where a line only holds
    # the target ("No synchronization"), lines that joined are the target exactly win: a label
    # in a narrow column broken inside its word ("Synchronizati" over "on").
    joined = _match(target, joined_lines(lines))
    if found:
        exact = [m for m in joined if m.kind == "exact"]
        return exact + found if exact else found
    if any(m.kind != "fuzzy" for m in joined):
        return joined
    # One line that reads as the target but for look-alike characters is surer than a fuzzy match
    # of joined lines (a code "0rder #4521-8830" under its label "Tracking", joined by the fuzzy
    # match's partial ratio, would be tapped between the two).
    alike = _lookalike_matches(target, lines)
    if alike:
        return alike
    if joined:
        return joined
    parts = [p.strip().rstrip("\u2026").rstrip(".").strip() for p in target.replace("\r", "\n").split("\n")]
    parts = [p for p in parts if compact(p)]
    if len(parts) > 1:
        found = _match(" ".join(parts), lines)
        if found:
            return found
        for part in sorted(parts, key=len, reverse=True)[:2]:
            found = _match(part, lines)
            if found:
                return found
    elif parts and parts[0] != target:
        found = _match(parts[0], lines)
        if found:
            return found
    if 1 <= len(compact(target)) <= 2:
        found = _spaced_glyph_matches(target, lines)
        if found:
            return found
    return _script_edge_matches(target, lines)


def joined_lines(lines: list[TextLine], most: int = 3) -> list[TextLine]:
    """Lines that may be one text OCR read as several, each run joined into one line: runs of two
    to ``most`` lines of one paragraph (every next line directly below the last, a gap under 0.6
    line heights, of a similar height, starting, centred or ending where it does), a line and the
    words of a wider line below that lie under it (a grid's two-line label whose second line OCR
    joined with the next cell's), and two lines side by side on one row, under a line height apart
    (a number in large type and its unit in small type)."""
    rows = sorted(lines, key=lambda l: (l.box.y1, l.box.x1))
    out: list[TextLine] = []

    def below(a: TextLine) -> TextLine | None:
        ha = a.box.height
        for b in rows:
            hb = b.box.height
            if b is a or not (0.75 <= hb / max(1, ha) <= 1.33):
                continue
            gap = b.box.y1 - a.box.y2
            # boxes of tightly spaced lines overlap (a launcher's two-line label under its icon)
            if not (-0.5 * min(ha, hb) <= gap <= 0.6 * min(ha, hb)):
                continue
            tol = 0.6 * min(ha, hb)
            if (abs(b.box.x1 - a.box.x1) <= tol or abs(b.box.center.x - a.box.center.x) <= tol
                    or abs(b.box.x2 - a.box.x2) <= tol):
                return b
        return None

    def beside(a: TextLine) -> TextLine | None:
        for b in rows:
            h = min(a.box.height, b.box.height)
            overlap = min(a.box.y2, b.box.y2) - max(a.box.y1, b.box.y1)
            gap = b.box.x1 - a.box.x2
            if (b is not a and b.box.x1 > a.box.x1 and b.box.x2 > a.box.x2 and overlap >= 0.5 * h
                    and -h <= gap <= 0.8 * h):
                return b
        return None

    def across(n: TextLine, below: bool) -> TextLine | None:
        """The words of a wider line directly below ``n`` (``below``) or above it that lie across
        it: a two-line label in a grid (a launcher's app names, a share sheet's targets, quick
        settings tiles) whose second line OCR read together with the next cell's second line
        ("Authenticator Google"), or whose first line it read with the next cell's first line
        ("Files by Calculator" over "Google" and "Calculator"'s empty second line)."""
        hn = n.box.height
        for w in rows:
            hw = w.box.height
            if w is n or not w.words or not (0.75 <= hw / max(1, hn) <= 1.33):
                continue
            upper, lower = (n, w) if below else (w, n)
            if not (-0.5 * min(hn, hw) <= lower.box.y1 - upper.box.y2 <= 0.6 * min(hn, hw)):
                continue
            if w.box.width < n.box.width + hn:
                continue
            lo, hi = n.box.x1 - 0.3 * hn, n.box.x2 + 0.3 * hn
            inside = [x for x in w.words if x.text.strip() and lo <= x.box.center.x <= hi]
            if inside and len(inside) < len([x for x in w.words if x.text.strip()]):
                return TextLine(" ".join(x.text.strip() for x in inside),
                                Box(min(x.box.x1 for x in inside), w.box.y1, max(x.box.x2 for x in inside), w.box.y2),
                                w.score, tuple(inside))
        return None

    for a in rows:
        part = across(a, below=True)
        if part is not None:
            out.append(TextLine(f"{a.text.strip()} {part.text}", Box.enclosing([a.box, part.box]),
                                min(a.score, part.score), a.words + part.words))
        part = across(a, below=False)
        if part is not None:
            out.append(TextLine(f"{part.text} {a.text.strip()}", Box.enclosing([part.box, a.box]),
                                min(a.score, part.score), part.words + a.words))
        b = beside(a)
        if b is not None:
            # a number in large type and its unit in small type, read as two lines ("8,432" "steps")
            out.append(TextLine(f"{a.text.strip()} {b.text.strip()}", Box.enclosing([a.box, b.box]),
                                min(a.score, b.score), a.words + b.words))
        run = [a]
        while len(run) < most:
            b = below(run[-1])
            if b is None or b in run:
                break
            run.append(b)
            out.append(TextLine(" ".join(l.text.strip() for l in run), Box.enclosing([l.box for l in run]),
                                min(l.score for l in run), tuple(w for l in run for w in l.words)))
    return out


def split_at_ellipses(line: TextLine) -> list[TextLine]:
    """The labels of a line OCR read across neighbouring labels, split after each word that ends
    in an ellipsis ("Blue and White Por... Run the Morning": two cards' titles, the first cut
    short); nothing for a line with no such word inside it. The parts are matched beside the
    whole line, so a label that holds an ellipsis itself ("Loading... please wait") still matches."""
    words = [w for w in line.words if w.text.strip()]
    if len(words) < 2:
        return []
    parts: list[list[Word]] = [[]]
    for w in words:
        parts[-1].append(w)
        if w.text.rstrip().endswith(("...", "\u2026")):
            parts.append([])
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return []
    return [TextLine(" ".join(w.text.strip() for w in p),
                     Box(min(w.box.x1 for w in p), line.box.y1, max(w.box.x2 for w in p), line.box.y2),
                     line.score, tuple(p)) for p in parts]


def _dedupe(matches: list[TextMatch]) -> list[TextMatch]:
    """Matches best first, less any that is the same place as a better one (a line and its part:
    "Loading..." of the label "Loading... please wait" where the whole label matched)."""
    out: list[TextMatch] = []
    for m in matches:
        if not any(o.box.iou(m.box) > 0.5 or (m.line is not o.line and _within(m.line.box, o.line.box)
                                              and o.box.contains_point(m.box.center)) for o in out):
            out.append(m)
    return out


def _within(inner: Box, outer: Box) -> bool:
    """Whether ``inner`` lies inside ``outer`` (a part of a line inside its line)."""
    return outer.x1 <= inner.x1 and inner.x2 <= outer.x2 and outer.y1 <= inner.y1 and inner.y2 <= outer.y2


def _char_class(ch: str) -> str:
    if ord(ch) >= 0x2E80:
        return "cjk"
    if ch.isdigit():
        return "digit"
    if ch.isalpha():
        return "alpha"
    return "other"


def _script_edge_matches(target: str, lines: list[TextLine]) -> list[TextMatch]:
    """Where nothing else matched: the target inside a line where it touches other text with no
    space, at a change of script or kind (letters, digits, CJK): OCR joins a status bar's "78%"
    with the battery glyph beside it (read as a CJK character, "78%日"), a network speed with the
    battery level ("0.0K/s78"); Chinese screens run Latin words into Chinese ones ("Wi-Fi设置")."""
    tn = normalize_text(target)
    if len(compact(target)) < 2:
        return []
    out: list[TextMatch] = []
    for line in lines:
        ln = normalize_text(line.text)
        a = ln.find(tn)
        if a < 0:
            continue
        b = a + len(tn)
        before = ln[a - 1] if a > 0 else " "
        after = ln[b] if b < len(ln) else " "
        if _char_class(before) == _char_class(tn[0]) != "other" or _char_class(after) == _char_class(tn[-1]) != "other":
            continue
        if _joins_number(ln, a, b):
            continue
        extra = (len(ln) - len(tn)) / max(1, len(ln))
        out.append(TextMatch(_part_box(line, tn), 0.75 - 0.2 * extra, "contained", line))
    out.sort(key=lambda m: -m.score)
    return out


# Characters OCR reads for one another where letters and digits stand together: a letter for the
# digit of its shape and back ("0rder", "2lst" for "21st", "lz999" for "1Z999"), and a capital I
# for a small l (one glyph in most sans-serif faces). Letters are folded to the digits, before case
# folding, so that a small i (dotted) stays apart from l ("Mail" is no reading of "Mall") and a
# number stays a number to the word-boundary rules ("150" is no word of "3.150").
_LOOKALIKE = str.maketrans({"o": "0", "O": "0", "l": "1", "I": "1", "s": "5", "S": "5", "z": "2", "Z": "2"})


def lookalike_key(s: str) -> str:
    """``normalize_text`` of ``s`` with the characters OCR reads for one another (O/0, I/l/1, S/5,
    Z/2) folded together, to the digit."""
    return normalize_text(s.translate(_LOOKALIKE))


def _lookalike_matches(target: str, lines: list[TextLine]) -> list[TextMatch]:
    """Where nothing else matched: lines that are the target, or hold it as whole words, once the
    characters OCR confuses are folded together (:func:`lookalike_key`): an ordinal's "21st" read
    "2lst", a code's "Order #4521" read "0rder#4521" in a monospaced face whose O is narrow. A
    target of three or more characters (shorter ones have their own rule in :func:`_match`); the
    fold maps distinct digits to distinct letters, so a number one digit off never matches."""
    tc = compact(target)
    if len(tc) < 3:
        return []
    tk = lookalike_key(target)
    tkc = _kept_chars(tk)
    out: list[TextMatch] = []
    for line in lines:
        lk = lookalike_key(line.text)
        lkc = _kept_chars(lk)
        if not lkc:
            continue
        if lkc == tkc:
            out.append(TextMatch(_words_box(line), 0.9, "fuzzy", line))
        elif _contains_words(lk, tk):
            folded = TextLine(lk, line.box, line.score,
                              tuple(Word(lookalike_key(w.text), w.box, w.score) for w in line.words))
            extra = (len(lkc) - len(tkc)) / max(1, len(lkc))
            out.append(TextMatch(_part_box(folded, tk), 0.88 - 0.2 * extra, "fuzzy", line))
    out.sort(key=lambda m: -m.score)
    return out


def _match(target: str, lines: list[TextLine]) -> list[TextMatch]:
    """Every line that matches ``target``, best first.

    Exact (normalised) match scores 1.0; the target contained in a longer line scores 0.9 minus a
    little for the extra text (the box is the target's part of the line); fuzzy matches score their
    similarity scaled into 0.5-0.85.
    """
    tn = normalize_text(target)
    tc = compact(target)
    if not tc:
        # Punctuation alone ("," or "." on a keyboard): the line must be that symbol.
        ts = _symbols(target)
        return [TextMatch(line.box, 1.0, "exact", line) for line in lines if ts and _symbols(line.text) == ts]
    out: list[TextMatch] = []
    thr = fuzzy_threshold(target)
    sym = _lead_symbol(target)
    tf = fold_marks(tc)
    for line in lines:
        ln = normalize_text(line.text)
        lc = compact(line.text)
        if not lc:
            continue
        if sym:
            # A value after a symbol ("⊖ $100.00", "⇄ $0.00": a sum's kind; "★ 4.5"): the symbol
            # tells apart fields that hold the same value (the income, expense and transfer sums
            # of one account, "-$100.00" in a row). A line that shows a lone glyph before the
            # value is the target, the same glyph first (OCR reads some symbols as letters, "Θ"
            # for "⊖"); a line that holds the value with no glyph before it is another field.
            lt = line.text.split()
            if len(lt) >= 2 and len(lt[0]) == 1 and not lt[0].isdigit() and compact(" ".join(lt[1:])) == tc:
                out.append(TextMatch(_words_box(line), 1.0 if lt[0] == sym else 0.96, "exact", line))
                continue
            if line.text.strip().startswith(sym) and lc == tc:  # read with no space ("★4.5")
                out.append(TextMatch(_words_box(line), 1.0, "exact", line))
                continue
            if lc == tc:
                out.append(TextMatch(_words_box(line), 0.8, "contained", line))
                continue
        if ln == tn or lc == tc:
            out.append(TextMatch(_words_box(line), 1.0, "exact", line))
            continue
        if fold_marks(lc) == tf:
            # The target read without its diacritics ("Cestina" for "Čeština"), or the line
            # with them where the target has none: exact, but below the line that holds the
            # target's very letters (a screen that shows both: core._best_tier; the same letters
            # were answered just above).
            out.append(TextMatch(_words_box(line), 0.96, "exact", line))
            continue
        if _cursor_reading(tc, lc) and _numbers_agree(target, line.text):  # "1" before "2,480" is a digit
            out.append(TextMatch(_words_box(line), 0.97, "exact", line))
            continue
        if tn in _fields(line.text):
            # One field of a line OCR read across a separator ("4.3★·38 MB", "Sep 13 | 12:10").
            out.append(TextMatch(_part_box(line, tn), 0.97, "exact", line))
            continue
        if len(tc) <= 2 and fold_glyphs(lc) == fold_glyphs(tc):
            out.append(TextMatch(line.box, 0.95, "exact", line))
            continue
        if _contains_words(ln, tn):
            extra = (len(lc) - len(tc)) / max(1, len(lc))
            out.append(TextMatch(_part_box(line, tn), 0.9 - 0.2 * extra, "contained", line))
            continue
        seen = seen_share(target, line.text)
        if seen is not None:
            # The target cut short by the app (an ellipsis, a faded or clipped edge).
            out.append(TextMatch(_words_box(line), 0.1 + 0.8 * seen, "contained", line))
            continue
        if (len(tc) >= 4 and tc in lc and len(tc) / len(lc) >= 0.3 and not _extends_a_number(tn, ln, tc, lc)
                and not (" " not in tn and " " not in ln and _other_word(tc, lc))):
            extra = (len(lc) - len(tc)) / max(1, len(lc))
            # the target's part of the line where it can be placed ("0.0K/s" of "0.0K/s78"; "6.2 km"
            # of "$19.99/mo 6.2km", read without its space), else the line
            box = _part_box(line, tn) if tn in ln else _compact_part_box(line, tc)
            out.append(TextMatch(box, 0.85 - 0.2 * extra, "contained", line))
            continue
        if thr >= 100.0 or _other_word(tc, lc) or not _words_agree(tn, lc):
            continue
        # OCR slips are counted on the letters without their vowel signs (skeleton: as before the
        # signs were kept), so that a long target in a script that writes them is no easier to
        # match fuzzily than a Latin one of as many letters
        ks, ls = skeleton(tc), skeleton(lc)
        sim = fuzz.ratio(ks, ls) if _numbers_agree(target, line.text) else 0.0
        part = 0.0
        if len(ls) > len(ks) + 2 and _numbers_agree(target, line.text, partial=True) and len(ks) >= 6:
            al = fuzz.partial_ratio_alignment(ks, ls)
            # The part of the line the target aligns with must not be another word the target
            # makes by adding letters ("ARTISTS" is not the "artist" of "Go to artist").
            part = 0.0 if al is None or _other_word(ks, ls[al.dest_start:al.dest_end]) else al.score
        best = max(sim, part - 3.0)
        if best >= thr:
            # Near-miss in one or two characters on a long target still beats a partial hit.
            dist = Levenshtein.distance(ks, ls)
            bonus = 0.05 if dist <= 1 else 0.0
            out.append(TextMatch(line.box, 0.5 + 0.35 * (best - thr) / max(1.0, 100.0 - thr) + bonus, "fuzzy", line))
    out.sort(key=lambda m: -m.score)
    return out


# A text field's cursor, a thin upright stroke drawn against the first or the last letter of the
# field's text or hint: OCR reads the stroke as a letter of its own or into the letter beside it,
# a stroke before a bowl making a "b" or an "h" ("|phone number" read "bhone number"), a bowl
# before a stroke a "d".
_STROKES = "l1i|!"
_STROKE_BEFORE = {"b": "pocb", "h": "nh"}
_STROKE_AFTER = {"d": "ocad"}


def _cursor_reading(tc: str, lc: str) -> bool:
    """Whether ``lc`` (a line, compact) is ``tc`` (the target, compact, 6 characters or more) read
    with a text field's cursor against its first or last letter: a stroke added before or after
    it, or the letter beside the stroke read as the letter they make together."""
    if len(tc) < 6 or abs(len(lc) - len(tc)) > 1:
        return False
    if len(lc) == len(tc) + 1:
        return (lc[0] in _STROKES and lc[1:] == tc) or (lc[-1] in _STROKES and lc[:-1] == tc)
    if len(lc) != len(tc):
        return False
    if lc[1:] == tc[1:] and tc[0] in _STROKE_BEFORE.get(lc[0], ""):
        return True
    return lc[:-1] == tc[:-1] and tc[-1] in _STROKE_AFTER.get(lc[-1], "")


def _lead_symbol(target: str) -> str:
    """The symbol that stands alone before a target's value ("⊖" of "⊖ $100.00", "★" of
    "★ 4.5"): a first word of one character that is a mathematical or other symbol (Unicode
    categories Sm, So) and not ASCII, followed by letters or digits; "" where there is none."""
    words = target.split()
    if len(words) < 2 or len(words[0]) != 1 or words[0].isascii() or not compact(" ".join(words[1:])):
        return ""
    return words[0] if unicodedata.category(words[0]) in ("Sm", "So") else ""


_ELLIPSIS_END = re.compile(r"\s*(?:\u2026|\.{2,})\s*$")
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


def seen_share(target: str, line_text: str) -> float | None:
    """How much of ``target`` a line shows that is the target cut short, as a share of its
    characters (compact form); ``None`` when the line is not such a cut.

    How much must be seen: where the line ends in an ellipsis ("Settings and priv…"; OCR reads it
    as "…", "..." or ".."), at least 4 characters and a quarter of the target, the last one allowed
    to be misread; with no ellipsis, the cut must fall inside a word of the target (a faded or
    clipped edge, "Recommended for you based on y") and show at least 8 characters and 35% of it.
    A line that ends where a word of the target ends, with no ellipsis, is a shorter label of its
    own ("Top rated" is not "Top rated near you", "Settings" not "Settings and security"), unless
    the rest of the target is on the lines below (see :func:`joined_lines`) or it shows at least
    16 characters and 35% of the target (a long title's first line read without its second, a
    caption half hidden by a toast).
    The last character before an ellipsis, or of a word's one- or two-character fragment at a
    faded edge ("on yc" for "on yo"), may be misread. Characters OCR confuses (l/1/i, o/0) count as equal."""
    m = _ELLIPSIS_END.search(line_text)
    body = line_text[: m.start()] if m else line_text
    bc, tc = compact(body), compact(target)
    if not bc or len(bc) >= len(tc):
        return None
    ft, fb = fold_glyphs(tc), fold_glyphs(bc)
    # the last character before an ellipsis, or of a word's fragment at a faded edge, may be misread
    words = body.split()
    slack = len(bc) >= 6 and (m is not None or (len(words) > 1 and len(compact(words[-1])) <= 2))
    if not (ft.startswith(fb) or (slack and ft.startswith(fb[:-1]))):
        return None
    share = len(bc) / len(tc)
    if m is not None:
        return share if len(bc) >= 4 and share >= 0.25 else None
    if share < 0.35 or len(bc) < 8:
        return None
    if len(bc) >= 16:
        return share  # the first line of a long target whose next line OCR did not read with it
    # the cut inside a word: the target's next character after the seen ones is a letter or digit
    tn = normalize_text(target)
    k = 0
    for i, ch in enumerate(tn):
        if ch.isalnum() or ch in "&%+#@$":
            k += 1
            if k == len(bc):
                nxt = tn[i + 1] if i + 1 < len(tn) else " "
                return share if nxt.isalnum() else None
    return None


# A glyph the screen's edge cuts shows its left side: a letter that starts with an upright stem
# ("E", "B", "h") shows the stem, which OCR reads as one of these, or leaves out.
_STEM_READINGS = frozenset("Il|1i!")
_STEM_LETTERS = frozenset("BDEFHIKLMNPRbhiklmnpr")


def _cut_letter_fits(read: str | None, stem: bool, letter: str) -> bool:
    """Whether the target's ``letter`` may be the glyph the screen's right edge cuts: read as
    ``read`` (the same letter, or a stem read as "I" of a letter that starts with one), or not read
    (``read`` None), where a sliver of ink is all that shows (``stem``: the sliver is an upright
    stroke, which only a letter starting with one leaves)."""
    if read is not None:
        return read.casefold() == letter.casefold() or (read in _STEM_READINGS and letter in _STEM_LETTERS)
    return not stem or letter in _STEM_LETTERS


def edge_cut_matches(target: str, lines: list[TextLine], width: int,
                     cut: Sequence[tuple[TextLine, bool]] = ()) -> list[TextMatch]:
    """Lines the screen's left or right edge cuts that show a part of the target: a chip or a tab
    of a row that scrolls sideways, drawn past the edge ("Middle" of the chip "Middle East" at the
    right edge, "ettings" of "Settings" at the left). The line must touch the edge (within 1% of
    the width), be the target's start (right edge) or end (left edge) in compact form, the glyph
    the edge cuts in half allowed to be misread ("lorld" for the "orld" of "World"), and show at
    least 4 characters and 30% of the target; the score is that share, as for other cuts.

    At the right edge the cut glyph may also be read as a word of its own, where the target starts
    a word there with a letter it may be ("Middle I" for "Middle E|": the E's stem; not "Middle
    Ages"). ``cut`` adds lines that stop short of the right edge where the picture shows, between
    the line and the edge, the sliver of a glyph OCR left out, with whether that sliver is an
    upright stem (:func:`core._glyph_cut_at_edge`); the target's next letter must fit it."""
    tc = fold_glyphs(compact(target))
    bare = "".join(ch for ch in target if not ch.isspace())
    tw = target.split()
    margin = max(4, int(0.01 * width))
    slivers = {id(line): stem for line, stem in cut}
    out: list[TextMatch] = []
    for line in lines:
        lc = fold_glyphs(compact(line.text))
        ln = normalize_text(line.text)
        seen = ""
        if line.box.x2 >= width - margin:
            # the cut glyph is the last letter of a word ("Middl" + a misread "E")
            slack = len(ln) > 2 and ln[-2] != " "
            seen = lc if tc.startswith(lc) else lc[:-1] if slack and tc.startswith(lc[:-1]) else ""
            lw = line.text.split()
            k = len(lw) - 1
            if not seen and k >= 1 and len(lw[-1]) == 1 and len(tw) > k \
                    and normalize_text(" ".join(lw[:-1])) == normalize_text(" ".join(tw[:k])) \
                    and _cut_letter_fits(lw[-1], False, tw[k][0]):
                seen = fold_glyphs(compact(" ".join(lw[:-1])))
        elif id(line) in slivers and tc.startswith(lc) and len(bare) > len(lc) \
                and _cut_letter_fits(None, slivers[id(line)], bare[len(lc)]):
            seen = lc
        if not seen and line.box.x1 <= margin:
            slack = len(ln) > 2 and ln[1] != " "
            seen = lc if tc.endswith(lc) else lc[1:] if slack and tc.endswith(lc[1:]) else ""
        if 4 <= len(seen) < len(tc) and len(seen) >= 0.3 * len(tc):
            out.append(TextMatch(_words_box(line), 0.1 + 0.8 * len(seen) / len(tc), "contained", line))
    out.sort(key=lambda m: -m.score)
    return out


def _other_word(tc: str, lc: str) -> bool:
    """Whether one of two compact texts is the other with letters added at its end: another word,
    not an OCR slip ("Day" and "Days", "Delete" and "Deleted", "Follow" and "Following": a toggle's
    or a tab's sibling label). OCR misreads a letter or drops a space, it seldom adds letters; but
    it reads a lone upright stroke after a text (a cursor, a divider, a chevron) as "l" or "i",
    which is no other word."""
    short, long = sorted((tc, lc), key=len)
    added = long[len(short):]
    return len(short) >= 3 and long.startswith(short) and added.isalpha() and added not in ("l", "i")


def _words_agree(tn: str, lc: str) -> bool:
    """Whether every word of four or more characters of the target (normalised) is in the line
    (compact), OCR slips allowed: a fuzzy match may misread letters, not leave out a word the
    target has ("Battery Saver history" is not the tile "Battery Saver" over its state "On").
    A line that is the target's start, cut where a FAB, a snackbar or a sheet's edge covers the
    rest, may lack the target's last words; only its last character, a glyph cut in half, may be
    misread ("Weekend hiking plans witł" under a FAB)."""
    tc = compact(tn)
    cut = len(lc) >= 8 and fold_glyphs(tc).startswith(fold_glyphs(lc[:-1]))
    for w in tn.split(" "):
        wc = compact(w)
        if len(wc) >= 4 and wc not in lc and fuzz.partial_ratio(wc, lc) < 75.0:
            return cut
    return True


_DIGIT_LOOKALIKE = str.maketrans({"l": "1", "I": "1", "i": "1", "|": "1", "o": "0", "O": "0", "z": "2", "Z": "2"})
_TOKEN = re.compile(r"\S+")


def _digits(text: str) -> str:
    """The digits of ``text``, reading letters OCR confuses with digits (l/I/i as 1, o/O as 0, z/Z
    as 2) as digits inside a word that holds a digit: OCR reads a tracking number's "1Z999" as
    "lz999", a code's "0" as "O"."""
    out = []
    for tok in _TOKEN.findall(text):
        if any(ch.isdigit() for ch in tok):
            tok = tok.translate(_DIGIT_LOOKALIKE)
        out.append("".join(ch for ch in tok if ch.isdigit()))
    return "".join(out)


def _numbers_agree(target: str, line_text: str, partial: bool = False) -> bool:
    """Whether the target's digits are the line's, in order (separators aside, which OCR may drop:
    "4 6 km" for "4.6 km"): a fuzzy match must not turn "12:15 PM" into "12:05 PM" or "2,480 steps"
    into "12,480 steps". ``partial``: the target is matched against a part of a longer line, whose
    digits need only hold the target's."""
    td = _digits(target)
    if not td:
        return True
    ld = _digits(line_text)
    return td in ld if partial else td == ld


def _extends_a_number(tn: str, ln: str, tc: str, lc: str) -> bool:
    """Whether the target, found in the line, begins or ends in a digit that a digit of the line
    continues ("2,480" in "12,480"), looked at with the line's punctuation where the target's
    normalised form is in it ("18 MB" of "4.6★·18MB" is no part of "4.6"), else in compact forms."""
    ts, ls = tn.replace(" ", ""), ln.replace(" ", "")
    if ts and ts in ls:
        return _extends_number(ls, ls.find(ts), len(ts))
    return _extends_number(lc, lc.find(tc), len(tc))


def _extends_number(text: str, k: int, n: int) -> bool:
    """Whether ``text[k:k+n]`` begins or ends in a digit that a digit of ``text`` continues."""
    if k < 0:
        return False
    return bool((k > 0 and text[k].isdigit() and text[k - 1].isdigit())
                or (k + n < len(text) and text[k + n - 1].isdigit() and text[k + n].isdigit()))


def _joins_number(text: str, a: int, b: int) -> bool:
    """Whether ``text[a:b]`` is part of a longer number: a digit at its edge joined to another
    digit by a decimal point, a separator or a colon ("1" of "4.1", "30" of "12:30")."""
    if a >= 2 and text[a].isdigit() and text[a - 1] in ".,:" and text[a - 2].isdigit():
        return True
    return b + 1 < len(text) and text[b - 1].isdigit() and text[b] in ".,:" and text[b + 1].isdigit()


def _contains_words(haystack: str, needle: str) -> bool:
    """``needle`` occurs in ``haystack`` on word boundaries (for CJK, anywhere). A number's
    decimal point, thousands separator or time colon joins it ("1" is no word of "4.1", nor "30"
    of "12:30")."""
    if not needle:
        return False
    if any(ord(ch) > 0x2E80 for ch in needle):
        return needle in haystack
    lead = r"(?<![\w])(?<!\d[.,:])" if needle[0].isdigit() else r"(?<![\w])"
    trail = r"(?![\w])(?![.,:]\d)" if needle[-1].isdigit() else r"(?![\w])"
    return re.search(lead + re.escape(needle) + trail, haystack) is not None


def closest_texts(target: str, lines: list[TextLine], k: int = 5) -> list[str]:
    """The ``k`` screen texts most similar to ``target`` (for "not found" messages).

    For a target of three characters or more, a lone character is no suggestion: on real screens
    those are icons read as letters ("A", "P", "t", "y" for a tab bar's glyphs, ":" for the
    overflow dots) and would crowd out the texts the planner could mean."""
    tc = compact(target)
    scored = []
    seen: set[str] = set()
    for line in lines:
        t = line.text.strip()
        if not t or t in seen or (len(tc) >= 3 and len(compact(t)) <= 1):
            continue
        seen.add(t)
        scored.append((fuzz.WRatio(tc, compact(t)) if tc else 0.0, t))
    scored.sort(key=lambda p: -p[0])
    return [t for _, t in scored[:k]]


# Masked and placeholder text: a password field's text is its mask ("••••••••"), a one-time-code
# field shows a dash or an underscore for each digit still to type ("––– –––", "____"), other
# fields "*****" or "●●●●". OCR reads none of these marks as text; Click Text finds them as a row
# of like marks on the picture (``missed_text.mark_rows``). The marks' shapes: a round dot, a
# star, a flat dash (a dash, a hyphen, an underscore, a box-drawing line).
_MASK_SHAPES = {
    **{ch: "dot" for ch in "\u2022\u25cf\u2219\u00b7\u22c5\u2027\u26ab\u2b24"},
    **{ch: "star" for ch in "*\u2217\u2731\u204e\uff0a"},
    **{ch: "dash" for ch in "-_\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2500\u2501\uff3f\ufe4d"},
}


@dataclass(frozen=True, slots=True)
class MaskQuery:
    """A target made only of mask or placeholder marks: their shape and how many there are in each
    group the target's spaces split them into (``("dash", (3, 3))`` for "––– –––")."""

    shape: str
    groups: tuple[int, ...]


def mask_query(target: str) -> MaskQuery | None:
    """The :class:`MaskQuery` of a target made only of marks of one shape (see ``_MASK_SHAPES``)
    and spaces, with three marks or more; ``None`` for any other target (one letter or digit, a
    mix of shapes, fewer marks)."""
    groups = target.split()
    if not groups:
        return None
    shapes = {_MASK_SHAPES.get(ch) for g in groups for ch in g}
    if len(shapes) != 1 or None in shapes:
        return None
    counts = tuple(len(g) for g in groups)
    if sum(counts) < 3:
        return None
    if len(counts) > 1 and max(counts) == 1:
        counts = (len(counts),)  # "● ● ● ●": one row of spaced marks
    return MaskQuery(shapes.pop(), counts)
