"""The family adapters (agent/families/): Qwen2.5-VL's smart_resize, each family's parser on example replies
(tests/agent/fixtures/families/replies.json names each one's source and whose it is: the authors' or ours), coordinates
mapped back as the authors' code maps them, recognising a family from its served name, and the bad
replies (a mixed format, a malformed tool call, a point outside the image, an unknown action)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mobile_agent.agent.families import (
    FAMILIES, Frame, family_for_model, get_family, point_format_hint, smart_resize,
)
from mobile_agent.agent.operations import Answer, Drag, LongPressPoint, OpenApp, PressKey, Stop, SwipePoints, TakeOver, \
    AskUser, Type, Wait, operation_from_dict
from mobile_agent.errors import ConfigError, ParseError

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "families" / "replies.json").read_text(encoding="utf-8"))


def frame(family, w=1080, h=2400, image=None):
    iw, ih = image or family.image_size(w, h)
    return Frame(w, h, iw, ih)


def test_smart_resize_is_qwen2_5_vl_s():
    assert smart_resize(2400, 1080) == (2408, 1092)          # the cookbook's "1092x2408" for a 1080x2400 phone
    assert smart_resize(224, 224, min_pixels=100 * 28 * 28) == (280, 280)  # raised to the least pixels, ceiled
    h, w = smart_resize(3200, 1440, max_pixels=12800 * 28 * 28)           # GUI-Owl: at most 12,800 tokens
    assert h % 28 == 0 and w % 28 == 0 and h * w <= 12800 * 28 * 28 and (h, w) == (3192, 1428)
    assert smart_resize(6000, 4000) == (4368, 2912)           # lowered under 16384 tokens, floored
    with pytest.raises(ValueError, match="aspect ratio must be smaller than 200"):
        smart_resize(10, 4000)


def test_qwen3_vl_s_image_is_sized_at_its_own_factor_32():
    """Qwen3-VL's processor: patch 16, merge 2, so sides in multiples of 32 (Qwen2.5-VL: 14 x 2 = 28); the
    request carries the screenshot at that size, which the server's own resize then leaves as it is."""
    assert get_family("qwen3-vl").image_size(1080, 2400) == (1088, 2400)
    assert get_family("qwen2.5-vl").image_size(1080, 2400) == (1092, 2408)
    w, h = get_family("qwen3-vl").image_size(1440, 3200)
    assert w % 32 == 0 and h % 32 == 0


@pytest.mark.parametrize("case", FIXTURES, ids=lambda c: f"{c['family']}:{c['source'].split()[1]}")
def test_each_family_reads_its_authors_example_replies(case):
    fam = get_family(case["family"])
    w, h = case["screen"]
    parsed = fam.parse(case["reply"], frame(fam, w, h, case["image"]))
    assert parsed.operation == operation_from_dict(case["op"]), case["source"]


def test_every_fixture_says_whose_it_is():
    for case in FIXTURES:
        assert case["provenance"].startswith(("the authors'", "authors' reply", "the point", "ours")), case["source"]
    assert sum(c["provenance"].startswith("ours") for c in FIXTURES) == 7


def test_every_family_has_a_fixture_or_a_written_reply_that_round_trips():
    # what the oracle writes in each family's format reads back to the phone's points within 2 pixels
    for fam in FAMILIES.values():
        fr = frame(fam)
        for x, y in ((0, 0), (540, 1200), (1079, 2399), (37, 2210)):
            op = fam.parse(fam.write("tap", {"x": x, "y": y}, "a tap", fr), fr).operation
            assert abs(op.x - x) <= 2 and abs(op.y - y) <= 2, (fam.name, (x, y), op)
        op = fam.parse(fam.write("swipe", {"x1": 540, "y1": 1680, "x2": 540, "y2": 720}, "down", fr), fr).operation
        assert isinstance(op, SwipePoints) and op.y1 > op.y2, fam.name  # the finger moves up: content below
        typed = fam.parse(fam.write("type", {"text": "it's \"ok\"\n"}, "t", fr), fr).operation
        assert isinstance(typed, Type) and typed.text == "it's \"ok\"\n", fam.name  # (AutoGLM's clears the field)
        assert fam.parse(fam.write("open", {"app": "Notes"}, "o", fr), fr).operation == OpenApp("Notes")
        assert fam.parse(fam.write("back", {}, "b", fr), fr).operation == PressKey("back")
        assert isinstance(fam.parse(fam.write("stop", {}, "s", fr), fr).operation, Stop)


