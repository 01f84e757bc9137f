"""The languages set: Click Text on lists of languages and countries, each named in its own script.

Real apps list languages and countries each in its own name and script: a settings screen's
language list, a messenger's country picker with flags and dialling codes, a keyboard's or a
browser's list of "native name / English name" rows. One such list holds a dozen scripts at once
(Greek, Hebrew, Ukrainian and Serbian Cyrillic, Tamil, Telugu, Kannada, Malayalam, Gujarati,
Gurmukhi, Odia, Georgian, Armenian, Amharic, Khmer, Lao, Burmese, Latin with diacritics,
Vietnamese, traditional Chinese...), and a name that mixes scripts ("Ελληνικά (Greek)"). This set
draws such lists in four styles (a target's ``phenomenon`` is ``SCRIPT: KIND``):

- ``check list``: a settings list of native names, one row checked (a check mark at the end);
- ``country picker``: a flag, the country's own name and its dialling code ("+30") at the end;
- ``two-line``: the native name (16 sp) over its English name (14 sp, grey), with a radio button;
- ``one line, mixed``: "native (English)" on one line, one node.

Targets are each visible row's native name (``KIND``) and its English name where the row shows it
(``KIND, English``: ``Latin`` is then the script). Each screen also names texts that are not on it
(``SCRIPT: other screen``: the names of the pool's other languages or countries); grounding them
must answer ``none``.

Half the screens are dark. Fonts: the Noto fonts of Debian's ``fonts-noto-core`` (Noto Sans for
Latin, Greek and Cyrillic, one Noto Sans font per other script, Noto Naskh Arabic) and Noto Sans
CJK (``fonts-noto-cjk``; its TC face for traditional Chinese). A name whose font is missing is left
out (:func:`missing_fonts` says which); the set is then not the frozen one. The seed fixes the
set; :data:`FROZEN_SHA256` is seed 0's digest. Measured with ``mobile-agent bench perception --set
langs`` (figures per script; docs/perception.md, "The scripts set").
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from PIL import ImageFont

from mobile_agent.screensets.drawing import TextCanvas
from mobile_agent.screensets.text_stress import StressScreen, StressTarget, format_by_script, set_digest
from mobile_agent.types import Box

SEED = 0
SCREENS = 24  # six of each style, half of them dark
# sha256 over seed 0's screens (pixels, size), targets and absent texts (:func:`set_digest`).
FROZEN_SHA256 = "d7fbf1811a981c34b4286a9ba475c1d976282ead14675b08282a4d3a996f27d5"
INSTALL = "apt-get install fonts-noto-core fonts-noto-cjk"

_NOTO = "/usr/share/fonts/truetype/noto/"
_CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-{}.ttc"

SIZES = ((1080, 2340, 2.625), (1080, 2400, 3.0), (720, 1600, 2.0), (1080, 2280, 2.75))
ACCENTS = ((26, 115, 232), (0, 121, 107), (103, 80, 164), (211, 47, 47), (0, 137, 123), (46, 125, 50))
STYLES = ("check list", "country picker", "two-line", "one line, mixed")

#: Unicode script (first word of a character's name) -> (font file or CJK face, its name in the figures)
_FONT_OF: dict[str, str] = {
    "LATIN": "NotoSans", "GREEK": "NotoSans", "CYRILLIC": "NotoSans",
    "HEBREW": "NotoSansHebrew", "ARABIC": "NotoNaskhArabic", "TAMIL": "NotoSansTamil",
    "TELUGU": "NotoSansTelugu", "KANNADA": "NotoSansKannada", "MALAYALAM": "NotoSansMalayalam",
    "GUJARATI": "NotoSansGujarati", "GURMUKHI": "NotoSansGurmukhi", "ORIYA": "NotoSansOriya",
    "GEORGIAN": "NotoSansGeorgian", "ARMENIAN": "NotoSansArmenian", "ETHIOPIC": "NotoSansEthiopic",
    "KHMER": "NotoSansKhmer", "LAO": "NotoSansLao", "MYANMAR": "NotoSansMyanmar", "THAI": "NotoSansThai",
    "DEVANAGARI": "NotoSansDevanagari", "BENGALI": "NotoSansBengali", "SINHALA": "NotoSansSinhala",
    "HANGUL": "cjk:1", "CJK": "cjk:3", "HIRAGANA": "cjk:0", "KATAKANA": "cjk:0",
}


_RTL = frozenset(("NotoSansHebrew", "NotoNaskhArabic"))


@dataclass(frozen=True)
class Lang:
    """A language as lists show it, with the country apps list beside it: its script (the name in
    the figures), its own name, its English name, a country's own and English name and its code."""

    script: str
    native: str
    english: str
    country: str
    country_en: str
    code: str


