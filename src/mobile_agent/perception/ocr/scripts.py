"""Text in scripts the default recogniser does not read, read by Tesseract's language packs.

RapidOCR's PP-OCR recogniser (the default engine) reads Latin letters, digits and Chinese. Real
phones also show Korean, Japanese kana, Cyrillic, Arabic, Bengali, Devanagari, Sinhala, Thai...:
there it reads nothing (the line is dropped under its score threshold) or noise ("김어준" as "歪").
Where Click Text asks for a text in such a script, the line detector's boxes are read again by
Tesseract with that script's Debian language pack (``tesseract-ocr-kor`` etc.), each box as one
line (``--psm 7``), all boxes of a screen in one Tesseract run (a list of crops). Which scripts are
covered is what :func:`installed_languages` finds; :data:`SCRIPT_PACKS` names the pack of each.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
import unicodedata
from typing import Sequence

import cv2
import numpy as np

from mobile_agent.perception.results import TextLine, Word
from mobile_agent.types import Box

#: Unicode script (the first word of a character's name) -> Tesseract language of its Debian pack
#: (``apt-get install tesseract-ocr-LANG``).
SCRIPT_PACKS: dict[str, str] = {
    "HANGUL": "kor",
    "HIRAGANA": "jpn",
    "KATAKANA": "jpn",
    "CYRILLIC": "rus",
    "ARABIC": "ara",
    "BENGALI": "ben",
    "DEVANAGARI": "hin",
    "SINHALA": "sin",
    "THAI": "tha",
    "GREEK": "ell",
    "HEBREW": "heb",
    "TAMIL": "tam",
    "TELUGU": "tel",
    "GUJARATI": "guj",
    "KANNADA": "kan",
    "MALAYALAM": "mal",
    "GEORGIAN": "kat",
    "ARMENIAN": "hye",
    "ETHIOPIC": "amh",
    "KHMER": "khm",
    "LAO": "lao",
    "MYANMAR": "mya",
    "GURMUKHI": "pan",
    "ORIYA": "ori",
}

#: Cyrillic letters the Russian pack has: a Cyrillic text with any other (Ukrainian "і ї є ґ",
#: Belarusian "ў", Kazakh "қ ә ғ ү ұ ө", Serbian "ј ђ ћ") is read with the Ukrainian pack beside
#: it (``rus+ukr``), which reads "і" (the Russian pack reads "тілі" as "ти:") and, by shape, most
#: of the others as the nearest Russian letter (``textmatch`` folds them alike: "Қазақ" as "Казак").
_RUSSIAN = frozenset("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ")


#: Vietnamese's letters with a horn, a dot below or two marks (not "ă", which Romanian shares and the
#: default recogniser reads), which the default recogniser leaves out of its
#: reading ("Tiếng Việt" as "Ting Vit"): a text with them is read by Tesseract's Vietnamese pack.
_VIETNAMESE = frozenset("ơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ"
                        "ƠƯẠẢẤẦẨẪẬẮẰẲẴẶẸẺẼẾỀỂỄỆỈỊỌỎỐỒỔỖỘỚỜỞỠỢỤỦỨỪỬỮỰỲỴỶỸ")


def script_language(text: str) -> str | None:
    """The Tesseract language for the script of ``text`` that the default recogniser does not
    read (the most frequent such script), or None when every letter is Latin, Chinese or common.
    Vietnamese's letters with a horn or two marks count as a script of their own (``vie``)."""
    counts: dict[str, int] = {}
    for ch in text:
        if not ch.isalpha():
            continue
        if ch in _VIETNAMESE:
            counts["vie"] = counts.get("vie", 0) + 1
            continue
        try:
            word = unicodedata.name(ch).split(" ", 1)[0]
        except ValueError:
            continue
        lang = SCRIPT_PACKS.get(word)
        if lang is not None:
            counts[lang] = counts.get(lang, 0) + 1
    return max(counts, key=counts.__getitem__) if counts else None


