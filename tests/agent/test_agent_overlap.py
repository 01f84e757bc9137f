"""The step's critical path (agent/overlap.py, records appended): the parse of a screenshot runs
beside the model call, and nothing else changes.

Real parts: the simulated phone with Mobile-Eval tasks, the real perception, the real openai SDK
against the localhost chat server."""

from __future__ import annotations

import json
import os
import threading

import pytest

from mobile_agent.agent.operations import Stop
from mobile_agent.agent.record import StepRecord
from mobile_agent.agent.trajectory import STEPS, TrajectoryWriter, read_steps
from mobile_agent.bench.suite import select
from mobile_agent.perception import Perception
from tests.fakes.agent_harness import API_KEY, MODEL, Script, is_choice, is_completion_check, react, without_timings
from tests.fakes.chatserver import LocalChatServer, Reply
from tests.fakes.clock import hang_guard

from mobile_agent.agent import StepLoop, AgentSettings, LLMPlanner
from mobile_agent.model.openai_client import OpenAIChatModel
from mobile_agent.model.retry import RetryPolicy


def _agent(server, phone, perception, **settings) -> StepLoop:
    model = OpenAIChatModel(MODEL, base_url=server.openai_base_url, api_key=API_KEY,
                            retry=RetryPolicy(max_attempts=2, base_delay_s=0.01, max_delay_s=0.05), timeout_s=30)
    settings.setdefault("settle_interval_s", 0.0)
    settings.setdefault("max_steps", 12)
    return StepLoop(phone, LLMPlanner(model), perception, AgentSettings(**settings))


def _task_replies(key: str) -> list[str]:
    task = select(ids=[key])[0]
    ops = [op for op in task.operations() if not isinstance(op, Stop)]
    return [react(str(op).replace("\n", "\\n")) for op in ops] + [react("Stop")]


def _run(tmp_path, key: str, overlap: bool, delay_s: float = 0.0) -> tuple[list[dict], object]:
    task = select(ids=[key])[0]
    phone = task.make_phone()
    script = Script(_task_replies(key))

    def respond(req):  # a model that thinks delay_s before it answers
        reply = script(req)
        return Reply(text=reply, delay_s=delay_s) if isinstance(reply, str) else reply

    with LocalChatServer(respond) as server:
        # a fresh perception each run: the same parse memo and crop cache to start from
        result = _agent(server, phone, Perception(), overlap_perception=overlap).run(
            task.instruction, tmp_path / f"{key}-{overlap}-{delay_s}")
    lines = [json.loads(x) for x in (result.out_dir / STEPS).read_text(encoding="utf-8").splitlines()]
    return lines, result


@pytest.mark.slow
@pytest.mark.parametrize("key,delay_s", [("mail-1", 0.4), ("shop-2", 0.4), ("mail-1", 0.0)])
def test_the_same_records_with_and_without_the_overlap(tmp_path, key, delay_s):
    """Open App, Click Text, Click Icon and Type steps: the grounding (candidates, scores, the point),
    the gestures, the reflections and the replies are the same; only the times differ. A model that
    thinks (0.4 s) gets every screen parsed ahead; one that answers at once (0 s) none after the
    first: both give the records of a run without the overlap."""
    on, r_on = _run(tmp_path, key, True, delay_s)
    off, r_off = _run(tmp_path, key, False)
    assert r_on.outcome == r_off.outcome == "completed"
    assert [without_timings(d) for d in on] == [without_timings(d) for d in off]
    assert any(d["grounding"] and d["grounding"]["candidates"] for d in on)
    # every screenshot a step names is on disk
    for d in on:
        for key_ in ("screenshot", "annotated"):
            if d.get(key_):
                assert (r_on.out_dir / d[key_]).is_file()


class _Watched(Perception):
    """Perception that notes when each screenshot's parse has finished (by the image object)."""

    def __init__(self) -> None:
        super().__init__()
        self.parsed: dict[int, threading.Event] = {}
        self._lock = threading.Lock()

    def event(self, image) -> threading.Event:
        with self._lock:
            return self.parsed.setdefault(id(image), threading.Event())

    def parse(self, image, icons: bool = False, incremental=None):
        res = super().parse(image, icons=icons, incremental=incremental)
        if not isinstance(image, (str, bytes)):
            self.event(image).set()
        return res


