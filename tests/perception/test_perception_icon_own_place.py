"""The user's own picture ("profile picture", "Account" alone) is where apps put the account: the
top app bar's end (before the overflow where there is one) and a bottom navigation's last tab, not
a chat composer's send button (icons/layout.py own_avatar_prior, bottom_navigation). Screens of the
icon stress set (Lucide icons, photo and letter avatars) where a post author's round photo won
before, and the held-out set's chat screens, whose composer ends with the send button."""

from __future__ import annotations

import pytest

from mobile_agent.screensets import icon_heldout as ho
from mobile_agent.screensets import icon_stress as st
from mobile_agent.perception import Perception
from mobile_agent.perception.icons.layout import bottom_navigation, own_avatar_prior
from mobile_agent.types import Box
from tests.fakes import system

needs_stress = system.needs_set(st, "dejavu")  # its screens' text is drawn in one of five fonts, DejaVu Sans among them
needs_heldout = system.needs_set(ho, "entypo", "glyphicons")

W, H = 1080, 2400  # 2.755 px per dp


def _at(x: float, y: float, side: int = 66) -> Box:
    return Box(int(x - side / 2), int(y - side / 2), int(x + side / 2), int(y + side / 2))


def _tabs(n: int, y: int = 2280) -> list[Box]:
    return [_at(W / n * (k + 0.5), y) for k in range(n)]


def test_a_bottom_navigation_is_evenly_spaced_tabs_across_the_width():
    for n in (3, 4, 5):
        assert bottom_navigation(_tabs(n), W, H) == list(range(n))
    # the active tab's pill around its icon is one slot
    pill = Box(int(W / 8 - 88), 2236, int(W / 8 + 88), 2324)
    assert bottom_navigation(_tabs(4) + [pill], W, H) == [4, 1, 2, 3]


def test_a_composer_is_no_bottom_navigation():
    # attach and camera at the start, the message field, send at the end (28, 72 and 360 dp)
    composer = [_at(77, 2290), _at(198, 2290), _at(992, 2290)]
    assert bottom_navigation(composer, W, H) == []
    # nor are two icons, or icons in the content above the bottom bar
    assert bottom_navigation(_tabs(2), W, H) == []
    assert bottom_navigation(_tabs(4, y=1200), W, H) == []
    # a landscape screen has no prior
    assert bottom_navigation(_tabs(4), H, W) == []


def test_the_own_picture_is_the_top_bar_end_or_the_icon_before_the_overflow():
    bell, avatar = _at(860, 190), _at(992, 190)
    assert own_avatar_prior([bell, avatar], [], W, H) == [0.0, 1.0]
    # the overflow (a tall narrow box) is last: the avatar before it
    overflow = Box(1000, 150, 1024, 230)
    assert own_avatar_prior([_at(728, 190), _at(860 + 44, 190), overflow], [], W, H) == [0.0, 1.0, 1.0]
    # a composer's send is no account; a navigation's last tab is
    composer = [_at(77, 2290), _at(198, 2290), _at(992, 2290)]
    assert own_avatar_prior(composer, [], W, H) == [0.0, 0.0, 0.0]
    assert own_avatar_prior(_tabs(5), [], W, H) == [0.0, 0.0, 0.0, 0.0, 1.0]


def test_a_tab_labelled_with_another_word_is_no_account():
    # the second held-out set's settings screen: Home, Chats, Activity, Settings under a gear; a
    # "Profile" row's person icon is meant, not the last tab
    tabs = _tabs(4)
    labels = [(Box(int(b.center.x - 90), 2330, int(b.center.x + 90), 2370), word)
              for b, word in zip(tabs, ("Home", "Chats", "Activity", "Settings"))]
    assert own_avatar_prior(tabs, [b for b, _ in labels], W, H, texts=labels) == [0.0] * 4
    labels[-1] = (labels[-1][0], "You")
    assert own_avatar_prior(tabs, [b for b, _ in labels], W, H, texts=labels) == [0.0, 0.0, 0.0, 1.0]


@needs_stress
@pytest.mark.parametrize("index,description", [(24, "profile picture"), (36, "profile picture"),
                                               (1, "Profile photo")])
def test_the_own_picture_wins_over_a_post_authors_photo(index, description):
    screen = st.stress_screen(index)
    target = next(t for t in screen.targets if t.description == description)
    g = Perception().ground_icon(screen.image, description)
    assert g.status == "found" and target.box.contains_point(g.chosen.point), (screen.name, target, g.candidates[:4])
