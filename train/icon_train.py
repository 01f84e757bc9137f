"""Train the icon recogniser and export it to ONNX (``perception/icons/model/``).

    pip install -e ".[train]"          # torch and onnx: a development extra, never needed at run time
    python -m train.icon_train         # the shipped model: about 36 minutes on two CPU cores
    python -m train.icon_train --tiny --out /tmp/tiny   # seconds: the test suite's end-to-end check

Deterministic for a seed on one machine: the data are drawn by ``train/icon_data.py`` from seeded
generators in fixed chunks, torch's generator is seeded, and the threads are fixed. Writes
``icon_recogniser.onnx`` (outputs ``logits`` and ``embedding``), ``icon_recogniser.json`` (the
classes, the input side, the training's settings and its figures per icon set) beside it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from mobile_agent.perception.icons.recogniser import MODEL_DIR, NOT_ICON, SIDE  # noqa: E402

TINY = ["magnifying_glass", "gear", "heart", "house", "bell", "xmark"]


def _chunk(args: tuple) -> tuple[np.ndarray, np.ndarray, list[str]]:
    classes, names, per_class, negatives, seed = args
    from train import icon_data

    bank = icon_data.glyph_bank(names)
    return icon_data.make_dataset(bank, classes, per_class, negatives, seed)


def build_data(classes: list[str], per_class: int, negatives: int, seed: int, chunks: int,
               workers: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """``per_class`` crops a class and ``negatives`` no-icon crops, drawn in ``chunks`` seeded
    parts (the same data whatever the number of workers)."""
    names = classes[1:]
    jobs = [(classes, names, per_class // chunks + (k < per_class % chunks), negatives // chunks
             + (k < negatives % chunks), seed * 1000 + k) for k in range(chunks)]
    if workers > 1:
        with get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_chunk, jobs)
    else:
        parts = [_chunk(j) for j in jobs]
    xs = np.concatenate([p[0] for p in parts])
    ys = np.concatenate([p[1] for p in parts])
    tags = [t for p in parts for t in p[2]]
    return xs, ys, tags


def make_net(classes: int, width: float = 1.0, emb: int = 128):
    import torch.nn as nn

    def block(i: int, o: int, stride: int = 1, k: int = 3) -> list:
        return [nn.Conv2d(i, o, k, stride=stride, padding=k // 2, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    c = [max(8, int(v * width)) for v in (32, 48, 96, 192)]

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *block(1, c[0], 2, 5), *block(c[0], c[1]), nn.MaxPool2d(2),        # 32 -> 16 -> 8
                *block(c[1], c[2]), *block(c[2], c[2]), nn.MaxPool2d(2),           # 8 -> 4
                *block(c[2], c[3]), nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.embed = nn.Linear(c[3], emb)
            self.head = nn.Linear(emb, classes)

        def forward(self, x):  # type: ignore[no-untyped-def]
            e = self.embed(self.features(x))
            return self.head(e), e

    return Net()


def _augment(x, gen):  # type: ignore[no-untyped-def]
    """Cheap per-batch jitter on the prepared inputs: a shift of up to two pixels, contrast."""
    import torch

    n = x.shape[0]
    dx, dy = (int(v) for v in torch.randint(-2, 3, (2,), generator=gen))
    x = torch.roll(x, shifts=(dy, dx), dims=(2, 3))
    gain = 0.6 + 0.6 * torch.rand(n, 1, 1, 1, generator=gen)
    return torch.clamp(x * gain, 0, 1)


def train(args: argparse.Namespace) -> dict:
    import torch
    import torch.nn.functional as F

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    from train import icon_data

    classes = [NOT_ICON] + TINY if args.tiny else icon_data.concepts()
    t0 = time.time()
    cache = Path(args.cache) if args.cache else None
    key = hashlib.sha256(json.dumps([classes, args.per_class, args.negatives, args.seed,
                                     Path(icon_data.__file__).read_text(encoding="utf-8")]).encode()).hexdigest()[:12]
    if cache is not None and (cache / f"data-{key}.npz").exists():
        d = np.load(cache / f"data-{key}.npz", allow_pickle=False)
        xs, ys, tags, vx, vy, vt = d["xs"], d["ys"], list(d["tags"]), d["vx"], d["vy"], list(d["vt"])
    else:
        xs, ys, tags = build_data(classes, args.per_class, args.negatives, args.seed, args.chunks, args.workers)
        vx, vy, vt = build_data(classes, max(4, args.per_class // 10), max(20, args.negatives // 10),
                                args.seed + 7919, args.chunks, args.workers)
        if cache is not None:
            cache.mkdir(parents=True, exist_ok=True)
            np.savez(cache / f"data-{key}.npz", xs=xs, ys=ys, tags=np.array(tags), vx=vx, vy=vy, vt=np.array(vt))
    t_data = time.time() - t0
    print(f"data: {len(xs)} training and {len(vx)} validation crops of {len(classes)} classes in {t_data:.0f} s",
          flush=True)

    net = make_net(len(classes), args.width)
    X = torch.from_numpy(xs).float().div_(255).unsqueeze(1)
    Y = torch.from_numpy(ys)
    steps = args.epochs * ((len(X) + args.batch - 1) // args.batch)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=max(1, steps), pct_start=0.15)
    gen = torch.Generator().manual_seed(args.seed)
    step = 0
    t1 = time.time()
    for epoch in range(args.epochs):
        net.train()
        order = torch.randperm(len(X), generator=gen)
        total = correct = 0
        loss_sum = 0.0
        for k in range(0, len(X), args.batch):
            idx = order[k:k + args.batch]
            xb, yb = _augment(X[idx], gen), Y[idx]
            logits, _ = net(xb)
            loss = F.cross_entropy(logits, yb, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            loss_sum += float(loss.detach()) * len(idx)
            correct += int((logits.argmax(1) == yb).sum())
            total += len(idx)
        print(f"epoch {epoch + 1}/{args.epochs}: loss {loss_sum / total:.3f}, train top-1 {correct / total:.3f}, "
              f"{time.time() - t1:.0f} s", flush=True)
    t_train = time.time() - t1

    net.eval()
    with torch.no_grad():
        vlog = torch.cat([net(torch.from_numpy(vx[k:k + 512]).float().div(255).unsqueeze(1))[0]
                          for k in range(0, len(vx), 512)])
    top5 = vlog.topk(min(5, len(classes)), dim=1).indices.numpy()
    hit1 = top5[:, 0] == vy
    hit5 = (top5 == vy[:, None]).any(1)
    per_set: dict[str, dict] = {}
    for tag in sorted(set(vt)):
        sel = np.array([t == tag for t in vt])
        per_set[tag] = {"crops": int(sel.sum()), "top1": round(float(hit1[sel].mean()), 4),
                        "top5": round(float(hit5[sel].mean()), 4)}
    print("validation (rendered, other seed):", json.dumps(per_set), flush=True)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    onnx_path = out / "icon_recogniser.onnx"

    class Export(torch.nn.Module):
        def __init__(self, inner):  # type: ignore[no-untyped-def]
            super().__init__()
            self.inner = inner

        def forward(self, x):  # type: ignore[no-untyped-def]
            return self.inner(x)

    from mobile_agent.perception.icons.learn import export  # the recogniser's ONNX file, as perception learn writes it

    export(Export(net), onnx_path)
    meta = {"classes": classes, "side": SIDE, "seed": args.seed, "width": args.width, "epochs": args.epochs,
            "per_class": args.per_class, "negatives": args.negatives, "torch": torch.__version__,
            "train_crops": int(len(xs)), "data_s": round(t_data), "train_s": round(t_train),
            "validation": per_set, "validation_top1": round(float(hit1.mean()), 4),
            "validation_top5": round(float(hit5.mean()), 4),
            "sources": {s.name: s.licence for s in icon_data.sources()},
            "bytes": onnx_path.stat().st_size}
    (out / "icon_recogniser.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {onnx_path} ({meta['bytes'] / 1e6:.2f} MB): validation top-1 {meta['validation_top1']:.3f}, "
          f"top-5 {meta['validation_top5']:.3f}", flush=True)
    return meta


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=str(MODEL_DIR), help="folder for icon_recogniser.onnx and .json")
    p.add_argument("--tiny", action="store_true", help="six classes, a few crops, one epoch (seconds)")
    p.add_argument("--per-class", type=int, default=640)
    p.add_argument("--negatives", type=int, default=20000)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--width", type=float, default=1.25)
    p.add_argument("--seed", type=int, default=20261206)
    p.add_argument("--chunks", type=int, default=8)
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--threads", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--cache", default="", help="a folder to keep the drawn data in between runs")
    args = p.parse_args(argv)
    if args.tiny:
        args.per_class, args.negatives, args.epochs, args.width, args.chunks = 24, 60, 1, 0.25, 2
        args.workers = 1
    train(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
