"""Where Click Text or Click Icon finds nothing while the on-screen keyboard is up, the answer says
that the keyboard covers the screen's lower part and how to see under it: on real screens the texts
the dump lists under the keyboard (a search's results, a chip row, a FAB) are hidden in the picture,
and "not on the screen" alone sent the planner searching elsewhere. A committed open-source app's
screen with the keyboard up, and one without."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from mobile_agent.perception import Perception

REAL = Path(__file__).resolve().parents[1] / "bench" / "fixtures" / "realscreens" / "img"


def test_a_text_under_the_keyboard_is_answered_none_with_the_keyboard_named():
    img = Image.open(REAL / "com.poupa.vinylmusicplayer__741334294.png")
    p = Perception()
    # a result the dump lists at y 1759-1818, under the keyboard (its top at about 1460)
    g = p.ground_text(img, "the-cradle-of-your-soul-15700")
    assert g.status == "none"
    assert "keyboard covers the screen below y=" in g.message and "Back closes the keyboard" in g.message, g.message
    y = int(g.message.split("below y=")[1].split(":")[0])
    assert 1380 <= y <= 1520, y
    # a text on the page above it is found as before, with no note
    g = p.ground_text(img, "SHUFFLE ALL")
    assert g.found and "keyboard" not in g.message


def test_no_keyboard_no_note():
    img = Image.open(REAL / "de.kromke.andreas.opus1musicplayer__1001575858.png")
    g = Perception().ground_text(img, "Nothing of this kind")
    assert g.status == "none" and "keyboard" not in g.message, g.message


def test_the_simulated_phones_keyboard_is_named_too():
    # the simulated phone's keyboard, up for a focused search field: a text that is not there
    from mobile_agent.device.sim import SimPhone

    phone = SimPhone()
    phone.launch("Browser")
    img = phone.screenshot()
    p = Perception()
    before = p.ground_text(img, "Nothing of this kind")
    assert "keyboard" not in before.message
    field = p.ground_text(img, "Search or type URL")
    assert field.found, field.message
    phone.tap(*field.point.as_tuple())
    img = phone.screenshot()
    g = p.ground_text(img, "Nothing of this kind")
    assert g.status == "none" and "keyboard covers the screen" in g.message, g.message
