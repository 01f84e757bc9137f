"""Mail on the simulated phone: compose and send, invalid recipients, empty message, drafts, Sent."""

from __future__ import annotations

import pytest

from mobile_agent.device.sim.apps.mail import EMPTY_MESSAGE_PROMPT, is_valid_address, split_recipients
from mobile_agent.device.sim.phone import SimPhone
from mobile_agent.device.uitree import TreeDriver


def _open(seed: int = 3, dark: bool = False) -> tuple[SimPhone, TreeDriver]:
    phone = SimPhone(seed=seed, dark=dark)
    phone.launch("Mail")
    return phone, TreeDriver(phone)


def _dialog_message(d: TreeDriver) -> str | None:
    node = d.find(rid="message")
    return node.text.replace("\n", " ") if node is not None else None


def _compose(d: TreeDriver, to: str, subject: str = "", body: str = "") -> None:
    d.tap(desc="Compose")
    d.tap(rid="to")
    d.type(to)
    if subject:
        d.tap(rid="subject")
        d.type(subject)
    if body:
        d.tap(rid="body")
        d.type(body)


def test_send_a_mail_and_find_it_in_sent() -> None:
    phone, d = _open()
    _compose(d, "kim@example.com", "My new work", "I started a new job as a designer.")
    d.tap(desc="Send")
    sent = phone.state.mail.sent
    assert len(sent) == 1
    assert sent[0].to == ["kim@example.com"] and sent[0].subject == "My new work"
    assert sent[0].body == "I started a new job as a designer."
    assert sent[0].sender == phone.state.mail.account
    assert d.find(text="Inbox") is not None  # back on the list
    d.tap(desc="Open navigation drawer")
    d.tap(desc="Sent")
    assert d.find(text="My new work") is not None
    assert d.find(text="To: kim@example.com") is not None
    phone.back()  # Sent -> Inbox
    assert d.find(text="Lunch on Friday?") is not None


def test_empty_mail_asks_then_sends() -> None:
    phone, d = _open()
    _compose(d, "someone@example.org")
    d.tap(desc="Send")
    assert _dialog_message(d) == EMPTY_MESSAGE_PROMPT
    assert phone.state.mail.sent == []
    d.tap(text="Cancel")
    assert _dialog_message(d) is None and phone.state.mail.sent == []
    d.tap(desc="Send")
    d.tap(text="OK")
    assert [(m.to, m.subject, m.body) for m in phone.state.mail.sent] == [(["someone@example.org"], "", "")]


@pytest.mark.parametrize("address", ["bob@example", "bob.example.com", "bob@@example.com"])
def test_invalid_address_is_rejected(address: str) -> None:
    phone, d = _open()
    _compose(d, address, "Hi", "Hello")
    d.tap(desc="Send")
    assert _dialog_message(d) == f"The address <{address}> is invalid."
    d.tap(text="OK")
    assert phone.state.mail.sent == []
    assert d.find(desc="Send") is not None  # still composing


def test_back_saves_a_draft_and_drafts_reopen() -> None:
    phone, d = _open()
    _compose(d, "pat@example.com", "Plans")
    phone.back()  # hides the keyboard
    phone.back()  # leaves the editor
    assert [(m.to, m.subject) for m in phone.state.mail.drafts] == [(["pat@example.com"], "Plans")]
    d.tap(desc="Open navigation drawer")
    d.tap(desc="Drafts")
    d.tap(text="Plans")
    d.tap(desc="Send")
    assert phone.state.mail.drafts == [] and phone.state.mail.sent[0].subject == "Plans"
    # an empty compose leaves nothing behind
    d.tap(desc="Compose")
    d.tap(desc="Navigate up")
    assert phone.state.mail.drafts == []


def test_no_recipient_is_refused() -> None:
    phone, d = _open()
    d.tap(desc="Compose")
    d.tap(rid="body")
    d.type("Hello")
    d.tap(desc="Send")
    assert _dialog_message(d) == "Add at least one recipient."
    d.tap(text="OK")
    assert phone.state.mail.sent == []


def test_open_inbox_mail_marks_read_and_reply() -> None:
    phone, d = _open()
    assert phone.state.mail.inbox[0].read is False
    d.tap(text="Lunch on Friday?")
    assert phone.state.mail.inbox[0].read is True
    assert d.find(rid="body") is not None
    d.tap(text="Reply")
    d.tap(rid="body")
    d.type("Yes!")
    d.tap(desc="Send")
    assert phone.state.mail.sent[0].to == ["anna.lee@example.org"]
    assert phone.state.mail.sent[0].subject == "Re: Lunch on Friday?"
    phone.back()
    phone.back()
    assert phone.state.foreground is None


def test_dark_theme_renders_dark() -> None:
    phone, d = _open(dark=True)
    img = phone.screenshot()
    w, h = img.size
    assert sum(img.getpixel((w // 2, h // 2))) < 120
    assert d.find(text="Compose") is not None


def test_address_helpers() -> None:
    assert split_recipients(" a@b.co, c@d.org;e@f.net ") == ["a@b.co", "c@d.org", "e@f.net"]
    assert is_valid_address("first.last+tag@mail.example.com")
    assert not is_valid_address("no-at-sign.com") and not is_valid_address("a@b")
