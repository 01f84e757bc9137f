"""The PP-OCR sessions are loaded once per process for each set of options (ocr/rapid.py,
_SHARED_MODELS): two engines of the same options run the same sessions, an engine of other options
its own, and what each engine remembers (recognised crops) stays its own. Real parts: the bundled
models and a screen of the simulated phone."""

from __future__ import annotations

import numpy as np

from mobile_agent.device.sim import SimPhone
from mobile_agent.perception.ocr.rapid import RapidOcrEngine


def test_engines_of_the_same_options_share_sessions_and_keep_their_own_caches():
    a, b, other = RapidOcrEngine(), RapidOcrEngine(), RapidOcrEngine(box_thresh=0.6)
    assert a._models()[0] is b._models()[0] and a._models()[1] is b._models()[1]
    assert other._models()[0] is not a._models()[0]
    rgb = np.asarray(SimPhone(seed=0).screenshot())
    lines = a.read(rgb)
    assert len(lines) >= 10 and a.stats["crops_read"] > 0
    assert b.stats["crops_read"] == 0 and not b.cache_state()  # a's crops are not b's
    assert [ln.text for ln in b.read(rgb)] == [ln.text for ln in lines]  # the same sessions read the same
