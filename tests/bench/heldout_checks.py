"""What every held-out icon set's screens must hold: targets, each family once on its screen, boxes
inside the screen, and descriptions from the set's own vocabulary."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

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
