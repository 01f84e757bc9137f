"""What receives a touch (agent/touch.py) and the gates that judge by it (issue 51, items 1-2).

The expected element of each point comes from Android's rule, not from this code: a touch goes to
the topmost, innermost view that contains the point and takes clicks (View.dispatchTouchEvent). On
the simulated phone's screens that is read off its own tree, written by the phone, not by the gate:
the menu row around "Delete", the launcher cell or dock slot around an app's icon. Real parts: the
simulated phone's screens and trees, the bundled OCR and icon detector."""

from __future__ import annotations

import pytest

from mobile_agent.agent.allowlist import AllowGate
from mobile_agent.agent.operations import ClickText, TapPoint
from mobile_agent.agent.points import ground_point
from mobile_agent.agent.risk import decide
from mobile_agent.agent.touch import in_picture, receiver
from mobile_agent.device.gestures import Tap
from mobile_agent.device.sim import SimPhone
from mobile_agent.perception.elements import tree_elements
from mobile_agent.perception.hybrid import parse_ui_tree
from mobile_agent.types import Box
from tests.fakes.agent_harness import perception

#: where in a box the sample points lie (shares of its width and height): 15 points in a row
SHARES = [(fx, fy) for fx in (0.05, 0.3, 0.5, 0.75, 0.95) for fy in (0.1, 0.5, 0.9)]


def _points(box: Box, shares=SHARES) -> list[tuple[int, int]]:
    return [(int(box.x1 + (box.x2 - box.x1) * fx), int(box.y1 + (box.y2 - box.y1) * fy)) for fx, fy in shares]


def _clickable_around(tree: str, node_box: Box) -> Box:
    """The innermost clickable node holding ``node_box``: the phone's own answer, from its tree."""
    nodes, _ = parse_ui_tree(tree)
    holders = [n for n in nodes if n.clickable and n.box.x1 <= node_box.x1 and n.box.y1 <= node_box.y1
               and n.box.x2 >= node_box.x2 and n.box.y2 >= node_box.y2]
    return holders[-1].box


@pytest.fixture(scope="module")
def menus():
    """Mail's and Notes' long-press menus, each with its screenshot, tree, and the Delete row's box."""
    out = {}
    for app in ("Mail", "Notes"):
        phone = SimPhone(seed=0)
        phone.launch(app)
        row = [e for e in tree_elements(phone.ui_tree()) if e.clickable and 300 < e.box.y1 < 900
               and e.box.width > 900][0]
        phone.long_press(row.box.center.x, row.box.center.y)
        tree = phone.ui_tree()
        word = [e for e in tree_elements(tree) if e.text == "Delete"][0]
        out[app] = (phone.screenshot(), tree, _clickable_around(tree, word.box), word.box)
    return out


@pytest.mark.parametrize("app", ["Mail", "Notes"])
@pytest.mark.parametrize("mode", ["hybrid", "vision"])
def test_every_point_of_a_menus_delete_row_reaches_delete_and_asks(menus, app, mode):
    img, tree, row, word = menus[app]
    assert row.width > 3 * word.width  # the row is wider than its word: most of it is off the word
    p = perception()
    given = tree if mode == "hybrid" else None
    for x, y in _points(row):
        got = receiver(p, img, x, y, given)
        assert "Delete" in got.words, (app, mode, (x, y), got)
        op = TapPoint(x, y)
        grounding, _ = ground_point(op, img, p)
        decision = decide(op, grounding, p, img, tree=given)
        assert decision.risky and "delete" in decision.why.lower(), (app, mode, (x, y), decision)


@pytest.mark.parametrize("mode", ["hybrid", "vision"])
def test_the_other_rows_of_the_menu_do_not_ask(menus, mode):
    img, tree, row, _ = menus["Mail"]
    nodes, _ = parse_ui_tree(tree)
    others = [n for n in nodes if n.clickable and n.box.x1 == row.x1 and n.box.x2 == row.x2 and n.box != row]
    assert others, "the menu has other rows"
    p = perception()
    for n in others:
        x, y = n.box.x2 - 20, n.box.center.y  # right of the row's word
        got = receiver(p, img, x, y, tree if mode == "hybrid" else None)
        assert "Delete" not in got.words, (n.box, got)
        op = TapPoint(x, y)
        assert not decide(op, ground_point(op, img, p)[0], p, img, tree=tree if mode == "hybrid" else None).risky


