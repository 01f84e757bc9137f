"""Click Icon descriptions and position hints in the user's language, read from ``languages.toml``.

A planner asked in Chinese describes icons in Chinese ("搜索图标", "右上角的设置"), and a localised
app's own words are in its user's language. The lexicon (``icons.lexicon``) knows English words;
this module turns a description into them before the lexicon reads it: "搜索图标" is "search icon",
"右上角的设置" is "right top settings" (the position words are words the lexicon ignores, and
:func:`description_position` gives them as ``("top", "right")``), "en haut à droite" as a position
is ``("top", "right")`` (:func:`position_words`, read by ``types.normalize_position``).

The words are data (``languages.toml``, written by the project, its source stated at its top), read
once. Text is matched after NFKC and casefold; in Chinese, Japanese, Korean and Thai a word is found
anywhere (they put no spaces between words), elsewhere as a whole word; the longest word wins, so
"上一首" (previous) is not "上" (top). A description with no word of the file stays as it is, and a
word of the file that is also one of the lexicon's English words is the English word, and a
description that names its glyph in English is read as English: English descriptions read as before.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

# Scripts written without spaces between words: Thai, kana, CJK ideographs, Hangul.
_SPACELESS = re.compile("[\u0e00-\u0e7f\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
                        "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'"})
_JOINERS = ("\u200c", "\u200d")  # Persian's zero-width non-joiner inside a word ("اعلان‌ها")

# What a word of the file is: a concept's or a frame's English word, a position, a filler.
CONCEPT, POSITION, FILLER = "concept", "position", "filler"


def _data() -> dict[str, Any]:
    with Path(__file__).with_name("languages.toml").open("rb") as f:
        return tomllib.load(f)


DATA: dict[str, Any] = _data()

LANGUAGES: dict[str, str] = dict(DATA["languages"])  # code -> name, in the ranking's order


def fold(text: str) -> str:
    """``text`` as words are compared: NFKC, one kind of apostrophe, single spaces, casefolded."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(_APOSTROPHES).split()).casefold()


def _is_word_char(c: str) -> bool:
    return unicodedata.category(c)[0] in "LMN" or c in _JOINERS


def _spaceless(c: str) -> bool:
    return bool(_SPACELESS.match(c))


@dataclass(frozen=True)
class Entry:
    """A word of the file: its folded text, what it is, and the English it stands for."""

    key: str
    kind: str  # CONCEPT, POSITION or FILLER
    english: str  # the lexicon's word(s), a position word, or "" for a filler
    language: str


#: The lexicon's word lists this module needs, handed over by ``icons.lexicon`` when it is imported
#: (:func:`use_lexicon`), so that the two modules do not import each other.
_LEXICON: dict[str, Any] = {}


def use_lexicon(english: frozenset[str], glyph_words: frozenset[str], phrases: tuple[str, ...]) -> None:
    """Called by ``icons.lexicon`` at its import: its English words (every word list it reads), the
    words of them that name a glyph, and its phrases."""
    _LEXICON.update(english=english, glyph_words=glyph_words, phrases=phrases)
    _index.cache_clear()


def _lexicon(key: str) -> Any:
    if not _LEXICON:
        raise RuntimeError("icons.languages reads descriptions with the lexicon's words: import "
                           "mobile_agent.perception.icons.lexicon first (it hands them over)")
    return _LEXICON[key]


def english_words() -> frozenset[str]:
    """The lexicon's own English words (vocabulary, phrases' words, synonyms, ignored and the
    other word lists): a word of the file equal to one of them is left as the English word."""
    return _lexicon("english")


def entries() -> list[Entry]:
    """Every word of the file, English words of the concepts included."""
    out = []
    for table, kind in (("concepts", CONCEPT), ("frames", CONCEPT), ("positions", POSITION)):
        for english, langs in DATA[table].items():
            out += [Entry(fold(w), kind, english, lang) for lang, words in langs.items() for w in words]
    out += [Entry(fold(w), FILLER, "", lang) for lang, words in DATA["fillers"].items() for w in words]
    return out


@lru_cache(maxsize=1)
def _index() -> dict[str, tuple[Entry, ...]]:
    """The words to look for, by first character, longest first. A concept's word equal to one of
    the lexicon's English words is left out (it is read as English), and so are the English list's."""
    english = english_words()
    by_key: dict[str, Entry] = {}
    for e in entries():
        if e.kind == CONCEPT and (e.language == "en" or e.key in english):
            continue
        old = by_key.get(e.key)
        if old is not None and (old.kind, old.english) != (e.kind, e.english):
            raise ValueError(f"languages.toml: {e.key!r} is both {old.english or old.kind!r} ({old.language}) "
                             f"and {e.english or e.kind!r} ({e.language})")
        by_key[e.key] = e
    index: dict[str, list[Entry]] = {}
    for e in by_key.values():
        index.setdefault(e.key[0], []).append(e)
    return {c: tuple(sorted(es, key=lambda e: -len(e.key))) for c, es in index.items()}


