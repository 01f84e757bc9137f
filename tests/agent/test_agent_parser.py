"""The one parser: forms real models write, each case asserting the exact operation and parameters."""

from __future__ import annotations

import pytest

from mobile_agent.agent.operations import (
    GRAMMAR, OPERATION_TYPES, AskUser, Back, TakeOver, ClickIcon, ClickText, Exit, Geometry, LongPress, OpenApp, PageDown, PageUp, Stop,
    Type, Wait, operation_from_dict, operation_to_dict,
)
from mobile_agent.agent.parser import (
    parse_choice, parse_completion, parse_operation, parse_reflection, parse_reply,
)
from mobile_agent.device.gestures import Key, LongPress as LongPressGesture, NoGesture, Swipe, Tap, TypeText
from mobile_agent.device.gestures import Wait as WaitGesture
from mobile_agent.errors import ParseError

REPLY_CASES = [
    # plain ReAct
    ("Observation: home screen\nThought: open settings\nAction: Open App (Settings)", OpenApp("Settings")),
    # any case, "Click text" / "click the text"
    ("Observation: x\nThought: y\nAction: click text (Display)", ClickText("Display")),
    ("observation: x\nthought: y\naction: Click the text (Dark theme)", ClickText("Dark theme")),
    ("Action: CLICK TEXT (Wi-Fi)", ClickText("Wi-Fi")),
    ("Action: Tap on the text (OK)", ClickText("OK")),
    # Markdown emphasis and headings
    ("**Observation:** the list\n**Thought:** next\n**Action:** Click Text (Network & internet)",
     ClickText("Network & internet")),
    ("**Observation**: a\n**Thought**: b\n**Action**: *Back*", Back()),
    ("### Observation\nThe home screen.\n\n### Thought\nOpen notes.\n\n### Action\nOpen App (Notes)", OpenApp("Notes")),
    ("## Action:\n__Page Down__", PageDown()),
    # code fences and inline code
    ("Observation: a\nThought: b\nAction:\n```\nClick Text (Save)\n```", ClickText("Save")),
    ("```text\nObservation: a\nThought: b\nAction: Type (hello world)\n```", Type("hello world")),
    ("Action: `Page Up`", PageUp()),
    # full-width colons and parentheses
    ("Observation：主屏幕\nThought：打开设置\nAction：Click Text（设置）", ClickText("设置")),
    ("Action: Open App（Settings）", OpenApp("Settings")),
    # quotes around parameters
    ('Action: Click Text ("Dark theme")', ClickText("Dark theme")),
    ("Action: Type ('bus stop')", Type("bus stop")),
    ("Action: Click Text (“Display”)", ClickText("Display")),
    ('Action: Click Text: "Battery"', ClickText("Battery")),
    # commas inside an icon description, position last
    ("Action: Click Icon (a red, round button, bottom right)", ClickIcon("a red, round button", ("bottom", "right"))),
    ("Action: Click Icon (magnifier, white on blue, top right)", ClickIcon("magnifier, white on blue", ("top", "right"))),
    ("Action: Click Icon (grey gear, top, right)", ClickIcon("grey gear", ("top", "right"))),
    ('Action: Click Icon ("blue plus sign", "lower right corner")', ClickIcon("blue plus sign", ("bottom", "right"))),
    ("Action: Click Icon (green phone handset, bottom)", ClickIcon("green phone handset", ("bottom",))),
    ("Action: Click Icon (left arrow, top-left)", ClickIcon("left arrow", ("top", "left"))),
    ("Action: Click Icon (three dots menu)", ClickIcon("three dots menu", ())),
    ("Action: Click Icon (description: bell, position: top right)", ClickIcon("bell", ("top", "right"))),
    ('Action: Click Icon(description="gear", position="top right")', ClickIcon("gear", ("top", "right"))),
    ("Action: click_icon(search magnifier, top)", ClickIcon("search magnifier", ("top",))),
    ("Action: ClickText(Settings)", ClickText("Settings")),
    ("Action: OpenApp(Notes)", OpenApp("Notes")),
    ("Action: PageDown", PageDown()),
    ("Action: 1. Click Text (Battery)", ClickText("Battery")),
    # a trailing explanation
    ("Action: Click Text (Wi-Fi) to open the Wi-Fi settings", ClickText("Wi-Fi")),
    ("Action: Stop. The dark theme is now on.", Stop()),
    ("Action: Back - the page is wrong", Back()),
    ("Action: Exit (go to the home screen)", Exit()),
    ("Action: Page Down, to see more options", PageDown()),
    # never substring dispatch
    ("Observation: a bus stop sign\nThought: type it\nAction: Type (bus stop)", Type("bus stop")),
    ("Thought: I will stop after this.\nAction: Click Text (Stop watch)", ClickText("Stop watch")),
    ("Thought: Go back later.\nAction: Type (Back to school)", Type("Back to school")),
    ("Action: Click Text (Exit)", ClickText("Exit")),
    # the last Action wins; text before the sections is ignored
    ("Sure! Here is my answer.\nObservation: a\nThought: b\nAction: Page Up", PageUp()),
    # parentheses inside a parameter; Enter at the end of typed text
    ("Action: Click Text (Storage (41% used))", ClickText("Storage (41% used)")),
    ("Action: Type (hello\\n)", Type("hello\n")),
    # a bare operation with no sections at all
    ("Click Text (OK)", ClickText("OK")),
    # list markers
    ("- Observation: a\n- Thought: b\n- Action: Exit", Exit()),
]


