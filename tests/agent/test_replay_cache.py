"""The run cache (agent/replay_cache.py, ``run --cache``): its key, what it refuses to keep, and a
second run of the same instruction replayed with no model call (localhost chat server, the sim)."""

from __future__ import annotations

import json
import shutil

import pytest

from mobile_agent.agent.replay_cache import RunCache, cache_key, normalise_instruction
from mobile_agent.agent.trajectory import read_steps, read_summary
from mobile_agent.cli import main
from mobile_agent.device.sim import SimPhone
from tests.fakes.agent_harness import Script, make_agent, react
from tests.fakes.chatserver import LocalChatServer

PLAN = [react("Open App (Notes)"), react("Click Text (New note)"), react("Type (Call the bank)"),
        react("Click Icon (check, top right)"), react("Stop")]
INSTRUCTION = "Write a note: call the bank"


def test_the_key_is_the_normalised_instruction_and_the_device_kind():
    assert normalise_instruction("  Turn ON the\tdark mode. ") == "turn on the dark mode"
    k = cache_key("Turn on the dark mode.", "sim-1080x2400")
    assert k == cache_key("turn on the  dark mode", "sim-1080x2400")
    assert k != cache_key("Turn on the dark mode", "adb-1080x2400")
    assert k != cache_key("Turn off the dark mode", "sim-1080x2400")
    assert len(k) == 16


@pytest.fixture(scope="module")
def completed_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("cache") / "run"
    with LocalChatServer(Script(PLAN)) as server:
        assert make_agent(server, SimPhone(seed=0), settle_timeout_s=1.0).run(INSTRUCTION, run).completed
    return run


def test_a_completed_confirmed_run_is_kept_and_found(completed_run, tmp_path):
    cache = RunCache(tmp_path / "cache")
    assert cache.lookup(INSTRUCTION, "sim-1080x2400") is None
    assert cache.keep(completed_run, INSTRUCTION, "sim-1080x2400") is None
    rec = cache.lookup(INSTRUCTION.upper() + ".", "sim-1080x2400")
    assert rec is not None and [str(s.operation) for s in rec.steps][-1] == "Stop" and len(rec.steps) == 5
    assert cache.lookup(INSTRUCTION, "sim-720x1600") is None


