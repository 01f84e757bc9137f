"""CLI commands: the ``bench`` group. Each area adds its sub-commands through its own
``add_<area>_commands(group)`` function, called from :func:`register`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Optional

import typer

if TYPE_CHECKING:
    from mobile_agent.screensets.registry import ScreenSet


def add_perception_commands(group: typer.Typer) -> None:
    """``bench perception``: perception figures on every reachable screen of the simulated phone."""

    from mobile_agent.screensets import registry

    @group.command("perception")
    def bench_perception(
        screen_set: Optional[str] = typer.Option(None, "--set", help=registry.help_text() + " Default: sim."),
        seed: int = typer.Option(0, "--seed", help="Seed of the simulated phone."),
        depth: int = typer.Option(1, "--depth", help="Taps away from each app's first screen to explore."),
        max_screens: Optional[int] = typer.Option(None, "--max-screens", help="Stop collecting screens after "
                                                  "this many (default: 120 of a --set, every screen of --dir)."),
        dark: bool = typer.Option(False, "--dark", help="Dark theme."),
        ocr: str = typer.Option("rapidocr", "--ocr", help="OCR engine: rapidocr or tesseract."),
        matcher: Optional[str] = typer.Option(None, "--matcher", help="Icon matcher: learned (default), "
                                              "learned:PATH, offline (the shape matcher alone), marks or clip:PATH."),
        icon_model: Optional[Path] = typer.Option(None, "--icon-model", help="The icon recogniser: a folder "
                                                  "`mobile-agent perception learn` wrote (or its .onnx file)."),
        repeat: int = typer.Option(1, "--repeat", help="Cold full parses per screen (for timing spread)."),
        reference: bool = typer.Option(True, "--reference/--no-reference",
                                       help="Time RapidOCR's own defaults on each screen beside the full parse."),
        ocr_cache: Optional[str] = typer.Option(None, "--ocr-cache", help="Folder where the grounding's OCR "
                                                "lines are kept between runs (by the screen's pixels); the "
                                                "timed parses never use it. Empty it after changing the OCR."),
        timing: bool = typer.Option(True, "--timing/--no-timing", help="Time full and incremental parses "
                                    "(--no-timing: accuracy figures only)."),
        icons: bool = typer.Option(True, "--icons/--no-icons", help="Icon and Open App figures "
                                   "(--no-icons: text figures only)."),
        as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
        out: Optional[str] = typer.Option(None, "--out", help="Also write the JSON figures to this file."),
        verbose: bool = typer.Option(False, "--verbose", "-v", help="Print progress and the misses."),
        folder: Optional[str] = typer.Option(None, "--dir", help="A folder of real screenshots with their "
                                             "uiautomator dumps (and a manifest.jsonl of targets, else targets "
                                             "derived from the dumps): the figures overall, per half of the apps "
                                             "and per app; the same as --set dir:DIR (see docs/perception.md)."),
        absent: int = typer.Option(3, "--absent", help="With --dir: texts and icons not on a screen (other "
                                   "screens' labels and icon descriptions of the same app) asked for on each "
                                   "screen; the right answer is none (for an icon: none or a low-confidence one)."),
        icon_wording: str = typer.Option("own", "--icon-wording", help="With --dir: ask each icon target (and "
                                         "each icon not on the screen) by the app's own words (own), or by each of "
                                         "the other wordings other apps and the framework use for the same control "
                                         "(paraphrase: screensets/paraphrases.py)."),
        ablate: bool = typer.Option(False, "--ablate", help="With --dir: Click Icon's signals and priors "
                                    "(perception/icons/priors.py) switched off in turn, the targets each wins and "
                                    "loses per app, and the house rule's verdict (a Markdown table at the end)."),
        priors: Optional[str] = typer.Option(None, "--priors", help="With --ablate: these priors or signals "
                                             "(comma-separated) instead of every signal and prior of none."),
    ) -> None:
        """Parse time, text grounding, icon recall and offline icon matching on a screen set: the
        simulated phone with its ui_tree as ground truth, a drawn set with its targets, or a folder
        of real screens (--dir). Prints figures; asserts nothing."""
        from mobile_agent.perception import Perception
        from mobile_agent.screensets.measure import CachedOcr, format_report, reference_ocr, run_benchmark
        from mobile_agent.errors import ConfigError
        from mobile_agent.perception.ocr import make_ocr

        if icon_model is not None:
            from mobile_agent.perception.core import learned_spec

            matcher = learned_spec(matcher or "learned", icon_model)
        chosen_matcher = {"matcher": matcher} if matcher else {}

        if folder is not None and screen_set is not None:
            typer.echo("error: --dir DIR is --set dir:DIR: give one of them", err=True)
            raise typer.Exit(2)
        try:
            chosen = registry.folder(folder) if folder is not None else registry.get(screen_set or "sim")
        except registry.UnknownScreenSet as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2)
        where = "--dir" if folder is not None else "--set"
        if icon_wording not in ("own", "paraphrase"):
            typer.echo(f"error: --icon-wording {icon_wording!r}: use own or paraphrase", err=True)
            raise typer.Exit(2)
        if ablate:
            if chosen.truth != "folder":
                typer.echo("error: --ablate needs a folder of real screens (--dir DIR)", err=True)
                raise typer.Exit(2)
            from mobile_agent.screensets.ablation import markdown, run_folder

            try:
                table = run_folder(str(chosen.path), ocr_cache,
                                   priors.split(",") if priors else None, matcher, typer.echo)
            except KeyError as exc:
                typer.echo(f"error: --priors {priors}: {exc.args[0]}", err=True)
                raise typer.Exit(2)
            typer.echo("")
            typer.echo(markdown(table))
            return
        if chosen.truth == "folder":
            _bench_folder(chosen, where, ocr, ocr_cache, absent, max_screens, reference and timing, timing, icons,
                          as_json, out, verbose, icon_wording, matcher)
            return
        if icon_wording != "own":
            typer.echo("error: --icon-wording paraphrase needs a folder of real screens (--dir DIR): the "
                       "paraphrase table words their icon descriptions", err=True)
            raise typer.Exit(2)
        if max_screens is None:
            max_screens = 120
        log = (lambda m: typer.echo(m, err=True)) if verbose else None
        if chosen.truth in ("text", "icon"):
            _bench_drawn(chosen, seed, max_screens, ocr, ocr_cache, as_json, out, verbose, log, matcher)
            return
        screens = chosen.load(seed=seed, count=max_screens, depth=depth, dark=dark, log=log)
        grounding = None
        if ocr_cache:
            try:
                grounding = Perception(ocr=CachedOcr(make_ocr(ocr), ocr_cache), **chosen_matcher)
            except (ConfigError, OSError) as exc:
                typer.echo(f"error: --ocr-cache {ocr_cache}: {exc}", err=True)
                raise typer.Exit(2)
        result = run_benchmark(screens, lambda: Perception(ocr=ocr, **chosen_matcher), log=log, repeat_parse=max(1, repeat),
                               reference=reference_ocr() if reference and timing else None,
                               grounding_perception=grounding, timing=timing, icons=icons)
        d = result.to_dict()
        d["settings"] = {"set": chosen.name, "seed": seed, "depth": depth, "dark": dark, "ocr": ocr,
                         "screens": len(screens), "timing": timing,
                         "icons": icons}
        if _emit(d, out, as_json, format_report) and verbose:
            for key in ("text_grounding", "icon_recall", "icon_matching_top1"):
                for miss in d[key]["misses"]:
                    typer.echo(f"  miss ({key}): {miss}")
            for miss in d["table"]["click_text_first_point_misses"]:
                typer.echo(f"  miss (Click Text, first point): {miss}")
            for miss in d["table"]["icon_hint_misses"]:
                typer.echo(f"  miss (icon with hint): {miss}")


def _emit(d: dict, out: Optional[str], as_json: bool, fmt: Callable[[dict], Iterable[str]]) -> bool:
    """Write a benchmark's figures ``d`` to ``out`` (JSON) if given, and print them: as one JSON
    line with ``as_json``, else as ``fmt`` lays them out. True when they were printed as text (the
    misses may follow)."""
    if out:
        from mobile_agent.fsutil import atomic_write_text

        atomic_write_text(out, json.dumps(d, indent=1, ensure_ascii=False))
    if as_json:
        typer.echo(json.dumps(d, ensure_ascii=False))
        return False
    for line in fmt(d):
        typer.echo(line)
    return True


def _bench_drawn(chosen: "ScreenSet", seed: int, max_screens: int, ocr: str, ocr_cache: Optional[str],
                 as_json: bool, out: Optional[str], verbose: bool, log: object, matcher: Optional[str] = None) -> None:
    """``bench perception --set NAME`` for a drawn set with its own targets: Click Text figures by
    phenomenon on a text set (text stress, held-out text), Click Icon figures on an icon set."""
    from mobile_agent.errors import ConfigError
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr
    from mobile_agent.screensets.icon_heldout import format_icons, run_icons
    from mobile_agent.screensets.measure import CachedOcr
    from mobile_agent.screensets.text_stress import format_stress, run_stress

    default = chosen.default_count() or max_screens
    try:
        screens = chosen.load(seed=seed, count=min(max_screens, default))
        engine = CachedOcr(make_ocr(ocr), ocr_cache) if ocr_cache else ocr
        perception = Perception(ocr=engine, **({"matcher": matcher} if matcher else {}))
    except (ConfigError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    settings = {"set": chosen.name, "seed": seed, "ocr": ocr, "screens": len(screens)}
    if chosen.truth == "icon":
        d = run_icons(screens, perception, log=log)  # type: ignore[arg-type]
        d.update(title=chosen.title, seed=seed, digest=chosen.digest(screens),
                 frozen=chosen.is_frozen_set(screens, seed), settings=settings)
        if _emit(d, out, as_json, format_icons) and verbose:
            for miss in d["misses"]:
                typer.echo(f"  miss: {miss}")
        return
    d = run_stress(screens, perception, log=log).to_dict()  # type: ignore[arg-type]
    d["frozen"] = d["digest"] == chosen.code().FROZEN_SHA256
    d["settings"] = settings
    fmt = getattr(chosen.code(), "format_figures", format_stress)  # a set's own layout (per script...)
    if _emit(d, out, as_json, lambda d: fmt(d, title=chosen.title)) and verbose:
        for name, v in d["by_phenomenon"].items():
            for miss in v["misses"]:
                typer.echo(f"  miss ({name}): {miss}")
        for fp in d["absent"]["false_positives"]:
            typer.echo(f"  false positive: {fp}")


def _bench_folder(chosen: "ScreenSet", where: str, ocr: str, ocr_cache: Optional[str], absent: int,
                  max_screens: Optional[int], reference: bool, timing: bool, icons: bool, as_json: bool,
                  out: Optional[str], verbose: bool, icon_wording: str = "own", matcher: Optional[str] = None) -> None:
    """``bench perception --dir DIR`` (``--set dir:DIR``): the figures on a folder of real screens."""
    from mobile_agent.screensets.measure import CachedOcr, reference_ocr
    from mobile_agent.screensets.realscreens import format_real, run_real
    from mobile_agent.errors import ConfigError
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr

    try:
        real = chosen.load(count=max_screens, absent=absent)
    except (FileNotFoundError, NotADirectoryError, PermissionError) as exc:
        typer.echo(f"error: {where} {exc}", err=True)
        raise typer.Exit(2)
    folder = str(chosen.path)
    for p in real.problems:
        typer.echo(f"warning: {p}", err=True)
    if not real.screens:
        typer.echo(f"error: {where} {folder}: no screen could be measured", err=True)
        raise typer.Exit(2)
    try:
        engine = CachedOcr(make_ocr(ocr), ocr_cache) if ocr_cache else ocr
        perception = Perception(ocr=engine, **({"matcher": matcher} if matcher else {}))
    except (ConfigError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    log = (lambda m: typer.echo(m, err=True)) if verbose else None
    result = run_real(real, perception, icons=icons, log=log,
                      timer=(lambda: Perception(ocr=ocr, **({"matcher": matcher} if matcher else {}))) if timing else None,
                      reference=reference_ocr() if reference else None, icon_wording=icon_wording)
    d = result.to_dict()
    d["settings"] = {"dir": folder, "ocr": ocr, "screens": len(real.screens), "derived_targets": real.derived,
                     "absent_per_screen": absent, "timing": timing, "icons": icons, "icon_wording": icon_wording}
    if _emit(d, out, as_json, format_real) and verbose:
        for miss in d["misses"]:
            typer.echo(f"  miss: {miss}")


def register(app: typer.Typer) -> None:
    """Add the ``bench`` group to the main app."""
    group = typer.Typer(help="Benchmarks that print figures (medians, spread, shares).", no_args_is_help=True)
    add_perception_commands(group)
    app.add_typer(group, name="bench")
