"""The trajectory report built from real run folders of the simulated phone (no browser here; the
browser tests are in test_report_browser.py)."""

from __future__ import annotations

import html
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from mobile_agent.cli import main
from mobile_agent.errors import ConfigError
from mobile_agent.report import write_report
from mobile_agent.report.rundata import read_run
from report_helpers import INSTRUCTION, cached_run


class _Page(HTMLParser):
    """Collects what the tests look at: image sources, frames, gaps, overlay shapes."""

    def __init__(self) -> None:
        super().__init__()
        self.imgs: list[str] = []
        self.frames: list[dict[str, str]] = []
        self.gaps = 0
        self.cand_rects = 0
        self.taps: list[tuple[float, float]] = []
        self.in_gap = False
        self.gap_text: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        cls = a.get("class", "").split()
        if tag == "img":
            self.imgs.append(a["src"])
        if tag == "section" and "frame" in cls:
            self.frames.append(a)
        if tag == "div" and "gap" in cls:
            self.gaps += 1
            self.in_gap = True
            self.gap_text.append("")
        if tag == "rect":
            self.cand_rects += 1
        if tag == "circle" and "dot" in cls:
            self.taps.append((float(a["cx"]), float(a["cy"])))

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self.in_gap:
            self.in_gap = False

    def handle_data(self, data: str) -> None:
        if self.in_gap:
            self.gap_text[-1] += data


def parse(path: Path) -> _Page:
    p = _Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


@pytest.fixture
def run(tmp_path: Path) -> Path:
    dst = tmp_path / "run"
    shutil.copytree(cached_run(), dst)
    return dst


def test_report_shows_every_step_with_its_screenshot_and_overlay(run: Path) -> None:
    out = write_report(run)
    assert out == run / "report.html"
    page = parse(out)
    text = out.read_text(encoding="utf-8")
    assert INSTRUCTION in text and "completed" in text
    steps = [json.loads(line) for line in (run / "steps.jsonl").read_text().splitlines()]
    assert [f["data-step"] for f in page.frames] == [str(s["step"]) for s in steps] + ["final"]
    # every step's screenshot (and the final one) is linked relative to the page and exists
    main_imgs = [s for s in page.imgs if "thumb" not in s]
    for s in steps:
        assert s["screenshot"] in page.imgs
    for src in set(page.imgs):
        assert (out.parent / unquote(src)).is_file(), src
    # the overlay: one rectangle per grounding candidate, a tap mark at each tap
    n_cands = sum(len((s.get("grounding") or {}).get("candidates", [])) for s in steps)
    assert page.cand_rects == n_cands
    taps = [(s["gesture"]["x"], s["gesture"]["y"]) for s in steps if s["gesture"]["kind"] == "tap"]
    assert page.taps == [(float(x), float(y)) for x, y in taps]
    assert page.gaps == 0
    assert main_imgs  # images are there
    # the ReAct text and the reflection are shown
    for s in steps:
        assert html.escape(s["thought"]) in text
    assert "as_expected" in text and "The dark theme is on." in text


def test_tap_mark_is_drawn_where_the_phone_was_tapped(run: Path) -> None:
    """The tap of step 3 hits the Dark theme switch: the step 4 screenshot is dark, step 3's is light,
    and the overlay's tap point lies inside the chosen candidate's box."""
    data = read_run(run)
    s3 = data.steps[2]
    g = s3.record["gesture"]
    box = s3.record["grounding"]["candidates"][s3.record["grounding"]["chosen"]]["box"]
    assert box[0] <= g["x"] < box[2] and box[1] <= g["y"] < box[3]
    light = Image.open(data.steps[2].screen.path).convert("L").resize((20, 40))
    dark = Image.open(data.steps[3].screen.path).convert("L").resize((20, 40))
    mean = lambda im: float(np.asarray(im).mean())  # noqa: E731
    assert mean(light) > 150 > mean(dark)


def test_the_tap_mark_leaves_the_tapped_word_readable(run: Path) -> None:
    """The ring round a tap passes above and below the chosen candidate's box (the word tapped), the
    dot on the point is small, and neither is filled (report.css), so the word shows through."""
    import re

    page = write_report(run).read_text(encoding="utf-8")
    steps = [json.loads(line) for line in (run / "steps.jsonl").read_text().splitlines()]
    checked = 0
    for s in steps:
        g, grounding = s["gesture"], s.get("grounding") or {}
        if g["kind"] != "tap" or grounding.get("chosen") is None:
            continue
        x1, y1, x2, y2 = grounding["candidates"][grounding["chosen"]]["box"]
        frame = page.split(f'id="step-{s["step"]}"', 1)[1].split("</section>", 1)[0]
        tap = re.search(r'<g class="tap"><circle cx="(\d+)" cy="(\d+)" r="(\d+)"', frame)
        dot = re.search(r'<circle class="dot" cx="\d+" cy="\d+" r="(\d+)"', frame)
        assert tap and dot, frame[:400]
        cy, ring, r_dot = float(tap.group(2)), float(tap.group(3)), float(dot.group(1))
        assert ring > max(cy - y1, y2 - cy), (ring, (y1, y2), cy)  # clear of the word's top and bottom
        assert 2 * r_dot <= (y2 - y1) / 3, (r_dot, y2 - y1)
        checked += 1
    assert checked
    css = (Path(__file__).resolve().parents[2] / "src" / "mobile_agent" / "report" / "static" / "report.css").read_text()
    rules = re.findall(r"\.overlay \.tap circle(?:\.dot)? \{([^}]*)\}", css)
    assert rules and all("fill: none" in r for r in rules), rules