LANGS: tuple[Lang, ...] = (
    Lang("Greek", "Ελληνικά", "Greek", "Ελλάδα", "Greece", "+30"),
    Lang("Hebrew", "עברית", "Hebrew", "ישראל", "Israel", "+972"),
    Lang("Cyrillic", "Українська", "Ukrainian", "Україна", "Ukraine", "+380"),
    Lang("Cyrillic", "Српски", "Serbian", "Србија", "Serbia", "+381"),
    Lang("Cyrillic", "Български", "Bulgarian", "България", "Bulgaria", "+359"),
    Lang("Cyrillic", "Қазақ тілі", "Kazakh", "Қазақстан", "Kazakhstan", "+7"),
    Lang("Cyrillic", "Беларуская", "Belarusian", "Беларусь", "Belarus", "+375"),
    Lang("Tamil", "தமிழ்", "Tamil", "இலங்கை", "Sri Lanka", "+94"),
    Lang("Telugu", "తెలుగు", "Telugu", "భారతదేశం", "India", "+91"),
    Lang("Kannada", "ಕನ್ನಡ", "Kannada", "ಭಾರತ", "India", "+91"),
    Lang("Malayalam", "മലയാളം", "Malayalam", "ഇന്ത്യ", "India", "+91"),
    Lang("Gujarati", "ગુજરાતી", "Gujarati", "ભારત", "India", "+91"),
    Lang("Gurmukhi", "ਪੰਜਾਬੀ", "Punjabi", "ਭਾਰਤ", "India", "+91"),
    Lang("Odia", "ଓଡ଼ିଆ", "Odia", "ଭାରତ", "India", "+91"),
    Lang("Devanagari", "मराठी", "Marathi", "नेपाल", "Nepal", "+977"),
    Lang("Devanagari", "हिन्दी", "Hindi", "भारत", "India", "+91"),
    Lang("Bengali", "বাংলা", "Bangla", "বাংলাদেশ", "Bangladesh", "+880"),
    Lang("Sinhala", "සිංහල", "Sinhala", "ශ්‍රී ලංකාව", "Sri Lanka", "+94"),
    Lang("Thai", "ไทย", "Thai", "ประเทศไทย", "Thailand", "+66"),
    Lang("Georgian", "ქართული", "Georgian", "საქართველო", "Georgia", "+995"),
    Lang("Armenian", "Հայերեն", "Armenian", "Հայաստան", "Armenia", "+374"),
    Lang("Amharic", "አማርኛ", "Amharic", "ኢትዮጵያ", "Ethiopia", "+251"),
    Lang("Khmer", "ខ្មែរ", "Khmer", "កម្ពុជា", "Cambodia", "+855"),
    Lang("Lao", "ລາວ", "Lao", "ປະເທດລາວ", "Laos", "+856"),
    Lang("Burmese", "မြန်မာ", "Burmese", "မြန်မာနိုင်ငံ", "Myanmar", "+95"),
    Lang("Arabic", "العربية", "Arabic", "مصر", "Egypt", "+20"),
    Lang("Arabic", "فارسی", "Persian", "ایران", "Iran", "+98"),
    Lang("Korean", "한국어", "Korean", "대한민국", "South Korea", "+82"),
    Lang("Chinese", "繁體中文", "Chinese (Traditional)", "台灣", "Taiwan", "+886"),
    Lang("Chinese", "粵語", "Cantonese", "香港", "Hong Kong", "+852"),
    Lang("Vietnamese", "Tiếng Việt", "Vietnamese", "Việt Nam", "Vietnam", "+84"),
    Lang("Latin diacritics", "Türkçe", "Turkish", "Türkiye", "Turkey", "+90"),
    Lang("Latin diacritics", "Polski", "Polish", "Polska", "Poland", "+48"),
    Lang("Latin diacritics", "Čeština", "Czech", "Česko", "Czechia", "+420"),
    Lang("Latin diacritics", "Magyar", "Hungarian", "Magyarország", "Hungary", "+36"),
    Lang("Latin diacritics", "Română", "Romanian", "România", "Romania", "+40"),
    Lang("Latin diacritics", "Íslenska", "Icelandic", "Ísland", "Iceland", "+354"),
    Lang("Latin diacritics", "Español", "Spanish", "España", "Spain", "+34"),
    Lang("Latin diacritics", "Français", "French", "Côte d’Ivoire", "Ivory Coast", "+225"),
    Lang("Latin diacritics", "Português", "Portuguese", "Brasil", "Brazil", "+55"),
    Lang("Latin diacritics", "Slovenčina", "Slovak", "Slovensko", "Slovakia", "+421"),
    Lang("Latin diacritics", "Hrvatski", "Croatian", "Hrvatska", "Croatia", "+385"),
    Lang("Latin diacritics", "Lietuvių", "Lithuanian", "Lietuva", "Lithuania", "+370"),
    Lang("Latin diacritics", "Azərbaycan", "Azerbaijani", "Azərbaycan", "Azerbaijan", "+994"),
    Lang("Latin diacritics", "Dansk", "Danish", "Danmark", "Denmark", "+45"),
    Lang("Latin diacritics", "Norsk bokmål", "Norwegian Bokmål", "Norge", "Norway", "+47"),
    Lang("Latin diacritics", "Svenska", "Swedish", "Sverige", "Sweden", "+46"),
    Lang("Latin diacritics", "Deutsch", "German", "Österreich", "Austria", "+43"),
)
SCRIPT_NAMES: tuple[str, ...] = tuple(dict.fromkeys(l.script for l in LANGS))


