"""--confirm decides on what will be touched (the grounded element's text, the icon, the screen
around a generic OK), not on the model's words: the listed words are caught, typed text is not."""

from __future__ import annotations

import pytest

from mobile_agent.agent.operations import Back, ClickIcon, ClickText, OpenApp, Stop, Type
from mobile_agent.agent.risk import RiskRules, assess, load_rules
from mobile_agent.errors import ConfigError


@pytest.mark.parametrize("touched", ["Install", "Uninstall", "Download", "Submit", "Confirm", "Share", "Reply",
                                     "Sign out", "Factory reset", "Send", "Buy now", "Delete", "Pay $4.99",
                                     "Place order", "Reply all", "Log out"])
def test_listed_words_on_the_touched_element_are_risky(touched):
    d = assess(ClickText(touched.lower()), touched_text=touched)
    assert d.risky and touched in d.why


@pytest.mark.parametrize("touched", ["Senden", "Löschen", "Envoyer", "Supprimer", "Enviar", "Eliminar",
                                     "Installieren", "Télécharger", "Acheter", "Отправить", "Удалить", "发送",
                                     "删除", "立即购买", "送信", "削除", "보내기", "삭제"])
def test_non_english_words_are_risky(touched):
    assert assess(ClickText(touched), touched_text=touched).risky


@pytest.mark.parametrize("desc", ["trash can", "trash", "paper plane", "garbage bin", "share", "download arrow"])
def test_risky_icons(desc):
    d = assess(ClickIcon(desc), touched_text=None)
    assert d.risky and desc in d.why


def test_the_model_s_words_do_not_decide_the_grounded_text_does():
    # the model said "the blue button", grounding landed on "Send"
    assert assess(ClickText("the blue button"), touched_text="Send").risky
    # the model said "Send feedback page", grounding landed on the "Help" item: nothing is sent there
    assert not assess(ClickText("Sender details"), touched_text="Sender details").risky
    assert not assess(ClickText("Display"), touched_text="Display").risky


def test_typed_text_is_content_but_enter_may_send():
    assert not assess(Type("please send money")).risky
    assert not assess(Type("delete this later, pay attention")).risky
    d = assess(Type("see you at 5\n"))
    assert d.risky and "Enter" in d.why


def test_a_generic_ok_takes_its_risk_from_the_screen():
    screen = ["Delete 3 messages?", "This cannot be undone.", "Cancel", "OK"]
    d = assess(ClickText("OK"), touched_text="OK", screen_text=screen)
    assert d.risky and "Delete 3 messages?" in d.why
    assert not assess(ClickText("OK"), touched_text="OK", screen_text=["Battery saver is on", "OK"]).risky
    # a risky word elsewhere on the screen does not make any tap risky
    assert not assess(ClickText("Display"), touched_text="Display", screen_text=["Delete account"]).risky


def test_an_act_toward_the_user_is_no_risk_for_a_generic_answer():
    # Android's notification permission: the app sends to the user; allowing it sends nothing
    prompt = ["Allow Mail to send you notifications?", "Allow", "Don't allow"]
    assert not assess(ClickText("Allow"), touched_text="Allow", screen_text=prompt).risky
    assert not assess(ClickText("OK"), touched_text="OK", screen_text=["We'll send you a code by SMS", "OK"]).risky
    # what the user's answer sends or deletes still asks, beside such a line too
    d = assess(ClickText("Allow"), touched_text="Allow",
               screen_text=["Allow Mail to send and view SMS messages?", "Allow", "Don't allow"])
    assert d.risky and "send" in d.why
    d = assess(ClickText("OK"), touched_text="OK", screen_text=["We'll send you a receipt", "Pay $12.00", "OK"])
    assert d.risky and "Pay $12.00" in d.why


def test_operations_that_touch_nothing_irreversible():
    for op in (OpenApp("Mail"), Back(), Stop()):
        assert not assess(op, touched_text="Send").risky


def test_a_user_file_extends_and_trims_the_list(tmp_path):
    f = tmp_path / "words.txt"
    f.write_text("# my words\nArchive\nbooks: Borrow  # library app\n!share\n", encoding="utf-8")
    rules = load_rules(f)
    assert assess(ClickText("Archive"), touched_text="Archive", rules=rules).risky
    d = assess(ClickText("Borrow"), touched_text="Borrow", rules=rules)
    assert d.risky and "books" in d.why
    assert not assess(ClickText("Share"), touched_text="Share", rules=rules).risky
    assert assess(ClickText("Send"), touched_text="Send", rules=rules).risky
    assert not assess(ClickText("Archive"), touched_text="Archive", rules=RiskRules()).risky
    with pytest.raises(ConfigError, match="not found"):
        load_rules(tmp_path / "missing.txt")


def test_the_default_user_file_is_read_when_it_exists(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert not load_rules().match("Archive")
    (tmp_path / "mobile-agent").mkdir()
    (tmp_path / "mobile-agent" / "confirm-words.txt").write_text("Archive\n", encoding="utf-8")
    assert load_rules().match("Archive")


def test_decide_reads_the_chosen_candidate_and_the_screen_of_a_real_grounding():
    from mobile_agent.agent.risk import decide
    from mobile_agent.device.sim import SimPhone
    from mobile_agent.device.uitree import TreeDriver
    from mobile_agent.perception import Perception

    phone = SimPhone(seed=0)
    TreeDriver(phone).tap(text="Settings")
    shot = phone.screenshot()
    perception = Perception()
    g = perception.ground_text(shot, "Display")
    cands = list(g.candidates)
    grounding = {"candidates": [{"text": getattr(c, "text", None)} for c in cands],
                 "chosen": next(i for i, c in enumerate(cands) if c is g.chosen)}
    rules = RiskRules()
    assert not decide(ClickText("Display"), grounding, perception, shot, rules).risky
    # the same tap, if the element under it read "Reset": what is touched decides
    grounding["candidates"][grounding["chosen"]]["text"] = "Reset"
    d = decide(ClickText("Display"), grounding, perception, shot, rules)
    assert d.risky and "Reset" in d.why
