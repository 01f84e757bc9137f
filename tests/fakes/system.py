"""The system parts some tests use (programs and fonts that pip does not install), found the way a
user has them, and one way for every test to skip when one is missing: with what needs it and the
command that installs it on Debian/Ubuntu and on macOS.

``needs("chromium")`` is a skip mark; ``require("tesseract")`` skips from inside a test or fixture.
``MOBILE_AGENT_TEST_WITHOUT=chromium,noto-cjk`` makes the parts named there count as missing (to see
the skips on a machine that has them). ``.ci/run`` installs every part, so CI runs every test.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
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

    @property
    def reason(self) -> str:
        return (f"{self.name} is not installed ({self.needed_for}); Debian/Ubuntu: {self.debian}; "
                f"macOS: {self.macos}")


PARTS: dict[str, Part] = {p.name: p for p in (
    Part("chromium", "browser tests of the HTML reports", "sudo apt-get install chromium",
         "brew install --cask chromium (or: python -m playwright install chromium)", _chromium),
    Part("tesseract", "the second OCR engine", "sudo apt-get install tesseract-ocr tesseract-ocr-eng",
         "brew install tesseract", _program("tesseract")),
    Part("adb", "checks against a real adb server", "sudo apt-get install adb",
         "brew install --cask android-platform-tools", _program("adb")),
    Part("noto-cjk", "the simulated phone's Chinese labels, the text sets' CJK lines",
         "sudo apt-get install fonts-noto-cjk",
         "brew install --cask font-noto-sans-cjk font-noto-serif-cjk (the tests read Debian's font paths)",
         _file("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")),
    Part("dejavu", "looks of the simulated phone, the text and icon benchmark sets drawn in it", "sudo apt-get install fonts-dejavu-core",
         "brew install --cask font-dejavu (the tests read Debian's font paths)",
         _file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")),
    Part("entypo", "the held-out icon set", "sudo apt-get install fonts-entypo",
         "none packaged (the tests read Debian's font paths)",
         _file("/usr/share/fonts/truetype/fonts-entypo/entypo.ttf")),
    Part("glyphicons", "the held-out icon set", "sudo apt-get install fonts-glyphicons-halflings",
         "none packaged (the tests read Debian's font paths)",
         _file("/usr/share/fonts/truetype/glyphicons/glyphicons-halflings-regular.ttf",
               "/usr/share/fonts-glyphicons/glyphicons-halflings-regular.ttf")),
)}

_found: dict[str, str | None] = {}


def _hidden() -> set[str]:
    return {n.strip() for n in os.environ.get(WITHOUT_ENV, "").split(",") if n.strip()}


def find(name: str) -> str | None:
    """Where part ``name`` is (a program's or a font's path), or None when it is missing."""
    if name in _hidden():
        return None
    if name not in _found:
        _found[name] = PARTS[name].find()
    return _found[name]


def missing(*names: str) -> list[str]:
    return [n for n in names if find(n) is None]


def reason(*names: str) -> str:
    return "; ".join(PARTS[n].reason for n in missing(*names)) or "installed"


def needs(*names: str) -> pytest.MarkDecorator:
    """A skip mark for a test that uses the parts ``names``."""
    gone = missing(*names)
    return pytest.mark.skipif(bool(gone), reason=reason(*gone) if gone else "")


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