@pytest.mark.parametrize("reply, expected", REPLY_CASES, ids=[c[0][:40] for c in REPLY_CASES])
def test_reply_forms(reply, expected):
    parsed = parse_reply(reply)
    assert parsed.operation == expected
    assert type(parsed.operation) is type(expected)


def test_sections_are_kept():
    p = parse_reply("**Observation:** The Settings list.\nIt changed.\n**Thought:** Open Display.\n**Action:** Click Text (Display)")
    assert p.observation == "The Settings list.\nIt changed."
    assert p.thought == "Open Display."
    assert p.action == "Click Text (Display)"


def test_canonical_form_round_trips():
    ops = [OpenApp("Notes"), ClickText("Dark theme"), ClickIcon("red, round", ("bottom", "right")),
           ClickIcon("bell", ("top",)), Type("bus stop"), PageUp(), PageDown(), Back(), Exit(), Stop(),
           LongPress("Shopping list"), LongPress("red bin", ("top", "right")), Wait(), AskUser("Which Anna?"),
           TakeOver("log in to Mail")]
    assert {type(o) for o in ops} == set(OPERATION_TYPES)
    for op in ops:
        assert parse_operation(str(op)) == op
        assert operation_from_dict(operation_to_dict(op)) == op


def test_grammar_is_derived_from_the_operation_classes():
    assert GRAMMAR.split(" | ") == [t.grammar for t in OPERATION_TYPES]
    assert "Long Press (text or icon description, position)" in GRAMMAR and GRAMMAR.endswith("Wait | Ask User (question) | Take Over (reason) | Stop")
    # grammar and argument follow from the name and the fields (Long Press writes its own words)
    assert GRAMMAR == ("Open App (name) | Click Text (text) | Click Icon (description, position) | "
                       "Long Press (text or icon description, position) | Type (text) | Page Up | Page Down | "
                       "Back | Exit | Wait | Ask User (question) | Take Over (reason) | Stop")
    assert {t.op: t.argument for t in OPERATION_TYPES} == {
        "Open App": "text", "Click Text": "text", "Click Icon": "target", "Long Press": "target", "Type": "text",
        "Page Up": "none", "Page Down": "none", "Back": "none", "Exit": "none", "Wait": "none", "Ask User": "text",
        "Take Over": "text", "Stop": "none"}


def test_old_operation_dicts_still_read_and_bad_ones_say_why():
    assert operation_from_dict({"op": "Click Icon", "description": "gear", "position": ["top", "right"]}) == \
        ClickIcon("gear", ("top", "right"))
    with pytest.raises(ValueError, match="needs 'text'"):
        operation_from_dict({"op": "Click Text"})
    with pytest.raises(ValueError, match="unknown operation 'Fly'"):
        operation_from_dict({"op": "Fly"})
    with pytest.raises(ValueError, match="must be a string"):
        operation_from_dict({"op": "Type", "text": 3})


