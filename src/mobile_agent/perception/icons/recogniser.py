"""The learned icon recogniser: a small network the project trains itself (``train/icon_train.py``).

It maps an icon crop to the concepts the Click Icon vocabulary names (each a Font Awesome glyph
name, or ``mi:NAME`` for a Material-only glyph) plus ``_none`` (no icon), and gives an embedding for
glyphs it has no class for. Weights: ``model/icon_recogniser.onnx`` beside this file (a few MB, run
on onnxruntime), its classes and input in ``model/icon_recogniser.json``; how it was trained, on
what, and its figures: ``model/MODEL_CARD.md``.

The input is the crop as the distance of each pixel from the crop's background colour (the median
of its border), the largest over R, G and B: polarity, theme and tint fall away, and a coloured glyph
on a grey of the same brightness still shows. The crop keeps its aspect in a ``SIDE`` x ``SIDE``
square. Training (``train/icon_data.py``) prepares every crop with the same ``prepare``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from mobile_agent.errors import ConfigError
from mobile_agent.types import Box

SIDE = 32
NOT_ICON = "_none"
MODEL_DIR = Path(__file__).with_name("model")
MODEL_FILE = "icon_recogniser.onnx"  # a model folder's file (the shipped one, or what perception learn writes)
DEFAULT_MODEL = MODEL_DIR / MODEL_FILE

# A turn of a glyph that changes its meaning (the navigation bar's Back is a play glyph turned):
# a concept of its own. Other turns in the vocabulary (a send plane flying right or up-right) are
# the same concept as their glyph.
OWN_TURNS = frozenset({"play@180"})


class RecogniserError(ConfigError):
    """The recogniser's model file is missing, unreadable or not the recogniser's."""


def concept_of_spec(spec: str) -> str:
    """The concept a vocabulary glyph spec names: ``r:heart~0.9`` -> ``heart``, ``mi:save`` stays,
    ``play@180`` stays (a turn that changes the meaning), ``paper_plane@-45`` -> ``paper_plane``."""
    base = spec.split("~")[0].split("|")[0].split("^")[0]
    style, _, name = base.rpartition(":")
    name = f"mi:{name}" if style == "mi" else name
    return name if name in OWN_TURNS else name.partition("@")[0]


def lexicon_concepts() -> list[str]:
    """Every concept of the vocabulary, sorted."""
    from mobile_agent.perception.icons.lexicon import VOCABULARY

    return sorted({concept_of_spec(s) for specs in VOCABULARY.values() for s in specs})


def prepare(crop: np.ndarray) -> np.ndarray:
    """An RGB crop as the recogniser's input: uint8 ``SIDE`` x ``SIDE``, ink bright on black."""
    if crop.ndim == 2:
        crop = np.stack([crop] * 3, -1)
    h, w = crop.shape[:2]
    out = np.zeros((SIDE, SIDE), np.uint8)
    if h < 2 or w < 2:
        return out
    c = crop[..., :3].astype(np.int16)
    border = np.concatenate([c[0], c[-1], c[:, 0], c[:, -1]])
    bg = np.median(border, axis=0)
    dist = np.abs(c - bg).max(axis=2).astype(np.float32)
    top = float(np.percentile(dist, 99.5))
    if top < 8.0:  # a plain patch: nothing drawn
        return out
    dist = np.clip(dist * (255.0 / top), 0, 255)
    f = SIDE / max(h, w)
    nw, nh = max(1, round(w * f)), max(1, round(h * f))
    interp = cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR
    small = cv2.resize(dist, (nw, nh), interpolation=interp)
    y, x = (SIDE - nh) // 2, (SIDE - nw) // 2
    out[y:y + nh, x:x + nw] = np.clip(small, 0, 255).astype(np.uint8)
    return out


