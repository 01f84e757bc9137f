"""Full-parse time, side by side, on the simulated phone's screens (``--set sim``, 1080x2400) or the
wide set's (``--set wide``: other fonts, icon sets, densities, themes, JPEG, Chinese): our RapidOCR
engine as it is by default (crops packed into shared recogniser inputs, glyph-sized crops among
themselves, batches planned by what padding costs: ``batch_overhead=64``, denormals flushed,
onnxruntime's idle threads spinning 50 us: ``spin_us=50``), with runs of eight inputs a batch (the
former default: ``batch_overhead=inf``), with onnxruntime's own spinning (``spin_us=None``, the
former default: the same outputs bit for bit), with glyph-sized crops
read alone (``pack_min_ratio=2``), without packing,
without flushing denormals, with the int8 text detector, and RapidOCR with its own default
settings.
Beside each configuration's time, its text grounding on the same screens (Click Text: first
point, and with the planner choosing; the tree's text nodes as in ``bench perception``), so that
a faster configuration is only taken at the same accuracy, and how many crops grounding read again
(by default, a short target or one no packed reading holds reads the screen's glyph-sized crops
alone, once a screen). Prints figures; asserts nothing.

    python bench/bench_parse.py [--set SET] [--screens 40] [--no-defaults] [--no-int8] [--no-variants]
                                [--no-glyphs-alone] [--no-runs-of-eight] [--no-own-spinning] [--no-grounding]
    python bench/bench_parse.py --accuracy [--set sim|wide] [--screens 40]
    python bench/bench_parse.py --steps [--set SET] [--screens 12]
    python bench/bench_parse.py --against OTHER_SRC [--set SET] [--screens 30] [--options JSON]

``--against`` times this tree's full parse (default engine) beside another source tree's (say a
checkout of main: ``--against ../main/src``), each in its own process (the package imported from
its own tree), screen by screen in turn, the order alternating, and prints the median of the
per-screen ratios, the load average during the run and whether the two parses gave the same
lines, word boxes, scores, glyph boxes read packed and icon boxes, screen by screen. ``SET``: any
set of the screen sets' registry (``mobile_agent.screensets.registry``: ``sim``, ``wide``, the drawn
text and icon sets, or ``dir:PATH``, a folder of real screenshots). ``--options``: engine options
(JSON) for this tree's engine, e.g. ``'{"spin_us": null}'``.

``--steps`` times, screen by screen, three steps the engine does itself beside rapidocr's own
(word boxes: ``CalRecBoxes``; the detector's input normalisation; the detection downscale with
the channels swapped first), which give the same results (tests hold them equal).

``--accuracy`` times nothing: it runs the perception benchmark's own figures (``mobile-agent bench
perception --no-timing``: Click Text, original line matching, Click Icon, icon recall, Open App)
on the same screens with the default engine (planned batches) and with runs of eight inputs a
batch (``batch_overhead=inf``, the former default), one after the other, and prints both reports (``--accuracy-glyphs``: glyph-sized crops read alone
as the second configuration instead).

Each screen is parsed cold (caches emptied) by each configuration in turn, the order rotating from
one screen to the next, so that load on the machine falls on all of them alike. A full parse is
what the agent's first look at a screen costs: OCR (detection, and recognition of every detected
line and glyph; nothing is left to be read later) and icon detection. The ratios are medians of
per-screen ratios. Readings of each variant are compared with the default's line by line (case
aside). Where the default's time goes: the medians of its detection, recognition and icon
detection, from the parse's own timings.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any


def _fmt(v: list[float]) -> str:
    s = sorted(v)

    def q(p: float) -> float:
        return s[min(len(s) - 1, round(p * (len(s) - 1)))]

    return f"median {statistics.median(s) * 1000:.0f} ms (p10 {q(0.1) * 1000:.0f}, p90 {q(0.9) * 1000:.0f}; n={len(s)})"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:  # a worker of --against, run with the other tree's package: nothing else imported
        return _serve(argv[1], int(argv[2]), argv[3])
    from mobile_agent.screensets import registry

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--screens", type=int, default=40, help="screens of the simulated phone to parse")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-defaults", action="store_true", help="leave out RapidOCR with default settings (slow)")
    ap.add_argument("--set", dest="screen_set", type=_screen_set, default="sim", metavar="SET",
                    help=registry.help_text() + " Text grounding figures and --accuracy need the phone's tree "
                    f"({' or '.join(_tree_sets())}); on the other sets the parse is timed only.")
    ap.add_argument("--no-int8", action="store_true", help="leave out the int8 text detector")
    ap.add_argument("--no-variants", action="store_true", help="leave out the unpacked and denormal variants")
    ap.add_argument("--no-glyphs-alone", action="store_true",
                    help="leave out glyph-sized crops read alone (pack_min_ratio=2, the default before)")
    ap.add_argument("--no-runs-of-eight", "--no-planned-batches", dest="no_runs_of_eight", action="store_true",
                    help="leave out runs of eight inputs a batch (batch_overhead=inf, the former default)")
    ap.add_argument("--no-own-spinning", action="store_true",
                    help="leave out onnxruntime's own thread spinning (spin_us=None, the former default)")
    ap.add_argument("--no-grounding", action="store_true", help="time only; no text grounding figures")
    ap.add_argument("--accuracy", action="store_true",
                    help="the perception benchmark's figures (no timing), default and runs of eight")
    ap.add_argument("--accuracy-glyphs", action="store_true",
                    help="with --accuracy: glyph-sized crops read alone as the second configuration")
    ap.add_argument("--against", metavar="SRC", help="time this tree's parse beside the package in SRC, "
                    "each in its own process, and compare their outputs")
    ap.add_argument("--options", default="{}", help="with --against: this tree's engine options (JSON)")
    ap.add_argument("--steps", action="store_true",
                    help="time the engine's word boxes, detector normalisation and downscale beside rapidocr's")
    args = ap.parse_args(argv)
    if args.against:
        return _against(args.against, args.screen_set, args.screens, args.seed, args.options)

    import numpy as np

    from mobile_agent.screensets.measure import _first_point, _inside, _text_is_drawn
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr.rapid import RapidOcrEngine

    screen_set = registry.get(args.screen_set)
    if screen_set.truth != "tree":
        if args.accuracy:
            ap.error(f"--accuracy needs the phone's tree: --set {' or '.join(_tree_sets())}")
        images = _set_images(args.screen_set, args.screens, args.seed)
        screens: list[Any] = [None] * len(images)
        args.no_grounding = True  # no tree to ground against: the parse is timed only
    else:
        screens = screen_set.load(seed=args.seed, count=args.screens)
        images = [s.image.convert("RGB") for s in screens]
    if args.steps:
        return _steps(images, args.screen_set)
    if args.accuracy:
        return _accuracy(screens, args.screen_set, args.accuracy_glyphs)
    base = "default"
    glyphs = "glyph crops read alone"
    former = "runs of eight (former default)"
    perceptions = {base: Perception(ocr=RapidOcrEngine(), incremental=False)}
    if not args.no_runs_of_eight:
        perceptions[former] = Perception(ocr=RapidOcrEngine(batch_overhead=math.inf), incremental=False)
    spinning = "onnxruntime's own spinning (spin_us=None, former default)"
    if not args.no_own_spinning:
        perceptions[spinning] = Perception(ocr=RapidOcrEngine(spin_us=None), incremental=False)
    if not args.no_glyphs_alone:
        perceptions[glyphs] = Perception(ocr=RapidOcrEngine(pack_min_ratio=2.0), incremental=False)
    if not args.no_variants:
        perceptions["one crop per input"] = Perception(ocr=RapidOcrEngine(pack=False), incremental=False)
        perceptions["denormals kept"] = Perception(ocr=RapidOcrEngine(flush_denormals=False), incremental=False)
    if not args.no_int8:
        perceptions["int8 detector"] = Perception(ocr=RapidOcrEngine(det_int8=True), incremental=False)
    runs: dict[str, Callable[[Any], Any]] = {
        k: (lambda img, p=p: p.parse(img, icons=True)) for k, p in perceptions.items()}
    if not args.no_defaults:
        from rapidocr import RapidOCR

        defaults = RapidOCR(params={"Global.log_level": "error"})
        runs["RapidOCR defaults (OCR only)"] = lambda img: defaults(np.asarray(img)[:, :, ::-1])
    for f in runs.values():  # load the models outside the timings
        f(images[0])
    times: dict[str, list[float]] = {k: [] for k in runs}
    stages: dict[str, list[float]] = {k: [] for k in ("ocr_detect", "ocr_recognize", "icons")}
    readings: dict[str, list[list[str]]] = {k: [] for k in runs}
    first: dict[str, int] = {k: 0 for k in perceptions}
    chosen: dict[str, int] = {k: 0 for k in perceptions}
    reread: dict[str, list[int]] = {k: [] for k in perceptions}  # crops read again per screen
    targets = 0
    names = list(runs)
    for n, (img, screen) in enumerate(zip(images, screens)):
        for k in names[n % len(names):] + names[:n % len(names)]:
            for p in perceptions.values():
                p.clear_cache()
            t = time.perf_counter()
            res = runs[k](img)
            times[k].append(time.perf_counter() - t)
            if hasattr(res, "lines"):
                readings[k].append([line.text.lower() for line in res.lines])
            if k == base:
                for st in stages:
                    stages[st].append(res.timings.get(st, 0.0))
        if args.no_grounding:
            continue
        # Text grounding on this screen, each configuration on its own (cached) parse.
        nodes = [nd for nd in screen.nodes if nd.text and len(nd.text) <= 80 and not nd.clipped and not nd.covered
                 and _text_is_drawn(nd)]
        targets += len(nodes)
        for k, p in perceptions.items():
            before = p.ocr.stats["crops_read"]
            for nd in nodes:
                def oracle(marked: Any, cands: Any, question: str, box: Any = nd.box) -> int | None:
                    return next((i for i, c in enumerate(cands) if _inside(c, box)), None)

                g = p.ground_text(img, nd.text)
                first[k] += _inside(_first_point(g), nd.box)
                ok = g.status == "found" and _inside(g.chosen, nd.box)
                if not ok:
                    g = p.ground_text(img, nd.text, choose=oracle)
                    ok = g.status == "found" and _inside(g.chosen, nd.box)
                chosen[k] += ok
            reread[k].append(p.ocr.stats["crops_read"] - before)
    sizes = sorted({f"{im.width}x{im.height}" for im in images})
    print(f"screens: {len(images)} of the {args.screen_set} set (seed {args.seed}) at {', '.join(sizes)}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    for k in names:
        line = f"{k}: {_fmt(times[k])}"
        if k in perceptions and targets:
            line += (f"; Click Text first point {100.0 * first[k] / targets:.1f}%, with choice "
                     f"{100.0 * chosen[k] / targets:.1f}% of {targets}; crops read again by grounding: "
                     f"{sum(reread[k])} on {sum(n > 0 for n in reread[k])} of {len(reread[k])} screens")
        print(line)
    med = statistics.median(times[base])
    parts = {st: statistics.median(v) for st, v in stages.items()}
    print(f"where the default's time goes (medians): detection {parts['ocr_detect'] * 1000:.0f} ms, "
          f"recognition {parts['ocr_recognize'] * 1000:.0f} ms, icons {parts['icons'] * 1000:.0f} ms, "
          f"of a full parse of {med * 1000:.0f} ms")
    for k in names[1:]:
        r = statistics.median(b / a for a, b in zip(times[base], times[k]))
        print(f"ratio {k} / {base}: {r:.3f} (median of per-screen ratios)")
    if "RapidOCR defaults (OCR only)" in times:
        for k in [base] + [k for k in (former, spinning, glyphs, "int8 detector") if k in times]:
            r = statistics.median(a / b for a, b in zip(times[k], times["RapidOCR defaults (OCR only)"]))
            print(f"ratio {k} / RapidOCR defaults: {r:.3f} (median of per-screen ratios; goal <= 0.4)")
    for other in [k for k in perceptions if k != base]:
        same = total = 0
        for a, b in zip(readings[other], readings[base]):
            total += len(a)
            rest = list(b)
            for t in a:
                if t in rest:
                    rest.remove(t)
                    same += 1
        print(f"lines read alike, {base} and {other}: {same}/{total} ({100.0 * same / max(1, total):.1f}%)")
    return 0


def _screen_set(name: str) -> str:
    """``--set``: a name of the screen sets' registry (or ``dir:PATH``); else the registry's one-line
    message that lists the names."""
    from mobile_agent.screensets import registry

    try:
        registry.get(name)
    except registry.UnknownScreenSet as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name


def _tree_sets() -> list[str]:
    from mobile_agent.screensets import registry

    return [n for n, s in registry.SETS.items() if s.truth == "tree"]


def _set_images(screen_set: str, screens: int, seed: int) -> list[Any]:
    from mobile_agent.screensets import registry

    return registry.get(screen_set).images(seed=seed, count=screens)


def _serve(folder: str, screens: int, options: str) -> int:
    """A worker of ``--against``: parses the screens asked for on stdin (their index, one a line),
    each cold, and answers each with a JSON line: the parse's time and its outputs. The screens are
    the PNG files in ``folder``, drawn once by this tree's registry, so that both trees parse the
    same pixels (and an older tree needs no screen set of its own)."""
    import json
    from pathlib import Path

    from PIL import Image

    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr.rapid import RapidOcrEngine

    images = []
    for f in sorted(Path(folder).glob("*.png"))[:screens]:
        with Image.open(f) as im:
            images.append(im.convert("RGB"))
    p = Perception(ocr=RapidOcrEngine(**json.loads(options)), incremental=False)
    p.parse(images[0], icons=True)  # the models loaded outside the timings
    print(json.dumps({"ready": len(images)}), flush=True)
    for line in sys.stdin:
        img = images[int(line)]
        p.clear_cache()
        t = time.perf_counter()
        res = p.parse(img, icons=True)
        dt = time.perf_counter() - t
        out = {"lines": [[ln.text, list(ln.box.as_tuple()), ln.score,
                          [[w.text, list(w.box.as_tuple()), w.score] for w in ln.words]] for ln in res.lines],
               "packed": [list(b.as_tuple()) for b in getattr(res, "packed_glyphs", [])],
               "icons": [[list(i.box.as_tuple()), i.score, i.source] for i in res.icons]}
        print(json.dumps({"t": dt, "out": out, "stages": res.timings}), flush=True)
    return 0


def _against(other: str, screen_set: str, screens: int, seed: int, options: str) -> int:
    """This tree's parse beside ``other``'s (``--against``)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bench-parse-") as folder:
        for i, img in enumerate(_set_images(screen_set, screens, seed)):
            img.save(f"{folder}/{i:04d}.png")
        return _against_on(other, folder, screen_set, screens, seed, options)


