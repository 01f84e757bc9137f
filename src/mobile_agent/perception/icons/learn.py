"""Teach the icon recogniser real screens: a fine-tuning of a recogniser's model on labelled crops
cut from screenshots with their view trees (``mobile-agent perception learn``).

Every clickable image node of a uiautomator dump with a content-desc and no text names an icon for
free. ``mobile_agent.screensets.real_crops.screen_crops`` (the screen folders are the screen sets'
layer) cuts, from folders of screenshots with their dumps (``mobile-agent devices
capture`` output, the ``--dir`` screen-set format: ``img/NAME.png`` beside ``xml/NAME.xml``, or both
in one folder), one crop a node: the node's box and the icon detector's box inside it (what Click
Icon asks the recogniser about), labelled with the first concept of the lexicon its description
names (:func:`mobile_agent.perception.icons.learned.concept_weights`); a description the lexicon does
not know is left out and counted. Negatives: the dump's text leaves (words are not icons).

:func:`finetune` starts from a recogniser's ONNX model (the shipped one by default), rebuilt in
torch layer by layer from the graph (its batch norms were folded into the convolutions at export),
and trains it on the real crops, each drawn several times with the jitter a detector's box has
(shift, scale, JPEG, blur), beside rendered crops of every concept (``train/icon_data.py`` where the
repository's ``train`` folder is there; a replay, so that what the model knew of drawn icons stays).
It is deterministic for a seed on one machine and writes ``icon_recogniser.onnx`` and its
``icon_recogniser.json`` to a folder the caller names; the model it started from is never written.
torch and onnx are the ``train`` extra (``pip install -e ".[train]"``), imported only here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
from PIL import Image, ImageFilter

from mobile_agent.errors import ConfigError
from mobile_agent.perception.icons.recogniser import DEFAULT_MODEL, MODEL_FILE, NOT_ICON, SIDE, IconRecogniser, prepare

#: The margin kept around a crop's box (a share of its side), room for the jitter.
MARGIN = 0.3


@dataclass
class RealCrop:
    """One labelled crop: the pixels of ``box`` with a margin around it (``inner`` is the box within
    ``pixels``), its label (a concept of the recogniser's classes, or ``_none``), where it came from."""

    pixels: np.ndarray
    inner: tuple[int, int, int, int]
    label: str
    app: str
    screen: str
    description: str
    source: str  # "node" (the node's box), "detector" (the detector's box in it) or "text" (a negative)

    def box_crop(self) -> np.ndarray:
        x1, y1, x2, y2 = self.inner
        return self.pixels[y1:y2, x1:x2]


@dataclass
class CropSet:
    """What :func:`screen_crops` cut, with the counts it reports."""

    crops: list[RealCrop] = field(default_factory=list)
    screens: int = 0
    apps: list[str] = field(default_factory=list)
    unknown: Counter = field(default_factory=Counter)  # descriptions that name no concept: how many nodes
    repeated: int = 0  # nodes left out: their description names several nodes of their screen
    problems: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, Any]:
        labelled = [c for c in self.crops if c.label != NOT_ICON and c.source == "node"]
        return {"screens": self.screens, "apps": len(self.apps), "icon_nodes": len(labelled),
                "concepts": len({c.label for c in labelled}),
                "negatives": sum(c.label == NOT_ICON for c in self.crops),
                "unknown_descriptions": sum(self.unknown.values()), "repeated": self.repeated,
                "per_app": dict(sorted(Counter(c.app for c in labelled).items()))}


