"""Long press on the simulated phone: menus on a note, a conversation and a launcher icon; a long
press where nothing listens for one clicks on release, as on Android."""

from __future__ import annotations

from mobile_agent.device.base import device_capabilities
from mobile_agent.device.gestures import Key, LongPress, Tap
from mobile_agent.device.sim.phone import SimPhone
from mobile_agent.device.uitree import TreeDriver


def _press(phone: SimPhone, node) -> None:
    c = node.bounds.center
    LongPress(c.x, c.y).perform(phone)


def test_the_sim_declares_long_press():
    assert "long_press" in device_capabilities(SimPhone())


def test_a_note_long_pressed_offers_copy_and_delete():
    phone = SimPhone(seed=1)
    phone.launch("Notes")
    d = TreeDriver(phone)
    notes = phone.state.notes.notes
    assert notes, "the seed has notes"
    before, title = len(notes), notes[-1].title
    card = d.find(text=title)
    assert card is not None
    shot = phone.screenshot()
    _press(phone, card)
    assert phone.screenshot().tobytes() != shot.tobytes()  # the menu is drawn
    assert d.find(text="Delete") is not None and d.find(text="Make a copy") is not None
    assert phone.foreground.screen.__class__.__name__ == "NoteListScreen"  # a long press does not open the note
    d.tap(text="Delete")
    assert len(notes) == before - 1
    assert d.find(text="Delete") is None  # the menu closed
    assert "long-clickable=\"true\"" in phone.ui_tree()


def test_back_closes_the_menu_and_changes_nothing():
    phone = SimPhone(seed=1)
    phone.launch("Notes")
    d = TreeDriver(phone)
    count = len(phone.state.notes.notes)
    _press(phone, d.find(text=phone.state.notes.notes[0].title))
    assert d.find(text="Make a copy") is not None
    Key("back").perform(phone)
    assert d.find(text="Make a copy") is None and len(phone.state.notes.notes) == count
    assert phone.foreground is not None and phone.foreground.name == "Notes"  # Back closed only the menu


def test_a_conversation_long_pressed_can_be_marked_unread():
    phone = SimPhone(seed=3)
    phone.launch("Mail")
    d = TreeDriver(phone)
    mail = max(phone.state.mail.inbox, key=lambda m: m.time)  # the top row
    mail.read = True
    phone.close_menu()  # re-render with the change
    row = d.find(rid="conversation")
    _press(phone, row)
    d.tap(text="Mark as unread")
    assert mail.read is False


def test_a_launcher_icon_long_pressed_offers_open():
    phone = SimPhone()
    d = TreeDriver(phone)
    _press(phone, d.find(text="Notes"))
    assert phone.foreground is None and d.find(text="Open") is not None
    d.tap(text="Open")
    assert phone.foreground is not None and phone.foreground.name == "Notes"


def test_a_long_press_where_nothing_listens_clicks():
    phone = SimPhone(seed=1)
    phone.launch("Notes")
    d = TreeDriver(phone)
    fab = d.find(desc="New note")
    _press(phone, fab)
    assert phone.foreground.screen.__class__.__name__ == "EditorScreen"
    # and a tap on a note still opens it
    Key("back").perform(phone)
    Key("back").perform(phone)
    c = d.find(text=phone.state.notes.notes[0].title).bounds.center
    Tap(c.x, c.y).perform(phone)
    assert phone.foreground.screen.__class__.__name__ == "EditorScreen"
