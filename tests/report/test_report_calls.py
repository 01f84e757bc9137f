"""The run report shows every model call kept in a step (kind, role, raw reply collapsed, tokens,
error, duration), from the typed record, escaped: a real run through a chat-completions server on
localhost (single mode), and a multi-mode steps.jsonl written before the typed record."""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

from mobile_agent.agent.trajectory import STEPS, read_steps
from mobile_agent.report import write_report
from tests.fakes.agent_harness import Script, make_agent, react
from tests.fakes.chatserver import LocalChatServer
from tests.fakes.tinyphone import TinyPhone

OLD_MULTI = Path(__file__).resolve().parent.parent / "agent" / "fixtures" / "multi_steps_written_before_typed_records.jsonl"


class _Calls(HTMLParser):
    """Per step frame: the rows of its 'Model calls' table, each a list of cell texts, and the
    text inside each row's collapsed <details>."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: dict[str, list[dict]] = {}
        self._step: str | None = None
        self._row: dict | None = None
        self._cell: list[str] | None = None
        self._open_details = False
        self.heads: list[list[str]] = []
        self._head: list[str] | None = None
        self._in_th = False

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        cls = a.get("class", "").split()
        if tag == "section" and "step" in cls:
            self._step = a["data-step"]
            self.steps[self._step] = []
        if tag == "table" and "calls" in cls:
            self._head = []
            self.heads.append(self._head)
        if tag == "th" and self._head is not None:
            self._in_th = True
            self._head.append("")
        if tag == "tr" and "call" in cls:
            self._row = {"cells": [], "details_open": None, "raw": ""}
            self.steps[self._step].append(self._row)
        if tag == "td" and self._row is not None:
            self._cell = []
        if tag == "details" and self._row is not None:
            self._row["details_open"] = "open" in a
        if tag == "pre" and self._row is not None:
            self._open_details = True

    def handle_endtag(self, tag):
        if tag == "th":
            self._in_th = False
        if tag == "thead":
            self._head = None
        if tag == "td" and self._row is not None and self._cell is not None:
            self._row["cells"].append("".join(self._cell))
            self._cell = None
        if tag == "pre":
            self._open_details = False
        if tag == "tr":
            self._row = None

    def handle_data(self, data):
        if self._in_th and self._head is not None:
            self._head[-1] += data
        if self._cell is not None and not self._open_details:
            self._cell.append(data)
        if self._open_details and self._row is not None:
            self._row["raw"] += data


def _read(page: Path) -> _Calls:
    p = _Calls()
    p.feed(page.read_text(encoding="utf-8"))
    return p


def test_every_kept_call_of_a_step_is_shown_with_its_reply_collapsed_and_escaped(tmp_path):
    phone = TinyPhone()
    markup = "I see <b>Settings</b> & <script>alert(1)</script>"
    plans = [markup, react("Click Text (Settings)", observation=markup), react("Stop")]
    with LocalChatServer(Script(plans, checks=["Verdict: incomplete\nReason: <i>not yet</i>"])) as server:
        make_agent(server, phone).run("Open Settings", tmp_path)
    page = write_report(tmp_path)
    html = page.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    records = read_steps(tmp_path)
    shown = _read(page)
    assert shown.heads[0] == ["#", "kind", "tokens", "time", "error", "reply"]  # no role column in single mode
    for rec in records:
        rows = shown.steps[str(rec.step)]
        assert len(rows) == len(rec.calls) > 0
        for row, call in zip(rows, rec.calls):
            number, kind, tokens, _time, error, _summary = row["cells"]
            assert kind == call.kind and error == (call.error or "")
            assert tokens == f"{call.prompt_tokens:,} + {call.completion_tokens:,}"
            if call.raw is not None:  # collapsed, the whole reply inside
                assert row["details_open"] is False and row["raw"] == call.raw
    first = shown.steps["1"]
    assert [r["cells"][1] for r in first] == ["plan", "plan"]
    assert first[0]["cells"][4] == "could not be read: your reply has no 'Action:' line" and first[0]["raw"] == markup
    # the Stop step: the plan, then the completion check that said incomplete
    assert [r["cells"][1] for r in shown.steps["2"]] == ["plan", "complete"]
    assert shown.steps["2"][1]["raw"] == "Verdict: incomplete\nReason: <i>not yet</i>"
    # the script is used up: the server answers 400, the call that got no reply is shown with its error
    failed = shown.steps["3"]
    assert len(failed) == 1 and failed[0]["details_open"] is None and failed[0]["cells"][5] == "no reply"
    assert "test script exhausted" in failed[0]["cells"][4] and records[2].calls[0].raw is None


def test_multi_mode_calls_show_their_role(tmp_path):
    shutil.copy(OLD_MULTI, tmp_path / STEPS)
    page = write_report(tmp_path)
    shown = _read(page)
    assert shown.heads[0] == ["#", "role", "kind", "tokens", "time", "error", "reply"]
    old = [json.loads(line) for line in OLD_MULTI.read_text(encoding="utf-8").splitlines()]
    kinds = {"operation": "plan", "choice": "choose", "reflection": "reflect", "plan": "plan"}
    for d in old:
        rows = shown.steps[str(d["step"])]
        assert [(r["cells"][1], r["cells"][2], r["raw"]) for r in rows] == \
            [(c["role"], kinds[c["kind"]], c["raw"]) for c in d["calls"]]
    unreadable = shown.steps["2"][0]["cells"]
    assert unreadable[1:3] == ["manager", "plan"] and "no 'Plan:' section" in unreadable[5]