@pytest.mark.parametrize("line, op", [
    ("Long Press (Shopping list)", LongPress("Shopping list")),
    ("long press on the red bin, top right", LongPress("red bin", ("top", "right"))),
    ("Long-click (Inbox)", LongPress("Inbox")),
    ("Wait", Wait()),
    ("wait for the page to load", Wait()),
    # the Chinese names of the Mobile-Agent family
    ("打开应用 (设置)", OpenApp("设置")),
    ("点击文本（显示）", ClickText("显示")),
    ("点击图标 (灰色齿轮, 右上)".replace("右上", "top right"), ClickIcon("灰色齿轮", ("top", "right"))),
    ("输入 (你好\\n)", Type("你好\n")),
    ("上滑", PageDown()),  # the finger slides up: the content below comes into view
    ("下滑", PageUp()),
    ("返回", Back()),
    ("退出", Exit()),
    ("停止", Stop()),
    ("长按 (购物清单)", LongPress("购物清单")),
    ("等待", Wait()),
    # JSON-shaped actions
    ('{"action": "click_text", "text": "Wi-Fi"}', ClickText("Wi-Fi")),
    ('{"action": "open_app", "app_name": "Maps"}', OpenApp("Maps")),
    ('{"action": "click_icon", "description": "gear", "position": ["top", "right"]}', ClickIcon("gear", ("top", "right"))),
    ('{"action": "long_press", "target": "Inbox"}', LongPress("Inbox")),
    ('{"action_type": "navigate_back"}', Back()),
    ('{"action": "Page Down"}', PageDown()),
    ('{"action": "type", "text": "hello\\n"}', Type("hello\n")),
    ('{"action": "status_complete"}', None),
])
def test_new_operations_chinese_names_and_json_actions(line, op):
    if op is None:
        with pytest.raises(ParseError, match="is not one of the operations"):
            parse_operation(line)
    else:
        assert parse_operation(line) == op


def test_a_whole_json_reply_is_read_with_its_thought():
    p = parse_reply('```json\n{"observation": "home", "thought": "open maps", "action": "open_app", "text": "Maps"}\n```')
    assert (p.observation, p.thought, p.operation, p.action) == ("home", "open maps", OpenApp("Maps"), "Open App (Maps)")
    with pytest.raises(ParseError, match="no 'text'"):
        parse_operation('{"action": "click_text"}')
    with pytest.raises(ParseError, match="not valid JSON"):
        parse_operation('{"action": "click_text", ')


@pytest.mark.parametrize("reply, message", [
    ("I think I should open the settings.", "no 'Action:' line"),
    ("Observation: the screen\nThought: hmm", "no 'Action:' line"),
    ("Action: Swipe left", "'Swipe left' is not one of the operations"),
    ("Action: Click Text ()", "has no parameter"),
    ("Action: Type", "has no parameter"),
    ("Action: Click Icon (top right)", "needs a description"),
    ("Action:", "empty"),
    ("Action: Stopwatch (start)", "not one of the operations"),
    ("Action: Backspace", "not one of the operations"),
])
def test_unparseable_replies_say_what_is_wrong(reply, message):
    with pytest.raises(ParseError) as err:
        parse_reply(reply)
    assert message in str(err.value)


@pytest.mark.parametrize("reply, count, base, expected", [
    ("Answer: 2", 4, 0, 2), ("**Answer:** 0", 3, 0, 0), ("Answer: box 3", 4, 1, 2), ("1", 2, 0, 1),
    ("The right one.\nAnswer: #2", 5, 0, 2), ("Answer: none", 3, 0, None), ("Answer: None of them", 3, 0, None),
])
def test_choice(reply, count, base, expected):
    assert parse_choice(reply, count, base) == expected


@pytest.mark.parametrize("reply", ["Answer: 7", "Answer: maybe the red one", "Answer: -1"])
def test_bad_choice(reply):
    with pytest.raises(ParseError):
        parse_choice(reply, 3, 0)


@pytest.mark.parametrize("reply, value, reason", [
    ("Verdict: complete\nReason: the switch is on.", "complete", "the switch is on."),
    ("**Verdict:** incomplete\n**Reason:** still off", "incomplete", "still off"),
    ("Verdict: not complete\nReason: x", "incomplete", "x"),
    ("Verdict: Yes", "complete", ""),
    ("Verdict: No, the toggle is off", "incomplete", ""),
])
def test_completion(reply, value, reason):
    v = parse_completion(reply)
    assert (v.value, v.reason) == (value, reason)


@pytest.mark.parametrize("reply, value", [
    ("Verdict: A\nReason: ok", "as_expected"), ("Verdict: B (wrong page)", "wrong_page"),
    ("Verdict: no change", "no_change"), ("Verdict: as-expected", "as_expected"), ("Verdict: Wrong page", "wrong_page"),
])
def test_reflection(reply, value):
    assert parse_reflection(reply).value == value


def test_bad_verdicts():
    with pytest.raises(ParseError):
        parse_completion("Verdict: perhaps")
    with pytest.raises(ParseError):
        parse_reflection("Verdict: D")


from hypothesis import given, settings, strategies as st  # noqa: E402

_TEXT = st.text(
    alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Nd", "Zs", "Po", "Sm", "Lo"),
                           blacklist_characters="()\"'`\\（）：，“”‘’「」『』\u3000"),
    min_size=1, max_size=30,
).map(str.strip).filter(bool)