# -- drawing the real crops as a detector's box would cut them -------------------------------------
def jitter(crop: RealCrop, rng: np.random.Generator) -> np.ndarray:
    """The crop's box moved and scaled as a detector's box differs (up to 12% of its side, 0.85-1.25
    of its size), sometimes blurred or JPEG-coded, prepared as the recogniser's input."""
    x1, y1, x2, y2 = crop.inner
    w, h = x2 - x1, y2 - y1
    s = float(rng.uniform(0.85, 1.25))
    cx = (x1 + x2) / 2 + float(rng.uniform(-0.12, 0.12)) * w
    cy = (y1 + y2) / 2 + float(rng.uniform(-0.12, 0.12)) * h
    nw, nh = w * s, h * s
    ph, pw = crop.pixels.shape[:2]
    bx1, by1 = int(max(0, round(cx - nw / 2))), int(max(0, round(cy - nh / 2)))
    bx2, by2 = int(min(pw, round(cx + nw / 2))), int(min(ph, round(cy + nh / 2)))
    if bx2 - bx1 < 4 or by2 - by1 < 4:
        bx1, by1, bx2, by2 = x1, y1, x2, y2
    part = crop.pixels[by1:by2, bx1:bx2]
    r = float(rng.random())
    if r < 0.25 or r > 0.85:
        img = Image.fromarray(part)
        if r < 0.25:
            buf = io.BytesIO()
            img.save(buf, format="JPEG", quality=int(rng.integers(40, 90)))
            buf.seek(0)
            img = Image.open(buf).convert("RGB")
        else:
            img = img.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.3, 1.0))))
        part = np.asarray(img)
    return prepare(part)