def test_the_parse_is_done_before_the_model_answers(tmp_path):
    """Ordering, not time: the model's answer is held until the parse of the screenshot it was sent
    has finished. With the overlap, every step's parse finishes while the request is held; without
    it, no parse can run while the model thinks, so the holding times out."""
    task = select(ids=["settings-1"])[0]
    for overlap in (True, False):
        perception = _Watched()
        phone = task.make_phone()
        seen: list[bool] = []
        agent_box: list[StepLoop] = []
        plans = iter(_task_replies("settings-1"))

        def respond(req, perception=perception, seen=seen, plans=plans):
            if is_completion_check(req):
                return "Verdict: complete\nReason: done"
            if is_choice(req):
                return "Answer: 0"
            shot = agent_box[0]._current_for_test
            seen.append(perception.event(shot).wait(timeout=hang_guard(8.0) if overlap else 1.0))
            return Reply(text=next(plans), delay_s=0.3)  # a model that thinks: the next parse goes ahead too

        with LocalChatServer(respond) as server:
            agent = _agent(server, phone, perception, overlap_perception=overlap)
            agent_box.append(agent)
            original = agent.plan

            def plan(step, record=True, original=original, agent=agent):
                agent._current_for_test = step.ctx.screenshot
                return original(step, record)

            agent.plan = plan  # type: ignore[method-assign]
            result = agent.run(task.instruction, tmp_path / f"order-{overlap}")
        assert result.outcome == "completed"
        assert len(seen) == 4
        if overlap:
            assert all(seen), seen
        else:
            assert not any(seen), seen


def _threads() -> list[str]:
    return sorted(t.name for t in threading.enumerate() if t.name.startswith("mobile-agent-"))


def test_no_thread_is_left_behind_after_a_run_or_after_ctrl_c(tmp_path):
    task = select(ids=["settings-1"])[0]
    with LocalChatServer(Script(_task_replies("settings-1"))) as server:
        result = _agent(server, task.make_phone(), Perception()).run(task.instruction, tmp_path / "done")
    assert result.outcome == "completed" and _threads() == []

    def interrupt(rec):
        if rec.step == 2:
            raise KeyboardInterrupt

    with LocalChatServer(Script(_task_replies("settings-1"))) as server:
        result = _agent(server, task.make_phone(), Perception(), on_step=interrupt).run(
            task.instruction, tmp_path / "ctrl-c")
    assert result.outcome == "interrupted" and _threads() == []
    # the interrupted run's finished steps and screenshots are all there
    steps = read_steps(result.out_dir)
    assert [s.step for s in steps] == [1, 2]
    assert all((result.out_dir / s.screenshot).is_file() for s in steps)


def test_a_planner_without_a_model_gets_no_overlap(tmp_path):
    """The benchmark's oracle has no model time to hide the parse in: no threads, the parse as before."""
    from mobile_agent.bench.runner import EvalConfig, run_task

    seen: list[list[str]] = []

    class Spy(TrajectoryWriter):
        def append_step(self, record):
            seen.append(_threads())
            super().append_step(record)

    import mobile_agent.agent.loop as loop

    original = loop.TrajectoryWriter
    loop.TrajectoryWriter = Spy  # type: ignore[misc]
    try:
        row = run_task(EvalConfig(), select(ids=["settings-1"])[0], tmp_path, "c")
    finally:
        loop.TrajectoryWriter = original  # type: ignore[misc]
    assert row.success and seen and all(names == [] for names in seen)


# --- records ------------------------------------------------------------------------------------

def test_steps_are_appended_and_each_reply_is_stored_once(tmp_path):
    replies = _task_replies("settings-1")
    task = select(ids=["settings-1"])[0]
    sizes: list[int] = []
    heads: list[bytes] = []
    out = tmp_path / "run"

    def on_step(rec):
        data = (out / STEPS).read_bytes()
        sizes.append(len(data))
        heads.append(data)

    with LocalChatServer(Script(replies)) as server:
        result = _agent(server, task.make_phone(), Perception(), on_step=on_step).run(task.instruction, out)
    assert result.completed
    # each write adds one line and leaves what was there byte for byte
    for before, after in zip(heads, heads[1:]):
        assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
    text = (out / STEPS).read_text(encoding="utf-8")
    for r in replies:
        assert text.count(json.dumps(r)[1:-1]) == 1, r  # the planning reply once, not in its call too
    assert text.count("Verdict: complete") == 1
    # and read back whole: each call has its reply
    steps = read_steps(out)
    assert [c.raw for c in steps[-1].calls] == [replies[-1], "Verdict: complete\nReason: done"]
    assert steps[0].calls[0].raw == steps[0].model.raw == replies[0]


