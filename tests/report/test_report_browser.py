"""Real-browser tests: headless Chromium (on PATH as chromium, chromium-browser or google-chrome, else
Playwright's own) driven by Playwright's Python package; skipped, with how to install it, without one.

A generated report opens from disk with every image loaded and the arrow keys stepping; the live
view follows updates; the simulated phone served to the page is tapped, swiped and typed into."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import BrowserContext, Page, sync_playwright

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import TreeDriver
from mobile_agent.report import write_report
from mobile_agent.report.live import LiveView
from mobile_agent.report.simserve import count_human_steps, serve_phone
from report_helpers import INSTRUCTION, cached_run
from tests.fakes import system

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 10_000


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserContext]:
    system.require("chromium")
    profile = tempfile.mkdtemp(prefix="report-chromium-")
    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path=system.find("chromium"), headless=True,
                                                    args=ARGS,
                                                    viewport={"width": 1200, "height": 900})
        ctx.set_default_timeout(TIMEOUT_MS)
        try:
            yield ctx
        finally:
            ctx.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser: BrowserContext) -> Iterator[Page]:
    pg = browser.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _images_loaded(pg: Page) -> list[dict]:
    pg.wait_for_function("Array.from(document.images).every(i => i.complete)")
    return pg.evaluate("Array.from(document.images).map(i => ({src: i.currentSrc.slice(0, 80), w: i.naturalWidth}))")


def _current(pg: Page) -> str:
    return pg.evaluate("document.body.dataset.current")


def test_report_opens_from_disk_images_load_and_arrows_step(page: Page, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(cached_run(), run)
    out = write_report(run)
    page.goto(out.as_uri())
    imgs = _images_loaded(page)
    assert len(imgs) == 2 * 5  # 4 steps and the final screen, each in the filmstrip and in full
    assert all(i["w"] > 0 for i in imgs), imgs
    assert page.inner_text("#instruction") == INSTRUCTION
    assert _current(page) == "step-1"
    page.keyboard.press("ArrowRight")
    assert _current(page) == "step-2"
    # the current step is scrolled into view, and its filmstrip thumbnail is marked
    top = page.evaluate("document.getElementById('step-2').getBoundingClientRect().top")
    assert 0 <= top < 900
    assert page.get_attribute(".thumb.current", "data-target") == "step-2"
    for expected in ("step-3", "step-4", "final", "final"):
        page.keyboard.press("ArrowRight")
        assert _current(page) == expected
    page.keyboard.press("ArrowLeft")
    assert _current(page) == "step-4"
    page.keyboard.press("Home")
    assert _current(page) == "step-1"
    # a click on a filmstrip thumbnail goes to that step
    page.click('.thumb[data-target="step-3"]')
    assert _current(page) == "step-3"
    # the overlay sits on the screenshot: the tap mark of step 3 is inside its image
    inside = page.evaluate("""() => {
        const f = document.querySelector('#step-3 figure').getBoundingClientRect();
        const d = document.querySelector('#step-3 circle.dot').getBoundingClientRect();
        const cx = d.left + d.width / 2, cy = d.top + d.height / 2;
        return cx > f.left && cx < f.right && cy > f.top && cy < f.bottom;
    }""")
    assert inside


def test_cut_off_run_renders_in_the_browser_with_gaps(page: Page, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(cached_run(), run)
    (run / "summary.json").unlink()
    (run / "screens" / "step_003.png").unlink()
    lines = (run / "steps.jsonl").read_text().splitlines()
    (run / "steps.jsonl").write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])
    out = write_report(run)
    page.goto(out.as_uri())
    imgs = _images_loaded(page)
    assert imgs and all(i["w"] > 0 for i in imgs), imgs
    assert page.locator(".gap").count() == 1 + 1  # no summary; the cut-off line
    assert page.locator(".noshot").count() == 1
    assert page.locator(".gap").first.is_visible()
    page.keyboard.press("End")
    assert _current(page) == "final"


def _step(n: int, action: str, gesture: dict) -> dict:
    return {"step": n, "action": action, "thought": f"thinking {n}", "gesture": gesture,
            "reflection": {"verdict": "as_expected"}, "timings": {"total_s": 1.25}, "error": None}


def test_live_view_shows_each_step_as_it_happens(page: Page) -> None:
    phone = SimPhone(seed=1)
    view = LiveView(instruction="Open the Display settings")
    url = view.start()
    try:
        assert url.startswith("http://127.0.0.1:")
        page.goto(url)
        assert page.inner_text("#instruction") == "Open the Display settings"
        drv = TreeDriver(phone)
        view.show_screen(phone.screenshot())
        page.wait_for_function("document.getElementById('screen').naturalWidth > 0")
        node = drv.tap(text="Settings")
        view.update(_step(1, 'Open App ("Settings")', {"kind": "tap", "x": node.bounds.center.x,
                                                          "y": node.bounds.center.y}), phone.screenshot())
        page.wait_for_function("document.querySelectorAll('#steps li').length === 1")
        assert "Open App" in page.inner_text("#steps li")
        node = drv.tap(text="Display")
        view.update(_step(2, 'Click Text ("Display")', {"kind": "tap", "x": node.bounds.center.x,
                                                         "y": node.bounds.center.y}), phone.screenshot())
        page.wait_for_function("document.querySelectorAll('#steps li').length === 2")
        page.wait_for_function("document.getElementById('screen').src.endsWith('screen/2.jpg')")
        page.wait_for_function("document.getElementById('screen').complete")
        w, h = page.evaluate("[document.getElementById('screen').naturalWidth, "
                             "document.getElementById('screen').naturalHeight]")
        assert w > 0 and abs(w / h - 1080 / 2400) < 0.01
        view.finish({"outcome": "completed", "completed": True, "error": None})
        page.wait_for_function("document.body.dataset.done === '1'")
        assert page.inner_text("#status") == "completed"
        # clicking an earlier step shows its screen
        page.click("#steps li:first-child")
        assert page.get_attribute("#screen", "src").endswith("screen/1.jpg")
    finally:
        view.close()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "api/state", timeout=2)


class _Served:
    """serve_phone running in a thread, as ``mobile-agent sim serve`` runs it."""

    def __init__(self, phone: SimPhone, record: Path) -> None:
        self.stop = threading.Event()
        self._ready = threading.Event()
        self.url = ""

        def ready(url: str) -> None:
            self.url = url
            self._ready.set()

        self.thread = threading.Thread(target=serve_phone, args=(phone,), daemon=True,
                                       kwargs={"record_to": record, "ready": ready, "stop": self.stop})
        self.thread.start()
        assert self._ready.wait(10), "serve_phone did not become ready"

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        assert not self.thread.is_alive()


def _click_phone(pg: Page, phone: SimPhone, x: int, y: int) -> None:
    box = pg.locator("#screen").bounding_box()
    assert box is not None
    w, h = phone.size()
    scale = min(box["width"] / w, box["height"] / h)
    ox = box["x"] + (box["width"] - w * scale) / 2
    oy = box["y"] + (box["height"] - h * scale) / 2
    pg.mouse.click(ox + x * scale, oy + y * scale)


def _wait_version(pg: Page, v: int) -> None:
    pg.wait_for_function(f"document.body.dataset.version === '{v}'")


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_sim_serve_click_on_a_switch_changes_the_phone(page: Page, tmp_path: Path) -> None:
    phone = SimPhone(seed=0)
    phone.launch("Settings")
    drv = TreeDriver(phone)
    drv.tap(text="Display")
    switch = [n for n in drv.nodes() if n.checkable][-1]  # the Dark theme switch
    assert phone.state.settings.dark_mode is False
    record = tmp_path / "session.jsonl"
    served = _Served(phone, record)
    try:
        page.goto(served.url)
        page.wait_for_function("document.getElementById('screen').naturalWidth > 0")
        c = switch.bounds.center
        _click_phone(page, phone, c.x, c.y)
        _wait_version(page, 1)
        assert phone.state.settings.dark_mode is True
        rec = _records(record)
        assert len(rec) == 1 and rec[0]["kind"] == "tap"
        assert switch.bounds.contains(rec[0]["x"], rec[0]["y"])
        # the page shows the new (dark) screen
        dark = page.evaluate("""() => { const i = document.getElementById('screen');
            const c = document.createElement('canvas'); c.width = 20; c.height = 40;
            const g = c.getContext('2d'); g.drawImage(i, 0, 0, 20, 40);
            const d = g.getImageData(0, 0, 20, 40).data; let s = 0;
            for (let k = 0; k < d.length; k += 4) s += d[k]; return s / (d.length / 4); }""")
        assert dark < 100
        page.click("#home")
        _wait_version(page, 2)
        assert phone.state.foreground is None
        assert _records(record)[-1]["kind"] == "home"
    finally:
        served.close()


def test_sim_serve_typing_drag_and_back(page: Page, tmp_path: Path) -> None:
    phone = SimPhone(seed=0)
    phone.launch("Notes")
    drv = TreeDriver(phone)
    new = drv.find(text="New note") or drv.find(desc="New note")
    assert new is not None
    record = tmp_path / "session.jsonl"
    served = _Served(phone, record)
    try:
        page.goto(served.url)
        page.wait_for_function("document.getElementById('screen').naturalWidth > 0")
        _click_phone(page, phone, new.bounds.center.x, new.bounds.center.y)
        _wait_version(page, 1)
        page.keyboard.type("Hellp")
        page.keyboard.press("Backspace")
        page.keyboard.type("o")
        _wait_version(page, 8)
        assert phone.foreground is not None and phone.foreground.screen.fields.get("title") == "Hello"
        page.click("#back")  # hides the keyboard
        page.click("#back")  # closes the editor, saving the note
        _wait_version(page, 10)
        assert any(n.title == "Hello" for n in phone.state.notes.notes)
        page.click("#home")
        _wait_version(page, 11)
        assert phone.state.foreground is None
        kinds = [r["kind"] for r in _records(record)]
        assert kinds == ["tap", "type", "type", "type", "type", "type", "key", "type", "back", "back", "home"]
        assert count_human_steps(record) == 1 + 1 + 3  # tap, one Type, back, back, home
    finally:
        served.close()
    # a drag is a swipe: in Settings it scrolls the list
    phone2 = SimPhone(seed=0)
    phone2.launch("Settings")
    before = TreeDriver(phone2).visible_labels()
    served = _Served(phone2, tmp_path / "drag.jsonl")
    try:
        page.goto(served.url)
        page.wait_for_function("document.getElementById('screen').naturalWidth > 0")
        box = page.locator("#screen").bounding_box()
        assert box is not None
        x = box["x"] + box["width"] / 2
        page.mouse.move(x, box["y"] + box["height"] * 0.75)
        page.mouse.down()
        page.mouse.move(x, box["y"] + box["height"] * 0.5, steps=5)
        page.mouse.move(x, box["y"] + box["height"] * 0.25, steps=5)
        page.mouse.up()
        _wait_version(page, 1)
        rec = _records(tmp_path / "drag.jsonl")
        assert [r["kind"] for r in rec] == ["swipe"] and rec[0]["y1"] > rec[0]["y2"]
        after = TreeDriver(phone2).visible_labels()
        assert after != before and "About phone" in after and "About phone" not in before
    finally:
        served.close()


# --- layout: scroll at load, the screen fits the window, labels, overflow, the filmstrip -----------

def _layout_run(tmp_path: Path) -> Path:
    """The cached run with a tap low on the screen at step 3, crowded candidate boxes at step 2,
    long unbroken words in the thought, and step 2 lost from the record at the end."""
    run = tmp_path / "run"
    shutil.copytree(cached_run(), run)
    recs = [json.loads(line) for line in (run / "steps.jsonl").read_text().splitlines()]
    recs[2]["gesture"] = {"kind": "tap", "x": 540, "y": 2330}
    recs[1]["grounding"]["candidates"] = [{"box": [100 + 6 * i, 600 + 4 * i, 500, 700], "point": [300, 650],
                                           "score": 0.5, "text": "x" * 60} for i in range(12)]
    recs[1]["grounding"]["chosen"] = 3
    recs[0]["thought"] = "a" * 400
    (run / "steps.jsonl").write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    return run


def test_report_opens_at_its_header_and_reloads_there(page: Page, tmp_path: Path) -> None:
    out = write_report(_layout_run(tmp_path))
    page.goto(out.as_uri())
    _images_loaded(page)
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("location.hash") == ""
    page.reload()
    _images_loaded(page)
    assert page.evaluate("window.scrollY") == 0
    page.keyboard.press("ArrowRight")  # moving on names the step in the address
    assert page.evaluate("location.hash") == "#step-2"


def test_the_whole_screenshot_and_its_tap_fit_a_900_px_window(page: Page, tmp_path: Path) -> None:
    out = write_report(_layout_run(tmp_path))
    page.set_viewport_size({"width": 1200, "height": 900})
    page.goto(out.as_uri())
    _images_loaded(page)
    page.click('.thumb[data-target="step-3"]')
    box = page.evaluate("""() => {
        const f = document.querySelector('#step-3 figure').getBoundingClientRect();
        const d = document.querySelector('#step-3 circle.dot').getBoundingClientRect();
        const s = document.getElementById('filmstrip').getBoundingClientRect();
        return {top: f.top, bottom: f.bottom, dot: d.top + d.height / 2, strip: s.bottom, h: window.innerHeight};
    }""")
    assert box["top"] >= box["strip"] - 1, box  # not under the filmstrip
    assert box["bottom"] <= box["h"], box  # the whole screen is in the window
    assert box["strip"] < box["dot"] < box["h"], box  # so is a tap low on the screen


def test_candidate_numbers_do_not_overlap(page: Page, tmp_path: Path) -> None:
    out = write_report(_layout_run(tmp_path))
    page.goto(out.as_uri())
    rects = page.evaluate("""Array.from(document.querySelectorAll('#step-2 .cand text')).map(t => {
        const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })""")
    assert len(rects) == 12
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            overlap = min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5
            assert not overlap, (a, b)


def _bench_folder(tmp_path: Path) -> Path:
    from mobile_agent.bench.store import ResultRow, ResultStore

    out = tmp_path / "evalout"
    with ResultStore(out) as store:
        cid = store.register({"planner": "model", "model": "a-model-with-a-rather-long-name" * 3})
        for i in range(3):
            traj = out / cid / f"task-{i}"
            shutil.copytree(cached_run(), traj)
            store.save(cid, ResultRow(task_key=f"a-task-with-a-long-key-{i}", task_id="t", variant=0, app="Multi-app",
                                      tier=3, instruction="Find the cheapest flight and " * 6, success=i == 0, ps=0.5,
                                      re=2.5, cr=0.5, steps=9, human_steps=6, correct_steps=4, furthest=1,
                                      milestones=3, outcome="step_limit", duration_s=12.0, trajectory=str(traj),
                                      error="E" * 200 if i else None,
                                      detail={"first_wrong": "step 2 Click Text (Go): " + "why " * 40,
                                              # eval --cache: the comparison table (a hit, and a miss)
                                              "cache": {"hit": i > 0, "kept": i == 0,
                                                        "run": {"calls": 3 * i, "tokens": 123456, "duration_s": 12.0,
                                                                "steps": 9, "replayed": 9 - 3 * i},
                                                        **({"kept_run": {"calls": 10, "tokens": 9876543,
                                                                         "duration_s": 95.5, "steps": 9,
                                                                         "replayed": 0}} if i else {})}}))
    from mobile_agent.report import write_benchmark_report

    return write_benchmark_report(out)


@pytest.mark.parametrize("size", [{"width": 1366, "height": 768}, {"width": 390, "height": 844}])
def test_no_horizontal_overflow(page: Page, tmp_path: Path, size: dict) -> None:
    page.set_viewport_size(size)
    for out in (write_report(_layout_run(tmp_path)), _bench_folder(tmp_path)):
        page.goto(out.as_uri())
        _images_loaded(page)
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], (out.name, size, widths)


def test_the_filmstrip_follows_scrolling_and_marks_a_missing_step(page: Page, tmp_path: Path) -> None:
    run = _layout_run(tmp_path)
    lines = (run / "steps.jsonl").read_text().splitlines()
    (run / "steps.jsonl").write_text("\n".join([lines[0]] + lines[2:]) + "\n")  # step 2 is lost
    out = write_report(run)
    page.goto(out.as_uri())
    _images_loaded(page)
    missing = page.locator(".thumb.missing")
    assert missing.count() == 1 and "missing" in missing.inner_text()
    # the mark sits between step 1 and step 3 in the filmstrip
    order = page.evaluate("Array.from(document.querySelectorAll('#filmstrip .thumb')).map("
                          "t => t.dataset.target || 'missing')")
    assert order[:3] == ["step-1", "missing", "step-3"]
    page.evaluate("window.scrollTo(0, document.getElementById('step-4').offsetTop - 175)")
    page.wait_for_function("document.querySelector('.thumb.current') && "
                           "document.querySelector('.thumb.current').dataset.target === 'step-4'")


# --- words are never broken inside, at phone, tablet and laptop widths ---------------------------------

BROKEN_WORDS_JS = r"""() => {
    // every word (a run of letters and digits, 2 to 30 long) of the visible text outside <pre>: on one line?
    const broken = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
        const el = node.parentElement;
        if (!el || el.closest('pre, svg, script, style, .thumb')) continue;
        for (const m of node.data.matchAll(/[\p{L}\p{N}]+/gu)) {
            if (m[0].length < 2 || m[0].length > 30) continue;
            const r = document.createRange();
            r.setStart(node, m.index);
            r.setEnd(node, m.index + m[0].length);
            const tops = new Set(Array.from(r.getClientRects()).filter(x => x.width > 0).map(x => Math.round(x.top)));
            if (tops.size > 1) broken.push(`${m[0]} (in <${el.tagName.toLowerCase()} class="${el.className}">)`);
        }
    }
    return broken;
}"""


@pytest.fixture(scope="module")
def real_pages(tmp_path_factory) -> dict[str, Path]:
    """Pages of real runs: an oracle eval of two tasks (its report and a trajectory), a run of a
    scripted model from the Python API (with its model calls), and a benchmark folder of long texts."""
    from mobile_agent import Agent, AgentSettings, LLMPlanner, ScriptedChatModel, open_device
    from mobile_agent.cli import main

    base = tmp_path_factory.mktemp("pages")
    out = base / "eval"
    assert main(["eval", "--tasks", "browser-1,settings-1", "--out", str(out)]) == 0
    (browser_run,) = out.glob("*/browser-1")
    replies = ["Observation: home.\nThought: open it.\nAction: Open App (Settings)",
               "Observation: Settings.\nThought: Display.\nAction: Click Text (Display)",
               "Observation: Display.\nThought: done.\nAction: Stop",
               "Verdict: complete\nReason: the Display settings are open"]
    result = Agent(open_device("sim"), LLMPlanner(ScriptedChatModel(replies)),
                   settings=AgentSettings(max_steps=5)).run("Open the display settings", base / "api-run")
    return {"eval": out / "report.html", "oracle trajectory": browser_run / "report.html",
            "model trajectory": result.out_dir / "report.html", "long texts": _bench_folder(base)}


@pytest.mark.parametrize("width", [390, 800, 1366])
def test_no_word_is_broken_inside(page: Page, real_pages: dict[str, Path], width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    for name, out in real_pages.items():
        assert out.is_file(), name
        page.goto(out.as_uri())
        broken = page.evaluate(BROKEN_WORDS_JS)
        assert not broken, (name, width, broken[:10])


def test_headers_align_with_their_columns(page: Page, real_pages: dict[str, Path]) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(real_pages["eval"].as_uri())
    mismatched = page.evaluate("""() => Array.from(document.querySelectorAll('table.metrics')).flatMap(t => {
        const heads = Array.from(t.querySelectorAll('thead th'));
        const row = t.querySelector('tbody tr');
        return heads.map((h, i) => [h.textContent, getComputedStyle(h).textAlign,
                                    getComputedStyle(row.children[i]).textAlign])
                    .filter(([, a, b]) => a !== b);
    })""")
    assert not mismatched, mismatched


def test_times_are_readable_and_an_oracle_run_is_not_called_checked(page: Page, real_pages: dict[str, Path]) -> None:
    page.goto(real_pages["oracle trajectory"].as_uri())
    text = page.inner_text("body")
    started = page.inner_text(".fact:has(.label:text-is('Started')) .value")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", started), started
    assert not re.search(r"\d\dT\d\d:\d\d", text)
    completion = page.inner_text(".field:has(.label:text-is('Completion check')) .value")
    assert completion.startswith("not checked") and "complete" not in completion.replace("not checked", "")
    page.goto(real_pages["model trajectory"].as_uri())
    completion = page.inner_text(".field:has(.label:text-is('Completion check')) .value")
    assert completion.startswith("complete") and "Display settings are open" in completion


def test_live_view_asks_and_the_answer_typed_in_the_page_reaches_the_run(page: Page) -> None:
    """A question with markup in it shows as text in the answer box; the answer typed there and
    sent goes back to the waiting run (the page's own same-origin POST passes the server's checks)."""
    from mobile_agent.agent.user import UserRequest

    question = 'Which Anna? <img src=x onerror="document.body.dataset.pwned=1">'
    with LiveView("Message Anna") as view:
        got: list = []
        t = threading.Thread(target=lambda: got.append(view.ask(UserRequest("question", question, 2))))
        t.start()
        page.goto(view.url)
        page.wait_for_selector("#ask.open")
        assert page.inner_text("#ask-text") == question
        assert page.locator("#ask-text img").count() == 0 and page.evaluate("document.body.dataset.pwned") is None
        assert "step 2" in page.inner_text("#ask-kind")
        page.fill("#ask-answer", "Anna Li")
        page.click("#ask-send")
        t.join(10)
        assert got == ["Anna Li"]
        page.wait_for_selector("#ask:not(.open)", state="attached")