class IconRecogniser:
    """The trained network on onnxruntime: ``classify`` crops, ``embed`` them, and the probability
    of a vocabulary concept for each box (``concept_probs``)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else DEFAULT_MODEL
        meta_path = self.path.with_suffix(".json")
        if not self.path.is_file():
            raise RecogniserError(f"the icon recogniser's model {self.path} is missing (an .onnx file, or a folder "
                                  "holding icon_recogniser.onnx, as mobile-agent perception learn writes)")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            self.classes: list[str] = list(meta["classes"])
            self.side = int(meta.get("side", SIDE))
        except FileNotFoundError as exc:
            raise RecogniserError(f"the icon recogniser's class list {meta_path} is missing "
                                  f"(retrain with: python -m train.icon_train)") from exc
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise RecogniserError(f"the icon recogniser's class list {meta_path} is unreadable: {exc}") from exc
        if self.side != SIDE:
            raise RecogniserError(f"{meta_path}: input side {self.side}, this code prepares {SIDE}")
        try:
            import onnxruntime as ort

            opts = ort.SessionOptions()
            opts.intra_op_num_threads = 1
            opts.inter_op_num_threads = 1
            self._session = ort.InferenceSession(str(self.path), sess_options=opts,
                                                 providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own types for a missing or corrupt file
            what = "missing" if not self.path.exists() else "not a model onnxruntime can load"
            raise RecogniserError(f"the icon recogniser's model {self.path} is {what}: "
                                  f"{str(exc).splitlines()[0][:200]}") from exc
        outs = [o.name for o in self._session.get_outputs()]
        if outs[:2] != ["logits", "embedding"]:
            raise RecogniserError(f"{self.path} is not the icon recogniser (outputs {outs})")
        ins = self._session.get_inputs()
        if len(ins) != 1 or ins[0].name != "x" or list(ins[0].shape)[1:] != [1, SIDE, SIDE]:
            shape = [(i.name, i.shape) for i in ins]
            raise RecogniserError(f"{self.path} is not the icon recogniser (inputs {shape}; it takes x [n, 1, "
                                  f"{SIDE}, {SIDE}])")
        width = self._session.get_outputs()[0].shape[-1]
        if isinstance(width, int) and width != len(self.classes):
            raise RecogniserError(f"{self.path} gives {width} classes and its class list {meta_path} names "
                                  f"{len(self.classes)}: the two files are not of one model")
        if NOT_ICON not in self.classes:
            raise RecogniserError(f"{meta_path}: its classes have no {NOT_ICON!r} (no icon): not the recogniser's")
        self.index = {c: k for k, c in enumerate(self.classes)}

    def run(self, prepared: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Softmax probabilities [N, classes] and unit embeddings [N, D] of prepared inputs [N, S, S]."""
        if len(prepared) == 0:
            return np.zeros((0, len(self.classes)), np.float32), np.zeros((0, 0), np.float32)
        x = (prepared.astype(np.float32) / 255.0)[:, None]
        logits, emb = self._session.run(["logits", "embedding"], {"x": x})
        z = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        emb = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-6)
        return p, emb

    def classify(self, rgb: np.ndarray, boxes: Sequence[Box]) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities and embeddings of ``boxes`` of the screenshot ``rgb``."""
        crops = [prepare(rgb[max(0, b.y1):b.y2, max(0, b.x1):b.x2]) for b in boxes]
        return self.run(np.stack(crops) if crops else np.zeros((0, SIDE, SIDE), np.uint8))

    def top(self, probs: np.ndarray, k: int = 5) -> list[list[tuple[str, float]]]:
        """The ``k`` likeliest classes of each row of ``probs``, with their probabilities."""
        order = np.argsort(-probs, axis=1)[:, :k]
        return [[(self.classes[j], float(row[j])) for j in idx] for row, idx in zip(probs, order)]

    def concept_probs(self, probs: np.ndarray, weights: dict[str, float]) -> np.ndarray:
        """For each row, the probability that the box shows one of the concepts ``weights`` names,
        each counted at its weight (a weaker alternative less), at most 1."""
        cols = [(self.index[c], w) for c, w in weights.items() if c in self.index]
        if not cols:
            return np.zeros(len(probs), np.float32)
        out = np.zeros(len(probs), np.float32)
        for j, w in cols:
            out += w * probs[:, j]
        return np.minimum(out, 1.0)


@lru_cache(maxsize=2)
def default_recogniser(path: str | None = None) -> IconRecogniser:
    """The shipped recogniser, loaded once a process."""
    return IconRecogniser(path)
