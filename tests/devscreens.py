"""Where the tests find the development set's real screens.

``COMMITTED``: the screens the real-screen checks read, committed with the tests
(``tests/perception/fixtures/devscreens``), so that the checks run in any clone; every such test reads
them from here, in CI as in a user's clone. ``WHOLE``: the whole development set beside the checkout
(``../shared/realscreens``, 85 screens of 23 apps), which only the benchmarks and the tests that
measure the whole set need; ``needs_whole`` skips those where it is absent, saying so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "tests" / "perception" / "fixtures" / "devscreens"
WHOLE = ROOT.parent / "shared" / "realscreens"
WHOLE_PRESENT = (WHOLE / "manifest.jsonl").is_file()

needs_whole = pytest.mark.skipif(
    not WHOLE_PRESENT,
    reason="measures the whole development set of real screens (85 screens of 23 apps), which lives beside "
           "the project's checkout as ../shared/realscreens and is not in a clone; the screens the other "
           "real-screen tests read are committed in tests/perception/fixtures/devscreens")
