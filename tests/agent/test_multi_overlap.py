"""Multi mode's critical path (agent/multi/ahead.py over agent/overlap.py): each screen is parsed
beside the verifier's and the next step's model calls, once, and nothing else changes.

Real parts: the simulated phone, the real perception, the real openai SDK against the localhost chat
server answering by role (tests/fakes/multi_harness.py)."""

from __future__ import annotations

import json
import threading
from collections import Counter

import numpy as np
import pytest

from mobile_agent.agent import AgentSettings, LLMPlanner
from mobile_agent.agent.loop import StepLoop
from mobile_agent.agent.multi import MultiAgent
from mobile_agent.agent.trajectory import STEPS, read_steps, read_summary
from mobile_agent.device.sim import SimPhone
from mobile_agent.perception import Perception
from mobile_agent.perception.core import _image_key
from mobile_agent.types import load_image
from tests.fakes.agent_harness import without_timings
from tests.fakes.chatserver import LocalChatServer, Reply
from tests.fakes.multi_harness import RoleScript, chat, mgr, react, staged

TEXT = "Shopping list"
GOALS = ["Open Notes", "Start a new note", f'Write "{TEXT}"', "Save the note", "Look further down", "Leave"]
#: Open App (the check reads the screen after), Click Text (grounds the screen the check read),
#: Type on a screen nothing reads (its parse undone), Click Icon on the screen the Type check read,
#: Page Down and Back (ground nothing: their screens' parses undone)
EXECUTOR = [react("Open App (Notes)"), react("Click Text (New note)"), react(f"Type ({TEXT})"),
            react("Click Icon (check, top right)"), react("Page Down"), react("Back")]


def _script() -> RoleScript:
    return RoleScript([mgr(staged(GOALS, i)) for i in range(len(GOALS))]
                      + [mgr([("done", g) for g in GOALS], status="done")], EXECUTOR)


class _Counted(Perception):
    """Perception that notes each parse: the thread, the screen (by its pixels), and whether it read
    the screen (a miss of the memo) or found it parsed."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, bytes, bool]] = []
        self._lock = threading.Lock()

    def parse(self, image, icons: bool = False, incremental=None):
        key = _image_key(np.asarray(load_image(image)))
        read = not any(m.key == key for m in self._memos)
        with self._lock:
            self.calls.append((threading.current_thread().name, key, read))
        return super().parse(image, icons=icons, incremental=incremental)

    def reads(self) -> Counter:
        return Counter(k for _, k, read in self.calls if read)

    def on_main(self) -> list[tuple[bytes, bool]]:
        return [(k, read) for t, k, read in self.calls if not t.startswith("mobile-agent-")]


def _multi_run(tmp_path, name: str, overlap: bool, delay_s: float, perception=None, script=None, **settings):
    script = script or _script()

    def respond(req):  # models that think delay_s before they answer
        out = script(req)
        return Reply(text=out, delay_s=delay_s) if isinstance(out, str) else out

    perception = perception or _Counted()
    with LocalChatServer(respond) as server:
        agent = MultiAgent(SimPhone(seed=0), chat(server, "gpt-4o-test"), perception,
                           AgentSettings(settle_interval_s=0.0, overlap_perception=overlap, max_steps=12, **settings))
        result = agent.run(f'Create a new note in Notes titled "{TEXT}", save it, then leave Notes.',
                           tmp_path / name)
    return result, perception


def _lines(out_dir) -> list[dict]:
    return [json.loads(x) for x in (out_dir / STEPS).read_text(encoding="utf-8").splitlines()]


def _threads() -> list[str]:
    return sorted(t.name for t in threading.enumerate() if t.name.startswith("mobile-agent-"))


@pytest.mark.slow
@pytest.mark.parametrize("delay_s,reflect", [(0.25, True), (0.0, False)])
def test_the_same_records_with_and_without_the_overlap(tmp_path, delay_s, reflect):
    """Open App, Click Text, Type, Click Icon, Page Down and Back, with and without the verifier's
    model: the grounding, the gestures, the checks, the verdicts, plans and notes are the same; only
    the times differ. Models that think (0.25 s) get screens parsed ahead; models that answer
    at once none after the first (nothing to hide a parse behind)."""
    on, _ = _multi_run(tmp_path, "on", True, delay_s, reflect=reflect)
    off, _ = _multi_run(tmp_path, "off", False, delay_s, reflect=reflect)
    assert on.outcome == off.outcome == "completed", (on.error, off.error)
    a, b = _lines(on.out_dir), _lines(off.out_dir)
    assert [without_timings(d) for d in a] == [without_timings(d) for d in b]
    assert [d["action"] for d in a] == ["Open App (Notes)", "Click Text (New note)", f"Type ({TEXT})",
                                        "Click Icon (check, top right)", "Page Down", "Back", "Stop"]
    assert sum(1 for d in a if d["grounding"] and d["grounding"]["candidates"]) == 3
    assert a[2]["verification"]["passed"] is True and a[2]["verification"]["method"] == "ocr"
    if reflect:
        assert any(c.get("role") == "verifier" for d in a for c in d["calls"])
    summary_on, summary_off = read_summary(on.out_dir), read_summary(off.out_dir)
    for key in ("outcome", "steps", "plan", "notes", "roles", "plan_history"):
        assert summary_on[key] == summary_off[key], key
    assert _threads() == []
    # the screenshots, written on the writing thread, are each step's own and on disk
    for d, e in zip(a, b):
        assert (on.out_dir / d["screenshot"]).read_bytes() == (off.out_dir / e["screenshot"]).read_bytes()


def test_no_thread_is_left_behind_after_ctrl_c_and_the_finished_steps_are_kept(tmp_path):
    def interrupt(rec):
        if rec.step == 2:
            raise KeyboardInterrupt

    result, _ = _multi_run(tmp_path, "ctrl-c", True, 0.0, on_step=interrupt)
    assert result.outcome == "interrupted" and _threads() == []
    steps = read_steps(result.out_dir)
    assert [s.step for s in steps] == [1, 2]
    assert all((result.out_dir / s.screenshot).is_file() for s in steps)


@pytest.mark.slow
def test_each_screen_is_parsed_once_beside_the_models_and_an_unread_one_is_undone(tmp_path):
    """With models that think, each screen is read once: on the parse thread beside the models, or
    on this thread where the verifier reads it at once (the Open App's and the Type's screens after,
    read back); the next step's grounding finds that same parse. The screens nothing read (the one
    the Type was typed on, the list Page Down was made on) are parsed ahead and undone, and the run
    without the overlap reads exactly the others. The list Page Down left is the same list (a short
    one): its parse stands, not read again; Back's home screen is the first, found in the memo."""
    on, p_on = _multi_run(tmp_path, "on", True, 0.4)
    off, p_off = _multi_run(tmp_path, "off", False, 0.4)
    assert on.completed and off.completed
    steps = read_steps(on.out_dir)
    key = {s.step: _image_key(np.asarray(load_image(on.out_dir / s.screenshot))) for s in steps}
    reads_on, reads_off = p_on.reads(), p_off.reads()
    assert reads_on and max(reads_on.values()) == 1, "a screen was read twice"
    main = p_on.on_main()
    # this thread read only the screens the verifier read back at once (after Open App, after the Type)
    assert {k for k, read in main if read} == {key[2], key[4]}
    assert key[1] in reads_on and not any(read for k, read in main if k == key[1])  # the first: ahead
    assert key[3] in reads_on and key[3] not in {k for k, _ in main}  # the Type's screen: ahead, unused
    # the screens read without the overlap, each once, are those used with it
    used = {k for k, _ in main}
    assert set(reads_off) == used and max(reads_off.values()) == 1
    assert set(reads_on) - used == {key[3], key[5]}
    # the screen after the Type: read once (the read-back), then found by the Click Icon's grounding
    assert reads_on[key[4]] == 1 and sum(1 for k, read in main if k == key[4] and not read) >= 1