# -- the model: the ONNX graph rebuilt in torch ----------------------------------------------------
def torch_from_onnx(path: str | Path) -> Any:
    """The recogniser's ONNX graph as a torch module with its weights (outputs: logits, embedding).

    The exported graph is a chain: Conv (batch norm folded in), Relu, MaxPool, GlobalAveragePool,
    Flatten, then two Gemm: the embedding and the classifier on it. Anything else is refused."""
    import onnx
    import torch
    import torch.nn as nn
    from onnx import numpy_helper

    try:
        model = onnx.load(str(path))
    except Exception as exc:  # onnx raises its own types for a corrupt file
        raise ConfigError(f"{path}: not an ONNX model ({str(exc).splitlines()[0][:160]})") from None
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    layers: list[Any] = []
    gemms: list[Any] = []
    for node in model.graph.node:
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type == "Conv":
            w, b = weights[node.input[1]], weights[node.input[2]]
            k = w.shape[2]
            conv = nn.Conv2d(w.shape[1], w.shape[0], k, stride=int(attrs.get("strides", [1])[0]),
                             padding=int(attrs.get("pads", [0])[0]), bias=True)
            conv.weight.data = torch.from_numpy(w.copy())
            conv.bias.data = torch.from_numpy(b.copy())
            layers.append(conv)
        elif node.op_type == "Relu":
            layers.append(nn.ReLU())
        elif node.op_type == "MaxPool":
            layers.append(nn.MaxPool2d(int(attrs["kernel_shape"][0]), int(attrs.get("strides", [1])[0])))
        elif node.op_type == "GlobalAveragePool":
            layers.append(nn.AdaptiveAvgPool2d(1))
        elif node.op_type == "Flatten":
            layers.append(nn.Flatten())
        elif node.op_type == "Gemm":
            w, b = weights[node.input[1]], weights[node.input[2]]
            if int(attrs.get("transB", 0)) != 1:
                raise ConfigError(f"{path}: a Gemm without transB: not the recogniser's graph")
            lin = nn.Linear(w.shape[1], w.shape[0])
            lin.weight.data = torch.from_numpy(w.copy())
            lin.bias.data = torch.from_numpy(b.copy())
            gemms.append(lin)
        else:
            raise ConfigError(f"{path}: an {node.op_type} node: not the recogniser's graph")
    if len(gemms) != 2:
        raise ConfigError(f"{path}: {len(gemms)} linear layers, the recogniser has 2 (embedding, classifier)")

    class Rebuilt(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(*layers)
            self.embed, self.head = gemms

        def forward(self, x):  # type: ignore[no-untyped-def]
            e = self.embed(self.features(x))
            return self.head(e), e

    return Rebuilt()


def export(net: Any, path: Path) -> None:
    """The module as the recogniser's ONNX file (input ``x``, outputs ``logits`` and ``embedding``)."""
    import torch

    net.eval()
    torch.onnx.export(net, torch.zeros(1, 1, SIDE, SIDE), str(path), dynamo=False, input_names=["x"],
                      output_names=["logits", "embedding"],
                      dynamic_axes={"x": {0: "n"}, "logits": {0: "n"}, "embedding": {0: "n"}}, opset_version=17)


# -- the rendered replay -----------------------------------------------------------------------------
def _icon_data() -> Any | None:
    """``train/icon_data.py`` of the repository's clone, where it is there (the rendered crops)."""
    try:
        from train import icon_data  # the repository root on sys.path (tests, python -m)

        return icon_data
    except ImportError:
        pass
    path = Path(__file__).resolve().parents[4] / "train" / "icon_data.py"
    if not path.is_file():
        return None
    root = str(path.parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    try:
        from train import icon_data

        return icon_data
    except ImportError:
        return None


def rendered(classes: Sequence[str], per_class: int, negatives: int, seed: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Rendered crops of ``classes`` (the training's own drawing), or None without ``train/``."""
    data = _icon_data()
    if data is None or per_class <= 0:
        return None
    names = [c for c in classes if c != NOT_ICON]
    bank = data.glyph_bank(names)
    xs, ys, _ = data.make_dataset(bank, list(classes), per_class, negatives, seed)
    return xs, ys


# -- fine-tuning -------------------------------------------------------------------------------------
@dataclass
class LearnSettings:
    epochs: int = 6
    draws: int = 24          # each real crop drawn this many times (the first as cut, the others jittered)
    replay_per_class: int = 60
    replay_negatives: int = 3000
    lr: float = 3e-4
    batch: int = 128
    seed: int = 20261207
    threads: int = 2
    #: drop a real crop the model learned from names as another concept at this probability or more while
    #: giving its own label under 0.05 (an app's words for another glyph: My Expenses' "Navigate up" drawn
    #: as a cross); None keeps every crop (a user's own apps: their words are what they will ask for)
    disagree: float | None = None


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def finetune(crops: CropSet, out: str | Path, base: str | Path | None = None,
             settings: LearnSettings | None = None, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Fine-tune the recogniser ``base`` (default: the shipped model) on ``crops`` and write the model to
    the folder ``out`` (``icon_recogniser.onnx`` and ``.json``). Returns what the ``.json`` holds."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        raise ConfigError("learning needs torch and onnx, the train extra: pip install -e \".[train]\"") from None
    st = settings or LearnSettings()
    say = log or (lambda _m: None)
    base_path = Path(base) if base is not None else DEFAULT_MODEL
    base_rec = IconRecogniser(base_path)  # refuses a missing, corrupt or foreign model, naming the file
    out_dir = Path(out)
    target = out_dir / MODEL_FILE
    if target.resolve() == base_path.resolve() or target.resolve() == DEFAULT_MODEL.resolve():
        raise ConfigError(f"{target}: the model learned from is never overwritten; name another folder")
    labelled = [c for c in crops.crops if c.label in base_rec.index]
    dropped = 0
    if st.disagree is not None and labelled:
        probs, _ = base_rec.run(np.stack([prepare(c.box_crop()) for c in labelled]))
        keep = []
        for c, row in zip(labelled, probs):
            own = float(row[base_rec.index[c.label]])
            other = max((float(v) for j, v in enumerate(row) if j != base_rec.index[c.label]), default=0.0)
            if c.label != NOT_ICON and own < 0.05 and other >= st.disagree:
                dropped += 1
                continue
            keep.append(c)
        labelled = keep
    if not any(c.label != NOT_ICON for c in labelled):
        raise ConfigError("no labelled icon in the screens given: each screenshot needs its uiautomator dump "
                          "with clickable image nodes whose content-desc names an icon (mobile-agent devices "
                          "capture keeps both)")
    t0 = time.time()
    torch.manual_seed(st.seed)
    torch.set_num_threads(st.threads)
    rng = np.random.default_rng(st.seed)
    classes = base_rec.classes
    net = torch_from_onnx(base_path)
    # the real crops, each drawn ``draws`` times with a detector's jitter (the first draw: as cut)
    real_x = np.stack([prepare(c.box_crop()) for c in labelled]
                      + [jitter(c, rng) for _ in range(st.draws - 1) for c in labelled])
    real_y = np.asarray([base_rec.index[c.label] for c in labelled] * st.draws, np.int64)
    replay = rendered(classes, st.replay_per_class, st.replay_negatives, st.seed)
    if replay is not None:
        xs, ys = np.concatenate([real_x, replay[0]]), np.concatenate([real_y, replay[1]])
        say(f"{len(real_x)} draws of {len(labelled)} real crops, {len(replay[0])} rendered crops (replay)")
    else:
        xs, ys = real_x, real_y
        why = ("none asked" if st.replay_per_class <= 0 else
               "train/icon_data.py, which draws them, is in the repository's clone, not here")
        say(f"{len(real_x)} draws of {len(labelled)} real crops; no rendered replay ({why}): the convolutions "
            "stay as they are, the last layers learn")
        for p in net.features.parameters():
            p.requires_grad_(False)
    t_data = time.time() - t0
    X = torch.from_numpy(xs).float().div_(255).unsqueeze(1)
    Y = torch.from_numpy(ys)
    params = [p for p in net.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=st.lr, weight_decay=1e-4)
    steps = st.epochs * ((len(X) + st.batch - 1) // st.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=st.lr, total_steps=max(1, steps), pct_start=0.2)
    gen = torch.Generator().manual_seed(st.seed)
    t1 = time.time()
    for epoch in range(st.epochs):
        net.train()
        order = torch.randperm(len(X), generator=gen)
        loss_sum, correct = 0.0, 0
        for k in range(0, len(X), st.batch):
            idx = order[k:k + st.batch]
            gain = 0.7 + 0.6 * torch.rand(len(idx), 1, 1, 1, generator=gen)
            xb = torch.clamp(X[idx] * gain, 0, 1)
            logits, _ = net(xb)
            loss = F.cross_entropy(logits, Y[idx], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += float(loss.detach()) * len(idx)
            correct += int((logits.argmax(1) == Y[idx]).sum())
        say(f"epoch {epoch + 1}/{st.epochs}: loss {loss_sum / len(X):.3f}, top-1 {correct / len(X):.3f}, "
            f"{time.time() - t1:.0f} s")
    t_train = time.time() - t1
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / (MODEL_FILE + ".part")
    export(net, tmp)
    counts = crops.counts()
    meta = {"classes": classes, "side": SIDE, "base": base_path.name, "base_sha256": _sha(base_path),
            "learned_from": {"screens": counts["screens"], "apps": crops.apps, "icon_nodes": counts["icon_nodes"],
                             "crops": len(labelled), "negatives": counts["negatives"],
                             "unknown_descriptions": counts["unknown_descriptions"], "repeated": counts["repeated"],
                             "disagreeing_dropped": dropped},
            "replay": None if replay is None else {"per_class": st.replay_per_class, "negatives": st.replay_negatives},
            "settings": {k: getattr(st, k) for k in st.__dataclass_fields__}, "torch": torch.__version__,
            "data_s": round(t_data, 1), "train_s": round(t_train, 1)}
    tmp.replace(target)
    meta["bytes"] = target.stat().st_size
    (out_dir / "icon_recogniser.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    IconRecogniser(target)  # what was written loads as a recogniser
    return meta


def has_torch() -> bool:
    return importlib.util.find_spec("torch") is not None and importlib.util.find_spec("onnx") is not None
