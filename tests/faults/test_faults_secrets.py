"""No credential reaches a file: a server whose errors echo the API key, the Authorization header and
a base URL's ``user:password@`` leaves none of them in any file that `run` and `eval` write (summary,
steps, report, results database and JSON), nor on the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from mobile_agent.cli import main
from mobile_agent.errors import redact
from tests.fakes.chatserver import LocalChatServer, Reply

KEY = "sekrit-key-0123456789abcdef"
PASSWORD = "hunter2-pass-word"


def echo(status: int):
    def reply(req) -> Reply:
        return Reply(status=status, error=f"Incorrect API key provided: {KEY}; you sent Authorization: "
                                          f"{req.headers.get('authorization')} to http://alice:{PASSWORD}@example.com/v1")
    return reply


def base_url(server: LocalChatServer) -> str:
    return server.openai_base_url.replace("http://", f"http://alice:{PASSWORD}@")


def files_holding(folder: Path, *secrets: str) -> list[str]:
    found = []
    for p in folder.rglob("*"):
        if p.is_file():
            data = p.read_bytes()
            found += [f"{p.relative_to(folder)}: {s}" for s in secrets if s.encode() in data]
    return found


@pytest.mark.parametrize("status", [401, 500])
def test_run_keeps_keys_and_passwords_out_of_its_files(tmp_path, monkeypatch, capsys, status):
    monkeypatch.setenv("SECRET_TEST_KEY", KEY)
    with LocalChatServer(echo(status)) as server:
        code = main(["run", "Turn on the dark mode", "--model", "gpt-4o-test", "--base-url", base_url(server),
                     "--api-key-env", "SECRET_TEST_KEY", "--out", str(tmp_path), "--max-steps", "2",
                     "--model-timeout", "5"])
    out = capsys.readouterr()
    assert code in (1, 2)
    assert (tmp_path / "summary.json").exists() and (tmp_path / "steps.jsonl").exists()
    assert (tmp_path / "report.html").exists()
    assert files_holding(tmp_path, KEY, PASSWORD) == []
    assert KEY not in out.out + out.err and PASSWORD not in out.out + out.err
    assert "***" in (tmp_path / "summary.json").read_text()  # the message is kept, the secret is not


def test_eval_keeps_keys_and_passwords_out_of_its_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SECRET_TEST_KEY", KEY)
    out_dir = tmp_path / "eval"
    with LocalChatServer(echo(401)) as server:
        code = main(["eval", "--planner", "model", "--model", "gpt-4o-test", "--base-url", base_url(server),
                     "--api-key-env", "SECRET_TEST_KEY", "--tasks", "settings-1", "--out", str(out_dir),
                     "--json", str(out_dir / "copy.json")])
    out = capsys.readouterr()
    assert code in (0, 1), out.out + out.err  # the task ran (and failed): a score, not a crash
    names = {p.name for p in out_dir.rglob("*")}
    assert {"results.sqlite", "results.json", "summary.json", "steps.jsonl", "copy.json"} <= names, names
    assert files_holding(out_dir, KEY, PASSWORD) == []
    assert KEY not in out.out + out.err and PASSWORD not in out.out + out.err


def test_redact_knows_the_forms():
    assert redact("GET https://bob:pw123@host.example/v1?api_key=abc123&x=1") == \
        "GET https://***@host.example/v1?api_key=***&x=1"
    assert redact('{"authorization": "Bearer abc.def.ghi.jkl"}') == '{"authorization": "Bearer ***"}'
    assert redact("x-api-key: sk-ant-api03-abcdefghijklmnop") == "x-api-key: ***"
    assert redact("key sk-proj-ABCDEFGHIJKLMNOP1234 was refused") == "key *** was refused"
    # words of a screen stay as they are
    assert redact("Basic settings, Bearer of news, task-abcdefghijklmnop") == \
        "Basic settings, Bearer of news, task-abcdefghijklmnop"


def test_a_short_placeholder_key_corrupts_no_text_and_a_real_key_is_removed():
    from mobile_agent.errors import MIN_SECRET_CHARS, remember_secret

    # "none", "local", "wrong": placeholders a local server accepts; replacing them everywhere turned
    # the results' "first_wrong" into "first_***" in every later run of the process
    for placeholder in ("none", "wrong", "k" * (MIN_SECRET_CHARS - 1)):
        remember_secret(placeholder)
    text = '{"first_wrong": "step 2: none of the wrong texts", "kkkkkkk": 1}'
    assert redact(text) == text
    remember_secret(KEY)
    assert redact(f"the key {KEY} was sent") == "the key *** was sent"
    # a placeholder is still kept out where it sits as a credential
    assert "wrong" not in redact("Authorization: Bearer wrong")


def test_a_four_digit_secret_reaches_the_phone_only(tmp_path, monkeypatch, capsys):
    """`run "Write {pin} in a new note" --secret pin=4711` (issue 42 item 2): once the model reads
    4711 off the screen and names it, the value is in no file the run writes, on no terminal line,
    and in no request to the model (the OCR texts and the model's own words write it ``{pin}``)."""
    import json

    from mobile_agent.device.sim import SimPhone
    from tests.fakes.agent_harness import Script, react

    pin = "4711"
    plan = [react("Open App (Notes)"), react("Click Text (New note)"), react("Type ({pin})"),
            react("Click Icon (check, top right)"),
            react("Stop", thought=f"The note holds {pin}.", observation=f"A note reading {pin} is saved.")]
    phones = []
    monkeypatch.setattr("mobile_agent.device.open_device",
                        lambda name, **kw: phones.append(SimPhone(seed=0)) or phones[-1])
    monkeypatch.setenv("MY_TEST_KEY", "k")
    out_dir = tmp_path / "run"
    with LocalChatServer(Script(plan)) as server:
        code = main(["run", "Write {pin} in a new note", "--device", "sim", "--model", "gpt-4o-test",
                     "--base-url", server.openai_base_url, "--api-key-env", "MY_TEST_KEY", "--perception", "vision",
                     "--secret", f"pin={pin}", "--out", str(out_dir)])
        sent = " ".join(t for r in server.requests for t in r.texts())
    out = capsys.readouterr()
    assert code == 0, out.out + out.err
    assert any(pin in n.title + " " + n.body for n in phones[0].state.notes.notes)  # the phone got it
    for name in ("steps.jsonl", "summary.json", "report.html"):
        text = (out_dir / name).read_text(encoding="utf-8")
        assert pin not in text, name
    steps = (out_dir / "steps.jsonl").read_text(encoding="utf-8")
    assert "A note reading {pin} is saved" in steps  # the model's words kept, the value written {pin}
    for line in steps.splitlines():
        json.loads(line)  # every line still a record
    assert pin not in out.out + out.err
    assert pin not in sent  # not in the OCR texts nor the history sent back to the model


def test_a_secret_too_short_to_keep_out_is_refused(tmp_path, capsys):
    code = main(["run", "Unlock with {pin}", "--model", "scripted:/nonexistent", "--secret", "pin=47",
                 "--out", str(tmp_path / "o")])
    err = " ".join(capsys.readouterr().err.split())
    assert code == 2
    assert "--secret pin: a secret needs at least 4 characters (got 2)" in err
    assert not (tmp_path / "o" / "steps.jsonl").exists()


def test_basic_credentials_of_the_base_url_never_leak_base64_encoded(tmp_path, monkeypatch, capsys):
    """`--base-url http://alice:PASSWORD@host` (issue 42 item 7): a server that echoes the Basic
    header (as received, and its base64 alone) into an error leaves it in no file nor line."""
    import base64

    pair = base64.b64encode(f"alice:{PASSWORD}".encode()).decode()
    received = []

    def reply(req) -> Reply:
        received.append(req.headers.get("authorization"))
        return Reply(status=401, error=f"credentials {req.headers.get('authorization')} refused; "
                                       f"proxy saw {pair} and {pair.rstrip('=')}")

    monkeypatch.setenv("SECRET_TEST_KEY", KEY)
    with LocalChatServer(reply) as server:
        code = main(["run", "Turn on the dark mode", "--model", "gpt-4o-test", "--base-url", base_url(server),
                     "--api-key-env", "SECRET_TEST_KEY", "--out", str(tmp_path), "--max-steps", "2",
                     "--model-timeout", "5"])
    out = capsys.readouterr()
    assert code in (1, 2) and received
    assert (tmp_path / "summary.json").exists() and (tmp_path / "report.html").exists()
    leaks = [pair, pair.rstrip("="), KEY, PASSWORD] + [h.split()[-1] for h in received if h]
    assert files_holding(tmp_path, *leaks) == []
    assert not [s for s in leaks if s in out.out + out.err]
    assert "refused" in (tmp_path / "summary.json").read_text()  # the message is kept


def test_redact_removes_a_basic_header_and_keeps_words():
    import base64

    token = base64.b64encode(b"bob:pw-of-bob").decode()
    assert redact(f"sent Basic {token} to the proxy") == "sent Basic *** to the proxy"
    assert redact("Basic settings, Basic info") == "Basic settings, Basic info"