def test_a_line_cut_off_at_the_end_is_not_a_step_and_a_failed_append_leaves_no_half_line(tmp_path):
    w = TrajectoryWriter(tmp_path)
    rec = StepRecord(1, observation="x" * 100)
    w.append_step(rec)
    good = (tmp_path / STEPS).read_bytes()
    # a crash mid-write leaves the start of a line without its end: the finished steps still read
    (tmp_path / STEPS).write_bytes(good + b'{"step": 2, "screens')
    assert [s.step for s in read_steps(tmp_path)] == [1]
    (tmp_path / STEPS).write_bytes(good)
    # a write that fails part way (a full disk, here a file size limit) is cut back
    import resource

    if os.name != "posix":
        pytest.skip("file size limits are POSIX")
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    import signal

    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(good) + 50, hard))
        with pytest.raises(OSError):
            w.append_step(StepRecord(2, observation="y" * 400))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old)
    assert (tmp_path / STEPS).read_bytes() == good
    w.append_step(StepRecord(2))
    assert [s.step for s in read_steps(tmp_path)] == [1, 2]


def test_lines_written_before_replies_were_stored_once_read_as_before(tmp_path):
    old = StepRecord(1, observation="o")
    d = old.to_dict()
    d["model"]["raw"] = "Action: Back"
    d["calls"] = [{"kind": "plan", "raw": "Action: Back", "prompt_tokens": 1, "completion_tokens": 1,
                   "duration_s": 0.1, "error": None}]
    (tmp_path / STEPS).write_text(json.dumps(d) + "\n", encoding="utf-8")
    rec = read_steps(tmp_path)[0]
    assert rec.calls[0].raw == "Action: Back" and rec.model.raw == "Action: Back"
    # written again, the reply is kept once and reads back the same
    again = rec.to_dict()
    assert "raw" not in again["calls"][0] and again["calls"][0]["raw_in"] == "model"
    assert StepRecord.from_dict(again).calls[0].raw == "Action: Back"


def test_a_failed_reply_with_the_same_text_as_another_keeps_its_own(tmp_path):
    """Two calls with the same reply (a retried parse): one refers to the model's, one keeps its own."""
    from mobile_agent.agent.record import CallRecord

    rec = StepRecord(1, calls=[CallRecord("plan", raw="Action: Back"), CallRecord("plan", raw="Action: Back")])
    rec.model.raw = "Action: Back"
    d = rec.to_dict()
    assert [c.get("raw_in") for c in d["calls"]] == ["model", None] and d["calls"][1]["raw"] == "Action: Back"
    assert [c.raw for c in StepRecord.from_dict(d).calls] == ["Action: Back", "Action: Back"]


def test_settling_without_the_device_s_own_wait_ends_when_two_frames_agree(monkeypatch):
    """A device that cannot wait for stillness itself: the loop compares frames and stops at the
    first pair that agrees, without sleeping first; a changing screen is polled until it agrees."""
    from PIL import Image

    import mobile_agent.agent.loop as loop

    sleeps: list[float] = []
    monkeypatch.setattr(loop.time, "sleep", lambda s: sleeps.append(s))
    frames = [Image.new("RGB", (64, 128), c) for c in ((0, 0, 0), (255, 255, 255), (9, 9, 9), (9, 9, 9))]

    class Phone:
        def __init__(self, frames):
            self.frames, self.shots = list(frames), 0

        def screenshot(self):
            self.shots += 1
            return self.frames.pop(0) if len(self.frames) > 1 else self.frames[0]

    still = Phone(frames[3:])
    StepLoop(still, None, None, AgentSettings(settle_interval_s=0.2))._settle(frames[0])  # type: ignore[arg-type]
    assert still.shots == 2 and sleeps == []
    moving = Phone(frames)
    out = StepLoop(moving, None, None, AgentSettings(settle_interval_s=0.2))._settle(frames[0])  # type: ignore[arg-type]
    assert out is frames[3] and moving.shots == 4 and sleeps == [0.2, 0.2]
