"""bench/bench_grounder.py: a real folder grounded by a simulated GUI model through a real localhost chat
server and the family's adapter, by perception, and by the two together; a checkout without the folder
is skipped with the reason."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "realscreens"


def _script():
    spec = importlib.util.spec_from_file_location("_bench_grounder", ROOT / "bench" / "bench_grounder.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _rows(out: str) -> dict[tuple[str, str], list[str]]:
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 8 and cells[0] not in ("family", "---"):
            rows[(cells[0], cells[1])] = cells[2:]
    return rows


def _hits(cell: str) -> tuple[int, int]:
    m = re.match(r"(\d+)/(\d+)", cell)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def test_a_model_that_taps_each_centre_is_read_back_inside_every_target(capsys):
    """Absolute (UI-TARS-1.5, Qwen2.5-VL) and relative (Qwen3-VL, AutoGLM) coordinates, computed in the
    image the request carried, come back through each adapter inside the target's node."""
    assert _script().main(["--dir", str(FIXTURES), "--limit", "2", "--sigma", "0", "--confuse", "0",
                           "--families", "ui-tars-1.5,qwen2.5-vl,qwen3-vl,autoglm-phone"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert {f for f, _ in rows} == {"ui-tars-1.5", "qwen2.5-vl", "qwen3-vl", "autoglm-phone"}
    for (family, kind), (targets, alone, perception, together, kept, refused) in rows.items():
        n = int(targets)
        assert n > 0 and _hits(alone) == (n, n), (family, kind, alone)
        assert _hits(together)[0] >= _hits(perception)[0] and refused == "-"


def test_wrong_points_are_refused_and_perception_stands_in(capsys):
    assert _script().main(["--dir", str(FIXTURES), "--limit", "2", "--confuse", "1",
                           "--families", "ui-tars-1.5", "--kinds", "text"]) == 0
    (targets, alone, perception, together, kept, refused), = _rows(capsys.readouterr().out).values()
    wrong_refused, wrong = _hits(refused)
    assert wrong >= int(targets) - 2 and wrong_refused >= wrong - 1, refused  # taps on other targets
    assert _hits(alone)[0] <= 2 and _hits(together)[0] >= _hits(perception)[0] - 1


def test_without_the_folder_it_says_why_and_exits_0(tmp_path, capsys):
    assert _script().main(["--dir", str(tmp_path / "absent")]) == 0
    assert capsys.readouterr().out.startswith(f"skipped: no folder {tmp_path / 'absent'}")
