"""The system parts some tests use (programs and fonts that pip does not install), found the way a
user has them, and one way for every test to skip when one is missing: with what needs it and the
command that installs it on Debian/Ubuntu and on macOS.

``needs("chromium")`` is a skip mark; ``require("tesseract")`` skips from inside a test or fixture;
``needs_pack("kor")`` / ``require_pack("kor")`` for one of Tesseract's language packs.
``MOBILE_AGENT_TEST_WITHOUT=chromium,noto-cjk`` makes the parts named there count as missing (to see
the skips on a machine that has them); ``fonts`` names every optional font, ``all`` every part.
:func:`hide_parts` (called by tests/conftest.py) carries that into the test process itself: a hidden
font's files do not exist for it (``os.stat``, Pillow's FreeType), a hidden program is not on its
PATH (``shutil.which``), so that the product code draws and reads as on a machine without them and
a test that uses a part without asking this module fails here as it would there. Subprocesses a
test starts see the machine as it is. ``.ci/run`` installs every part, so CI runs every test.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

WITHOUT_ENV = "MOBILE_AGENT_TEST_WITHOUT"


def _program(*names: str) -> Callable[[], str | None]:
    def find() -> str | None:
        for name in names:
            path = shutil.which(name)
            if path:
                return path
        return None

    return find


def _file(*paths: str) -> Callable[[], str | None]:
    def find() -> str | None:
        return next((p for p in paths if Path(p).is_file()), None)

    return find


def _chromium() -> str | None:
    """Chromium or Chrome on PATH, else the browser Playwright installed for itself."""
    found = _program("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")()
    if found:
        return found
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            own = pw.chromium.executable_path
    except Exception:  # noqa: BLE001 - no Playwright, or no browser of its own
        return None
    return own if own and Path(own).is_file() else None


@dataclass(frozen=True)
class Part:
    name: str
    needed_for: str
    debian: str
    macos: str
    find: Callable[[], str | None]
    #: where a font's files lie (path prefixes), hidden with the part; empty for a program
    files: tuple[str, ...] = field(default=())
    #: the names a program goes by on PATH, hidden with the part
    programs: tuple[str, ...] = field(default=())

    @property
    def reason(self) -> str:
        return (f"{self.name} is not installed ({self.needed_for}); Debian/Ubuntu: {self.debian}; "
                f"macOS: {self.macos}")


_CJK = "/usr/share/fonts/opentype/noto/Noto"  # Sans and Serif CJK: fonts-noto-cjk
_NOTO = "/usr/share/fonts/truetype/noto/"  # Noto Sans and its scripts' faces: fonts-noto-core
_DEJAVU = "/usr/share/fonts/truetype/dejavu/"
_ENTYPO = "/usr/share/fonts/truetype/fonts-entypo/"
_GLYPHICONS = ("/usr/share/fonts/truetype/glyphicons/", "/usr/share/fonts-glyphicons/")
_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")

PARTS: dict[str, Part] = {p.name: p for p in (
    Part("chromium", "browser tests of the HTML reports", "sudo apt-get install chromium",
         "brew install --cask chromium (or: python -m playwright install chromium)", _chromium,
         programs=_BROWSERS),
    Part("tesseract", "the second OCR engine", "sudo apt-get install tesseract-ocr tesseract-ocr-eng",
         "brew install tesseract", _program("tesseract"), programs=("tesseract",)),
    Part("adb", "checks against a real adb server", "sudo apt-get install adb",
         "brew install --cask android-platform-tools", _program("adb"), programs=("adb",)),
    Part("noto-cjk", "the simulated phone's Chinese labels, the text sets' CJK lines",
         "sudo apt-get install fonts-noto-cjk",
         "brew install --cask font-noto-sans-cjk font-noto-serif-cjk (the tests read Debian's font paths)",
         _file(_CJK + "SansCJK-Regular.ttc"), files=(_CJK + "SansCJK", _CJK + "SerifCJK")),
    Part("noto-core", "the scripts and languages sets' lines (Noto Sans and its Thai, Devanagari, Bengali, "
         "Arabic... faces)", "sudo apt-get install fonts-noto-core",
         "brew install --cask font-noto-sans-thai font-noto-sans-devanagari font-noto-sans-bengali "
         "font-noto-naskh-arabic (the tests read Debian's font paths)",
         _file(_NOTO + "NotoSans-Regular.ttf"), files=(_NOTO,)),
    Part("dejavu", "looks of the simulated phone, the text and icon benchmark sets drawn in it",
         "sudo apt-get install fonts-dejavu-core",
         "brew install --cask font-dejavu (the tests read Debian's font paths)",
         _file(_DEJAVU + "DejaVuSans.ttf"), files=(_DEJAVU,)),
    Part("entypo", "the held-out icon set", "sudo apt-get install fonts-entypo",
         "none packaged (the tests read Debian's font paths)",
         _file(_ENTYPO + "entypo.ttf"), files=(_ENTYPO,)),
    Part("glyphicons", "the held-out icon set", "sudo apt-get install fonts-glyphicons-halflings",
         "none packaged (the tests read Debian's font paths)",
         _file(*(d + "glyphicons-halflings-regular.ttf" for d in _GLYPHICONS)), files=_GLYPHICONS),
)}
#: the optional fonts (``MOBILE_AGENT_TEST_WITHOUT=fonts`` hides them all)
FONTS = tuple(n for n, p in PARTS.items() if p.files)

_found: dict[str, str | None] = {}


def _hidden() -> set[str]:
    """The parts ``MOBILE_AGENT_TEST_WITHOUT`` names (``fonts``: every optional font; ``all``: every part)."""
    names = {n.strip() for n in os.environ.get(WITHOUT_ENV, "").split(",") if n.strip()}
    if "all" in names:
        names |= set(PARTS)
    if "fonts" in names:
        names |= set(FONTS)
    return names


def _languages() -> frozenset[str]:
    from mobile_agent.perception.ocr.scripts import installed_languages

    return installed_languages()


def part(name: str) -> Part:
    """The part called ``name``: one of :data:`PARTS`, or ``tesseract-LANG``, Tesseract's pack for LANG."""
    if name in PARTS:
        return PARTS[name]
    if name.startswith("tesseract-") and name[len("tesseract-"):].isalpha():
        lang = name[len("tesseract-"):]
        return Part(name, f"Tesseract's {lang} pack: Click Text on its script",
                    f"sudo apt-get install tesseract-ocr-{lang}", "brew install tesseract-lang",
                    lambda: lang if lang in _languages() else None)
    raise KeyError(f"no system part {name!r}: {', '.join(PARTS)} or tesseract-LANG")