class _NoTree:
    """A phone whose tree cannot be read (vision alone)."""

    def __init__(self, phone):
        self._phone = phone

    def __getattr__(self, name):
        if name == "ui_tree":
            raise AttributeError(name)
        return getattr(self._phone, name)


@pytest.mark.parametrize("mode", ["tree", "pixels"])
def test_every_point_of_each_launcher_cell_and_dock_slot_is_judged_as_its_app(mode):
    phone = SimPhone(seed=0)
    img, tree = phone.screenshot(), phone.ui_tree()
    nodes, _ = parse_ui_tree(tree)
    # the launcher's cells and the dock's slots, as the phone's tree draws them (its labels are
    # content-descs: the dock's icons have no text under them)
    slots = [n for n in nodes if n.clickable and n.desc and "systemui" not in n.package and n.box.area < 0.1 * 1080 * 2400]
    assert len(slots) >= 16 and any(n.box.y1 > 1900 for n in slots)  # the grid and the dock
    gate = AllowGate(phone if mode == "tree" else _NoTree(phone), perception(), ("Settings",))
    for n in slots:
        # the tree: 25 points of each slot; the pixels: its corners, edges' middles and centre (each
        # refusal reads the screen's labels and icons again: 9 keep the test short)
        shares = (0.1, 0.3, 0.5, 0.7, 0.9) if mode == "tree" else (0.1, 0.5, 0.9)
        for x, y in _points(n.box, [(fx, fy) for fx in shares for fy in shares]):
            why = gate.refusal(ClickText("x"), Tap(x, y), img)
            if n.desc == "Settings":
                assert why is None, (n.desc, (x, y), why)
            else:
                assert why is not None, (n.desc, (x, y))
                # the tree names the app; the pixels name a grid cell's by its label, a dock's icon not
                assert f'"{n.desc}"' in why or (mode == "pixels" and n.box.y1 > 1900), (n.desc, (x, y), why)
    for x, y in ((540, 2337), (324, 2337), (756, 2337)):  # the navigation bar opens no app
        assert gate.refusal(ClickText("x"), Tap(x, y), img) is None


def test_without_the_tree_a_dock_icon_no_label_names_is_refused():
    phone = SimPhone(seed=0)
    img, tree = phone.screenshot(), phone.ui_tree()
    nodes, _ = parse_ui_tree(tree)
    dock = [n for n in nodes if n.clickable and n.desc and n.box.y1 > 1900 and "systemui" not in n.package]
    assert dock
    gate = AllowGate(_NoTree(phone), perception(), ("Settings",))
    for n in dock:
        why = gate.refusal(ClickText("x"), Tap(n.box.center.x, n.box.center.y), img)
        assert why is not None, n.desc


def test_in_picture_reads_rows_and_columns():
    # ours: two menu rows stacked, a label far left of each, and a toolbar with two buttons side by side
    class L:
        def __init__(self, text, box):
            self.text, self.box = text, Box(*box)

    lines = [L("Archive", (300, 600, 420, 650)), L("Delete", (300, 740, 420, 790)),
             L("Share", (40, 1500, 160, 1550)), L("Delete", (900, 1500, 1040, 1550))]
    assert in_picture(lines, [], 800, 770).texts == ("Delete",)  # right of the word, in its row
    assert in_picture(lines, [], 800, 700).texts in (("Archive",), ("Delete",))  # between: the nearer row
    assert in_picture(lines, [], 800, 630).texts == ("Archive",)
    assert in_picture(lines, [], 200, 1520).texts == ("Share",)  # the nearer button across
    assert in_picture(lines, [], 850, 1520).texts == ("Delete",)
    assert in_picture(lines, [], 800, 1200).source == "point"  # far from every line: nothing readable


