"""Before/after checks between two checkouts: a bench script run again from another checkout's
sources (``--lines-only``), its lines compared with this tree's, one line a screen."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Sequence


def compare_with(script: str, checkout: Path, mine: str, paths: Sequence[Path] = (), most: int | None = None) -> int:
    """Run ``script --lines-only`` with ``checkout``'s ``src`` first on the path (then ``paths``),
    print how many of its lines differ from ``mine`` and the first ``most`` of them (all where
    None); returns that count."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(checkout.resolve() / "src"), *map(str, paths)])}
    other = subprocess.run([sys.executable, script, "--lines-only"], env=env, capture_output=True,
                           text=True, check=True).stdout
    ours, theirs = mine.splitlines(), other.splitlines()
    differ = [f"{a}  |  {b}" for a, b in zip(ours, theirs) if a != b]
    print(f"against {checkout}: {len(theirs)} screens, {len(differ)} differ"
          + ("" if len(ours) == len(theirs) else f" (this tree has {len(ours)})"))
    for line in differ[:most]:
        print("  " + line)
    return len(differ)


def arguments(doc: str, out_help: str, what: str) -> argparse.Namespace:
    """The options such a script takes: ``--out``, ``--against CHECKOUT`` (whose ``what`` to
    compare) and the hidden ``--lines-only`` of the run for the other checkout."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help=out_help)
    ap.add_argument("--against", type=Path, help=f"another checkout whose {what} to compare")
    ap.add_argument("--lines-only", action="store_true", help=argparse.SUPPRESS)  # the --against child
    return ap.parse_args()
