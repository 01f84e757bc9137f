"""A secret that OCR reads back a letter off is still a secret (issue 51, item 5): typed into a note
with ``--secret pw=cl1ck4ll``, the note's screen is read by OCR as something near the value (on the
simulated phone, ``cl1ck411|``), and that reading is in no request to the model, no record of the
run, its report, nor the kept run of the cache. Real parts: the localhost chat server, the simulated
phone, the CLI in-process, the bundled OCR."""

from __future__ import annotations

import json

import pytest
from rapidfuzz import fuzz

from mobile_agent.cli import main
from mobile_agent.errors import _ocr_form, forget_secrets, redact, remember_secret
from tests.fakes.agent_harness import Script, react
from tests.fakes.chatserver import LocalChatServer

VALUE = "cl1ck4ll"
# a Click Text of a text that is not there: its feedback quotes what the screen shows, the reading included
PLAN = [react("Open App (Notes)"), react("Click Text (New note)"), react("Type ({pw})"),
        react("Click Text (Keep this note)"), react("Click Icon (check, top right)"), react("Stop")]


def _near(text: str) -> list[str]:
    """The words of ``text`` that read as the value (OCR's look-alikes made one, a character off)."""
    return [w for w in text.replace('"', " ").replace("\\n", " ").split()
            if len(w) >= len(VALUE) - 1 and fuzz.ratio(_ocr_form(w.strip("(),.:;")), _ocr_form(VALUE)) >= 85]


@pytest.mark.parametrize("reading,masked", [
    ("cl1ck411|", "{pw}"), ("Note: cl1ck411| saved", "Note: {pw} saved"), ("Cl1ck4lI", "{pw}"),
    ("c1ick4ll and more", "{pw} and more"), ("cl1ck4ll", "{pw}"),
    ("click all", "click all"), ("clock4all", "clock4all"), ("Settings", "Settings"),
])
def test_a_reading_a_letter_off_is_masked_and_other_words_are_not(reading, masked):
    remember_secret(VALUE, "pw")
    try:
        assert redact(reading) == masked
    finally:
        forget_secrets()


def test_a_short_secret_is_masked_only_as_it_reads():
    remember_secret("1234", "pin")  # a 4-digit PIN: a digit off would take every number near it
    try:
        assert redact("PIN 1234, code 1235, l234") == "PIN {pin}, code 1235, {pin}"
    finally:
        forget_secrets()


def test_the_misread_secret_is_in_no_request_and_no_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    out = tmp_path / "run"
    with LocalChatServer(Script(PLAN)) as server:
        code = main(["run", "Write {pw} in a new note", "--secret", f"pw={VALUE}", "--model", "openai:test-model",
                     "--base-url", server.openai_base_url, "--perception", "vision", "--max-steps", "8",
                     "--out", str(out), "--cache", str(cache)])
        requests = [json.dumps(r.body, ensure_ascii=False) for r in server.requests]
    terminal = capsys.readouterr()
    assert code == 0, terminal.out + terminal.err
    from mobile_agent.perception import Perception

    lines = [ln.text for ln in Perception().parse(str(out / "screens" / "step_004.png")).lines]
    read = [t for t in lines if _near(t)]
    assert read, f"OCR did not read the typed value on the note's screen: {lines}"
    for i, body in enumerate(requests):
        assert VALUE not in body and not _near(body), (i, _near(body))
    for folder in (out, cache):
        for p in folder.rglob("*"):
            if p.is_file() and p.suffix in (".json", ".jsonl", ".html"):
                text = p.read_text(encoding="utf-8", errors="replace")
                assert VALUE not in text and not _near(text), (p.relative_to(folder), _near(text))
    assert not _near(terminal.out + terminal.err)


def test_a_secret_also_written_literally_in_the_instruction_is_not_printed(tmp_path, capsys):
    # issue 51, low: the run's header printed the instruction as given
    replies = tmp_path / "replies.txt"
    replies.write_text("Observation: home\nThought: open\nAction: Open App (Notes)\n---\n"
                       "Observation: notes\nThought: done\nAction: Stop\n", encoding="utf-8")
    code = main(["run", f"Write {{pw}} in a new note, it is {VALUE}", "--secret", f"pw={VALUE}",
                 "--model", f"scripted:{replies}", "--no-completion-check", "--out", str(tmp_path / "run")])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert VALUE not in out.out + out.err and "it is {pw}" in " ".join(out.out.split())
