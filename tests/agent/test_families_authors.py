"""The families as their authors run them (issue 50): coordinates by version (the expected pixels from the
authors' conventions, bench/family_conventions.py, written apart from the adapters), the replies the
authors' parsers read, a served name that does not say its version, a model that gives up, the mixed-format
check, the feedback in the family's own syntax, and the conversation each family's authors keep."""

from __future__ import annotations

import pytest
from PIL import Image

from mobile_agent.agent.families import FAMILIES, Frame, FamilyPlanner, family_for_model, get_family, planner_for
from mobile_agent.agent.families.base import SYNTAXES
from mobile_agent.agent.operations import (
    Answer, LongPressPoint, PressKey, Stop, SwipePoints, TapPoint, Type, Wait,
)
from mobile_agent.agent.planner import HistoryEntry, PlanContext
from mobile_agent.bench import family_conventions as conv
from mobile_agent.errors import ConfigError, ParseError

W, H = 1080, 2400
TOOL = '<tool_call>\n{"name": "mobile_use", "arguments": %s}\n</tool_call>'


def frame(fam, w=W, h=H):
    return Frame(w, h, *fam.image_size(w, h))


def authors(family, mx, my, w=W, h=H):
    """Where the family's authors' code puts the model's (mx, my) on a w x h phone."""
    return conv.to_phone(mx, my, w, h, conv.convention(family))


# --- coordinates by version ------------------------------------------------------------------------------

def test_ui_venus_navi_reads_pixels_of_the_image_at_the_authors_pixel_budget():
    navi = get_family("ui-venus-navi")
    # smart_resize(2400, 1080, 28, 830000, 937664): 644x1428 (919,632 pixels), worked out by the table
    assert navi.image_size(W, H) == conv.resized(W, H, conv.convention("ui-venus-navi")) == (644, 1428)
    op = navi.parse("<think>t</think><action>Click(box=(322,714))</action><conclusion>c</conclusion>", frame(navi))
    assert (op.operation.x, op.operation.y) == authors("ui-venus-navi", 322, 714) == (540, 1200)
    # the same reply to UI-Venus 1.5 is on its 0-1000 grid: another place
    v15 = get_family("ui-venus-1.5")
    op15 = v15.parse("<action>Click(box=(322,714))</action>", frame(v15)).operation
    assert (op15.x, op15.y) == authors("ui-venus-1.5", 322, 714) == (347, 1713)