def test_embedded_report_needs_no_files_beside_it(run: Path, tmp_path: Path) -> None:
    out = write_report(run, tmp_path / "alone" / "r.html", embed=True)
    shutil.rmtree(run)
    page = parse(out)
    assert page.imgs and all(src.startswith("data:image/") for src in page.imgs)


def test_report_written_elsewhere_links_back_to_the_run(run: Path, tmp_path: Path) -> None:
    out = write_report(run, tmp_path / "elsewhere" / "deep" / "x.html")
    page = parse(out)
    assert page.imgs
    for src in page.imgs:
        assert not src.startswith("/")
        assert (out.parent / unquote(src)).resolve().is_file()


def test_cut_off_run_renders_with_the_gaps_marked(run: Path) -> None:
    # a crash: summary.json never written, the last step line cut mid-way, one screenshot lost,
    # and no final screenshot
    (run / "summary.json").unlink()
    (run / "screens" / "final.png").unlink()
    (run / "screens" / "step_002.png").unlink()
    raw = (run / "steps.jsonl").read_text()
    lines = raw.splitlines()
    (run / "steps.jsonl").write_text("\n".join(lines[:3]) + "\n" + lines[3][: len(lines[3]) // 2])
    out = write_report(run)
    page = parse(out)
    gaps = " | ".join(page.gap_text)
    assert "no summary.json" in gaps
    assert "cut off" in gaps
    assert [f["data-step"] for f in page.frames] == ["1", "2", "3"]
    assert page.gaps == 2
    text = out.read_text(encoding="utf-8")
    assert "screens/step_002.png: file missing" in text
    assert "unfinished" in text
    # tokens are summed from the steps that are left
    toks = sum(json.loads(line)["model"]["prompt_tokens"] + json.loads(line)["model"]["completion_tokens"]
               for line in lines[:3])
    assert f"{toks:,}" in text
    for src in page.imgs:
        assert (out.parent / unquote(src)).is_file()


def test_skipped_steps_and_damaged_images_are_marked(run: Path) -> None:
    lines = (run / "steps.jsonl").read_text().splitlines()
    del lines[1]  # step 2 lost
    (run / "steps.jsonl").write_text("\n".join(lines) + "\n")
    png = run / "screens" / "step_003.png"
    png.write_bytes(png.read_bytes()[:2000])  # cut off mid-write
    out = write_report(run)
    page = parse(out)
    gaps = " | ".join(page.gap_text)
    assert "step 2 missing" in gaps
    assert "counts 4 steps" not in gaps  # the summary's count matches the last step number
    text = out.read_text(encoding="utf-8")
    assert re.search(r"screens/step_003\.png: cannot be decoded", text)
    assert "screens/step_003.png" not in page.imgs


def test_summary_counting_more_steps_than_recorded_is_marked(run: Path) -> None:
    lines = (run / "steps.jsonl").read_text().splitlines()
    (run / "steps.jsonl").write_text("\n".join(lines[:2]) + "\n")
    page = parse(write_report(run))
    assert any("counts 4 steps" in g and "ends at step 2" in g for g in page.gap_text)


def test_summary_that_is_not_json_and_missing_steps_file(run: Path) -> None:
    (run / "summary.json").write_text('{"instruction": "Turn on')
    (run / "steps.jsonl").unlink()
    page = parse(write_report(run))
    gaps = " | ".join(page.gap_text)
    assert "summary.json is not valid JSON" in gaps and "no steps.jsonl" in gaps
    assert [f["data-step"] for f in page.frames] == ["final"]


def test_not_a_run_folder_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a run folder"):
        write_report(tmp_path)
    with pytest.raises(ConfigError, match="not found"):
        write_report(tmp_path / "nope")


def test_cli_report_writes_the_file_and_exits_2_on_a_wrong_folder(run: Path, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.html"
    assert main(["report", str(run), "--out", str(out)]) == 0
    assert out.is_file() and str(out) in capsys.readouterr().out
    assert INSTRUCTION in out.read_text(encoding="utf-8")
    assert main(["report", str(tmp_path / "missing")]) == 2
    (tmp_path / "empty").mkdir()
    assert main(["report", str(tmp_path / "empty")]) == 2


def test_model_text_is_escaped_and_typing_is_labelled(run: Path) -> None:
    lines = [json.loads(line) for line in (run / "steps.jsonl").read_text().splitlines()]
    lines[1]["thought"] = "<script>alert(1)</script> & more"
    lines[3]["gesture"] = {"kind": "type", "text": "<b>Groceries</b>"}
    (run / "steps.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    text = write_report(run).read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in text
    assert "type “&lt;b&gt;Groceries&lt;/b&gt;”" in text
    assert text.count("<script>") == 1  # only the page's own keyboard script


_json = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
                     | st.text(max_size=20), lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c,
                                                                                             max_size=4), max_leaves=12)
_FIELDS = ["step", "screenshot", "annotated", "model", "observation", "thought", "action", "operation", "grounding",
           "gesture", "reflection", "timings", "error", "completion"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=st.lists(st.dictionaries(st.sampled_from(_FIELDS), _json, max_size=8), max_size=4),
       summary=st.dictionaries(st.sampled_from(["instruction", "outcome", "completed", "steps", "tokens", "cost_usd",
                                                "duration_s", "error", "model"]), _json, max_size=6))
def test_any_json_values_render(tmp_path: Path, records: list[dict], summary: dict) -> None:
    """Whatever types a damaged or foreign run folder holds, the report renders and marks it."""
    run = tmp_path / "fuzz"
    run.mkdir(exist_ok=True)
    (run / "steps.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    (run / "summary.json").write_text(json.dumps(summary))
    out = write_report(run)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
