"""--confirm judges Click Icon by what will be touched, not by the model's words: "dustbin" and
"waste basket" on Mail's trash glyph ask first (a no deletes nothing), by the glyph the icon matcher
recognises (pixels only) and by the accessibility tree's label (hybrid); a harmless icon asks nothing."""

from __future__ import annotations

import pytest

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import TreeDriver
from tests.fakes.agent_harness import Script, make_agent, react
from tests.fakes.chatserver import LocalChatServer


def _open_mail() -> tuple[SimPhone, int]:
    phone = SimPhone(seed=0)
    phone.launch("Mail")
    d = TreeDriver(phone)
    d.tap(rid="subject")  # the first conversation
    assert d.find(desc="Delete") is not None
    return phone, len(phone.state.mail.inbox)


@pytest.mark.parametrize("perception_mode", ["vision", "hybrid"])
@pytest.mark.parametrize("words", ["dustbin", "waste basket"])
def test_the_trash_glyph_asks_whatever_the_model_called_it(tmp_path, words, perception_mode):
    phone, mails = _open_mail()
    asked: list[str] = []
    with LocalChatServer(Script([react(f"Click Icon ({words}, top)")])) as server:
        result = make_agent(server, phone, confirm=lambda op, why: asked.append(why) or False,
                            perception_mode=perception_mode).run("Tidy up my inbox", tmp_path)
    assert result.outcome == "interrupted" and len(asked) == 1, (result.outcome, asked)
    assert "deletes" in asked[0], asked[0]
    assert len(phone.state.mail.inbox) == mails  # nothing deleted


def test_a_harmless_icon_asks_nothing(tmp_path):
    phone, mails = _open_mail()
    asked: list[str] = []
    with LocalChatServer(Script([react("Click Icon (more options, top)"), react("Stop")])) as server:
        make_agent(server, phone, confirm=lambda op, why: asked.append(why) or False, max_steps=2,
                   completion_check=False, perception_mode="vision").run("Show the menu", tmp_path)
    assert asked == []


def test_the_glyph_is_named_from_the_pixels():
    from mobile_agent.agent.risk import glyph_at
    from mobile_agent.perception import Perception

    phone, _ = _open_mail()
    d = TreeDriver(phone)
    screen, p = phone.screenshot(), Perception()
    trash = glyph_at(p, screen, d.find(desc="Delete").bounds.as_tuple())
    assert trash is not None and trash[0] == "trash can"
    for desc in ("More options", "Mark unread", "Battery 78 percent"):  # the battery's outline is no bin
        assert glyph_at(p, screen, d.find(desc=desc).bounds.as_tuple()) is None, desc
