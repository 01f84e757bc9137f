"""How much each Click Icon signal and prior carries: each switched off in turn.

    python bench/ablate_icons.py --dir REALSCREENS [--ocr-cache DIR] [--priors a,b] [--json OUT] [--markdown]

The signals and priors are those of ``perception/icons/priors.py`` (each named, with what it does;
by default every signal, all its parts together, and every prior that is no part of one, which is
what the house rule judges; ``--priors`` names others, a signal's parts one by one); the
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
    from mobile_agent.screensets.ablation import markdown, run_folder

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--ocr-cache")
    ap.add_argument("--priors", help="comma-separated priors or signals (default: the signals and the priors of none)")
    ap.add_argument("--matcher", help="icon matcher (default: the default, learned)")
    ap.add_argument("--json")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown at the end")
    a = ap.parse_args(argv)

    def echo(line: str) -> None:
        print(line)
        sys.stdout.flush()

    table = run_folder(a.dir, a.ocr_cache, a.priors.split(",") if a.priors else None, a.matcher, echo)
    if a.markdown:
        print()
        print(markdown(table))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(table.as_dict(), f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
