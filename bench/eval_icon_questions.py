"""How many numbered-mark questions Click Icon puts to the planner in a run of Mobile-Eval, by the
recogniser's share in the score (``LearnedIconMatcher.blend``), side by side.

    python bench/eval_icon_questions.py --blend 0.3,0.5 [--out /tmp/eq]

Runs the suite with the oracle planner on the simulated phone, in this process (one worker), once a
blend, and counts the Click Icon groundings and the questions among them (candidates within 0.02 of
the best, ``Perception._icon_decision``), with SU of each run. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def one_run(blend: float, out: Path) -> dict:
    from mobile_agent.bench import runner
    from mobile_agent.bench.runner import EvalConfig, run_eval
    from mobile_agent.bench.suite import select
    from mobile_agent.perception import Perception

    p = Perception()
    p.matcher.blend = blend
    counts = {"icon_groundings": 0, "questions": 0}
    ground, ask = p.ground_icon, p._ask

    def counted_ground(*a, **k):  # type: ignore[no-untyped-def]
        counts["icon_groundings"] += 1
        return ground(*a, **k)

    def counted_ask(img, cands, question, choose):  # type: ignore[no-untyped-def]
        if question.startswith("Which numbered box is the icon"):
            counts["questions"] += 1
        return ask(img, cands, question, choose)

    p.ground_icon, p._ask = counted_ground, counted_ask  # type: ignore[method-assign]
    runner._PERCEPTION.clear()
    runner._PERCEPTION["rapidocr|"] = p
    config = EvalConfig()
    tasks = select(config.suite)
    t0 = time.time()
    result = run_eval(config, tasks, out / f"blend-{blend}", workers=1)
    rows = getattr(result, "rows", None) or []
    su = sum(1 for r in rows if getattr(r, "success", False))
    return {**counts, "tasks": len(tasks), "su": su, "seconds": round(time.time() - t0)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blend", default="0.3,0.5")
    ap.add_argument("--out", default="/tmp/eval-icon-questions")
    a = ap.parse_args(argv)
    for b in (float(x) for x in a.blend.split(",")):
        d = one_run(b, Path(a.out))
        print(f"blend {b}: {d['icon_groundings']} Click Icon groundings, {d['questions']} questions to the planner; "
              f"SU {d['su']}/{d['tasks']}; {d['seconds']} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
