"""How much each Click Icon prior carries: every prior of the registry switched off in turn.

    python bench/ablate_icons.py --dir REALSCREENS [--ocr-cache DIR] [--priors a,b] [--json OUT] [--markdown]

The priors are those of ``perception/icons/priors.py`` (each named, with what it does); the
ablation itself is ``mobile_agent.screensets.ablation`` (also ``mobile-agent bench perception --ablate``).
For each prior the icon targets of the folder are grounded with it switched off, without and with
the position hint, and compared target by target with all priors on: the targets it wins and
loses, per app, and the verdict of the house rule (a prior winning on fewer than three apps goes).
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    from mobile_agent.screensets.ablation import ablate, markdown, row_line
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr
    from mobile_agent.screensets.measure import CachedOcr
    from mobile_agent.screensets.realscreens import load_folder

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--ocr-cache")
    ap.add_argument("--priors", help="comma-separated priors (default: all)")
    ap.add_argument("--matcher", help="icon matcher (default: the default, learned)")
    ap.add_argument("--json")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown at the end")
    a = ap.parse_args(argv)
    folder = load_folder(a.dir, absent_per_screen=0)
    ocr = CachedOcr(make_ocr("rapidocr"), a.ocr_cache) if a.ocr_cache else "rapidocr"
    perception = Perception(ocr=ocr, **({"matcher": a.matcher} if a.matcher else {}))

    def progress(row, table):  # type: ignore[no-untyped-def]
        if row is None:
            print(f"all priors on: no hint {table.nohint}/{table.total}, hint {table.hint}/{table.total}")
        else:
            print(row_line(row, table))
            for fig in ("nohint", "hint"):
                for kind, found in (("win", row.wins), ("loss", row.losses)):
                    for app, ts in sorted(found.get(fig, {}).items()):
                        print(f"    {fig} {kind}: {app}: {ts}")
        sys.stdout.flush()

    table = ablate(folder, perception, a.priors.split(",") if a.priors else None, progress=progress)
    if a.markdown:
        print()
        print(markdown(table))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(table.as_dict(), f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