def script_languages(text: str) -> str | None:
    """The Tesseract languages to read ``text`` with: its script's pack (:func:`script_language`),
    plus ``eng`` where it also has Latin letters ("cbs 김현정의 뉴스쇼"); None for none."""
    lang = script_language(text)
    if lang is None:
        return None
    if lang == "rus" and "ukr" in installed_languages() and any(
            ch.isalpha() and ch not in _RUSSIAN and "\u0400" <= ch <= "\u04ff" for ch in text):
        lang = "rus+ukr"
    latin = any(ch.isascii() and ch.isalpha() for ch in text)
    if lang == "vie":
        return lang  # the Vietnamese pack reads the plain Latin letters itself
    return f"{lang}+eng" if latin and "eng" in installed_languages() else lang


@functools.lru_cache(maxsize=1)
def installed_languages() -> frozenset[str]:
    """The language packs of the ``tesseract`` program on this machine (empty without it)."""
    exe = shutil.which("tesseract")
    if exe is None:
        return frozenset()
    try:
        out = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(ln.strip() for ln in out.splitlines()[1:] if ln.strip())


def covered_scripts() -> list[str]:
    """The scripts (Unicode names) Click Text reads here beyond Latin and Chinese."""
    have = installed_languages()
    return sorted(s for s, lang in SCRIPT_PACKS.items() if lang in have)


def row_runs(boxes: Sequence[Box], gap: float = 0.5) -> list[list[Box]]:
    """Runs of the line detector's boxes that are one text split into words: boxes on one row
    (overlapping by 60% of the lower one's height, heights within a factor of 1.5), each under
    ``gap`` line heights after the last. The detector splits a line of Hangul, Arabic or another
    script its recogniser does not read at the word gaps ("이진우의" "손에" "잡히는" "경제": one
    chip's title), while separate labels on one row (two chips, a name and its code) lie
    further apart. Only runs of two or more boxes are returned, left to right."""
    runs: list[list[Box]] = []
    for b in sorted(boxes, key=lambda b: b.x1):
        for run in runs:
            last = run[-1]
            h = min(last.height, b.height)
            overlap = min(last.y2, b.y2) - max(last.y1, b.y1)
            if (overlap >= 0.6 * h and max(last.height, b.height) <= 1.5 * h
                    and -h <= b.x1 - last.x2 <= gap * h and b.x1 > last.x1):
                run.append(b)
                break
        else:
            runs.append([b])
    return [r for r in runs if len(r) > 1]


_PAD, _BORDER = 6, 10  # the crop's margin of screen around the box, and the white border added


def _crop_scale(box: Box, height: int = 64) -> float:
    """How much :func:`_crop` scales ``box`` (1 where it is near ``height`` already)."""
    s = height / max(1, box.height)
    return 1.0 if 0.9 <= s <= 1.2 else s


