"""Tests that use a system part (Chromium, Tesseract, adb, system fonts) skip without it, naming what
needs it and how to install it on Debian/Ubuntu and macOS; Chromium is found the way users have it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.fakes import system

ROOT = Path(__file__).resolve().parents[1]


def test_tests_skip_with_the_install_command_when_a_part_is_missing(tmp_path):
    tests = ["tests/report/test_report_browser.py", "tests/perception/test_perception_tesseract.py",
             "tests/sim/test_sim_look.py::test_chinese_look_translates_labels_in_pixels_and_tree",
             "tests/screensets/test_screensets_wide.py", "tests/device_adb/test_adb_real_server.py"]
    env = dict(os.environ, **{system.WITHOUT_ENV: "chromium,tesseract,noto-cjk,adb"})
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rs", "-q",
                           "-k", "not tesseract_is_a_clear_error", *tests], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    out = done.stdout
    assert done.returncode == 0, out[-3000:]
    assert " failed" not in out and " error" not in out and "passed" not in out.splitlines()[-1], out[-2000:]
    for part, debian in (("chromium", "sudo apt-get install chromium"), ("tesseract", "sudo apt-get install tesseract-ocr"),
                         ("noto-cjk", "sudo apt-get install fonts-noto-cjk"), ("adb", "sudo apt-get install adb")):
        assert f"{part} is not installed" in out and debian in out, part
    assert "macOS: brew install" in out


def test_chromium_is_found_on_path_under_any_of_its_names(tmp_path, monkeypatch):
    for name in ("chromium", "chromium-browser", "google-chrome"):
        folder = tmp_path / name
        folder.mkdir()
        browser = folder / name
        browser.write_text("#!/bin/sh\n")
        browser.chmod(0o755)
        monkeypatch.setenv("PATH", str(folder))
        assert system._chromium() == str(browser)


def test_a_part_named_in_the_environment_counts_as_missing(monkeypatch):
    monkeypatch.setenv(system.WITHOUT_ENV, "tesseract")
    assert system.find("tesseract") is None and system.missing("tesseract") == ["tesseract"]
    assert "Debian/Ubuntu: sudo apt-get install tesseract-ocr" in system.reason("tesseract")
    assert "macOS: brew install tesseract" in system.reason("tesseract")