def _script_of(ch: str) -> str | None:
    """The first word of ``ch``'s Unicode name where it is a letter or a mark of a script the set
    draws with a font of its own (None for spaces, digits, punctuation)."""
    if not (ch.isalpha() or unicodedata.category(ch).startswith("M")):
        return None
    try:
        word = unicodedata.name(ch).split(" ", 1)[0]
    except ValueError:
        return None
    return word if word in _FONT_OF else None


def _font_path(key: str, bold: bool) -> tuple[str, int]:
    if key.startswith("cjk:"):
        return _CJK.format("Bold" if bold else "Regular"), int(key[4:])
    return f"{_NOTO}{key}-{'Bold' if bold else 'Regular'}.ttf", 0


@lru_cache(maxsize=512)
def _font(key: str, bold: bool, px: int) -> ImageFont.FreeTypeFont:
    path, index = _font_path(key, bold)
    return ImageFont.truetype(path, px, index=index)


def _runs(s: str) -> list[tuple[str, str]]:
    """``s`` cut into runs of one font each: a letter or mark in its script's font; spaces and
    joiners (Sinhala's "ශ්‍රී" holds a zero-width joiner) with the run before them; digits and
    punctuation ("(", "+") in Noto Sans, which draws them for every script."""
    out: list[tuple[str, str]] = []
    for ch in s:
        sc = _script_of(ch)
        if sc is not None:
            key = _FONT_OF[sc]
        elif ch == " " and out and out[-1][1] in _RTL:
            key = "NotoSans"  # a space after a right-to-left name is drawn after it, on its left by raqm
        elif ch == " " or unicodedata.category(ch) == "Cf":
            key = out[-1][1] if out else "NotoSans"
        else:
            key = "NotoSans"
        if out and out[-1][1] == key:
            out[-1] = (out[-1][0] + ch, key)
        else:
            out.append((ch, key))
    return out


def _keys_of(s: str) -> set[str]:
    return {k for _, k in _runs(s)}


def missing_fonts() -> dict[str, str]:
    """The scripts the set leaves out here, each with the font file it lacks and how to install it."""
    out: dict[str, str] = {}
    for lang in LANGS:
        for key in sorted(_keys_of(lang.native + lang.country) | {"NotoSans"}):
            for bold in (False, True):
                path = Path(_font_path(key, bold)[0])
                if not path.exists():
                    out.setdefault(lang.script, f"{path.name} missing: {INSTALL}")
    return out


def _drawable(lang: Lang, missing: dict[str, str]) -> bool:
    return lang.script not in missing


class _Canvas(TextCanvas):
    """One screen being drawn (:class:`TextCanvas`), with its rows' divider colour."""

    def __init__(self, rng: random.Random, width: int, height: int, density: float, dark: bool):
        super().__init__(rng, width, height, density, dark, ACCENTS)
        self.divider = (48, 48, 52) if dark else (228, 230, 234)

    def length(self, s: str, sp: float, bold: bool = False) -> int:
        px = max(8, self.px(sp))
        return int(round(sum(_font(k, bold, px).getlength(r) for r, k in _runs(s))))

    def line_h(self, sp: float, bold: bool = False) -> int:
        a, d = _font("NotoSans", bold, max(8, self.px(sp))).getmetrics()
        return a + d

    def text(self, x: int, y: int, s: str, sp: float, fill: Any, bold: bool = False) -> Box:
        """Draws ``s`` with its top at ``y`` and its left end at ``x``; returns its box. A text of one
        font is laid out whole by raqm (bidi for Hebrew and Arabic); a mixed one run by run."""
        px = max(8, self.px(sp))
        base = y + _font("NotoSans", bold, px).getmetrics()[0]
        cx = float(x)
        for r, k in _runs(s):
            f = _font(k, bold, px)
            self.draw.text((cx, base), r, font=f, fill=fill, anchor="ls")
            cx += f.getlength(r)
        return Box(x, y, x + self.length(s, sp, bold), y + self.line_h(sp, bold))

    def target(self, text: str, box: Box, phenomenon: str) -> None:
        self.targets.append(StressTarget(text, box.intersect(Box(0, 0, self.w, self.h)), phenomenon))
        self.drawn.append(text)