@dataclass(frozen=True)
class Reading:
    """A text read with the file: pieces in order, each an :class:`Entry` found or a run of text
    the file does not know (``None``, its text as written); ``named``: whether a concept's or a
    frame's word was found (position words and fillers alone leave a text as it is)."""

    pieces: tuple[tuple[Entry | None, str], ...]
    named: bool


@lru_cache(maxsize=4096)
def read(text: str) -> Reading:
    """``text`` cut into the file's words (the longest at each place) and the runs between them."""
    written = " ".join(unicodedata.normalize("NFKC", text).translate(_APOSTROPHES).split())
    folded, origin = [], []
    for i, c in enumerate(written):
        for f in c.casefold():
            folded.append(f)
            origin.append(i)
    f = "".join(folded)
    n, index = len(f), _index()
    pieces: list[tuple[Entry | None, str]] = []
    raw = -1  # start of the run of unknown text

    def flush(end: int) -> None:
        if raw >= 0:
            s = written[origin[raw]:origin[end - 1] + 1].strip()
            if any(_is_word_char(c) for c in s):
                pieces.append((None, s))

    i = 0
    while i < n:
        found = None
        start_ok = i == 0 or not _is_word_char(f[i - 1]) or _spaceless(f[i - 1]) or _spaceless(f[i])
        for e in index.get(f[i], ()) if start_ok else ():
            j = i + len(e.key)
            if f.startswith(e.key, i) and (j == n or not _is_word_char(f[j]) or _spaceless(e.key[-1])
                                           or _spaceless(f[j])):
                found = e
                break
        if found is None:
            raw = i if raw < 0 else raw
            i += 1
            continue
        flush(i)
        raw = -1
        pieces.append((found, written[origin[i]:origin[i + len(found.key) - 1] + 1]))
        i += len(found.key)
    flush(n)
    return Reading(tuple(pieces), any(e is not None and e.kind == CONCEPT for e, _ in pieces))


def _glyph_words() -> tuple[frozenset[str], tuple[str, ...]]:
    """The lexicon's English words that name a glyph (three letters or more: "me" and "x" are
    words of other languages too), and its phrases."""
    return _lexicon("glyph_words"), _lexicon("phrases")


def names_a_glyph_in_english(description: str) -> bool:
    """Whether the description, outside the words of the file it holds, already names its glyph in
    the lexicon's English ("Settings 设置", "Ara profile"): it is then read as English, whatever
    else it holds. "Plus d'options" does not: its English-looking words are the French phrase's."""
    words, phrases = _glyph_words()
    text = " | ".join(t for e, t in read(description).pieces if e is None).lower()
    return bool(set(re.findall(r"[a-z][a-z\-_]*", text)) & words) or any(p in text for p in phrases)


@lru_cache(maxsize=4096)
def in_english(description: str) -> str:
    """The description in the lexicon's English words ("搜索图标" -> "search icon", "右上角的设置"
    -> "right top settings", "Plus d'options" -> "more options"); words the file does not know are
    kept as written (a name beside the icon). A description naming no concept of the file is
    returned as it is, and so is one that names its glyph in English already."""
    r = read(description)
    if not r.named or names_a_glyph_in_english(description):
        return description
    return " ".join(text if e is None else e.english for e, text in r.pieces if e is None or e.english)


def description_position(description: str) -> tuple[str, ...]:
    """The position a description in another language names beside its icon ("右上角的设置" ->
    ``("top", "right")``, "buscar arriba" -> ``("top",)``); ``()`` where it names none, names a
    contradictory one, or names no concept of the file (an English description: its position words
    are the planner's own field)."""
    from mobile_agent.types import normalize_position

    r = read(description)
    words = [e.english for e, _ in r.pieces if e is not None and e.kind == POSITION]
    if not r.named or not words or names_a_glyph_in_english(description):
        return ()
    try:
        return normalize_position(words)
    except ValueError:
        return ()


def position_words(words: list[str] | tuple[str, ...]) -> list[str]:
    """A position argument's words with the file's position words in English ("右上角" -> right,
    top; "en haut à droite" -> top, right) and its fillers dropped; any other word is kept as
    written, so that the caller's error names it."""
    out: list[str] = []
    for e, text in read(" ".join(words)).pieces:
        if e is not None and e.kind == POSITION:
            out += e.english.split()
        elif e is None or e.kind != FILLER:
            out += text.split()
    return out