def find(name: str) -> str | None:
    """Where part ``name`` is (a program's or a font's path; a pack's language), or None when it is
    missing (a pack is missing with Tesseract)."""
    hidden = _hidden()
    if name in hidden or (name.startswith("tesseract-") and "tesseract" in hidden):
        return None
    if name not in _found:
        _found[name] = part(name).find()
    return _found[name]


def missing(*names: str) -> list[str]:
    return [n for n in names if find(n) is None]


def reason(*names: str) -> str:
    return "; ".join(part(n).reason for n in missing(*names)) or "installed"


def needs(*names: str, other: str | None = None) -> pytest.MarkDecorator:
    """A skip mark for a test that uses the parts ``names``; with them all here, ``other`` (what else
    is missing, in words: a face a part's older version lacks) still skips."""
    gone = missing(*names)
    if gone:
        return pytest.mark.skipif(True, reason=reason(*gone))
    return pytest.mark.skipif(bool(other), reason=other or "")


def needs_set(module: object, *names: str) -> pytest.MarkDecorator:
    """A skip mark for a test of a frozen screen set (``module``, with ``available()`` and its pip
    ``INSTALL`` hint) drawn with the system parts ``names``: a missing part is named with how to get it."""
    gone = missing(*names)
    if gone:
        return pytest.mark.skipif(True, reason=reason(*gone))
    hint = getattr(module, "INSTALL", 'the test extra: pip install -e ".[test]"')
    return pytest.mark.skipif(not module.available(), reason=hint)  # type: ignore[attr-defined]


def require(*names: str) -> None:
    """Skip the calling test (or fixture) when a part is missing."""
    gone = missing(*names)
    if gone:
        pytest.skip(reason(*gone))


def needs_pack(*langs: str) -> pytest.MarkDecorator:
    """A skip mark for a test that reads with Tesseract's packs ``langs`` (``"kor"``, ``"ara"``)."""
    return needs(*(f"tesseract-{lang}" for lang in langs))


def require_pack(*langs: str) -> None:
    """Skip the calling test (or fixture) when one of Tesseract's packs ``langs`` is missing."""
    require(*(f"tesseract-{lang}" for lang in langs))


def hide_parts() -> None:
    """Make the parts ``MOBILE_AGENT_TEST_WITHOUT`` names missing for this process as a whole: a
    hidden font's files do not exist (``os.stat``, which ``Path.exists`` and ``os.path.isfile`` use)
    and Pillow cannot open them ("cannot open resource", as where they are not installed); a hidden
    program is not found on PATH (``shutil.which``, read again at each call). A name that is no
    part is a usage error that lists the parts."""
    names = _hidden()
    for name in names - {"all", "fonts"}:
        try:
            part(name)
        except KeyError as exc:
            raise pytest.UsageError(f"{WITHOUT_ENV}: {exc.args[0]}, fonts (every optional font), all") from None
    prefixes = tuple(prefix for n in sorted(names & set(PARTS)) for prefix in PARTS[n].files)
    if prefixes and not getattr(os.stat, "_hides", None):
        import errno

        from PIL import ImageFont

        real_stat = os.stat

        def hidden_file(path: object) -> str | None:
            if isinstance(path, (str, os.PathLike)):
                text = os.fspath(path)
                if isinstance(text, str) and text.startswith(prefixes):
                    return text
            return None

        def stat(path, *args, **kwargs):  # type: ignore[no-untyped-def]
            text = hidden_file(path)
            if text is not None:
                raise FileNotFoundError(errno.ENOENT, f"hidden by {WITHOUT_ENV}", text)
            return real_stat(path, *args, **kwargs)

        stat._hides = prefixes  # type: ignore[attr-defined]
        os.stat = stat
        real_init = ImageFont.FreeTypeFont.__init__

        def init(self, font=None, *args, **kwargs):  # type: ignore[no-untyped-def]
            if hidden_file(font) is not None:
                raise OSError("cannot open resource")
            real_init(self, font, *args, **kwargs)

        ImageFont.FreeTypeFont.__init__ = init  # type: ignore[method-assign]
    if any(PARTS[n].programs for n in names & set(PARTS)) and not getattr(shutil.which, "_hides", False):
        real_which = shutil.which

        def which(cmd, *args, **kwargs):  # type: ignore[no-untyped-def]
            now = _hidden()
            if any(os.path.basename(os.fspath(cmd)) in PARTS[n].programs for n in now & set(PARTS)):
                return None
            return real_which(cmd, *args, **kwargs)

        which._hides = True  # type: ignore[attr-defined]
        shutil.which = which
