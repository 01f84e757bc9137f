"""Labelled icon crops cut from folders of real screenshots with their uiautomator dumps, for teaching
the icon recogniser (``mobile_agent.perception.icons.learn``, ``mobile-agent perception learn``).

Each clickable image node with a content-desc and no text (the folder rules of
:mod:`mobile_agent.screensets.realscreens`) gives a crop of its box and one of the icon detector's box
inside it, labelled with the first concept of the lexicon its description names; a description the
lexicon does not know is counted and left out, as is one that names REPEATED or more nodes of one
screen. The dump's text leaves are the negatives (words are not icons).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
from PIL import Image

from mobile_agent.errors import ConfigError
from mobile_agent.perception.icons.learn import MARGIN, CropSet, RealCrop
from mobile_agent.perception.icons.recogniser import NOT_ICON, IconRecogniser
from mobile_agent.types import Box

#: A description that names this many nodes of one screen or more is not a label (Podcast Addict's
#: four tiles all "RSS": a plus, a clock, a gear and a question mark).
REPEATED = 3


def description_concept(description: str, classes: Sequence[str]) -> str | None:
    """The concept a description names first (its heaviest glyph), if it is one of ``classes``."""
    from mobile_agent.perception.icons.learned import concept_weights

    known = set(classes)
    best = sorted(((w, k, c) for k, (c, w, _) in enumerate(concept_weights(description)) if c in known),
                  key=lambda t: (-t[0], t[1]))
    return best[0][2] if best else None


def with_margin(rgb: np.ndarray, box: Box) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    h, w = rgb.shape[:2]
    m = int(round(MARGIN * max(box.width, box.height)))
    x1, y1 = max(0, box.x1 - m), max(0, box.y1 - m)
    x2, y2 = min(w, box.x2 + m), min(h, box.y2 + m)
    return rgb[y1:y2, x1:x2].copy(), (box.x1 - x1, box.y1 - y1, box.x2 - x1, box.y2 - y1)


def screen_crops(folders: Sequence[str | Path], classes: Sequence[str] | None = None,
                 halves: str | None = None, negatives_per_screen: int = 3,
                 log: Callable[[str], None] | None = None) -> CropSet:
    """Labelled crops of every screen of ``folders`` (module docstring). ``classes``: the recogniser's
    (default: the shipped model's). ``halves``: ``"A"`` or ``"B"`` keeps only that half of the apps
    (:func:`mobile_agent.screensets.realscreens.split_half`), for the development set's split."""
    from mobile_agent.perception.icons.cv import CvIconDetector
    from mobile_agent.screensets.realscreens import derive_targets, detector_box, load_folder, read_dump, split_half

    if classes is None:
        classes = IconRecogniser().classes
    detector = CvIconDetector()
    out = CropSet()
    apps: set[str] = set()
    for folder in folders:
        try:
            real = load_folder(folder, absent_per_screen=0)
        except (FileNotFoundError, NotADirectoryError, ValueError) as exc:
            raise ConfigError(f"{folder}: {exc}") from None
        out.problems += real.problems
        for s in real.screens:
            if halves and split_half(s.app) not in halves:
                continue
            try:
                with Image.open(s.image) as im:
                    rgb = np.asarray(im.convert("RGB"))
                nodes = read_dump(s.xml.read_bytes())
            except (OSError, ValueError) as exc:
                out.problems.append(f"{s.image}: {exc}")
                continue
            targets = derive_targets(nodes, s.width, s.height)
            icons = [t for t in targets if t.kind == "icon"]
            texts = [t for t in targets if t.kind == "text"]
            named = Counter(t.target for t in icons)
            found = detector.detect(rgb, [t.box for t in texts])
            out.screens += 1
            apps.add(s.app)
            for t in icons:
                if named[t.target] >= REPEATED:
                    out.repeated += 1
                    continue
                label = description_concept(t.target, classes)
                if label is None:
                    out.unknown[t.target] += 1
                    continue
                boxes = [("node", t.box)]
                det = detector_box(found, t.box)
                if det != t.box and det.area >= 64:
                    boxes.append(("detector", det))
                for source, box in boxes:
                    pixels, inner = with_margin(rgb, box)
                    out.crops.append(RealCrop(pixels, inner, label, s.app, s.name, t.target, source))
            # negatives: text leaves, spread over the screen (every k-th, in the dump's order)
            step = max(1, len(texts) // max(1, negatives_per_screen))
            for t in texts[::step][:negatives_per_screen]:
                pixels, inner = with_margin(rgb, t.box)
                out.crops.append(RealCrop(pixels, inner, NOT_ICON, s.app, s.name, t.target, "text"))
            if log is not None:
                log(f"{s.name}: {len(icons)} icon node(s), {len(out.crops)} crops so far")
    out.apps = sorted(apps)
    return out
