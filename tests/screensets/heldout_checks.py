"""What the frozen screen sets' tests share: a skip naming what to install, a seed giving the same
screens and another seed others, a collection the same whatever was drawn before it, and what every
held-out icon set's screens must hold (targets, each family once on its screen, boxes inside the
screen, descriptions from the set's own vocabulary)."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Mapping, Sequence

import pytest


def needs(module: ModuleType, parts: tuple[str, ...] = ()) -> pytest.MarkDecorator:
    """Skip where the set's fonts or packages are missing, naming what to install (the system
    ``parts`` it draws with as tests.fakes.system says, with the Debian/Ubuntu and macOS commands)."""
    from tests.fakes import system

    return system.needs_set(module, *parts)


def check_seeds(collect: Callable[..., Sequence[Any]], digest: Callable[[Sequence[Any]], str], count: int,
                seed: int = 3) -> Sequence[Any]:
    """The same seed gives the same screens, screen by screen, drawn a second time in the same
    process; the next seed others. Returns the screens."""
    screens = collect(seed=seed, count=count)
    assert [digest([s]) for s in screens] == [digest([s]) for s in collect(seed=seed, count=count)]
    assert digest(screens) != digest(collect(seed=seed + 1, count=count))
    return screens


def check_order_free(collect: Callable[[], Sequence[Any]], digest: Callable[[Sequence[Any]], str]) -> None:
    """A collection drawn again in the same process (its fonts' and pictures' caches warm, its font
    objects having drawn the first time) is the same, screen by screen."""
    first = collect()
    again = collect()
    assert [digest([s]) for s in first] == [digest([s]) for s in again]

# families whose targets may be described by another family's words (an outlined heart is a like,
# a profile photo an avatar)
_ALSO = {"like": "like_outline", "account": "avatar"}


def check_targets(screens: Sequence[Any], descriptions: Mapping[str, tuple[str, ...]]) -> None:
    for s in screens:
        w, h = s.image.size
        assert s.targets, s.name
        fams = [t.family for t in s.targets]
        assert len(fams) == len(set(fams)), (s.name, fams)
        for t in s.targets:
            assert 0 <= t.box.x1 < t.box.x2 <= w and 0 <= t.box.y1 < t.box.y2 <= h
            assert t.description in descriptions[t.family] + descriptions.get(_ALSO.get(t.family, t.family), ())


def check_screens_order_free(screen: Callable[[int], Any], digest: Callable[[Sequence[Any]], str],
                             count: int) -> None:
    """Each screen (a set whose screens come each from its own generator) is the same whatever was
    drawn before it: drawn last to first as drawn first to last, each time from fresh font objects
    of the simulated phone's looks (which these sets draw their text with)."""
    from mobile_agent.device.sim.look import load_font

    load_font.cache_clear()
    backwards = [screen(i) for i in reversed(range(count))][::-1]
    load_font.cache_clear()
    forwards = [screen(i) for i in range(count)]
    assert [digest([s]) for s in backwards] == [digest([s]) for s in forwards]