@settings(max_examples=200, deadline=None)
@given(_TEXT)
def test_canonical_forms_of_any_text_round_trip(text):
    for op in (ClickText(text), Type(text), OpenApp(text)):
        reply = f"Observation: o\nThought: t\nAction: {op}"
        assert parse_reply(reply).operation == op


@settings(max_examples=100, deadline=None)
@given(_TEXT.filter(lambda t: "," not in t))
def test_icon_descriptions_round_trip(text):
    op = ClickIcon(text, ("bottom", "left"))
    assert parse_operation(str(op)) == op


@pytest.mark.parametrize("reply", ["Observation: x\nThought: y\nAction: Long Press (Shopping list)",
                                   '{"action": "long_press", "text": "Shopping list"}', "Wait",
                                   'Action: {"action": "wait"}'])
def test_an_operation_the_device_does_not_offer_is_a_parse_error_saying_so(reply):
    from mobile_agent.agent.operations import BASIC_OPERATIONS

    parse_reply(reply)  # offered by a device that can do everything
    with pytest.raises(ParseError) as err:
        parse_reply(reply, BASIC_OPERATIONS)
    assert str(err.value) in ("Long Press is not available on this device", "Wait is not available on this device")


@pytest.mark.parametrize("reply, problem", [
    ("", "your reply is empty"), ("I would open the settings.", "your reply has no 'Action:' line"),
    ("Observation: x\nAction:", "your 'Action:' line is empty"),
    ("Action: Fly (home)", "'Fly (home)' is not one of the operations"),
])
def test_parse_errors_say_briefly_what_was_wrong(reply, problem):
    with pytest.raises(ParseError) as err:
        parse_reply(reply)
    assert str(err.value) == problem  # the operations are listed once, by the feedback, not in each error


def test_operations_that_ground_nothing_become_their_gestures():
    geo = Geometry(1080, 2400, swipe_ms=300, wait_s=2.5)
    # the page scrolls swipe down the middle, between 30% and 70% of the height (Page Up: the finger
    # slides down), the keys press back and home
    assert PageUp().gesture(geo) == Swipe(540, 720, 540, 1680, 300)
    assert PageDown().gesture(geo) == Swipe(540, 1680, 540, 720, 300)
    assert (Back().gesture(geo), Exit().gesture(geo)) == (Key("back"), Key("home"))
    assert (Type("hi\n").gesture(geo), Wait().gesture(geo)) == (TypeText("hi\n"), WaitGesture(2.5))
    assert Stop().gesture(geo) == NoGesture() and ClickText("OK").at(5, 7) == Tap(5, 7)
    assert LongPress("note").at(5, 7, geo) == LongPressGesture(5, 7, geo.long_press_ms)


@pytest.mark.parametrize("line, op", [
    ("Ask User (Which Anna: Anna Li or Anna Wong?)", AskUser("Which Anna: Anna Li or Anna Wong?")),
    ("ask the user: which size, M or L?", AskUser("which size, M or L?")),
    ('**Ask User** "What is the code you received?"', AskUser("What is the code you received?")),
    ('{"action": "ask_user", "question": "Which size?"}', AskUser("Which size?")),
    ('{"action": "ask", "text": "Which size?"}', AskUser("Which size?")),
    ("询问用户（发给哪位同事？）", AskUser("发给哪位同事？")),
    ("Take Over (log in to Mail)", TakeOver("log in to Mail")),
    ("take over: please log in", TakeOver("please log in")),
    ("Hand over (solve the captcha)", TakeOver("solve the captcha")),
    ('{"action": "take_over", "reason": "captcha"}', TakeOver("captcha")),
    ("请求接管（登录邮箱）", TakeOver("登录邮箱")),
    ("Type (ask user)", Type("ask user")),
])
def test_ask_user_and_take_over_forms(line, op):
    assert parse_operation(line) == op
    assert parse_reply(f"Observation: x\nThought: y\nAction: {line}").operation == op


def test_ask_user_and_take_over_need_a_person_and_say_so_where_none_is():
    from mobile_agent.agent.operations import BASIC_OPERATIONS, USER_OPERATIONS, supported

    assert AskUser not in supported(set()) and TakeOver not in supported({"long_press", "wait_still"})
    assert set(USER_OPERATIONS) <= set(supported({"user"}))
    with pytest.raises(ParseError, match="Ask User is not available in this run: no person can answer"):
        parse_reply("Action: Ask User (Which size?)", BASIC_OPERATIONS)
    with pytest.raises(ParseError, match="'Ask User' has no parameter"):
        parse_operation("Ask User")