@pytest.mark.parametrize("family", list(conv.CONVENTIONS))
def test_every_family_maps_a_point_as_its_authors_code_does(family):
    fam = get_family(family)
    c = conv.convention(family)
    ex, ey = conv.extent(W, H, c)
    for mx, my in ((0, 0), (ex // 3, ey // 7), (ex - 1, ey - 1), (ex // 2 + 1, ey // 2 - 1)):
        reply = fam.write("tap", {"x": 0, "y": 0}, "t", frame(fam), point=lambda x, y: (mx, my))
        op = fam.parse(reply, frame(fam)).operation
        assert (op.x, op.y) == authors(family, mx, my), (family, mx, my)


def test_ui_tars_v1_and_1_5_differ_and_an_unversioned_name_is_not_guessed():
    assert family_for_model("bytedance-research/UI-TARS-7B-SFT").name == "ui-tars-v1"
    assert family_for_model("ByteDance-Seed/UI-TARS-1.5-7B").name == "ui-tars-1.5"
    for served, names in (("ui-tars", "ui-tars-1.5 or ui-tars-v1"), ("UI-TARS-7B", "ui-tars-1.5 or ui-tars-v1"),
                          ("inclusionAI/ui-venus", "ui-venus-navi or ui-venus-1.5")):
        with pytest.raises(ConfigError, match=f"does not say which version.*could be {names}.*--model-family"):
            family_for_model(served)
    with pytest.raises(ConfigError, match="versions whose coordinates differ: name one of ui-venus-navi"):
        get_family("ui-venus")


def test_an_unversioned_name_stops_before_the_first_request():
    from mobile_agent.model.scripted import ScriptedChatModel

    model = ScriptedChatModel(["never sent"], name="ui-tars")
    with pytest.raises(ConfigError, match="--model-family"):
        planner_for(model)
    assert model.calls == 0 and planner_for(model, "ui-tars-v1").family.name == "ui-tars-v1"


# --- the replies the authors' parsers read -----------------------------------------------------------------

def tars(reply, family="ui-tars-1.5"):
    fam = get_family(family)
    return fam.parse(reply, frame(fam)).operation


def test_ui_tars_replies_its_authors_read():
    assert tars("Thought: go\nAction：click(point='<point>200 300</point>')") == TapPoint(*authors("ui-tars-1.5", 200, 300))
    assert tars("Thought: note it\nAction: type(content='Action: wait()')") == Type("Action: wait()")
    assert tars("Thought: t\nAction: type(content='it's 5 o'clock')") == Type("it's 5 o'clock")
    assert tars("Thought: t\nAction: type(text='hello', start_box='(500,100)')", "ui-tars-v1") == Type("hello")
    assert tars("Thought: submit\nAction: hotkey(key='enter')") == PressKey("enter")
    sw = tars("Thought: t\nAction: swipe(start_box='(500,800)', end_box='(500,200)')", "ui-tars-v1")
    assert sw == SwipePoints(*authors("ui-tars-v1", 500, 800), *authors("ui-tars-v1", 500, 200))


def test_autoglm_replies_its_authors_handler_reads():
    glm = get_family("autoglm-phone")
    fr = frame(glm)
    # the authors' Type clears the field first (phone_agent/actions/handler.py, _handle_type: clear_text, then
    # type_text)
    assert glm.parse('<answer>do(action="Type", text="He said "hi" to me")</answer>', fr).operation == \
        Type('He said "hi" to me', clear=True)
    assert glm.parse('<answer>finish(message="The "Dark" theme is on")</answer>', fr).operation == \
        Answer('The "Dark" theme is on')
    for placeholder in ('do(action="Note", message="True")', 'do(action="Call_API", instruction="sum up")'):
        assert glm.parse(f"<answer>{placeholder}</answer>", fr).operation == Wait()
    assert glm.parse('<answer>do(action="Tap", element=[500, 300])</answer>', fr).operation == \
        TapPoint(*authors("autoglm-phone", 500, 300))


def test_ui_venus_scroll_by_direction_and_call_user_as_the_answer():
    venus = get_family("ui-venus-1.5")
    fr = frame(venus)
    down = venus.parse("<action>Scroll(direction='down')</action>", fr).operation
    assert isinstance(down, SwipePoints) and down.y2 < down.y1  # where the view goes: the finger moves up
    assert venus.parse("<think>found</think><action>CallUser(content='It's 21 degrees')</action>", fr).operation == \
        Answer("It's 21 degrees")
    assert venus.parse("<action>LongPress(box=(500, 500))</action>", fr).operation == \
        LongPressPoint(*authors("ui-venus-1.5", 500, 500))


@pytest.mark.parametrize("family,reply", [
    ("qwen3-vl", "Action: Stop the download.\n" + TOOL % '{"action": "click", "coordinate": [500, 500]}'),
    ("gui-owl-1.5", "Action: Open App drawer first.\n" + TOOL % '{"action": "click", "coordinate": [500, 500]}'),
    ("qwen3-vl", "Action: Click the search bar\n" + TOOL % '{"action": "click", "coordinate": [500, 500]}')])
def test_an_action_summary_line_beside_the_tool_call_is_no_second_format(family, reply):
    fam = get_family(family)
    assert fam.parse(reply, frame(fam)).operation == TapPoint(*authors(family, 500, 500))


def test_a_reply_with_two_formats_real_actions_is_refused():
    fam = get_family("qwen3-vl")
    with pytest.raises(ParseError, match="mixes two formats"):
        fam.parse("Action: Open App (Settings)\n" + TOOL % '{"action": "open", "text": "Settings"}', frame(fam))


def test_terminate_failure_is_a_model_that_gave_up():
    for family in ("qwen2.5-vl", "gui-owl-1.5", "mai-ui"):
        fam = get_family(family)
        for status in ("failure", "fail"):
            p = fam.parse(TOOL % f'{{"action": "terminate", "status": "{status}"}}', frame(fam))
            assert p.gave_up and isinstance(p.operation, Stop)
        assert not fam.parse(TOOL % '{"action": "terminate", "status": "success"}', frame(fam)).gave_up


@pytest.mark.parametrize("name", list(FAMILIES))
def test_the_feedback_on_a_bad_reply_is_in_the_family_s_own_syntax(name):
    fam = FAMILIES[name]
    said = fam.retry_text("the point (5000, 1) is outside the image")
    assert fam.example in said
    marks = [s for s, pat in SYNTAXES.items() if pat.search(said)]
    assert marks == [fam.syntax], (name, marks)


# --- the conversation --------------------------------------------------------------------------------------

def _ctx(fam, steps, replies):
    screens = [Image.new("RGB", (540, 1200), (10 * i, 0, 0)) for i in range(steps + 1)]
    hist = [HistoryEntry(i + 1, TapPoint(1, 1), "done", f"thought {i}", reply=replies[i % len(replies)],
                         screen=screens[i]) for i in range(steps)]
    keep = max(0, fam.images_kept - 1)
    hist = [h if i >= steps - keep else HistoryEntry(h.step, h.operation, h.outcome, h.thought, reply=h.reply)
            for i, h in enumerate(hist)]
    return PlanContext("Turn on the dark mode", steps + 1, screens[-1], history=tuple(hist))


REPLIES = {
    "ui-tars-1.5": "Thought: t\nAction: click(point='<point>1 2</point>')",
    "mai-ui": "<thinking>\nt\n</thinking>\n" + TOOL % '{"action":"click","coordinate":[1,2]}',
    "gui-owl-1.5": "Action: Tap the first row.\n" + TOOL % '{"action": "click", "coordinate": [1, 2]}',
    "autoglm-phone": '<think>t</think><answer>do(action="Tap", element=[1,2])</answer>',
    "ui-venus-navi": "<think>t</think><action>Click(box=(1,2))</action><conclusion>c</conclusion>",
    "gui-owl-v3": "<thinking>\nt\n</thinking>\n" + TOOL % '{"action": "click", "coordinate": [1, 2]}'
                  + '\n<conclusion>\nTapped the "first" row\n</conclusion>',
}


def _messages(family, steps):
    fam = get_family(family)
    from mobile_agent.model.scripted import ScriptedChatModel
    planner = FamilyPlanner(ScriptedChatModel(["unused"]), fam)
    return planner.messages(_ctx(fam, steps, [REPLIES[family]]))[0]


def test_ui_tars_keeps_its_replies_as_turns_and_the_last_five_screens_with_the_prompt_in_the_user_turn():
    msgs = _messages("ui-tars-1.5", 7)
    assert [m.role for m in msgs] == ["user", "assistant"] * 7 + ["user"]
    assert "## Action Space" in msgs[0].plain_text and "Turn on the dark mode" in msgs[0].plain_text
    assert sum(len(m.images) for m in msgs) == 5 and len(msgs[-1].images) == 1
    assert all(m.plain_text == REPLIES["ui-tars-1.5"] for m in msgs if m.role == "assistant")


def test_mai_ui_three_screens_and_every_reply_on_its_own_scale():
    msgs = _messages("mai-ui", 4)
    # _build_messages: system, the instruction alone, the replies (the last two after their screenshot), the screen
    assert [m.role for m in msgs] == ["system", "user", "assistant", "assistant", "user", "assistant", "user",
                                      "assistant", "user"]
    assert msgs[1].plain_text == "Turn on the dark mode" and sum(len(m.images) for m in msgs) == 3
    assert [m.plain_text for m in msgs if m.role == "assistant"] == [REPLIES["mai-ui"]] * 4


def test_gui_owl_1_5_four_turns_with_screens_and_older_steps_as_their_action_lines():
    msgs = _messages("gui-owl-1.5", 6)
    assert msgs[0].role == "system" and "# Response format" in msgs[0].plain_text
    assert "The screen's resolution is 1000x1000." in msgs[0].plain_text
    assert len([m for m in msgs if m.role == "assistant"]) == 4 and sum(len(m.images) for m in msgs) == 5
    first_user = msgs[1].plain_text
    assert "Step 1: Tap the first row.\nStep 2: Tap the first row." in first_user and "Step 3" not in first_user


def test_autoglm_keeps_its_turns_and_drops_the_images_of_older_ones():
    msgs = _messages("autoglm-phone", 3)
    assert msgs[0].role == "system" and "坐标" in msgs[0].plain_text  # the Chinese prompt by default
    assert sum(len(m.images) for m in msgs) == 1 and len(msgs[-1].images) == 1
    assert len([m for m in msgs if m.role == "assistant"]) == 3
    en = get_family("autoglm-phone-multilingual").system_prompt(frame(get_family("autoglm-phone")), False)
    assert "Coordinates go from (0,0)" in en


def test_text_families_hold_the_model_s_own_words_in_the_request():
    venus = _messages("ui-venus-navi", 7)
    assert len(venus) == 1 and venus[0].role == "user" and len(venus[0].images) == 1
    text = venus[0].plain_text
    # the last five steps, numbered from 0 as the authors' _build_query numbers them
    assert "Step 0: <think>t</think><action>Click(box=(1,2))</action>" in text and "Step 5:" not in text
    owl = _messages("gui-owl-v3", 2)
    assert "Step 1: Tapped the first row; Step 2: Tapped the first row;" in owl[-1].plain_text


def test_the_history_is_bounded_by_characters_too():
    from mobile_agent.agent.families import planner as fp

    fam = get_family("mai-ui")
    long_reply = "<thinking>\n" + "x" * (fp.HISTORY_CHARS // 3) + "\n</thinking>\n" + TOOL % '{"action":"wait"}'
    from mobile_agent.model.scripted import ScriptedChatModel
    msgs = FamilyPlanner(ScriptedChatModel(["unused"]), fam).messages(_ctx(fam, 6, [long_reply]))[0]
    kept = [m for m in msgs if m.role == "assistant"]
    assert 1 <= len(kept) < 6 and sum(len(m.plain_text) for m in kept) <= fp.HISTORY_CHARS
