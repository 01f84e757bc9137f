"""One Element, whoever found it: the simulated phone's accessibility tree and the parse of its
screenshot describe the same things in the same shape and place; a dialog's scrim marks the page
behind it; the one JSON form reads back to the same element, and bad JSON is refused by name."""

from __future__ import annotations

import pytest

from mobile_agent.device.sim import SimPhone
from mobile_agent.perception import Perception
from mobile_agent.perception.elements import (
    Element, list_screen, mark_elements, parse_elements, smallest_at, tree_elements,
)
from mobile_agent.perception.hybrid import ScreenTree
from mobile_agent.types import Box


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def shown(app: str, **phone):
    ph = SimPhone(seed=0, **phone)
    ph.launch(app)
    return ph.screenshot(), ph.ui_tree()


@pytest.fixture(scope="module")
def settings():
    return shown("Settings")


@pytest.fixture(scope="module")
def permission():
    return shown("Mail", disturbances=["permission"])


def by_text(elements: list[Element], text: str) -> list[Element]:
    return [e for e in elements if e.text == text]


def test_the_tree_and_the_pixels_find_the_same_things_in_the_same_place(perception, settings):
    img, xml = settings
    from_tree = tree_elements(ScreenTree(xml, *img.size))
    from_pixels = parse_elements(perception.parse(img, icons=True))
    assert {e.source for e in from_tree} == {"tree"} and {e.source for e in from_pixels} == {"ocr", "icon"}
    for text in ("Display", "Battery", "Network & internet", "Wallpaper & style"):
        [node] = by_text(from_tree, text)
        [line] = by_text(from_pixels, text)
        assert (node.kind, line.kind) == ("node", "text") and node.cls == "TextView"
        # OCR boxes the ink with a margin, the tree the view: the same centre, edges close
        assert abs(node.center.x - line.center.x) <= 8 and abs(node.center.y - line.center.y) <= 8, (node, line)
        assert all(abs(a - b) <= 16 for a, b in zip(node.box.as_tuple(), line.box.as_tuple())), (node, line)
    # the navigation bar's buttons are known to the tree by their description alone
    back = next(e for e in from_tree if e.description == "Back")
    assert back.clickable and back.text == "" and back.label == "Back"


def test_the_page_behind_the_sims_permission_dialog_is_marked(perception, permission):
    img, xml = permission
    dialog = perception.dialog(img)
    assert dialog is not None
    tree = ScreenTree(xml, *img.size)
    assert not any(e.behind_dialog for e in tree_elements(tree))  # no dialog set: nothing behind
    tree.set_dialog(dialog)
    elements = tree_elements(tree)
    for own in ("Allow", "Don't allow", "Allow Mail to send you notifications?"):
        assert by_text(elements, own) and not any(e.behind_dialog for e in by_text(elements, own)), own
    assert by_text(elements, "Inbox") and all(e.behind_dialog for e in by_text(elements, "Inbox"))
    # the system's navigation bar is drawn over the scrim: its Back still works
    assert not next(e for e in elements if e.description == "Back").behind_dialog

    # the listing: the pixels' lines outside the dialog's card are behind it too, numbered after the tree's
    res = perception.parse(img, icons=True)
    listed = list_screen(img.size, res.lines, res.icons or [], None, dialog, max_icon_width=0.3)
    assert [e.n for e in listed] == list(range(1, len(listed) + 1))
    inbox = by_text(listed, "Inbox")
    assert inbox and all(e.behind_dialog and e.source == "ocr" for e in inbox)
    assert not any(e.behind_dialog for e in by_text(listed, "Allow"))


def test_the_json_form_reads_back_to_the_same_element(perception, permission):
    img, xml = permission
    tree = ScreenTree(xml, *img.size)
    tree.set_dialog(perception.dialog(img))
    res = perception.parse(img, icons=True)
    listed = list_screen(img.size, res.lines, res.icons or [], tree, tree.dialog, max_icon_width=0.3)
    pixels = list_screen(img.size, res.lines, res.icons or [], None, tree.dialog, max_icon_width=0.3)
    g = perception.ground_text(img, "Allow")
    marks = mark_elements(g.candidates, start=1)
    everything = listed + pixels + marks
    assert {e.kind for e in everything} == {"node", "text", "icon"} and any(e.behind_dialog for e in everything)
    for e in everything:
        data = e.to_json()
        assert Element.from_json(data) == e, data
        assert data["box"] == list(e.box.as_tuple()) and data["center"] == [e.center.x, e.center.y]
    node = next(e for e in listed if e.kind == "node" and e.text == "Allow")
    assert node.to_json()["class"] == node.cls and "source" not in node.to_json()
    assert marks[0].to_json()["source"] == "mark" and marks[0].to_json()["n"] == 1


@pytest.mark.parametrize("data, says", [
    ({"kind": "button", "box": [0, 0, 1, 1]}, "kind is one of node, text, icon"),
    ({"kind": "text", "box": [0, 0, 1]}, "box is four whole numbers"),
    ({"kind": "icon", "box": [0, 0, 1, 1], "source": "guess"}, "source is one of"),
    ({"kind": "text", "box": [0, 0, 1, 1], "n": "7"}, "number n is a whole number"),
    ({"kind": "text", "box": [0, 0, 1, 1], "text": 5}, "text is a string"),
    (["text"], "a JSON object"),
])
def test_bad_json_is_refused_saying_what_is_wrong(data, says):
    with pytest.raises(ValueError, match=says):
        Element.from_json(data)


def test_marks_are_numbered_as_the_planner_sees_them(perception, settings):
    img, _ = settings
    g = perception.ground_text(img, "Battery")  # the entry and the line under Notifications' "status bar"...
    assert g.candidates
    marks = mark_elements(g.candidates, start=3)
    assert [m.n for m in marks] == list(range(3, 3 + len(g.candidates)))
    assert [m.box for m in marks] == [c.box for c in g.candidates]
    assert all(m.source == "mark" and m.clickable for m in marks)
    assert marks[0].kind == "text" and "Battery" in marks[0].text


def test_the_smallest_element_at_a_point_and_its_edges():
    row = Element(Box(0, 100, 1080, 200), "node", "tree", description="a whole row", clickable=True)
    title = Element(Box(40, 120, 400, 160), "text", "ocr", "Wi-Fi")
    icon = Element(Box(400, 120, 440, 160), "icon", "icon")
    assert smallest_at([row, title, icon], 100, 140) == [title, row]
    assert smallest_at([row, title, icon], 400, 140) == [icon, title, row]  # on the title's right edge
    assert smallest_at([row, title, icon], 400, 140, edges=False) == [icon, row]
    assert smallest_at([row, title, icon], 10, 10) == []


def test_a_dump_alone_gives_its_elements_and_a_broken_one_none():
    xml = ('<hierarchy><node text="" content-desc="Send" class="android.widget.ImageButton" package="p" '
           'clickable="true" checkable="false" bounds="[900,100][1000,200]" resource-id="p:id/send"/>'
           '<node text="" content-desc="" class="android.view.View" package="p" clickable="false" '
           'bounds="[0,0][1080,2400]"/></hierarchy>')
    [send] = tree_elements(xml)
    assert (send.description, send.cls, send.rid, send.clickable, send.behind_dialog) == (
        "Send", "ImageButton", "p:id/send", True, False)
    assert send.to_json() == {"kind": "node", "description": "Send", "class": "ImageButton", "id": "p:id/send",
                              "clickable": True, "box": [900, 100, 1000, 200], "center": [950, 150]}
    for broken in (None, "", "<hierarchy", "not xml at all"):
        assert tree_elements(broken) == []
