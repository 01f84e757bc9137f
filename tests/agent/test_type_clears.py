"""AutoGLM's Type replaces what the field holds, as its authors' handler does (zai-org/Open-AutoGLM
``phone_agent/actions/handler.py``, ``_handle_type``: ``clear_text`` then ``type_text``); the paper's
Type and the other families' type at the cursor. On the simulated phone, on a real phone's adb (the
fake adb server answering ``uiautomator dump`` and ``input keyevent`` as Android does), and in the
records, which name ``clear`` only where it is set."""

from __future__ import annotations

import pytest

from mobile_agent.agent.families import Frame, get_family
from mobile_agent.agent.operations import Geometry, Type, operation_from_dict, operation_to_dict
from mobile_agent.device.adb import AdbDevice
from mobile_agent.device.gestures import TypeText, gesture_from_dict
from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import TreeDriver
from tests.fakes.adb_server import FakeAdbServer, FakePhone


def _note_holding(text: str) -> SimPhone:
    phone = SimPhone()
    d = TreeDriver(phone)
    d.tap(text="Notes")
    d.tap(text="New note")
    phone.type_text(text)
    return phone


def _fields(phone: SimPhone) -> str:
    return "".join(phone.foreground.screen.fields.values())


@pytest.mark.parametrize("family, replaces", [("autoglm-phone", True), ("autoglm-phone-multilingual", True),
                                              ("ui-tars-1.5", False), ("qwen2.5-vl", False)])
def test_a_familys_type_replaces_the_field_only_where_its_authors_clear_it(family, replaces):
    fam = get_family(family)
    fr = Frame(1080, 2400, *fam.image_size(1080, 2400))
    op = fam.parse(fam.write("type", {"text": "fresh"}, "t", fr, point=lambda x, y: (0, 0)), fr).operation
    assert isinstance(op, Type) and op.text == "fresh" and op.clear is replaces
    phone = _note_holding("stale ")
    op.gesture(Geometry(1080, 2400)).perform(phone)
    assert _fields(phone) == ("fresh" if replaces else "stale fresh")


def test_records_name_clear_only_where_it_is_set_and_read_back_equal():
    plain, clearing = Type("hi"), Type("hi", clear=True)
    assert operation_to_dict(plain) == {"op": "Type", "text": "hi"}  # as records were before
    assert operation_to_dict(clearing) == {"op": "Type", "text": "hi", "clear": True}
    assert operation_from_dict(operation_to_dict(clearing)) == clearing
    assert operation_from_dict({"op": "Type", "text": "hi"}) == plain
    with pytest.raises(ValueError, match="'clear' must be true or false"):
        operation_from_dict({"op": "Type", "text": "hi", "clear": "yes"})
    assert TypeText("hi").to_dict() == {"kind": "type", "text": "hi"}
    assert gesture_from_dict(TypeText("hi", clear=True).to_dict()) == TypeText("hi", clear=True)
    assert str(clearing) == "Type (hi)"  # the grammar is the paper's


# ours: a focused EditText holding "old text" (uiautomator's attributes as in the fixtures' dumps)
FOCUSED_FIELD = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.notes"
 content-desc="" clickable="false" focused="false" bounds="[0,0][1080,2400]">
<node index="0" text="old text" resource-id="com.example.notes:id/body" class="android.widget.EditText"
 package="com.example.notes" content-desc="" clickable="true" focused="true" bounds="[40,300][1040,500]" />
</node></hierarchy>"""


def test_adb_clears_the_focused_field_by_its_length_before_typing():
    phone = FakePhone(ui_xml=FOCUSED_FIELD, typed="old text")
    with FakeAdbServer([phone]) as server:
        device = AdbDevice(adb_port=server.port, timeout_s=5.0, settle_timeout_s=0.0)
        assert "clear_text" in device.capabilities
        TypeText("new", clear=True).perform(device)
    assert phone.typed == "new"
    keys = [g[1] for g in phone.gestures if g[0] == "key"]
    assert keys[0] == 123 and keys.count(67) == len("old text")  # the cursor to the end, one Delete a character
    # a Type that does not clear leaves what is there
    phone2 = FakePhone(ui_xml=FOCUSED_FIELD, typed="old text")
    with FakeAdbServer([phone2]) as server:
        TypeText("new").perform(AdbDevice(adb_port=server.port, timeout_s=5.0, settle_timeout_s=0.0))
    assert phone2.typed == "old textnew"