#: a Click Text whose next operation grounds on the screen it left (in both modes the grounding is
#: the first to read it)
FAILING = [react("Open App (Notes)"), react("Click Text (New note)"), react("Click Icon (check, top right)")]


def _failing_ocr(monkeypatch, perception: Perception, phone) -> None:
    """From the second gesture on (after a Click Text), the OCR engine fails on every read."""
    armed = threading.Event()
    taps = []
    tap = phone.tap

    def counting_tap(*a, **k):
        taps.append(1)
        if len(taps) == 2:
            armed.set()
        return tap(*a, **k)

    monkeypatch.setattr(phone, "tap", counting_tap)
    _ocr_fails_from(monkeypatch, perception, armed)


def _ocr_fails_from(monkeypatch, perception: Perception, armed: threading.Event) -> None:
    """The OCR engine fails on every read once ``armed`` is set."""

    def fail(original):
        def read(*a, **k):
            if armed.is_set():
                raise RuntimeError("the OCR engine crashed")
            return original(*a, **k)
        return read

    monkeypatch.setattr(perception.ocr, "read", fail(perception.ocr.read))
    if hasattr(perception.ocr, "read_bands"):
        monkeypatch.setattr(perception.ocr, "read_bands", fail(perception.ocr.read_bands))


@pytest.mark.slow
def test_a_failing_parse_ends_the_run_as_in_single_mode(tmp_path, monkeypatch):
    """The OCR engine fails from the screen a Click Text left: its parse ahead fails on the parse
    thread, the grounding that needs it reads it again and fails, and the run ends with that error
    in its summary, the finished steps and their screenshots kept, no thread left, as in single
    mode, with and without the overlap."""
    from tests.fakes.agent_harness import API_KEY, MODEL, Script

    ends = {}
    for overlap in (True, False):
        phone, perception = SimPhone(seed=0), Perception()
        _failing_ocr(monkeypatch, perception, phone)
        script = RoleScript([mgr(staged(GOALS, i)) for i in range(3)], FAILING)
        with LocalChatServer(lambda req, s=script: Reply(text=s(req), delay_s=0.3)) as server:
            agent = MultiAgent(phone, chat(server, "gpt-4o-test"), perception,
                               AgentSettings(settle_interval_s=0.0, overlap_perception=overlap, max_steps=12))
            ends[f"multi-{overlap}"] = agent.run("Write a note", tmp_path / f"multi-{overlap}")
        assert _threads() == []
    # single mode, the same operations
    phone, perception = SimPhone(seed=0), Perception()
    _failing_ocr(monkeypatch, perception, phone)
    from mobile_agent.model.openai_client import OpenAIChatModel

    with LocalChatServer(Script(FAILING)) as server:
        model = OpenAIChatModel(MODEL, base_url=server.openai_base_url, api_key=API_KEY, timeout_s=10)
        ends["single"] = StepLoop(phone, LLMPlanner(model), perception,
                               AgentSettings(settle_interval_s=0.0, max_steps=12)).run("Write a note",
                                                                                      tmp_path / "single")
    for name, r in ends.items():
        assert r.outcome == "error", name
        assert r.error == "internal error: RuntimeError: the OCR engine crashed", (name, r.error)
        steps = read_steps(r.out_dir)
        assert [s.action for s in steps] == ["Open App (Notes)", "Click Text (New note)"], name
        assert all((r.out_dir / s.screenshot).is_file() for s in steps)
        summary = read_summary(r.out_dir)
        assert summary["outcome"] == "error" and "the OCR engine crashed" in summary["error"], name
    assert ([without_timings(d) for d in _lines(ends["multi-True"].out_dir)]
            == [without_timings(d) for d in _lines(ends["multi-False"].out_dir)])