@pytest.mark.parametrize("served,family", [
    ("ByteDance-Seed/UI-TARS-1.5-7B", "ui-tars-1.5"), ("ui-tars-1.5-7b", "ui-tars-1.5"),
    ("bytedance-research/UI-TARS-7B-DPO", "ui-tars-v1"), ("autoglm-phone-9b", "autoglm-phone"),
    ("zai-org/AutoGLM-Phone-9B-Multilingual", "autoglm-phone-multilingual"), ("Qwen/Qwen2.5-VL-7B-Instruct", "qwen2.5-vl"),
    ("qwen/qwen3-vl-8b-instruct", "qwen3-vl"), ("mPLUG/GUI-Owl-7B", "gui-owl-v3"), ("mPLUG/GUI-Owl-1.5-8B", "gui-owl-1.5"),
    ("Tongyi-MAI/MAI-UI-8B", "mai-ui"), ("inclusionAI/UI-Venus-Navi-7B", "ui-venus-navi"),
    ("inclusionAI/UI-Venus-1.5-8B", "ui-venus-1.5"), ("gpt-4o", None),
    ("claude-sonnet-4", None)])
def test_the_family_is_recognised_from_the_served_name(served, family):
    f = family_for_model(served)
    assert (f.name if f else None) == family


def test_an_unknown_family_name_is_a_clear_error_naming_the_families():
    with pytest.raises(ConfigError, match=r"unknown model family 'tars'; families: ui-tars-1.5, ui-tars-v1, .*ui-venus-1.5"):
        get_family("tars")
    assert get_family("UI-TARS-1.5").name == "ui-tars-1.5"


def test_a_reply_mixing_two_formats_is_refused():
    fam = get_family("qwen2.5-vl")
    mixed = ('Action: click(start_box=\'(10,20)\')\n<tool_call>{"name": "mobile_use", "arguments": '
             '{"action": "click", "coordinate": [1, 2]}}</tool_call>')
    with pytest.raises(ParseError, match=r"mixes two formats \(mobile_use tool call and UI-TARS call\)"):
        fam.parse(mixed, frame(fam))
    with pytest.raises(ParseError, match="written as a AutoGLM do\\(\\)/finish\\(\\), not as UI-TARS-1.5's"):
        get_family("ui-tars-1.5").parse('<answer>do(action="Tap", element=[1, 2])</answer>', frame(fam))


def test_a_malformed_tool_call_and_an_unknown_action_say_what_is_wrong():
    fam = get_family("gui-owl-v3")
    with pytest.raises(ParseError, match="the tool call is not valid JSON"):
        fam.parse('<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, 2}}</tool_call>',
                  frame(fam))
    with pytest.raises(ParseError, match="'fly' is not one of GUI-Owl \\(Mobile-Agent-v3\\)'s actions"):
        fam.parse('<tool_call>{"name": "mobile_use", "arguments": {"action": "fly"}}</tool_call>', frame(fam))
    with pytest.raises(ParseError, match='click needs "coordinate"'):
        fam.parse('<tool_call>{"name": "mobile_use", "arguments": {"action": "click"}}</tool_call>', frame(fam))
    with pytest.raises(ParseError, match="has no 'Action:' line"):
        get_family("ui-tars-1.5").parse("Thought: nothing to do", frame(fam))
    # Note and Call_API do nothing on the phone in the authors' handler (phone_agent/actions/handler.py): a Wait
    assert get_family("autoglm-phone").parse('<answer>do(action="Note", message="x")</answer>', frame(fam)).operation \
        == Wait()


def test_a_point_outside_the_image_is_refused_in_the_model_s_own_terms():
    q = get_family("qwen2.5-vl")
    with pytest.raises(ParseError, match=r"the point \(1200, 406\) is outside the image you were sent \(1092x2408\)"):
        q.parse('<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1200, 406]}}'
                '</tool_call>', frame(q))
    m = get_family("mai-ui")
    with pytest.raises(ParseError, match=r"outside the 0-999 grid"):
        m.parse('<thinking>x</thinking><tool_call>{"name":"mobile_use","arguments":{"action":"click",'
                '"coordinate":[1000, 5]}}</tool_call>', frame(m))