def _against_on(other: str, folder: str, screen_set: str, screens: int, seed: int, options: str) -> int:
    import json
    import subprocess
    from pathlib import Path

    import mobile_agent

    here = str(Path(mobile_agent.__file__).resolve().parents[1])
    trees = {"this tree": (here, options), "other": (str(Path(other).resolve()), "{}")}
    workers = {}
    for name, (src, opts) in trees.items():
        env = dict(os.environ, PYTHONPATH=src)
        workers[name] = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", folder, str(screens), opts],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    count = min(json.loads(w.stdout.readline())["ready"] for w in workers.values())
    names = list(workers)
    times: dict[str, list[float]] = {k: [] for k in names}
    stages: dict[str, list[dict[str, float]]] = {k: [] for k in names}
    outs: dict[str, list[Any]] = {k: [] for k in names}
    loads = []
    for i in range(count):
        for k in names[i % 2:] + names[:i % 2]:
            w = workers[k]
            assert w.stdin is not None and w.stdout is not None
            w.stdin.write(f"{i}\n")
            w.stdin.flush()
            r = json.loads(w.stdout.readline())
            times[k].append(r["t"])
            stages[k].append(r["stages"])
            outs[k].append(r["out"])
        loads.append(os.getloadavg()[0])
    for w in workers.values():
        assert w.stdin is not None
        w.stdin.close()
        w.wait()
    a, b = names
    same = [x == y for x, y in zip(outs[a], outs[b])]
    print(f"{count} screens of the {screen_set} set (seed {seed}), {os.cpu_count()} CPUs, load average during the run: "
          f"{min(loads):.2f} to {max(loads):.2f} (median {statistics.median(loads):.2f})")
    for k in names:
        parts = {st: statistics.median(x.get(st, 0.0) for x in stages[k]) * 1000
                 for st in ("ocr_detect", "ocr_recognize", "icons")}
        print(f"{k} ({trees[k][0]}): {_fmt(times[k])}; detection {parts['ocr_detect']:.0f} ms, recognition "
              f"{parts['ocr_recognize']:.0f} ms, icons {parts['icons']:.0f} ms (medians)")
    r = statistics.median(x / y for x, y in zip(times[a], times[b]))
    print(f"ratio this tree / other: {r:.3f} (median of per-screen ratios)")
    print(f"the same outputs (lines, word boxes, scores, packed glyph boxes, icon boxes): {sum(same)} of {count} screens"
          + ("" if all(same) else f"; differing: {[i for i, ok in enumerate(same) if not ok]}"))
    return 0 if all(same) else 1