def test_a_screenshot_another_thread_is_encoding_is_waited_for_not_encoded_twice(monkeypatch):
    """The loop encodes the next screen on its writing thread; a request that needs it meanwhile
    (the verifier's reflection) waits for that encoding instead of making a second one."""
    import sys

    from PIL import Image

    from mobile_agent.agent import planner

    cache = planner._Encoded()
    started, release = threading.Event(), threading.Event()
    encodes: list[str] = []
    real = planner.encode_image

    def held(image, max_side, quality):
        encodes.append(threading.current_thread().name)
        started.set()
        release.wait()
        return real(image, max_side, quality)

    monkeypatch.setattr(planner, "encode_image", held)
    screen = Image.new("RGB", (120, 240), (30, 60, 90))
    got: dict[str, object] = {}
    ahead = threading.Thread(target=lambda: got.setdefault("ahead", cache(screen, 1024, 80)), name="ahead")
    ahead.start()
    assert started.wait(timeout=20)
    request = threading.Thread(target=lambda: got.setdefault("request", cache(screen, 1024, 80)), name="request")
    request.start()
    # release the first encoding only once the request is inside the cache, waiting or encoding
    for _ in range(2000):
        frame = sys._current_frames().get(request.ident)
        names = set()
        while frame is not None:
            names.add(frame.f_code.co_name)
            frame = frame.f_back
        if "held" in names or ("__call__" in names and "wait" in names):
            break
        threading.Event().wait(0.005)
    release.set()
    ahead.join(timeout=20)
    request.join(timeout=20)
    assert encodes == ["ahead"]
    assert got["request"] is got["ahead"]


@pytest.mark.parametrize("overlap", [True, False])
def test_a_read_back_that_fails_keeps_the_step_whose_gesture_was_made(tmp_path, monkeypatch, overlap):
    """The OCR engine fails once the text is typed: the verifier's read-back of the Type cannot be
    made, but the text was typed, so that step is on record (its action, its gesture, the error)
    and the run ends as an error naming the cause, its summary written."""
    phone, perception = SimPhone(seed=0), Perception()
    typed = threading.Event()
    type_text = phone.type_text

    def typing(*a, **k):
        out = type_text(*a, **k)
        typed.set()
        return out

    monkeypatch.setattr(phone, "type_text", typing)
    _ocr_fails_from(monkeypatch, perception, typed)
    script = RoleScript([mgr(staged(GOALS, i)) for i in range(4)], EXECUTOR[:3])
    with LocalChatServer(lambda req: Reply(text=script(req), delay_s=0.1)) as server:
        r = MultiAgent(phone, chat(server, "gpt-4o-test"), perception,
                       AgentSettings(settle_interval_s=0.0, overlap_perception=overlap, max_steps=12)
                       ).run("Write a note", tmp_path / "run")
    assert r.outcome == "error" and r.error.startswith("internal error: RuntimeError: the OCR engine crashed"), r.error
    assert f"checking Type ({TEXT})" in r.error
    steps = read_steps(r.out_dir)
    assert [s.action for s in steps] == ["Open App (Notes)", "Click Text (New note)", f"Type ({TEXT})"]
    last = _lines(r.out_dir)[-1]
    assert last["error"] == r.error and last["gesture"], last
    assert all((r.out_dir / s.screenshot).is_file() for s in steps)
    assert read_summary(r.out_dir)["outcome"] == "error"
    assert _threads() == []