def test_a_tap_on_the_paper_plane_send_asks_in_vision_mode_where_ocr_reads_it_as_a_letter():
    # issue 51, item 3: OCR reads Mail's paper-plane Send as "V"; the glyph under the letter is judged
    phone = SimPhone(seed=0)
    phone.launch("Mail")
    compose = [n for n in parse_ui_tree(phone.ui_tree())[0] if n.text == "Compose"][0]
    phone.tap(compose.box.center.x, compose.box.center.y)
    send = [n for n in parse_ui_tree(phone.ui_tree())[0] if n.desc == "Send"][0]  # the phone's own button
    img, p = phone.screenshot(), perception()
    assert any(len(ln.text.strip()) <= 2 and send.box.x1 <= ln.box.center.x <= send.box.x2
               for ln in p.parse(img).lines), "OCR reads the glyph as a letter or two"
    for x, y in _points(send.box, [(0.5, 0.5), (0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]):
        op = TapPoint(x, y)
        decision = decide(op, ground_point(op, img, p)[0], p, img, tree=None)
        assert decision.risky and "sends" in decision.why, ((x, y), decision)


def test_the_keyboards_backspace_labelled_delete_does_not_ask_and_a_menus_delete_still_does(menus):
    # issue 51, low: the keyboard's Backspace (content-desc "Delete", as on Android's own keyboards)
    # erases a typed character; it asked as if it deleted something kept
    phone = SimPhone(seed=0)
    phone.launch("Notes")
    new = [n for n in parse_ui_tree(phone.ui_tree())[0] if n.text == "New note"][0]
    phone.tap(new.box.center.x, new.box.center.y)
    phone.type_text("Hello")
    tree, img, p = phone.ui_tree(), phone.screenshot(), perception()
    key = [n for n in parse_ui_tree(tree)[0] if n.desc == "Delete" and "inputmethod" in n.package][0]
    op = TapPoint(key.box.center.x, key.box.center.y)
    assert not decide(op, ground_point(op, img, p)[0], p, img, tree=tree).risky
    img, tree, row, _ = menus["Mail"]
    op = TapPoint(row.x2 - 20, row.center.y)
    assert decide(op, ground_point(op, img, p)[0], p, img, tree=tree).risky


def test_a_double_tap_whose_first_tap_opens_a_page_is_judged_again_on_that_page(tmp_path):
    # issue 51, item 4: a double tap on a video of the list at the point where the video's page then
    # shows Subscribe (the phone's own tree says where); the first tap opens the page, the second is
    # asked about there and, declined, not made: nobody is subscribed to
    from mobile_agent.agent import AgentSettings, StepLoop
    from mobile_agent.agent.operations import DoubleTapPoint, Stop
    from mobile_agent.agent.planner import BasePlanner, Plan

    class Points(BasePlanner):  # a point-output model's plan, as its family's adapter hands it on
        def __init__(self, ops):
            self.ops = list(ops)

        def plan(self, ctx):
            op = self.ops.pop(0)
            return Plan("the list of videos", "double tap it", op, raw=str(op))

    probe = SimPhone(seed=0)
    probe.launch("Video")
    item = [n for n in parse_ui_tree(probe.ui_tree())[0] if n.clickable and n.box.width > 500 and n.box.y1 > 300][0]
    probe.tap(item.box.center.x, item.box.center.y)
    sub = [n for n in parse_ui_tree(probe.ui_tree())[0] if n.text == "Subscribe"][0]
    x, y = sub.box.center.x, sub.box.center.y
    assert item.box.x1 <= x <= item.box.x2 and item.box.y1 <= y <= item.box.y2  # the same point on both screens
    phone = SimPhone(seed=0)
    phone.launch("Video")
    before = phone.ui_tree()
    asked: list[str] = []
    result = StepLoop(phone, Points([DoubleTapPoint(x, y), Stop()]), perception(), AgentSettings(
        max_steps=3, settle_interval_s=0.0, settle_timeout_s=1.0,
        confirm=lambda op, why: asked.append(why) or False)).run(
        "Watch the first video", tmp_path / "run")
    assert asked and "second tap" in asked[-1] and "Subscribe" in asked[-1], asked
    assert result.outcome == "interrupted"
    after = [n for n in parse_ui_tree(phone.ui_tree())[0] if n.text in ("Subscribe", "Subscribed")]
    assert after and after[0].text == "Subscribe"  # the second tap was not made
    assert before != phone.ui_tree()  # the first tap was: the video's page is open

# (screen, point) -> the element that receives the touch, by Android's rule (the topmost, innermost
# clickable or long-clickable view holding the point: View.dispatchTouchEvent / View.onTouchEvent,
# which consumes a touch when the view is CLICKABLE or LONG_CLICKABLE). The expected bounds are read
# by hand off the simulated phone's own dumps (seed 0), written here independently of agent/touch.py.
RECEIVERS = [
    # Mail's long-press menu: right of the word "Delete", inside its row (issue 51's sample point)
    ("mail-menu", (750, 823), Box(252, 755, 828, 891), "Delete"),
    ("mail-menu", (310, 760), Box(252, 755, 828, 891), "Delete"),  # the row's top-left corner, above the word
    ("mail-menu", (800, 700), Box(252, 619, 828, 755), "Mark as read"),  # the row above: not Delete
    # Notes' long-press menu: the Delete row, far right of its word
    ("notes-menu", (800, 1117), Box(252, 1049, 828, 1185), "Delete"),
    ("notes-menu", (700, 1060), Box(252, 1049, 828, 1185), "Delete"),
    ("notes-menu", (700, 1000), Box(252, 913, 828, 1049), "Make a copy"),
    # Mail's inbox: a row's padding right of its sender takes the whole row (its subtree's texts)
    ("mail", (700, 880), Box(0, 818, 1080, 1059), "Weekly update"),
]


@pytest.fixture(scope="module")
def screens(menus):
    phone = SimPhone(seed=0)
    phone.launch("Mail")
    out = {"mail-menu": menus["Mail"][:2], "notes-menu": menus["Notes"][:2],
           "mail": (phone.screenshot(), phone.ui_tree())}
    return out


@pytest.mark.parametrize("screen,point,box,word", RECEIVERS)
def test_the_receiver_is_the_innermost_clickable_node_as_android_dispatches(screens, screen, point, box, word):
    img, tree = screens[screen]
    got = receiver(perception(), img, *point, tree)
    assert got.source == "tree" and got.box == box, got
    assert word in got.words, got
    risky = decide(TapPoint(*point), ground_point(TapPoint(*point), img, perception())[0], perception(), img,
                   tree=tree).risky
    assert risky == (word == "Delete"), (point, got)


def test_a_long_clickable_node_takes_the_touch_as_a_clickable_one_does():
    # ours: a dump of a list whose row is long-clickable only (a tap does nothing, a long press opens
    # its menu) inside a page that is not clickable; Android gives the row the touch (View.onTouchEvent
    # consumes it for LONG_CLICKABLE), so a press right of the row's word is judged by that word
    tree = ('<?xml version="1.0"?><hierarchy rotation="0">'
            '<node class="android.widget.FrameLayout" package="com.example" clickable="false" '
            'bounds="[0,0][1080,2400]">'
            '<node class="android.widget.LinearLayout" package="com.example" clickable="false" long-clickable="true" '
            'bounds="[0,600][1080,780]">'
            '<node class="android.widget.TextView" text="Delete forever" package="com.example" clickable="false" '
            'bounds="[40,660][330,720]"/></node></node></hierarchy>')
    got = receiver(None, None, 900, 690, tree)
    assert got.source == "tree" and got.box == Box(0, 600, 1080, 780) and got.words == ("Delete forever",)
    from mobile_agent.agent.risk import received_label

    assert received_label(tree, (900, 690)) == "Delete forever"
