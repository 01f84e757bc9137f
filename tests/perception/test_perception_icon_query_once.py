"""Click Icon reads its description once (issue 53): ``Perception.ground_icon`` builds the
description's ``IconQuery`` at its entry and every stage after (the tree's family match, the
context text beside the icon, the matchers' glyphs) takes that query instead of re-reading the
words; a query given for the description is answered as its words are."""

from __future__ import annotations

import pytest

from mobile_agent.device.sim import SimPhone
from mobile_agent.perception import Perception
from mobile_agent.perception.icons import lexicon, offline
from mobile_agent.perception.icons.lexicon import IconQuery

# two words, so that no single word of it is the description itself (a lone word is looked up as
# a span of the context text); matched on the Mail app's tree by its family only ("menu")
DESC = "hamburger menu"


@pytest.fixture(scope="module")
def mail():
    ph = SimPhone(seed=0)
    ph.launch("Mail")
    return ph.screenshot(), ph.ui_tree()


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def _readers(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The calls of the lexicon's readers of a description's words, recorded with their text."""
    calls: list[tuple[str, str]] = []
    for mod, name in ((lexicon, "description_words"), (lexicon, "description_families"),
                      (lexicon, "context_phrase"), (offline, "description_words")):
        real = getattr(mod, name)

        def spy(text, real=real, name=name):
            calls.append((name, text))
            return real(text)

        monkeypatch.setattr(mod, name, spy)
    return calls


@pytest.mark.parametrize("hybrid", [False, True])
def test_the_description_is_read_once_at_the_entry(perception, mail, monkeypatch, hybrid):
    img, xml = mail
    tree = xml if hybrid else None
    perception.ground_icon(img, DESC, tree=tree)  # the screen parsed, its answer known
    calls = _readers(monkeypatch)
    IconQuery.parse.cache_clear()
    IconQuery.parse(DESC)
    once = [c for c in calls if c[1] == DESC]
    assert once  # the query's own reading
    calls.clear()
    IconQuery.parse.cache_clear()
    g = perception.ground_icon(img, DESC, tree=tree)
    assert g.found
    assert [c for c in calls if c[1] == DESC] == once


@pytest.mark.parametrize("hybrid", [False, True])
def test_a_query_is_answered_as_its_words(perception, mail, hybrid):
    img, xml = mail
    tree = xml if hybrid else None
    by_words = perception.ground_icon(img, DESC, ("top",), tree=tree)
    by_query = perception.ground_icon(img, IconQuery.parse(DESC), ("top",), tree=tree)
    assert by_words.found and by_query.found
    assert (by_query.status, by_query.point, by_query.message) == (by_words.status, by_words.point, by_words.message)
    assert [c.box for c in by_query.candidates] == [c.box for c in by_words.candidates]