def test_the_families_own_actions_become_our_operations():
    fr = frame(get_family("mai-ui"))
    mai = get_family("mai-ui")
    call = '<thinking>t</thinking><tool_call>{"name":"mobile_use","arguments":%s}</tool_call>'
    assert isinstance(mai.parse(call % '{"action":"drag","start_coordinate":[100,100],"end_coordinate":[100,900]}',
                                fr).operation, Drag)
    assert mai.parse(call % '{"action":"ask_user","text":"Which size?"}', fr).operation == AskUser("Which size?")
    assert mai.parse(call % '{"action":"answer","text":"42"}', fr).operation == Answer("42")
    up = mai.parse(call % '{"action":"swipe","direction":"up"}', fr).operation
    assert isinstance(up, SwipePoints) and up.y2 < up.y1  # a swipe names the finger's motion
    tars = get_family("ui-tars-1.5")
    ft = frame(tars)
    down = tars.parse("Thought: more\nAction: scroll(point='<point>546 1204</point>', direction='down')", ft).operation
    assert isinstance(down, SwipePoints) and down.y2 < down.y1  # a scroll names the view's: down shows below
    assert tars.parse("Thought: t\nAction: long_press(point='<bbox>100 200 300 400</bbox>')", ft).operation == \
        LongPressPoint(*tars.to_phone(200, 300, ft))
    assert isinstance(tars.parse("Thought: stuck\nAction: call_user()", ft).operation, TakeOver)
    glm = get_family("autoglm-phone")
    tap = glm.parse('<answer>do(action="Tap", element=[500, 500], message="Pay 12 euros")</answer>', ft).operation
    assert tap.sensitive == "Pay 12 euros"
    venus = get_family("ui-venus-1.5")
    assert venus.parse("<action>PressRecent()</action>", ft).operation == PressKey("recent")
    assert get_family("qwen3-vl").parse('<tool_call>{"name": "mobile_use", "arguments": {"action": "system_button", '
                                        '"button": "Menu"}}</tool_call>', ft).operation == PressKey("menu")


def test_a_point_reply_to_the_paper_s_planner_names_the_families():
    hint = point_format_hint("Thought: go\nAction: click(start_box='<|box_start|>(495,30)<|box_end|>')")
    assert hint and "ui-tars-1.5 / ui-tars-v1" in hint and "--model-family" in hint
    hint = point_format_hint('{"action": "click", "coordinate": [935, 406]}')  # issue 41's second reply
    assert hint and "qwen2.5-vl / qwen3-vl / gui-owl-1.5 / gui-owl-v3 / mai-ui" in hint
    assert point_format_hint("Observation: x\nThought: y\nAction: Fly (home)") is None


