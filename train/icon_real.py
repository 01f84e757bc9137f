"""The recogniser taught the development set's half A of real screens, validated on half B.

    pip install -e ".[train]"
    python -m train.icon_real --dir ../shared/realscreens --out /tmp/halfA        # about 10 minutes
    python -m train.icon_real --dir ../shared/realscreens --out /tmp/halfA --click  # + Click Icon on half B

Cuts the labelled crops of half A's apps only (``mobile_agent.screensets.real_crops.screen_crops``:
each clickable image node with a content-desc, the detector's box in it, text leaves as negatives),
fine-tunes the shipped model on them beside rendered crops of every concept (``learn.finetune``), and
measures, for the shipped model and the new one side by side: the recogniser alone on half B's icon
targets (top-1 / top-5 per app, as ``bench/bench_recogniser.py``), on rendered crops of a seed no
training drew (per icon set: the regression check), and with ``--click`` Click Icon through the public
API on half B (``mobile-agent bench perception --dir``'s figures, no hint and with the hint). Half B
is never read before the model is written. Writes the model to ``--out`` and the figures to
``--out/figures.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT / "src", ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


def recogniser_on_half(folder: str, model: str | None, half: str) -> dict[str, Any]:
    """Top-1 / top-5 of the recogniser on ``half``'s icon targets (bench/bench_recogniser.py's crops)."""
    from bench_recogniser import measure

    d = measure(folder, model, None, True, half=half)
    groups = {g: v for g, v in d["groups"].items()
              if g == f"half {half}" or (g.startswith("app ") and _half(g[4:]) == half)}
    return {"groups": groups, "misses": [m for m in d["misses"] if _half(m.strip().split(":")[0]) == half]}


def _half(app: str) -> str:
    from mobile_agent.screensets.realscreens import split_half

    return split_half(app)


def drawn(model: str | None, per_class: int, seed: int) -> dict[str, Any]:
    """Top-1 per icon set on rendered crops of ``seed`` (a seed neither training drew)."""
    from mobile_agent.perception.icons.recogniser import IconRecogniser
    from train import icon_data

    rec = IconRecogniser(model)
    bank = icon_data.glyph_bank([c for c in rec.classes[1:]])
    xs, ys, tags = icon_data.make_dataset(bank, rec.classes, per_class, per_class * 10, seed)
    probs, _ = rec.run(xs)
    hit = probs.argmax(1) == ys
    out = {t: {"crops": int(sum(1 for x in tags if x == t)),
               "top1": round(float(hit[np.array([x == t for x in tags])].mean()), 4)} for t in sorted(set(tags))}
    out["all"] = {"crops": int(len(ys)), "top1": round(float(hit.mean()), 4)}
    return out


def click_on_half(folder: str, model: str | None, half: str, ocr_cache: str | None) -> dict[str, Any]:
    """Click Icon's figures on ``half`` through the public API (Perception.ground_icon)."""
    from mobile_agent.perception import Perception
    from mobile_agent.perception.ocr import make_ocr
    from mobile_agent.screensets.measure import CachedOcr
    from mobile_agent.screensets.realscreens import load_folder, run_real, split_half

    real = load_folder(folder)
    real.screens = [s for s in real.screens if split_half(s.app) == half]
    for s in real.screens:
        s.targets = [t for t in s.targets if t.kind == "icon"]
    engine = CachedOcr(make_ocr("rapidocr"), ocr_cache) if ocr_cache else "rapidocr"
    perception = Perception(ocr=engine, matcher=f"learned:{model}" if model else "learned")
    d = run_real(real, perception).to_dict()
    keep = ("icon_nohint", "icon_hint", "icon_any")
    return {"half": {k: v for k, v in d["halves"].get(half, {}).items() if k in keep},
            "apps": {a: {k: v for k, v in f.items() if k in keep} for a, f in d["apps"].items()}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True, help="the development set (shared/realscreens)")
    ap.add_argument("--out", required=True, help="the folder the model trained on half A is written to")
    ap.add_argument("--train-half", default="A", choices=["A", "B"])
    ap.add_argument("--epochs", type=int, default=None)
    ap.add_argument("--draws", type=int, default=None)
    ap.add_argument("--replay", type=int, default=None, help="rendered crops a concept")
    ap.add_argument("--lr", type=float, default=None)
    ap.add_argument("--disagree", type=float, default=None, help="drop crops the shipped model names as another "
                    "concept at this probability (learn.LearnSettings.disagree)")
    ap.add_argument("--click", action="store_true", help="also Click Icon through the public API on the other half")
    ap.add_argument("--ocr-cache", default=None, help="a folder keeping OCR answers between runs (--click)")
    ap.add_argument("--drawn-per-class", type=int, default=8)
    a = ap.parse_args(argv)
    from mobile_agent.perception.icons import learn
    from mobile_agent.screensets import real_crops

    st = learn.LearnSettings()
    for k in ("epochs", "draws", "lr", "disagree"):
        if getattr(a, k) is not None:
            setattr(st, k, getattr(a, k))
    if a.replay is not None:
        st.replay_per_class = a.replay
    check = "B" if a.train_half == "A" else "A"
    t0 = time.time()
    crops = real_crops.screen_crops([a.dir], halves=a.train_half)
    print(f"half {a.train_half}: {json.dumps(crops.counts())}", flush=True)
    meta = learn.finetune(crops, a.out, settings=st, log=lambda m: print(m, flush=True))
    model = str(Path(a.out) / learn.MODEL_FILE)
    print(f"wrote {model} in {time.time() - t0:.0f} s", flush=True)
    figures: dict[str, Any] = {"trained_on": f"half {a.train_half}", "checked_on": f"half {check}",
                               "learn": meta["learned_from"], "settings": meta["settings"]}
    for name, path in (("shipped", None), ("learned", model)):
        f: dict[str, Any] = {"recogniser": recogniser_on_half(a.dir, path, check),
                             "drawn": drawn(path, a.drawn_per_class, 424242)}
        if a.click:
            f["click"] = click_on_half(a.dir, path, check, a.ocr_cache)
        figures[name] = f
        g = f["recogniser"]["groups"].get(f"half {check}", {})
        print(f"{name}: recogniser on half {check}: top-1 {g.get('top1')}/{g.get('total')}, top-5 {g.get('top5')}; "
              f"drawn top-1 {f['drawn']['all']['top1']}"
              + (f"; Click Icon no hint {f['click']['half'].get('icon_nohint')}" if a.click else ""), flush=True)
    (Path(a.out) / "figures.json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