def test_failed_unconfirmed_and_secret_runs_are_not_kept(completed_run, tmp_path):
    cache = RunCache(tmp_path / "cache")
    failed = tmp_path / "failed"
    shutil.copytree(completed_run, failed)
    s = read_summary(failed)
    s.update(completed=False, outcome="error")
    (failed / "summary.json").write_text(json.dumps(s), encoding="utf-8")
    assert cache.keep(failed, INSTRUCTION, "sim") == "not kept: the run did not complete (error)"
    unchecked = tmp_path / "unchecked"
    shutil.copytree(completed_run, unchecked)
    lines = (unchecked / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    last["completion"]["reason"] = "not checked"
    lines[-1] = json.dumps(last)
    (unchecked / "steps.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "Stop was not confirmed" in cache.keep(unchecked, INSTRUCTION, "sim")
    assert "typed a secret" in cache.keep(completed_run, INSTRUCTION, "sim", secrets=["Call the bank"])
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())


def test_run_cache_replays_the_second_run_with_no_model_call(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MY_TEST_KEY", "k")
    cache = tmp_path / "cache"
    with LocalChatServer(Script(PLAN)) as server:
        args = ["run", INSTRUCTION, "--device", "sim", "--model", "gpt-4o-test", "--base-url", server.openai_base_url,
                "--api-key-env", "MY_TEST_KEY", "--cache", str(cache), "--perception", "vision"]
        assert main(args + ["--out", str(tmp_path / "first")]) == 0
        first = len(server.requests)
        assert main(args + ["--out", str(tmp_path / "second")]) == 0
        second = len(server.requests) - first
    out = " ".join(capsys.readouterr().out.split())
    assert first == 6 and second == 0  # 5 plans and the completion check; then none
    assert "cache: no run of this instruction" in out and "cache: replaying the kept run (5 step(s))" in out
    assert {s.source for s in read_steps(tmp_path / "second")} == {"replayed"}
    assert read_summary(tmp_path / "second")["replay"]["model_calls_saved"] == 6
    # the entry stays as it was (the second run was replayed whole from it), with the lines read off
    # its screens kept, so that the next replay reads no recorded screen again
    (entry,) = [p for p in cache.iterdir() if p.is_dir()]
    assert json.loads((entry / "cache.json").read_text(encoding="utf-8"))["from"] == str(tmp_path / "first")
    lines = json.loads((entry / "lines.json").read_text(encoding="utf-8"))
    assert sorted(lines, key=int) == ["1", "2", "3", "4", "5"]
    assert any("New note" in t for t, _, _ in lines["2"][1]), lines["2"]


def test_param_and_secret_are_kept_as_placeholders_and_filled_at_replay(tmp_path, monkeypatch, capsys):
    # --param who=Anna: "Anna" in the instruction is a parameter; --secret code=...: the model and the
    # records see {code}, the phone gets the value. The cache entry holds neither value (not in its
    # files' bytes, not in what OCR reads off its screenshots); the next run with other values
    # replays it with no model call, and a run that does not give the secret is refused.
    from PIL import Image

    from mobile_agent.perception import Perception

    monkeypatch.setenv("MY_TEST_KEY", "k")
    cache = tmp_path / "cache"
    plan = [react("Open App (Notes)"), react("Click Text (New note)"), react("Type (Call Anna, code {code})"),
            react("Click Icon (check, top right)"), react("Stop")]
    phones = []
    monkeypatch.setattr("mobile_agent.device.open_device",
                        lambda name, **kw: phones.append(SimPhone(seed=0)) or phones[-1])
    with LocalChatServer(Script(plan)) as server:
        def run(who, code, out, extra=()):
            return main(["run", f"Write a note: call {who}, code {{code}}", "--device", "sim", "--model", "gpt-4o-test",
                         "--base-url", server.openai_base_url, "--api-key-env", "MY_TEST_KEY", "--cache", str(cache),
                         "--perception", "vision", "--param", f"who={who}", "--out", str(tmp_path / out),
                         *(["--secret", f"code={code}"] if code else []), *extra])

        assert run("Anna", "7319-XQ", "first") == 0
        first = len(server.requests)
        assert "7319-XQ" not in json.dumps([r for r in server.requests], default=str)  # the model never saw it
        assert run("Ben", "5555-ZZ", "second") == 0
        second = len(server.requests) - first
        assert run("Ben", None, "third") == 2  # the kept run types {code}: refused without it
    cap = capsys.readouterr()
    out = " ".join((cap.out + cap.err).split())
    assert first == 6 and second == 0
    notes = [[n.title + " " + n.body for n in p.state.notes.notes] for p in phones[:2]]
    assert any("Call Anna, code 7319-XQ" in b for b in notes[0]) and any("Call Ben, code 5555-ZZ" in b for b in notes[1])
    # the runs' own records say {code}, never its value
    for run_dir in (tmp_path / "first", tmp_path / "second"):
        assert "7319-XQ" not in (run_dir / "steps.jsonl").read_text(encoding="utf-8")
        assert "{code}" in (run_dir / "steps.jsonl").read_text(encoding="utf-8")
    (entry,) = [p for p in cache.iterdir() if p.is_dir()]
    files = [f for f in entry.rglob("*") if f.is_file()]
    for f in files:  # grep the cache files for the values
        data = f.read_bytes()
        assert b"7319-XQ" not in data and b"Anna" not in data and b"7319" not in data, f
    meta = json.loads((entry / "cache.json").read_text(encoding="utf-8"))
    assert meta["instruction"] == "Write a note: call {who}, code {code}"
    assert meta["params"] == ["who"] and meta["secrets"] == ["code"]
    assert "Type (Call {who}, code {code})" in (entry / "steps.jsonl").read_text(encoding="utf-8")
    read = Perception()
    for png in entry.glob("screens/*.png"):  # what the screenshots show, as OCR reads it
        with Image.open(png) as im:
            texts = " ".join(ln.text for ln in read.parse(im.convert("RGB")).lines)
        assert "7319" not in texts and "Anna" not in texts, (png.name, texts)
    assert "the kept run of this instruction types the secret(s) {code}: give --secret code=VALUE" in out
    assert not (tmp_path / "third" / "steps.jsonl").exists()  # refused before any step
    # mobile-agent replay of the entry: the same refusal without the secret, its value typed with it
    replay = ["replay", str(entry), "--perception", "vision", "--param", "{who}=Cy"]
    assert main(replay + ["--out", str(tmp_path / "r1")]) == 2
    assert "types the secret(s) {code}: give --secret code=VALUE" in " ".join(capsys.readouterr().err.split())
    assert main(replay + ["--out", str(tmp_path / "r2"), "--secret", "code=9999-AA"]) == 0
    assert any("Call Cy, code 9999-AA" in n.title + " " + n.body for n in phones[-1].state.notes.notes)
    assert "9999-AA" not in (tmp_path / "r2" / "steps.jsonl").read_text(encoding="utf-8")


def test_param_and_secret_errors_are_one_line(tmp_path, capsys):
    base = ["run", "Write {pin} down", "--model", "scripted:/nonexistent", "--out", str(tmp_path / "o")]
    assert main(base + ["--param", "who=Anna"]) == 2
    assert "--param names a value of the instruction for the run cache: give --cache DIR too" in " ".join(
        capsys.readouterr().err.split())
    assert main(base + ["--cache", str(tmp_path / "c"), "--param", "who=Anna"]) == 2
    assert "--param who: 'Anna' is not in the instruction" in " ".join(capsys.readouterr().err.split())
    assert main(base + ["--secret", "code=1234"]) == 2
    assert "--secret code: write {code} in the instruction" in " ".join(capsys.readouterr().err.split())
    assert main(base + ["--secret", "pin"]) == 2
    assert "--secret 'pin'=...: write NAME=VALUE" in " ".join(capsys.readouterr().err.split())
