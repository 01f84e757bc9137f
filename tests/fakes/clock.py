"""Wall-clock bounds in tests are hang guards, never speed tests.

A test of a deadline (a model call's total timeout, an adb command's, a server's idle timeout, the
run's --time-limit) asserts what the deadline promises from what the code records or raises: the
message naming the deadline that ended the wait, the attempts counted, the outcome. Where it also
bounds the time the wait took, the bound only tells "it ended" from "it hung" (the fakes' hanging
and trickling peers never end by themselves): :func:`hang_guard` gives a loaded two-core machine
(the suite beside other work, ``-n 2``) many times the expected time. Speed is measured by the
scripts in ``bench/`` and the ``bench_*.py`` beside the tests, which print timings.
"""

from __future__ import annotations

#: The least a hang guard allows, whatever the deadline: a step that should end at once may still
#: wait seconds for a core on a loaded machine (6.7 s were seen for a 5 s run limit).
FLOOR_S = 20.0


def hang_guard(promised_s: float = 0.0) -> float:
    """The most seconds a wait that is promised to end after ``promised_s`` may take before the test
    calls it a hang: ten times that, and at least :data:`FLOOR_S`."""
    return max(FLOOR_S, 10.0 * promised_s)
