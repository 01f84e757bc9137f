"""What each Click Icon prior carries: every signal and rule of the registry switched off in turn.

The icon targets of a folder of real screens (``screensets.realscreens``) are grounded with all
priors on, then with each signal of ``perception.icons.priors`` (all its parts together) and each
prior that is no part of a signal switched off in turn (or the names asked for: a signal's parts
one by one too), without and with the
position hint (the third of the screen the target lies in); target by target, the prior *wins* a
target it hits that is missed without it and *loses* one missed with it and hit without it. The
verdict follows the house rule: a prior that wins on fewer than ``KEEP_APPS`` apps (counting both
halves of the apps) goes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from PIL import Image

KEEP_APPS = 3  # a prior stays where it wins targets on at least this many apps


@dataclass
class Row:
    """One prior switched off: the figures without it and the targets it wins and loses, per app."""

    name: str
    nohint: int
    hint: int
    wins: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # "nohint"/"hint" -> app -> targets
    losses: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def net_apps(self) -> list[str]:
        """Apps where the prior wins more targets than it loses (both figures together)."""
        out = []
        for app in {a for found in (self.wins, self.losses) for per_app in found.values() for a in per_app}:
            won = sum(len(self.wins.get(f, {}).get(app, [])) for f in ("nohint", "hint"))
            lost = sum(len(self.losses.get(f, {}).get(app, [])) for f in ("nohint", "hint"))
            if won > lost:
                out.append(app)
        return sorted(out)

    def keep(self) -> bool:
        from mobile_agent.perception.icons.priors import MODEL_SIGNALS

        return self.name in MODEL_SIGNALS or len(self.net_apps()) >= KEEP_APPS

    def verdict(self) -> str:
        """``keep`` or ``goes`` by the house rule; a signal that is the model's own is not judged."""
        from mobile_agent.perception.icons.priors import MODEL_SIGNALS, PRIORS

        part = PRIORS[self.name].signal if self.name in PRIORS else ""
        if self.name in MODEL_SIGNALS or part in MODEL_SIGNALS:
            return "the model's"
        if part:
            return f"part of {part}"
        return "keep" if self.keep() else "goes"


@dataclass
class Ablation:
    total: int
    nohint: int
    hint: int
    rows: list[Row]

    def as_dict(self) -> dict[str, Any]:
        return {"total": self.total, "nohint": self.nohint, "hint": self.hint,
                "priors": {r.name: {"nohint": r.nohint, "hint": r.hint, "wins": r.wins, "losses": r.losses,
                                    "net_apps": r.net_apps(), "keep": r.keep(), "verdict": r.verdict()}
                           for r in self.rows}}


Outcome = dict[tuple[str, int], tuple[bool, bool, str, str]]


def measure(folder: Any, perception: Any) -> Outcome:
    """(screen, target index) -> (hit without the hint, hit with it, app, target) for every icon target."""
    from mobile_agent.screensets.realscreens import _inside, third_hint

    out: Outcome = {}
    for s in folder.screens:
        with Image.open(s.image) as im:
            img = im.convert("RGB")
        for k, tg in enumerate(s.targets):
            if tg.kind != "icon":
                continue
            g = perception.ground_icon(img, tg.target)
            gh = perception.ground_icon(img, tg.target, third_hint(tg.box, s.width, s.height))
            out[(s.name, k)] = (g.status == "found" and _inside(g.chosen, tg.box),
                                gh.status == "found" and _inside(gh.chosen, tg.box), s.app, tg.target)
    return out


def ablate(folder: Any, perception: Any, names: Iterable[str] | None = None,
           progress: Callable[[Row | None, "Ablation"], None] | None = None) -> Ablation:
    """Switch each of ``names`` (priors or signals; default: every signal and every prior that is
    no part of one) off in turn; compare with all on."""
    from mobile_agent.perception.icons import priors

    chosen = list(names) if names is not None else priors.judged()
    priors.check(chosen)  # a name that is no prior is refused before any work
    base = measure(folder, perception)
    table = Ablation(len(base), sum(v[0] for v in base.values()), sum(v[1] for v in base.values()), [])
    if progress is not None:
        progress(None, table)  # the figures with every prior on
    for name in chosen:
        with priors.switched_off(name):
            without = measure(folder, perception)
        row = Row(name, sum(v[0] for v in without.values()), sum(v[1] for v in without.values()))
        for i, fig in ((0, "nohint"), (1, "hint")):
            wins: dict[str, list[str]] = defaultdict(list)
            losses: dict[str, list[str]] = defaultdict(list)
            for key, v in base.items():
                if v[i] and not without[key][i]:
                    wins[v[2]].append(v[3])
                elif without[key][i] and not v[i]:
                    losses[v[2]].append(v[3])
            row.wins[fig], row.losses[fig] = dict(wins), dict(losses)
        table.rows.append(row)
        if progress is not None:
            progress(row, table)
    return table


def row_line(row: Row, table: Ablation) -> str:
    from mobile_agent.screensets.realscreens import split_half

    net = row.net_apps()
    halves = "".join(sorted({split_half(a) for a in net})) or "-"
    verdict = row.verdict()
    return (f"{row.name:18} no hint {row.nohint - table.nohint:+3d}  hint {row.hint - table.hint:+3d}  "
            f"wins on {len(net)} app(s), halves {halves:2}  {'GOES' if verdict == 'goes' else verdict}")


def markdown(table: Ablation) -> str:
    """The ablation as a Markdown table (a row per prior)."""
    from mobile_agent.screensets.realscreens import split_half

    out = [f"All priors on: no hint {table.nohint}/{table.total}, hint {table.hint}/{table.total}.", "",
           "| signal or prior | off: no hint | off: hint | apps it wins on (A / B) | verdict |",
           "| --- | --- | --- | --- | --- |"]
    for r in table.rows:
        net = r.net_apps()
        a = sum(split_half(x) == "A" for x in net)
        out.append(f"| {r.name} | {r.nohint - table.nohint:+d} | {r.hint - table.hint:+d} | {len(net)} ({a} / {len(net) - a}) "
                   f"| {r.verdict()} |")
    return "\n".join(out)


def run_folder(path: str, ocr_cache: str | None = None, names: Iterable[str] | None = None,
               matcher: str | None = None, echo: Callable[[str], None] = print) -> Ablation:
    """The ablation over a folder of real screens (``screensets.realscreens``), each row printed
    with ``echo`` as it is measured, with the targets it wins and loses per app
    (``bench/ablate_icons.py`` and ``mobile-agent bench perception --dir DIR --ablate``)."""
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr
    from mobile_agent.screensets.measure import CachedOcr
    from mobile_agent.screensets.realscreens import load_folder

    folder = load_folder(path, absent_per_screen=0)
    ocr: Any = CachedOcr(make_ocr("rapidocr"), ocr_cache) if ocr_cache else "rapidocr"
    perception = Perception(ocr=ocr, **({"matcher": matcher} if matcher else {}))

    def progress(row: Row | None, table: Ablation) -> None:
        if row is None:
            echo(f"all priors on: no hint {table.nohint}/{table.total}, hint {table.hint}/{table.total}")
            return
        echo(row_line(row, table))
        for fig in ("nohint", "hint"):
            for kind, found in (("win", row.wins), ("loss", row.losses)):
                for app, ts in sorted(found.get(fig, {}).items()):
                    echo(f"    {fig} {kind}: {app}: {ts}")

    return ablate(folder, perception, names, progress=progress)
