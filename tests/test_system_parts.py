"""Tests that use a system part (Chromium, Tesseract, adb, system fonts) skip without it, naming what
needs it and how to install it on Debian/Ubuntu and macOS; Chromium is found the way users have it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


#: the tests that draw with a system font (directly, through a screen set or a look of the simulated
#: phone): whole files where most of a file does, else its font tests by name (the rest of such a file
#: runs in the suite itself and would only make this check slower)
PERC, SETS = "tests/perception/", "tests/screensets/"
FONT_TESTS = [
    PERC + "test_perception_ocr_fast.py::" + t for t in (
        "test_word_boxes_equal_the_stepwise_computation_on_rendered_screens",
        "test_bounded_spinning_reads_every_screen_as_onnxruntimes_own_spinning",
        "test_recogniser_inputs_equal_those_of_crops_swapped_first", "test_recognised_crops_are_cached_by_their_pixels")
] + [
    PERC + "test_perception_icon_detect_fast.py::test_detector_gives_the_former_boxes_on_rendered_screens",
    PERC + "test_perception_realrules.py::test_lone_chinese_characters_stay_text_on_a_chinese_screen",
    PERC + "test_perception_unseen_looks.py::test_a_screen_in_an_unseen_font_still_grounds_its_texts[look0-size0-False]",
    PERC + "test_perception_unseen_looks.py::test_a_screen_in_an_unseen_font_still_grounds_its_texts[look2-size2-False]",
    PERC + "test_perception_icon_frames.py::test_a_link_beside_a_chip_frame_or_a_glyph_slice_grounds",
    PERC + "test_perception_icon_frames.py::test_account_is_the_profile_tab_not_a_disc_on_a_photo_or_a_gear",
    PERC + "test_perception_icon_frames.py::test_a_disc_holding_a_heart_is_no_account_circle",
    PERC + "test_perception_icon_frames.py::test_account_is_the_round_photo_not_a_speech_bubbles_ring",
    PERC + "test_perception_icon_realscreens.py::test_a_caption_is_no_control_drawn_as_words",
    SETS + "test_screensets_registry.py::test_a_drawn_set_loads_through_the_registry_as_its_module_draws_it",
    SETS + "test_screensets_registry.py::test_an_icon_set_is_measured_by_the_cli",
    SETS + "test_screensets_measure.py::test_benchmark_prints_every_figure_of_the_table_on_a_wide_screen",
    SETS + "test_screensets_wide.py",
] + [PERC + f for f in (
    "test_perception_icon_text_areas.py", "test_perception_script_chips.py", "test_perception_scripts.py",
    "test_scripts_mixed.py", "test_perception_langs.py", "test_langs_set.py", "test_scripts_set.py",
    "test_perception_text_heldout.py", "test_perception_text_stress.py", "test_perception_text_missed.py",
    "test_perception_icon_badges.py", "test_perception_icon_positions.py",
    "test_perception_icon_stress.py")] + [SETS + f for f in (
    "test_screensets_text_stress.py", "test_screensets_text_heldout.py", "test_screensets_icon_heldout.py",
    "test_screensets_icon_stress.py")] + ["tests/sim/test_sim_look.py", "tests/sim/test_sim_font_state.py"]


def test_hidden_fonts_are_missing_for_the_product_code_too(monkeypatch):
    """``MOBILE_AGENT_TEST_WITHOUT=fonts`` names every optional font; in a test process their files do
    not exist (the product's own lookups find none) and Pillow cannot open them."""
    assert set(system.FONTS) == {"noto-cjk", "noto-core", "dejavu", "entypo", "glyphicons"}
    monkeypatch.setenv(system.WITHOUT_ENV, "fonts")
    assert system.missing(*system.FONTS) == list(system.FONTS)
    assert "sudo apt-get install fonts-noto-core" in system.reason("noto-core")
    code = ("import os, pathlib\n"
            "from tests.fakes import system\n"
            "system.hide_parts()\n"
            "from PIL import ImageFont\n"
            "from mobile_agent.device.sim import look\n"
            "from mobile_agent.screensets import text_langs, text_scripts\n"
            "path = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'\n"
            "assert not pathlib.Path(path).exists() and not os.path.isfile(path)\n"
            "try:\n    ImageFont.truetype(path, 20)\nexcept OSError as e:\n    print('pillow:', e)\n"
            "print('dejavu look:', look.font_available('dejavu'), 'cjk look:', look.font_available('noto-cjk'))\n"
            "print('langs set:', text_langs.available(), 'scripts left out:', len(text_scripts.missing_scripts()))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, **{system.WITHOUT_ENV: "fonts"}),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "pillow: cannot open resource" in done.stdout
    assert "dejavu look: False cjk look: False" in done.stdout
    assert f"langs set: False scripts left out: {len(__import__('mobile_agent.screensets.text_scripts', fromlist=['SCRIPTS']).SCRIPTS)}" in done.stdout


def test_a_name_that_is_no_part_is_a_usage_error(tmp_path):
    env = dict(os.environ, **{system.WITHOUT_ENV: "fonts,noto-sans-cjk"})
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "tests/test_types.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 4, done.stdout[-2000:] + done.stderr[-2000:]
    assert "no system part 'noto-sans-cjk'" in done.stderr and "noto-cjk" in done.stderr and "fonts" in done.stderr


@pytest.mark.slow
def test_the_font_tests_pass_or_skip_naming_the_font_on_a_machine_without_the_optional_fonts():
    env = dict(os.environ, **{system.WITHOUT_ENV: "fonts"})
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rs",
                           *FONT_TESTS], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    out = done.stdout
    last = out.strip().splitlines()[-1]
    assert done.returncode == 0 and " failed" not in last and " error" not in last, out[-4000:]
    skips = [l for l in out.splitlines() if l.startswith("SKIPPED")]
    assert skips, out[-2000:]
    # every skip for a font names it and how to install it
    for font in system.FONTS:
        named = [l for l in skips if f"{font} is not installed" in l]
        assert named and all("sudo apt-get install fonts-" in l for l in named), (font, skips[:5])
