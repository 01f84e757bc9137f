"""--confirm through the loop on the simulated phone: the question comes from what will be touched
(the grounded "Install" button), typed text is not a reason, Enter inside Type is, and a no ends the
run before anything is touched."""

from __future__ import annotations

from tests.fakes.agent_harness import Script, make_agent, react
from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import TreeDriver
from tests.fakes.chatserver import LocalChatServer


def _store_page() -> tuple[SimPhone, TreeDriver]:
    phone = SimPhone(seed=0)
    phone.launch("Store")
    d = TreeDriver(phone)
    d.scroll_to(text="Instagram", rid="app_name")
    d.tap(text="Instagram", rid="app_name")
    assert d.find(text="Install") is not None
    return phone, d


def test_the_grounded_install_button_is_asked_about_and_a_no_touches_nothing(tmp_path):
    phone, _ = _store_page()
    asked: list[str] = []
    # the model's words say nothing risky: it is the element under the tap that decides
    with LocalChatServer(Script([react("Click Text (Instal)")])) as server:
        result = make_agent(server, phone, confirm=lambda op, why: asked.append(why) or False).run(
            "Get Instagram", tmp_path)
    assert result.outcome == "interrupted" and len(asked) == 1
    assert "Install" in asked[0] and "installs" in asked[0]
    assert phone.state.store.installing == {} and "Instagram" not in phone.state.store.installed


def test_typed_words_are_content_but_enter_is_asked_about(tmp_path):
    phone = SimPhone(seed=0)
    asked: list[str] = []
    plans = [react("Type (please send money)"), react("Type (see you at 5\\n)"), react("Stop")]
    with LocalChatServer(Script(plans)) as server:
        make_agent(server, phone, confirm=lambda op, why: asked.append(why) or True, max_steps=3,
                   completion_check=False).run("Reply to Ann", tmp_path)
    assert len(asked) == 1 and "Enter" in asked[0]