def _steps(images: list[Any], screen_set: str) -> int:
    """Each screen's word boxes, detector normalisation and downscale, rapidocr's way and the
    engine's, timed one after the other on the same inputs; medians per screen."""
    import copy

    import cv2
    import numpy as np
    from rapidocr.cal_rec_boxes import CalRecBoxes

    from mobile_agent.perception.ocr import rapid

    seen: list[tuple[Any, Any]] = []
    ours = rapid.RapidOcrEngine._word_boxes

    def keep(crops: Any, out: Any) -> Any:
        seen.append((crops, copy.deepcopy(out)))
        return ours(crops, out)

    eng = rapid.RapidOcrEngine()
    eng._word_boxes = keep  # type: ignore[method-assign]
    det, _ = eng._models()
    times: dict[str, list[float]] = {k: [] for k in (
        "word boxes, rapidocr's CalRecBoxes", "word boxes, the engine's",
        "detector normalisation, rapidocr's", "detector normalisation, the engine's table",
        "downscale, channels swapped first (before)", "downscale, the engine's")}
    names = list(times)

    def timed(k: int, f: Callable[[], Any]) -> Any:
        t = time.perf_counter()
        out = f()
        times[names[k]].append(time.perf_counter() - t)
        return out

    for img in images:
        rgb = np.asarray(img)
        seen.clear()
        eng.clear_cache()
        eng.read(rgb)
        crops, out = seen[0]
        quads = np.array([[[0, 0], [c.shape[1], 0], [c.shape[1], c.shape[0]], [0, c.shape[0]]] for c in crops],
                         dtype=np.float32)
        timed(0, lambda: CalRecBoxes()(crops, quads, copy.deepcopy(out), False))
        timed(1, lambda: ours(crops, copy.deepcopy(out)))
        scale = eng.scale_for(rgb.shape[1], rgb.shape[0])
        small = eng._downscale(rgb, scale)
        rh, rw = small.shape[:2]
        part = cv2.copyMakeBorder(small, 0, -(-rh // 32) * 32 - rh, 0, -(-rw // 32) * 32 - rw, cv2.BORDER_REPLICATE)
        pre = det.get_preprocess()
        lut = next(iter(eng._det_lut.values()))

        def table() -> Any:
            x = np.empty((1, 3) + part.shape[:2], np.float32)
            for c in range(3):
                np.take(lut[:, c], part[:, :, c], out=x[0, c])
            return x

        timed(2, lambda: pre(part))
        timed(3, table)
        timed(4, lambda: cv2.resize(rgb[:, :, ::-1], (rw, rh), interpolation=cv2.INTER_AREA))
        timed(5, lambda: eng._downscale(rgb, scale))
    print(f"screens: {len(images)} of the {screen_set} set, load average {os.getloadavg()[0]:.2f}")
    for k, v in times.items():
        print(f"{k}: {_fmt(v)}")
    return 0


def _accuracy(screens: list[Any], screen_set: str, glyphs: bool = False) -> int:
    from mobile_agent.screensets.measure import format_report, run_benchmark
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr.rapid import RapidOcrEngine

    configs: dict[str, Callable[[], Any]] = {"default": lambda: Perception(ocr=RapidOcrEngine())}
    if glyphs:
        configs["glyph-sized crops read alone (pack_min_ratio=2)"] = \
            lambda: Perception(ocr=RapidOcrEngine(pack_min_ratio=2.0))
    else:
        configs["runs of eight (batch_overhead=inf, the former default)"] = \
            lambda: Perception(ocr=RapidOcrEngine(batch_overhead=math.inf))
    for name, make in configs.items():
        print(f"== {name}: {len(screens)} screens of the {screen_set} set")
        for line in format_report(run_benchmark(screens, make, timing=False).to_dict()):
            if not line.startswith(("full parse", "  of which", "incremental parse")):
                print(line)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
