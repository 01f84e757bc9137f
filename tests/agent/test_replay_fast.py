"""Replay as the fast path: a run planned by a model keeps each screen's parse as it read it
(``lines.json``, ``parses.json``, from the parse made beside the model call); a replay hands the
recorded parse to perception before it checks the screen, so that an unchanged screen is read by no
OCR at all, while a screen that is not the recorded one still fails the check (localhost chat
server, the simulated phone, the real OCR engine counted)."""

from __future__ import annotations

import json

import pytest

from mobile_agent.agent import StepLoop, AgentSettings
from mobile_agent.agent.replay import Recording, ReplayPlanner
from mobile_agent.agent.trajectory import read_summary
from mobile_agent.device.sim import SimPhone
from mobile_agent.perception import Perception
from tests.fakes.agent_harness import make_agent, react
from tests.fakes.chatserver import LocalChatServer, Reply

PLAN = [react("Open App (Settings)"), react("Click Text (Display)"), react("Stop")]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A run whose model answers in 0.3 s: long enough for each screen to be parsed beside it."""
    run = tmp_path_factory.mktemp("fast") / "run"
    replies = iter(PLAN + ["Verdict: complete\nReason: done"])
    with LocalChatServer(lambda req: Reply(next(replies), delay_s=0.3)) as server:
        assert make_agent(server, SimPhone(seed=0), settle_timeout_s=1.0).run("Open the display settings", run).completed
    return run


class Counted:
    """The OCR engine with its full reads and band reads counted."""

    def __init__(self, ocr):
        self.ocr, self.reads = ocr, 0

    def __getattr__(self, name):
        return getattr(self.ocr, name)

    def read(self, *a, **k):
        self.reads += 1
        return self.ocr.read(*a, **k)

    def read_bands(self, *a, **k):
        self.reads += 1
        return self.ocr.read_bands(*a, **k)


def replay(recording: Recording, phone: SimPhone, out):
    perception = Perception(ocr="rapidocr")
    perception.ocr = counted = Counted(perception.ocr)
    settings = AgentSettings(max_steps=8, settle_interval_s=0.0, save_annotated=False, device_name="sim")
    result = StepLoop(phone, ReplayPlanner(recording, perception), perception, settings).run(recording.instruction, out)
    return result, counted.reads


def test_a_model_run_keeps_each_screens_parse(recorded):
    lines = json.loads((recorded / "lines.json").read_text())
    parses = json.loads((recorded / "parses.json").read_text())
    assert sorted(lines) == sorted(parses) == ["1", "2", "3"]
    assert any(t == "Display" for t, _, _ in lines["2"][1])
    assert [ln["text"] for ln in parses["2"]["lines"]] == [t for t, _, _ in lines["2"][1]]


def test_a_replay_on_the_recorded_screens_reads_them_with_no_ocr(recorded, tmp_path):
    result, reads = replay(Recording.load(recorded), SimPhone(seed=0), tmp_path / "again")
    assert result.completed and read_summary(tmp_path / "again")["replay"]["replayed_steps"] == 3
    assert reads == 0
    bare = Recording.load(recorded)
    bare.parses.clear()  # as before: each current screen read by the OCR engine
    result, reads = replay(bare, SimPhone(seed=0), tmp_path / "bare")
    assert result.completed and reads >= 3


def test_the_check_still_refuses_a_screen_that_is_not_the_recorded_one(recorded, tmp_path):
    phone = SimPhone(seed=0)
    phone.launch("Notes")  # the recording begins on the home screen
    result, reads = replay(Recording.load(recorded), phone, tmp_path / "elsewhere")
    assert not result.completed and "the screen is not the one recorded step 1 (Open App (Settings))" in (result.error or "")
    assert reads >= 1  # what differs from the recorded screen was read