def test_the_shared_facts_of_the_parse_table_hold_in_every_family_that_has_them():
    """agent/families/actions.py: a finish with a text is the answer and without one a Stop; a question to
    the user without words takes the thought; an unknown operation in a table is refused where it is
    written. Each family reads its own syntax into the same operations."""
    from mobile_agent.agent.families.actions import Act

    tars, venus, glm = get_family("ui-tars-1.5"), get_family("ui-venus-1.5"), get_family("autoglm-phone")
    owl = get_family("gui-owl-v3")
    ft = frame(tars)
    call = '<tool_call>{"name":"mobile_use","arguments":%s}</tool_call>'
    finished = {
        tars: ("Thought: done\nAction: finished(content='{}')", "Thought: done\nAction: finished(content='')"),
        venus: ("<think>done</think><action>Finished(content='{}')</action>", "<action>Finished()</action>"),
        glm: ("<think>done</think><answer>finish(message=\"{}\")</answer>", '<answer>finish(message="")</answer>'),
    }
    for fam, (said, silent) in finished.items():
        assert fam.parse(said.format("It is 21 degrees"), frame(fam)).operation == Answer("It is 21 degrees"), fam.name
        assert fam.parse(silent, frame(fam)).operation == Stop(), fam.name
    # CallUser delivers the answer to a question (the authors' prompt: "use the CallUser action to reply to user")
    assert venus.parse("<think>Found it</think><action>CallUser(content='21 degrees')</action>", ft).operation == \
        Answer("21 degrees")
    assert glm.parse('<think>Two Anns</think><answer>do(action="Interact")</answer>', ft).operation == \
        AskUser("Two Anns")
    assert owl.parse("<thinking>Which one</thinking>" + call % '{"action":"interact"}', frame(owl)).operation == \
        AskUser("Which one")
    # the same app opened by each family's own name for the action and its argument
    assert {fam.parse(r, frame(fam)).operation for fam, r in (
        (tars, "Thought: t\nAction: open_app(app_name='Settings')"),
        (venus, "<action>Launch(app=' Settings ')</action>"),
        (glm, '<answer>do(action="Launch", app="Settings")</answer>'),
        (owl, call % '{"action":"open","text":"Settings"}'))} == {OpenApp("Settings")}
    # each family's own words for a missing argument
    with pytest.raises(ParseError, match="Launch needs app=''"):
        venus.parse("<action>Launch(app='  ')</action>", ft)
    with pytest.raises(ParseError, match='type needs "text"'):
        owl.parse(call % '{"action":"type"}', frame(owl))
    with pytest.raises(ParseError, match='swipe needs "coordinate" and "coordinate2" \\(or a "direction"\\)'):
        owl.parse(call % '{"action":"swipe","coordinate":[10,10]}', frame(owl))
    with pytest.raises(ValueError, match="unknown operation 'fly'"):
        Act("fly")
    # the tool's prompt still describes each action in Qwen's words (the parse table is not the prompt's)
    assert "* `click`: Click the point on the screen with coordinate (x, y)." in owl.system_prompt(frame(owl), False)


@pytest.mark.parametrize("family, reply, calls", [
    # the authors' parser splits at ")\n\n" and runs both; ours takes one a step and says so (ours: issue 51)
    ("ui-tars-1.5", "Thought: open it.\nAction: click(start_box='<|box_start|>(100,200)<|box_end|>')\n\n"
                    "type(content='hello')", 2),
    ("ui-tars-1.5", "Thought: open it.\nAction: click(start_box='(100,200)')\nclick(start_box='(300,400)')", 2),
    ("ui-tars-1.5", "Thought: x\nAction: click(start_box='(1,2)')\nAction: press_back()", 2),
    ("autoglm-phone", '<think>go</think><answer>do(action="Tap", element=[500,500])\ndo(action="Back")</answer>', 2),
    ("autoglm-phone", '<think>go</think><answer>do(action="Back")</answer><answer>do(action="Home")</answer>', 2),
    ("ui-venus-navi", "<think>t</think><action>Click(box=(10,20))\nPressBack()</action>", 2),
])
def test_a_reply_with_two_actions_is_refused_naming_them(family, reply, calls):
    """Before: UI-TARS took the last of two calls on adjacent lines, AutoGLM the first; neither said so."""
    fam = get_family(family)
    with pytest.raises(ParseError, match=rf"holds {calls} (actions|<answer> blocks)") as err:
        fam.parse(reply, frame(fam))
    assert "one action a step" in str(err.value)


@pytest.mark.parametrize("family, reply, key", [
    ("ui-tars-1.5", "Thought: x\nAction: click(start_box='(100,200)', start_box='(300,400)')", "start_box"),
    ("ui-tars-1.5", "Thought: x\nAction: type(content='it's', content='other')", "content"),  # the lenient reader
    ("autoglm-phone", '<answer>do(action="Tap", element=[1,2], element=[3,4])</answer>', "element"),
])
def test_a_keyword_given_twice_is_refused(family, reply, key):
    """Before: the last value was taken silently (ours: issue 51)."""
    fam = get_family(family)
    with pytest.raises(ParseError, match=rf"{key}= is given twice"):
        fam.parse(reply, frame(fam))


def test_one_action_whose_text_names_a_call_is_still_one_action():
    fam = get_family("ui-tars-1.5")
    parsed = fam.parse("Thought: type it\nAction: type(content='call click(x) then type(y)')", frame(fam))
    assert parsed.operation == Type("call click(x) then type(y)")