def _crop(rgb: np.ndarray, box: Box, height: int = 64) -> np.ndarray:
    """A box of the screen as Tesseract reads a line best: black text on white (Otsu's threshold,
    the text being the fewer pixels of the box's middle: white text on a coloured chip is turned
    over, whatever the chip's brightness), about ``height`` px tall, with a margin. The detector's
    box holds the line's ascenders, descenders and marks: at 64 px the letters' body is about the
    30 px Tesseract reads best; at 52 px a short Arabic word, whose body is a small part of its
    box, read as two letters ("مصر" as "مه"); 58-78 px read the same on the development set."""
    h, w = rgb.shape[:2]
    pad = _PAD
    c = rgb[max(0, box.y1 - pad):min(h, box.y2 + pad), max(0, box.x1 - pad):min(w, box.x2 + pad)]
    fill = _ground(rgb, box)
    if fill is not None:
        # the text's ink is what differs from the ground it lies on: white text on an amber or sky
        # blue chip on a dark page is three levels, of which a grey threshold splits page from chip
        g = np.abs(c.astype(np.int16) - fill).max(axis=2).astype(np.uint8)
    else:
        g = cv2.cvtColor(c, cv2.COLOR_RGB2GRAY)
    s = _crop_scale(box, height)
    if s != 1.0:
        g = cv2.resize(g, None, fx=s, fy=s, interpolation=cv2.INTER_CUBIC if s > 1 else cv2.INTER_AREA)
    _, bw = cv2.threshold(g, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    gh, gw = bw.shape
    mid = bw[gh // 4:gh - gh // 4, min(gw // 3, gh // 2):max(gw - gh // 2, gw * 2 // 3)]
    if fill is not None:
        bw = 255 - bw  # far from the ground: ink
    elif mid.size and float((mid > 0).mean()) < 0.5:  # white is the fewer: white text on a darker ground
        bw = 255 - bw
    return cv2.copyMakeBorder(_without_frame(bw), _BORDER, _BORDER, _BORDER, _BORDER, cv2.BORDER_CONSTANT, value=255)


def _ground(rgb: np.ndarray, box: Box, tolerance: int = 28) -> np.ndarray | None:
    """The colour the text of ``box`` lies on: the colour of most of the box's middle rows, where
    the text is the lesser part (a chip's or a button's fill, whether the detector's box ends
    inside the chip or reaches the page around it; the page's for a line on the page); else the
    colour of the box's top and bottom rows where they are mostly of one; None otherwise."""
    h, w = rgb.shape[:2]
    x1, x2, y1, y2 = max(0, box.x1), min(w, box.x2), max(0, box.y1), min(h, box.y2)
    if y2 - y1 < 6 or x2 - x1 < 4:
        return None
    mid = rgb[y1 + (y2 - y1) // 4:y2 - (y2 - y1) // 4, x1:x2].reshape(-1, 3).astype(np.int16)
    q = (mid // 32).astype(np.int32)
    keys = q[:, 0] * 64 + q[:, 1] * 8 + q[:, 2]
    counts = np.bincount(keys)
    top = int(counts.argmax())
    if counts[top] >= 0.4 * len(keys):
        return np.median(mid[keys == top], axis=0)
    rim = np.concatenate([rgb[y1:y1 + 2, x1:x2], rgb[y2 - 2:y2, x1:x2]]).reshape(-1, 3).astype(np.int16)
    fill = np.median(rim, axis=0)
    if float((np.abs(rim - fill).max(axis=1) <= tolerance).mean()) >= 0.7:
        return fill
    return None


def _without_frame(bw: np.ndarray) -> np.ndarray:
    """``bw`` (black text on white) without the ink that touches its edge: where a chip's text is
    turned black on white, what lies around the chip (the page beyond its rounded ends, above and
    below it) turns black too, a frame round the text that Tesseract reads as nothing ("김어준" on
    a red chip) or as noise. The box's margin keeps the text itself off the edge; where nothing
    but ink touching the edge is left, ``bw`` is kept as it is."""
    ink = (bw == 0).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if n <= 2:
        return bw
    h, w = bw.shape
    x, y, cw, ch = stats[1:, 0], stats[1:, 1], stats[1:, 2], stats[1:, 3]
    edge = (x == 0) | (y == 0) | (x + cw == w) | (y + ch == h)
    if not edge.any() or edge.all():
        return bw
    out = bw.copy()
    out[np.isin(labels, np.flatnonzero(edge) + 1)] = 255
    return out


def read_script_lines(rgb: np.ndarray, boxes: Sequence[Box], langs: str, timeout_s: float = 60.0) -> list[TextLine]:
    """Read each box of ``rgb`` as one line with Tesseract in ``langs`` (``kor``, or ``kor+eng``
    for a text with Latin words mixed in: English added to a line of the script alone makes
    Tesseract read it as Latin noise more often): one Tesseract run for all boxes. Lines read as
    nothing are left out; a missing program or pack reads nothing."""
    exe = shutil.which("tesseract")
    if exe is None or not boxes or not set(langs.split("+")) <= installed_languages():
        return []
    with tempfile.TemporaryDirectory(prefix="mobile-agent-tess-") as d:
        paths = []
        for i, b in enumerate(boxes):
            p = os.path.join(d, f"{i}.png")
            cv2.imwrite(p, _crop(rgb, b))
            paths.append(p)
        listing = os.path.join(d, "crops.txt")
        with open(listing, "w", encoding="utf-8") as f:
            f.write("\n".join(paths) + "\n")
        runs = []
        # A pack reading a crop as one line (page segmentation 7) breaks some it reads whole as one
        # word (8): Arabic lines ("اللغة والمنطقة" as "اللفة و 8 لقة", the hint "بحث" as "2"),
        # short labels of other scripts (a dialog's button "ตกลง" as "ตกลจ"). Both readings are
        # kept: of every crop for Arabic, of the short ones (a word or two: under four times as
        # wide as high) for the others.
        arabic = "ara" in langs.split("+")
        short = [i for i, b in enumerate(boxes) if arabic or b.width <= 4 * b.height]
        if short and len(short) < len(boxes):
            second = os.path.join(d, "short.txt")
            with open(second, "w", encoding="utf-8") as f:
                f.write("\n".join(paths[i] for i in short) + "\n")
        else:
            second = listing
        for psm, listed, order in (("7", listing, list(range(len(boxes)))), ("8", second, short)):
            if not order:
                continue
            base = os.path.join(d, f"out{psm}")
            try:
                # the text as Tesseract writes it (no spaces inside a Korean word), and each word's box
                subprocess.run([exe, listed, base, "-l", langs, "--psm", psm, "txt", "tsv"], capture_output=True,
                               timeout=timeout_s, env={**os.environ, "OMP_THREAD_LIMIT": "1"}, check=True)
                with open(base + ".txt", encoding="utf-8", errors="replace") as f:
                    pages = f.read().split("\f")
                with open(base + ".tsv", encoding="utf-8", errors="replace") as f:
                    words = _tsv_words(f.read())
            except (OSError, subprocess.SubprocessError):
                return []
            runs.append((order, pages, words))
    lines: list[TextLine] = []
    for order, pages, words in runs:
        for page, i in enumerate(order, start=1):
            box = boxes[i]
            found = words.get(page, [])
            text = " ".join(pages[page - 1].split()).replace("\u318d", "\u00b7") if page <= len(pages) else ""
            if not any(ch.isalnum() for ch in text) or any(l.box == box and l.text == text for l in lines):
                continue
            lines.append(TextLine(text, box, 0.8, tuple(Word(t, _screen_x(b, box), 0.8) for t, b in found)))
    return lines


def _tsv_words(tsv: str) -> dict[int, list[tuple[str, tuple[int, int]]]]:
    """Tesseract's TSV output: each page's (crop's) words in reading order, each with its left
    and right end in the crop. A word's box is where it lies: in a right-to-left line ("النسخ
    الاحتياطي") the first word read is the rightmost, which a share of the line's box by the
    order of its characters would put at the left."""
    out: dict[int, list[tuple[str, tuple[int, int]]]] = {}
    for row in tsv.splitlines()[1:]:
        f = row.split("\t")
        if len(f) < 12 or f[0] != "5" or not f[11].strip():
            continue
        try:
            page, left, width = int(f[1]), int(f[6]), int(f[8])
        except ValueError:
            continue
        text = f[11].strip()
        # the pack for Korean reads a middle dot between fields as the letter araea
        out.setdefault(page, []).append(("\u00b7" if text == "\u318d" else text, (left, left + width)))
    for words in out.values():
        _clip_spans(words)
    return out


def _clip_spans(words: list[tuple[str, tuple[int, int]]]) -> None:
    """Words' spans that run over the next word's (Tesseract gives a Bengali line's first word a box
    to the line's end) cut at the next word's start, or its end in a right-to-left line."""
    if len(words) < 2:
        return
    rtl = words[0][1][0] > words[-1][1][0]
    order = words[::-1] if rtl else words  # left to right
    spans = [list(sp) for _, sp in order]
    for i in range(len(spans) - 1):
        a, b = spans[i]
        c, d = spans[i + 1]
        if c > a and b > c:  # runs over the next word on its right
            spans[i][1] = c
        elif a < d < b:  # the next word runs back over this one
            spans[i + 1][0] = max(c, b) if b < d else c
    for i in range(1, len(spans)):
        if spans[i][0] < spans[i - 1][1] < spans[i][1]:
            spans[i][0] = spans[i - 1][1]
    clipped = [(t, (a, b)) for (t, _), (a, b) in zip(order, spans)]
    words[:] = clipped[::-1] if rtl else clipped


def _screen_x(span: tuple[int, int], box: Box) -> Box:
    """A word's span in :func:`_crop`'s crop of ``box``, on the screen (the box's rows)."""
    s = _crop_scale(box)
    ox = max(0, box.x1 - _PAD)
    x1 = max(box.x1, min(box.x2 - 1, int(ox + (span[0] - _BORDER) / s)))
    x2 = max(x1 + 1, min(box.x2, int(round(ox + (span[1] - _BORDER) / s))))
    return Box(x1, box.y1, x2, box.y2)


def _within(inner: Box, outer: Box, margin: int = 4) -> bool:
    return (inner.x1 >= outer.x1 - margin and inner.y1 >= outer.y1 - margin
            and inner.x2 <= outer.x2 + margin and inner.y2 <= outer.y2 + margin)


def _compact(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split()).lower()


def _unread_part(line: TextLine) -> bool:
    """Whether the default recogniser left part of its line's box unread: its words cover under
    three quarters of the box, or two words lie more than 1.2 line heights apart. It drops the
    characters of a script it does not read and keeps the Latin ones surely ("jtbc" of the chip
    "jtbc 뉴스룸", "SBS FM 14:00" of "SBS 파워FM 14:00"): such a reading is no sure one."""
    xs = sorted((w.box.x1, w.box.x2) for w in line.words if any(ch.isalnum() for ch in w.text))
    if not xs:
        return False
    covered = sum(b - a for a, b in xs)
    if covered < 0.75 * line.box.width:
        return True
    return any(b[0] - a[1] > 1.2 * line.box.height for a, b in zip(xs, xs[1:]))


def _wide(ch: str) -> bool:
    """Whether ``ch`` is a Chinese (or other wide, CJK) character: what the default recogniser
    reads the letters of a script it does not know as."""
    return ord(ch) >= 0x2E80


def _foreign(ch: str) -> bool:
    """Whether ``ch`` is a letter of a script the default recogniser does not read, or the
    Chinese (or other wide) character it reads such letters as ("김어준" as "歪")."""
    return _wide(ch) or (ch.isalpha() and script_language(ch) is not None)


def _has_script(token: str) -> bool:
    """Whether ``token`` holds a letter of a script the default recogniser does not read."""
    return script_language(token) is not None


def _latin_lead(tess: str, line: TextLine) -> str | None:
    """Tesseract's reading ``tess`` of a box with its words that are not in the script replaced
    by the default recogniser's Latin words of the same box (``line``): a chip's title that mixes
    scripts ("tbs 김어준의 뉴스공장"), whose Latin word Tesseract, reading in the script's pack,
    misreads ("165"). The default reading's leading words stand for as many words Tesseract read
    before the script's first one; where the default reading has no letter of the script (it
    dropped them: "SBS FM 14:00 ~ 16:00" of "SBS 파워FM 14:00 ~ 16:00"), its other words stand for
    Tesseract's words after the script's last one, where they are as many ("[4| 14:00 ~ 16:00").
    None where nothing was replaced."""
    tt: list[str] = []
    for t in tess.split():
        # a Latin word read run into the script's first one (".165김어준의"), or its last one run
        # into a Latin word ("파워[4|"): two words
        i = next((i for i, ch in enumerate(t) if _has_script(ch)), None)
        j = max((i for i, ch in enumerate(t) if _has_script(ch)), default=None)
        if i is None:
            tt.append(t)
            continue
        tt += [w for w in (t[:i], t[i:j + 1], t[j + 1:]) if w]
    k = next((i for i, t in enumerate(tt) if _has_script(t)), None)
    if k is None:
        return None
    text = unicodedata.normalize("NFKC", line.text)
    head = ""
    for ch in text:
        if _foreign(ch):
            break
        head += ch
    default = head.split()
    lead = []
    for t in default:
        if not any(ch.isalnum() for ch in t):
            break
        lead.append(t)
    lead = lead[:k]  # as many words as Tesseract read before the script's first one
    last = max(i for i, t in enumerate(tt) if _has_script(t))
    tail = tt[last + 1:]
    if head == text and lead and len(default) - len(lead) == len(tail):
        tail = default[len(lead):]
    out = (lead or tt[:k]) + tt[k:last + 1] + tail
    return None if out == tt else " ".join(out)


def chip_box(rgb: np.ndarray, box: Box, tolerance: int = 28) -> Box | None:
    """The filled shape a detected text box lies on (a chip, a pill, a button) where the fill
    runs on past the box by more than half a line height: the rest of the chip's text, which the
    line detector did not box (white text on a light olive or sky-blue chip has little contrast:
    "법륜스님의" boxed, "즉문즉설" after it not). The fill is the colour of most of the box's top
    and bottom rows; the chip runs on along the box's rows while at least a third of each column
    has that colour, and must end inside the screen (a fill that reaches the screen's edge is the
    page or a bar, no chip). None where the box is not on such a fill or the fill ends with it."""
    h, w = rgb.shape[:2]
    if box.height < 8 or box.x1 < 0 or box.x2 > w or box.y1 < 0 or box.y2 > h:
        return None
    band = rgb[box.y1:box.y2].astype(np.int16)
    rim = np.concatenate([band[:2, box.x1:box.x2], band[-2:, box.x1:box.x2]]).reshape(-1, 3)
    fill = np.median(rim, axis=0)
    if float((np.abs(rim - fill).max(axis=1) <= tolerance).mean()) < 0.7:
        return None
    # a chip is about as tall as its text: the fill ends above and below the box within 0.6 of a
    # line height (a Material button, 36-40 dp round 14 sp text, has about that much above and
    # below its text; a dialog, a card or a list row's highlight runs on: no chip)
    near = (np.abs(rgb[:, box.x1:box.x2].astype(np.int16) - fill).max(axis=2) <= tolerance).mean(axis=1) >= 0.9
    reach = int(0.6 * box.height)
    up = next((k for k in range(reach + 1) if box.y1 - 1 - k < 0 or not near[box.y1 - 1 - k]), None)
    down = next((k for k in range(reach + 1) if box.y2 + k >= h or not near[box.y2 + k]), None)
    if up is None or down is None:
        return None
    cols = (np.abs(band - fill).max(axis=2) <= tolerance).mean(axis=0) >= 1 / 3
    x1, x2 = box.x1, box.x2
    while x1 > 0 and cols[x1 - 1]:
        x1 -= 1
    while x2 < w and cols[x2]:
        x2 += 1
    if x1 <= 0 or x2 >= w:
        return None
    if max(box.x1 - x1, x2 - box.x2) <= box.height // 2:
        return None
    return Box(x1, box.y1, x2, box.y2)


def read_detected_lines(rgb: np.ndarray, detected: Sequence[Box], lines: Sequence[TextLine],
                        langs: str) -> list[TextLine]:
    """The line detector's boxes (``detected``) read by Tesseract in ``langs``, less those the
    default recogniser read surely (its ``lines`` with a score of 0.95 or more and no part left
    unread, :func:`_unread_part`), and the texts the detector split at word gaps read whole
    (:func:`row_runs`): each run of boxes read as one crop, and each run spelled from its boxes'
    readings, a surely read box by the default recogniser's reading ("cbs" in Latin, then
    "김현정의" and "뉴스쇼" by Tesseract: a Korean chip's title that mixes scripts, whose Latin
    word Tesseract reads worse on a coloured chip). Where the default recogniser read a box's
    leading Latin words, they also stand for the ones Tesseract read (:func:`_latin_lead`)."""
    of = {b: next((l for l in lines if b.iou(l.box) > 0.5), None) for b in detected}
    # A reading with Chinese characters in it is no sure one either: the default recogniser
    # reads the letters of a script it does not know as Chinese ("jtbc二喜" for "jtbc 뉴스룸").
    # Nor is one with no letter or digit: "()" of "Български (Bulgarian)", the brackets alone read.
    sure_of = {b: l if l is not None and l.score >= 0.95 and not _unread_part(l)
               and not any(_wide(ch) for ch in l.text) and not _lookalike(l.text, langs)
               and not _short_latin(l.text) and any(ch.isalnum() for ch in l.text) else None
               for b, l in of.items()}
    boxes = [b for b in detected if sure_of[b] is None]
    runs = [r for r in row_runs(detected) if any(sure_of[b] is None for b in r)]
    # a chip whose text the detector boxed only in part: the whole chip read as one line
    chips: list[Box] = []
    for b in boxes + [Box.enclosing(r) for r in runs]:
        chip = chip_box(rgb, b)
        if chip is not None and all(chip.iou(c) < 0.8 for c in chips):
            chips.append(chip)
    read = read_script_lines(rgb, boxes + [Box.enclosing(r) for r in runs] + chips, langs)
    if chips:
        # a chip read as no more than a reading inside it adds nothing (a second place for it)
        inner = [l for l in list(read) + list(lines) if l.box not in chips]
        read = [l for l in read if l.box not in chips
                or not any(_compact(l.text) == _compact(o.text) and _within(o.box, l.box) for o in inner)]
    alone = {l.box: l for l in read}
    spelled: list[TextLine] = []
    for run in runs:
        parts = [sure_of[b] or alone.get(b) for b in run]
        parts = [l for l in parts if l is not None and any(ch.isalnum() for ch in l.text)]
        if len(parts) < 2:
            continue
        text = " ".join(l.text.strip() for l in parts)
        spelled.append(TextLine(text, Box.enclosing(run), 0.75,
                                tuple(Word(w.text, w.box, 0.75) for l in parts for w in l.words)))
    for l in read:
        line = of.get(l.box)
        text = _latin_lead(l.text, line) if line is not None else None
        if text is not None:
            spelled.append(TextLine(text, l.box, 0.75, (Word(text, l.box, 0.75),)))
        fused = _latin_in_place(l, [d for d in lines if d.box.iou(l.box) > 0.3 or _within(d.box, l.box)])
        for f in (fused, _visual_order(fused) if fused is not None else None):
            if f is not None and not any(o.box == f.box and o.text == f.text for o in spelled):
                spelled.append(f)
    return read + spelled


#: Latin letters that look like letters of a script (Cyrillic "ОТМЕНА" is read "OTMEHA", surely)
_LOOKALIKES = {"rus": frozenset("ABCEHKMOPTXYaceopxy"), "ell": frozenset("ABEHIKMNOPTXYZo")}


def _lookalike(text: str, langs: str) -> bool:
    """Whether ``text``, read in Latin letters, may be a word of the script of ``langs`` read as
    its lookalikes: every letter is one (a Cyrillic button in capitals, "ОТМЕНА" as "OTMEHA")."""
    same = _LOOKALIKES.get(langs.split("+")[0])
    letters = [ch for ch in text if ch.isalpha()]
    return same is not None and len(letters) >= 2 and all(ch in same for ch in letters)


def _short_latin(text: str) -> bool:
    """Whether ``text`` holds a word of one to three Latin letters alone ("Ing", "y", "nay"): what
    the default recogniser, sure of itself, reads a short word of a script it does not know as
    (Thai "ไทย" as "Ing", 0.98; Hebrew "עברית" as "y"; a language list's native names). Such a
    reading is no sure one: the box is read in the script's pack too (only where a text in that
    script is asked for)."""
    return any(1 <= len(w) <= 3 and w.isascii() and w.isalpha() for w in (_strip(t) for t in text.split()))


def _strip(word: str) -> str:
    return word.strip("()[]{}.,:;!?\"'")


def _plain(word: str) -> bool:
    """Whether ``word`` has letters or digits and all of them are Latin or digits (what the
    default recogniser reads surely: "SBS", "14:00", "3.2", "GB")."""
    return any(ch.isalnum() for ch in word) and all(ch.isascii() for ch in word if ch.isalnum())


def _joined_plain(words: Sequence[Word], height: int) -> list[Word]:
    """The default recogniser's digit and Latin words, those it gave letter by letter ("O" "S"
    "T" of "OST", "V" "i" "s" "a" of "Visa") joined where they touch (under a fifth of the line's
    height apart); words of more than one letter are left as they are ("Ch1" "21:40")."""
    out: list[Word] = []
    lettered: list[bool] = []  # each word out: made of words of one letter
    for w in sorted(words, key=lambda w: w.box.x1):
        if not _plain(w.text):
            out.append(Word("", w.box, 0.0))  # a word of the script, or noise, between: no join across
            lettered.append(False)
            continue
        one = len(w.text.strip()) == 1
        if one and out and lettered[-1] and w.box.x1 - out[-1].box.x2 < 0.2 * height:
            out[-1] = Word(out[-1].text + w.text, Box.enclosing([out[-1].box, w.box]), min(out[-1].score, w.score))
        else:
            out.append(w)
            lettered.append(one)
    return [w for w in out if w.text]


def _latin_in_place(tess: TextLine, default: Sequence[TextLine]) -> TextLine | None:
    """Tesseract's reading ``tess`` of a line that mixes a script with digits or Latin words, each
    of its words without a letter of the script replaced by the default recogniser's Latin or digit
    word at the same place (``default``: its lines over the same box). Tesseract reading in a
    script's pack reads the digits and Latin words of the line worse than the default recogniser
    does ("SBS" as "565", "15" as "45", "21:40" as "2:40", "GB" as "68"), and the default
    recogniser reads those surely while dropping or garbling the script's letters: each keeps what
    it reads well, by where the words lie. None where nothing was replaced."""
    theirs = _joined_plain([w for d in default for w in d.words], tess.box.height)
    if not theirs:
        return None

    def over(a: Word, b: Word) -> bool:
        return min(a.box.x2, b.box.x2) - max(a.box.x1, b.box.x1) > 0.5 * min(a.box.width, b.box.width)

    out: list[Word] = []
    taken: Word | None = None  # the default's word that stands for the last word out
    changed = False
    for w in tess.words:
        garbled = _garbled(w.text)
        if (not _has_script(w.text) and not any(_wide(ch) for ch in w.text)) or garbled:
            at = [o for o in theirs if over(o, w)]
            if garbled:
                at = [o for o in at if sum(ch.isalpha() for ch in o.text) >= 3]
            if len(at) == 1 and at[0].text != w.text:
                if out and taken is at[0]:
                    # two of Tesseract's words over one of the default's ("V" and "५58" over "Visa")
                    out[-1] = Word(at[0].text, Box.enclosing([out[-1].box, w.box]), 0.75)
                else:
                    out.append(Word(at[0].text, w.box, 0.75))
                taken = at[0]
                changed = True
                continue
        out.append(Word(w.text, w.box, 0.75))
        taken = None
    # a digit or Latin word Tesseract left out ("1" of "KBS 1라디오"): put in where it lies
    rtl = len(tess.words) > 1 and tess.words[0].box.x1 > tess.words[-1].box.x1
    for o in theirs:
        if not any(over(o, w) for w in tess.words):
            out.append(Word(o.text, o.box, 0.75))
            changed = True
    if not changed:
        return None
    out.sort(key=lambda w: -w.box.center.x if rtl else w.box.center.x)
    return TextLine(" ".join(w.text for w in out), tess.box, 0.75, tuple(out))


def _garbled(word: str) -> bool:
    """Whether ``word``, read in a script's pack, mixes the script's letters with digits or Latin
    letters: a Latin word the pack read in its own letters ("(Hebrew)" as "(שש4606ו)", "(Persian)"
    as "(مقأىمع2)"), where the default recogniser read it surely. A word of the script alone, or
    one with a Latin word run into it, is no such."""
    alnum = [ch for ch in word if ch.isalnum()]
    mixed = any(_has_script(ch) for ch in alnum) and any(ch.isascii() for ch in alnum)
    return mixed and word[:1] in "()[]" and word[-1:] in "()[]"


def _visual_order(line: TextLine) -> TextLine | None:
    """A right-to-left reading of a line (``line``'s first word is its rightmost) in the order its
    words lie from left to right: a Hebrew or Arabic name with its English name in brackets after
    it on a left-to-right page ("עברית (Hebrew)", "فارسی (Persian)": Tesseract, reading the line in
    the script's pack, gives the bracket first). None for a line already in that order."""
    ws = list(line.words)
    if len(ws) < 2 or ws[0].box.x1 <= ws[-1].box.x1:
        return None
    ws.sort(key=lambda w: w.box.center.x)
    return TextLine(" ".join(w.text for w in ws), line.box, line.score, tuple(ws))
