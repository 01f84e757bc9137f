"""An eval run's cache figures, computed once (``report.benchmark.cache_summary``): ``eval``'s cache
lines and the benchmark page's summary say the same."""

from __future__ import annotations

import re

from mobile_agent.cli import main
from mobile_agent.report.benchmark import _cache_view, cache_summary, read_bench, replayed_sentence


def _figures(calls: int, tokens: int, duration_s: float, steps: int, replayed: int) -> dict:
    return {"calls": calls, "tokens": tokens, "duration_s": duration_s, "steps": steps, "replayed": replayed}


def test_the_summary_counts_hits_kept_runs_and_the_replayed_totals():
    records = [
        {"hit": True, "kept": False, "run": _figures(0, 0, 2.0, 4, 4), "kept_run": _figures(5, 1000, 20.0, 4, 0)},
        {"hit": True, "kept": True, "run": _figures(1, 300, 3.0, 3, 2), "kept_run": _figures(3, 900, 9.0, 3, 0)},
        {"hit": True, "kept": False, "run": _figures(0, 0, 1.0, 2, 2)},  # no figures of the run it replayed
        {"hit": False, "kept": True, "run": _figures(4, 800, 8.0, 4, 0)},
        "not a record", None,
    ]
    s = cache_summary(records)
    assert s is not None and (s.n, s.hits, s.kept) == (4, 3, 2)
    assert s.hit_words() == "3 of 4 task(s) replayed from it"
    assert s.total is not None and s.total["n"] == 2
    assert s.total["calls"] == "1 / 8" and s.total["tokens"] == "300 / 1,900" and s.total["calls_ratio"] == "0.12"
    assert s.total["replayed"] == "6 of 7"
    assert replayed_sentence(s.total).startswith("Over the 2 replayed, against the runs that filled the cache: "
                                                 "model calls 1 / 8 (0.12), tokens 300 / 1,900 (0.16)")
    assert cache_summary([None, "x"]) is None
    assert cache_summary([{"hit": False, "kept": True}]).total is None


def test_eval_and_the_report_say_the_same(tmp_path, capsys):
    cache = tmp_path / "cache"
    for n in (1, 2):
        assert main(["eval", "--tasks", "settings-1", "--cache", str(cache), "--out", str(tmp_path / f"pass{n}")]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the console wraps long lines
    assert "cache: 1 of 1 task(s) replayed from it; 1 kept" in out
    said = re.findall(r"cache: (Over the .*? steps replayed\.)", out)
    assert said and said[-1].startswith("Over the 1 replayed, against the runs that filled the cache: model calls ")
    (section,) = read_bench(tmp_path / "pass2").sections
    view = _cache_view(section.rows)
    assert view is not None
    assert " ".join(view["summary"].split()) == "Run cache: 1 of 1 task(s) replayed from it. " + said[-1]