def _status_and_toolbar(cv: _Canvas, title: str) -> int:
    h = cv.px(28)
    f = _font("NotoSans", False, cv.px(13))
    cv.draw.text((cv.m, h // 2), cv.rng.choice(("12:05", "9:41", "17:30")), font=f, fill=cv.fg, anchor="lm")
    cv.draw.text((cv.w - cv.m, h // 2), f"{cv.rng.randint(12, 99)}%", font=f, fill=cv.fg, anchor="rm")
    th = cv.px(56)
    # the navigation arrow
    ax, ay = cv.m + cv.px(4), h + th // 2
    cv.draw.line((ax, ay, ax + cv.px(16), ay), fill=cv.fg, width=cv.px(2))
    cv.draw.line((ax, ay, ax + cv.px(7), ay - cv.px(7)), fill=cv.fg, width=cv.px(2))
    cv.draw.line((ax, ay, ax + cv.px(7), ay + cv.px(7)), fill=cv.fg, width=cv.px(2))
    cv.text(cv.px(72), h + (th - cv.line_h(20, True)) // 2, title, 20, cv.fg, True)
    cv.drawn.append(title)
    return h + th + cv.px(8)


def _check(cv: _Canvas, x: int, cy: int) -> None:
    s = cv.px(9)
    cv.draw.line((x, cy, x + s * 0.4, cy + s * 0.4, x + s * 1.2, cy - s * 0.5), fill=cv.accent, width=cv.px(2.5),
                 joint="curve")


def _flag(cv: _Canvas, x: int, cy: int, rng: random.Random) -> None:
    w, h = cv.px(28), cv.px(20)
    colours = rng.sample(((206, 17, 38), (255, 255, 255), (0, 56, 147), (0, 122, 61), (252, 209, 22),
                          (0, 0, 0), (0, 114, 198), (239, 51, 64)), 3)
    y0 = cy - h // 2
    vertical = rng.random() < 0.5
    for i, c in enumerate(colours):
        if vertical:
            cv.draw.rectangle((x + i * w // 3, y0, x + (i + 1) * w // 3, y0 + h), fill=c)
        else:
            cv.draw.rectangle((x, y0 + i * h // 3, x + w, y0 + (i + 1) * h // 3), fill=c)
    cv.draw.rectangle((x, y0, x + w, y0 + h), outline=cv.divider, width=1)


def _radio(cv: _Canvas, x: int, cy: int, on: bool) -> None:
    r = cv.px(10)
    colour = cv.accent if on else cv.grey
    cv.draw.ellipse((x - r, cy - r, x + r, cy + r), outline=colour, width=cv.px(2))
    if on:
        cv.draw.ellipse((x - r // 2, cy - r // 2, x + r // 2, cy + r // 2), fill=colour)


def _english_script(text: str) -> str:
    """The English name's script in the figures: Latin."""
    return "Latin"


def make_screen(rng: random.Random, langs: Sequence[Lang], style: str, index: int, dark: bool) -> StressScreen:
    w, h, d = rng.choice(SIZES)
    cv = _Canvas(rng, w, h, d, dark)
    title = {"check list": rng.choice(("Language", "App language", "Languages")),
             "country picker": rng.choice(("Choose a country", "Select country", "Country")),
             "two-line": rng.choice(("Languages", "Keyboard languages", "Translate to")),
             "one line, mixed": rng.choice(("Language", "Display language", "Subtitles"))}[style]
    y = _status_and_toolbar(cv, title)
    two = style in ("two-line", "country picker") and rng.random() < 0.7 or style == "two-line"
    row_h = cv.px(72 if two else 56)
    fits = max(1, (h - y - cv.px(16)) // row_h)
    shown = list(langs)[:fits]
    checked = rng.randrange(len(shown))
    indent = cv.px(72) if style == "check list" and rng.random() < 0.5 else cv.m  # after an icon's keyline, or not
    for i, lang in enumerate(shown):
        top = y + i * row_h
        cy = top + row_h // 2
        x = cv.m
        if style == "country picker":
            _flag(cv, x, cy, rng)
            x += cv.px(28 + 16)
            name, english = lang.country, lang.country_en
        elif style == "two-line":
            _radio(cv, x + cv.px(10), cy, i == checked)
            x += cv.px(20 + 24)
            name, english = lang.native, lang.english
        else:
            x = indent
            name, english = lang.native, lang.english
        if style == "one line, mixed":
            text = f"{name} ({english.replace(' (', ', ').rstrip(')')})"  # "繁體中文 (Chinese, Traditional)"
            cv.target(text, cv.text(x, cy - cv.line_h(16) // 2, text, 16, cv.fg), f"{lang.script}: {style}")
        elif two:
            th, sh = cv.line_h(16), cv.line_h(14)
            ty = cy - (th + sh + cv.px(2)) // 2
            cv.target(name, cv.text(x, ty, name, 16, cv.fg), f"{lang.script}: {style}")
            cv.target(english, cv.text(x, ty + th + cv.px(2), english, 14, cv.grey),
                      f"{_english_script(english)}: {style}, English")
        else:
            cv.target(name, cv.text(x, cy - cv.line_h(16) // 2, name, 16, cv.fg), f"{lang.script}: {style}")
        if style == "country picker":
            code = lang.code
            cw = cv.length(code, 14)
            cv.text(cv.w - cv.m - cw, cy - cv.line_h(14) // 2, code, 14, cv.grey)
            cv.drawn.append(code)
        elif style == "check list" and i == checked:
            _check(cv, cv.w - cv.m - cv.px(24), cy)
        if rng.random() < 0.5:
            cv.draw.line((x, top + row_h - 1, cv.w, top + row_h - 1), fill=cv.divider, width=1)
    # texts not on the screen: the names of languages (countries) this screen does not show
    absent: list[tuple[str, str]] = []
    others = [l for l in LANGS if l not in shown]
    for lang in rng.sample(others, min(4, len(others))):
        text = lang.country if style == "country picker" else lang.native
        if any(text in t or t in text for t in cv.drawn):
            continue
        absent.append((text, f"{lang.script}: other screen"))
    look = f"{style}, {'dark' if dark else 'light'}, {w}x{h}"
    return StressScreen(f"langs-{index:02d}", cv.img, cv.targets, absent, look, list(cv.drawn))


def _no_repeats(langs: list[Lang], country: bool) -> list[Lang]:
    """``langs`` less those whose name (the country's where ``country``) another one before it shows
    (India in several Indian languages is shown once a screen: a name's text is unique)."""
    seen: set[str] = set()
    out = []
    for l in langs:
        key = l.country_en if country else l.english
        names = {l.country, l.country_en} if country else {l.native, l.english}
        if key in seen or names & seen:
            continue
        seen |= names | {key}
        out.append(l)
    return out


def collect_langs_screens(seed: int = SEED, count: int = SCREENS) -> list[StressScreen]:
    """The set: ``count`` screens (the styles in turn, each light then dark), each listing the pool's
    languages in a shuffled order dealt so that every language is on several screens."""
    _font.cache_clear()
    rng = random.Random(f"text-langs:{seed}")
    missing = missing_fonts()
    pool = [l for l in LANGS if _drawable(l, missing)]
    screens: list[StressScreen] = []
    deck: list[Lang] = []
    for i in range(count):
        style = STYLES[i % len(STYLES)]
        dark = (i // len(STYLES)) % 2 == 1
        r = random.Random(f"{rng.random()}")
        if len(deck) < 16:
            deck += r.sample(pool, len(pool))
        picked = _no_repeats(deck[:16], style == "country picker")
        deck = deck[16:]
        screens.append(make_screen(r, picked, style, i, dark))
    return screens


def available() -> bool:
    """Whether Latin's fonts (Noto Sans) are installed: the set draws at least its Latin lists."""
    return "Latin diacritics" not in missing_fonts()


def format_figures(d: dict[str, Any], title: str = "languages set") -> list[str]:
    """The text set's figures, then per script: Click Text, first point, and texts not on the screen
    answered none; and the scripts left out for a missing font."""
    return format_by_script(d, title, [*SCRIPT_NAMES, "Latin"], missing_fonts())


__all__ = ["LANGS", "SCREENS", "SEED", "FROZEN_SHA256", "STYLES", "collect_langs_screens", "format_figures",
           "missing_fonts", "set_digest", "available"]
