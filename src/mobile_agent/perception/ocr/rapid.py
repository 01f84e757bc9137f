"""RapidOCR engine: PP-OCR text detection (DB) and recognition (CTC) on onnxruntime.

RapidOCR's own pipeline detects at a fixed minimum side and runs an angle classifier; on a phone
screenshot that costs over a second on two cores. Here:

- Detection runs on the screenshot scaled down to ``det_max_side`` pixels on its long side (phone
  text stays 12 px or taller).
- The angle classifier is off (screen text is upright).
- Recognition reads crops of the full-resolution image, each scaled to the recogniser's 48 px
  height. The recogniser reads at least 320 px of width per input (PaddleOCR's parameter, which
  this model needs: a lone short crop read in a narrower input reads worse), so crops are packed
  side by side into 320 px inputs, 16 px apart, and the CTC columns are split back among them by
  position. Glyph-sized crops (under two line heights wide: a digit, a short word in a tall box,
  an icon the detector took for text) are half the crops of a phone screen. By default they are
  packed too, but only among themselves, so that the longer crops read exactly as before: a full
  parse takes about a seventh less than with each glyph alone in its own input
  (``pack_min_ratio=2``), but a glyph read beside others reads worse (a numbered label's "10" as
  "1", an icon as another symbol). So the engine says which boxes were glyph-sized and read packed
  (:meth:`last_packed_glyphs`), and :meth:`read_alone` reads them again each in its own 320 px
  input, as ``pack_min_ratio=2`` reads them: Click Text does that for a short target, or when no
  packed line holds the target (docs/perception.md).
  The glyph pass (:meth:`read_glyphs`) reads each glyph alone too.
  Inputs go to the recogniser up to 8 at a time (``rec_batch``; 8 costs 4% less per input than
  4), sorted by width, in runs of 8, and a batch is padded to its widest input (the last 320 px
  inputs of a screen to its long lines' width) when ``batch_overhead`` is ``inf``. By default
  (``batch_overhead=64``) the batches are planned instead (:func:`plan_batches`) so that the
  columns computed, plus 64 columns for each batch, are fewest: a tenth fewer columns on the wide
  set's screens and about a twentieth off a parse; a line read with less padding beside it may
  read a little differently (docs/perception.md, "Full-parse speed").
- Word boxes and the detector's input are computed with rapidocr's own steps, less the copies and
  ordering a screenshot's upright crops need not; tests hold the results equal to rapidocr's.
- Crops already read (same pixels) are taken from a small cache, which makes re-reading an
  unchanged line nearly free.
- onnxruntime's memory arena is on (rapidocr turns it off): about a tenth off each detector call.
- Denormal floats are flushed to zero (``flush_denormals``). The detector's activations on a
  screenshot (large flat areas) fall into that range, and the CPU computes on them slowly: a
  quarter off each detector call, with the same boxes.
- onnxruntime's idle worker threads spin 50 microseconds before they sleep (``spin_us``; its own
  default is about a million pause instructions, 16 ms on a Zen core): long enough to stay awake
  from one operator to the next within a run, short enough not to take a core between runs from
  the engine's own work, icon detection or other processes. The same outputs, bit for bit (the
  threads compute the same partitions); under load about a quarter off a full parse.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import OrderedDict
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np

from mobile_agent.errors import ConfigError
from mobile_agent.perception.results import TextLine, Word
from mobile_agent.types import Box

_CACHE_SIZE = 4096
# The PP-OCR detector quantised to int8 (bench/quantize_det.py; provenance and licence beside it).
INT8_DET = Path(__file__).resolve().parent / "models" / "ppocr_det_int8.onnx"
_REC_H = 48  # the recogniser's input height
_REC_MIN_W = 320  # the least width it reads (PaddleOCR's rec_image_shape)
_PACK_GAP = 16  # pixels between crops packed into one input
GLYPH_RATIO = 2.0  # a crop narrower than this many times its height is glyph-sized
_PACK_MIN_RATIO = 0.0  # by default every crop under the least input width is packed
_BATCH_OVERHEAD = 64.0  # columns a batch costs beyond its inputs' (plan_batches)
# Microseconds an idle onnxruntime worker thread spins before it sleeps (``spin_us``). Within a run
# the next operator comes within 7 us (median), 15 to 26 us (p90) and 31 to 55 us (p99) under load
# on this project's models, so the workers stay awake through a run; between runs (the
# recogniser's inputs prepared, its columns decoded, icon detection) they sleep instead of taking
# a core from that work and from other processes (docs/perception.md, "Full-parse speed").
_SPIN_US = 50.0

#: The PP-OCR detector and recogniser loaded in this process, by the options they were loaded
#: with: every engine with the same options uses the same onnxruntime sessions (their ``run`` is
#: thread-safe, and DB post-processing and CTC decoding keep no state between calls), so that a
#: fresh ``Perception()`` (one a phone, one a benchmark task, one a test) costs neither the 0.8 s of
#: loading four sessions nor their memory again. What an engine remembers (recognised crops, the
#: detector's normalisation table) stays its own.
_SHARED_MODELS: dict[tuple, tuple[Any, Any]] = {}
_SHARED_LOCK = threading.Lock()

WordTuple = tuple[str, float, tuple[int, int, int, int]]
RecResult = tuple[str, float, list[WordTuple]]


class RapidOcrEngine:
    """OCR with RapidOCR's bundled PP-OCR models (English and Chinese)."""

    name = "rapidocr"

    def __init__(self, det_max_side: int = 800, text_score: float = 0.5, box_thresh: float = 0.5,
                 unclip_ratio: float = 1.6, rec_batch: int = 8, threads: int | None = None,
                 word_boxes: bool = True, crop_pad: float = 0.0, pack: bool = True,
                 flush_denormals: bool = True, det_int8: bool = False,
                 pack_min_ratio: float = _PACK_MIN_RATIO, batch_overhead: float = _BATCH_OVERHEAD,
                 spin_us: float | None = _SPIN_US) -> None:
        try:
            from rapidocr import RapidOCR
        except ImportError as exc:  # pragma: no cover - a pinned dependency
            raise ConfigError("the rapidocr package is not installed: pip install rapidocr") from exc
        if not isinstance(batch_overhead, (int, float)) or not batch_overhead >= 0:
            raise ConfigError(f"batch_overhead={batch_overhead!r}: use a number of columns, 0 or more "
                              "(64, the default; inf: runs of rec_batch inputs)")
        if spin_us is not None and (isinstance(spin_us, bool) or not isinstance(spin_us, (int, float))
                                    or not 0 <= spin_us < math.inf):
            raise ConfigError(f"spin_us={spin_us!r}: use a number of microseconds, 0 or more ({_SPIN_US:g}, the "
                              "default; None: onnxruntime's own spinning)")
        if det_max_side < 320:
            raise ConfigError(f"det_max_side={det_max_side} is too small to read phone text: use 640 or more")
        params: dict[str, Any] = {
            "Global.log_level": "error",
            "Global.use_cls": False,
            "Global.text_score": text_score,
            "Det.limit_type": "max",
            "Det.limit_side_len": 4096,
            "Det.box_thresh": box_thresh,
            "Det.unclip_ratio": unclip_ratio,
            "Rec.rec_batch_num": rec_batch,
            "EngineConfig.onnxruntime.enable_cpu_mem_arena": True,
        }
        if threads is not None:
            params["EngineConfig.onnxruntime.intra_op_num_threads"] = int(threads)
        self._rapid = RapidOCR(params=params)
        self._params = params
        self.det_max_side = det_max_side
        self.text_score = text_score
        self.word_boxes = word_boxes
        self.crop_pad = crop_pad
        self.rec_batch = max(1, int(rec_batch))
        self.batch_overhead = float(batch_overhead)
        self.pack = pack
        self.pack_min_ratio = float(pack_min_ratio)
        self.flush_denormals = flush_denormals
        self.spin_us = None if spin_us is None else float(spin_us)
        self.det_int8 = det_int8
        if det_int8 and not INT8_DET.exists():
            raise ConfigError(f"the int8 text detector is missing ({INT8_DET.name}); rebuild it with "
                              "python bench/quantize_det.py (needs: pip install onnx)")
        self.threads = threads
        self._lock = threading.Lock()
        self._stages = threading.local()
        self._cache: OrderedDict[bytes, RecResult] = OrderedDict()
        self.stats = {"crops_read": 0}  # crops the recogniser has read (cache misses): tests, benchmarks
        self._det = None
        self._rec = None
        self._det_lut: dict[Any, np.ndarray] = {}

    def clear_cache(self) -> None:
        """Forget recognised crops."""
        with self._lock:
            self._cache.clear()

    def cache_state(self) -> Any:
        """A copy of the recognised crops, in their order (:meth:`restore_cache` puts it back)."""
        with self._lock:
            return OrderedDict(self._cache)

    def restore_cache(self, state: Any) -> None:
        with self._lock:
            self._cache.clear()
            self._cache.update(state)

    # -- models, loaded on first use ------------------------------------------------------------
    def _models(self) -> tuple[Any, Any]:
        """The detector and recogniser, loaded once per process for each set of options (see
        :data:`_SHARED_MODELS`); this engine's caches stay its own."""
        if self._det is None:
            key = (tuple(sorted(self._params.items())), self.threads, self.flush_denormals, self.spin_us,
                   self.det_int8)
            with _SHARED_LOCK:
                pair = _SHARED_MODELS.get(key)
                if pair is None:
                    det = self._rapid._load_det_model()
                    rec = self._rapid._load_rec_model()
                    if self.flush_denormals or self.spin_us is not None:
                        for model in (det, rec):
                            _tune_session(model.session, self.threads, flush=self.flush_denormals,
                                          spin_us=self.spin_us)
                    if self.det_int8:
                        _tune_session(det.session, self.threads, model_path=str(INT8_DET),
                                      flush=self.flush_denormals, spin_us=self.spin_us)
                    pair = _SHARED_MODELS[key] = (det, rec)
            self._det, self._rec = pair
        return self._det, self._rec

    # -- detection ------------------------------------------------------------------------------
    def detect(self, rgb: np.ndarray, det_scale: float | None = None) -> list[Box]:
        """Boxes of text lines in ``rgb`` (axis-aligned, full-resolution coordinates)."""
        h, w = rgb.shape[:2]
        scale = det_scale if det_scale is not None else self.scale_for(w, h)
        small = self._downscale(rgb, scale)
        return self._detect_small(small, 0, small.shape[0], scale, w, h, 0)

    def scale_for(self, width: int, height: int) -> float:
        """The detection scale used for a whole screenshot of this size."""
        return min(1.0, self.det_max_side / float(max(height, width)))

    @staticmethod
    def _downscale(rgb: np.ndarray, scale: float) -> np.ndarray:
        h, w = rgb.shape[:2]
        rw, rh = max(8, int(round(w * scale))), max(8, int(round(h * scale)))
        # Scaled first, its channels swapped after: the same pixels (each channel is scaled on its
        # own) without copying the full-resolution screenshot into BGR order first.
        return np.ascontiguousarray(cv2.resize(rgb, (rw, rh), interpolation=cv2.INTER_AREA)[:, :, ::-1])

    def _detect_small(self, small: np.ndarray, r1: int, r2: int, scale: float, w: int, h: int,
                      y_offset: int) -> list[Box]:
        """Detect in rows [r1, r2) of the downscaled BGR image; boxes in full-resolution pixels."""
        det, _ = self._models()
        part = small[r1:r2]
        rh, rw = part.shape[:2]
        # Pad (never stretch) to the multiple of 32 the network needs.
        sw, sh = -(-rw // 32) * 32, -(-rh // 32) * 32
        part = cv2.copyMakeBorder(part, 0, sh - rh, 0, sw - rw, cv2.BORDER_REPLICATE)
        quads = self._det_quads(det, part)
        if len(quads) == 0:
            return []
        fx = w / float(small.shape[1])
        fy = h / float(small.shape[0])
        boxes: list[Box] = []
        for quad in quads:
            xs = quad[:, 0] * fx
            ys = (quad[:, 1] + r1) * fy
            b = Box(max(0, int(np.floor(xs.min()))), max(0, int(np.floor(ys.min()))),
                    min(w, int(np.ceil(xs.max())) + 1), min(h, int(np.ceil(ys.max())) + 1))
            if b.width >= 4 and b.height >= 4:
                boxes.append(b)
        boxes.sort(key=lambda b: (b.y1 // 10, b.x1))
        return boxes

    def _det_quads(self, det: Any, img: np.ndarray) -> Any:
        """rapidocr's text detector on a BGR image whose sides are multiples of 32: its own steps
        (normalise, run, DB post-processing, reading order), the same boxes (a test holds them
        equal), with the normalisation looked up per pixel value in a table computed as rapidocr
        computes it (float64, then float32) rather than in float64 over the whole image, and no
        resize to the size the image already has."""
        pre = det.get_preprocess()
        key = (tuple(np.ravel(pre.mean)), tuple(np.ravel(pre.std)), pre.scale)
        lut = self._det_lut.get(key)
        if lut is None:
            values = np.arange(256, dtype=np.uint8)[:, None].repeat(3, axis=1)
            lut = ((values.astype("float32") * pre.scale - pre.mean) / pre.std).astype(np.float32)
            self._det_lut[key] = lut
        x = np.empty((1, 3) + img.shape[:2], np.float32)
        for c in range(3):
            np.take(lut[:, c], img[:, :, c], out=x[0, c])
        preds = det.session(x)
        quads, _ = det.postprocess_op(preds, img.shape[:2])
        if len(quads) == 0:
            return []
        return det.sorted_boxes(quads)

    def read_bands(self, rgb: np.ndarray, bands: list[tuple[int, int]], margin: int = 48) -> list[TextLine]:
        """Text lines centred in the row bands ``[(y1, y2), ...]`` of ``rgb``.

        The screenshot is scaled down once, exactly as for a full read, and each band is detected
        with ``margin`` rows of context on both sides; recognition runs once for all bands. Lines
        come out as a full read would give them.
        """
        h, w = rgb.shape[:2]
        scale = self.scale_for(w, h)
        small = self._downscale(rgb, scale)
        sh = small.shape[0]
        boxes: list[Box] = []
        for y1, y2 in bands:
            r1 = max(0, int(np.floor((y1 - margin) * sh / float(h))))
            r2 = min(sh, int(np.ceil((y2 + margin) * sh / float(h))))
            if r2 - r1 < 4:
                continue
            for b in self._detect_small(small, r1, r2, scale, w, h, 0):
                if y1 <= (b.y1 + b.y2) / 2.0 < y2:
                    boxes.append(b)
        boxes.sort(key=lambda b: (b.y1 // 10, b.x1))
        self._stages.packed = self.packed_glyphs(rgb, boxes)
        return self.recognize(rgb, boxes)

    # -- recognition ----------------------------------------------------------------------------
    def recognize(self, rgb: np.ndarray, boxes: list[Box], keep_all: bool = False,
                  pack_min_ratio: float | None = None) -> list[Any]:
        """Read the text in each box of ``rgb``; lines under ``text_score`` or empty are dropped
        (with ``keep_all``, they are ``None`` in a list parallel to ``boxes``)."""
        if not boxes:
            return []
        crops: list[np.ndarray] = []
        keys: list[bytes] = []
        results: list[RecResult | None] = []
        h = rgb.shape[0]
        ratio = self.pack_min_ratio if pack_min_ratio is None else pack_min_ratio
        for b in boxes:
            # Extra rows above and below make the recogniser's input shorter (it is scaled to a
            # fixed height), which costs less; ``crop_pad`` is that share of the line's height.
            pad = int(b.height * self.crop_pad)
            y1, y2 = max(0, b.y1 - pad), min(h, b.y2 + pad)
            # The crop stays in RGB order (the recogniser's input swaps the channels after scaling:
            # the same pixels) and is hashed in place: one copy of it, not three.
            crop = np.ascontiguousarray(rgb[y1:y2, b.x1:b.x2])
            digest = hashlib.sha1(b"%dx%d:%g|" % (crop.shape[1], crop.shape[0], ratio), usedforsecurity=False)
            digest.update(crop)
            key = digest.digest()
            crops.append(crop)
            keys.append(key)
            with self._lock:
                hit = self._cache.get(key)
                if hit is not None:
                    self._cache.move_to_end(key)
            results.append(hit)
        todo = [i for i, r in enumerate(results) if r is None]
        if todo:
            self.stats["crops_read"] += len(todo)
            read = self._read_crops([crops[i] for i in todo], ratio)
            for i, r in zip(todo, read):
                results[i] = r
                with self._lock:
                    self._cache[keys[i]] = r
                    if len(self._cache) > _CACHE_SIZE:
                        self._cache.popitem(last=False)
        lines: list[Any] = []
        for b, r in zip(boxes, results):
            assert r is not None
            text, score, words = r
            text = text.strip()
            if not text or score < self.text_score:
                if keep_all:
                    lines.append(None)
                continue
            wlist = tuple(Word(t, Box(b.x1 + x1, b.y1, b.x1 + x2, b.y2), s)
                          for t, s, (x1, y1, x2, y2) in words if t.strip())
            lines.append(TextLine(text, b, score, wlist))
        return lines

    def _read_crops(self, crops: list[np.ndarray], pack_min_ratio: float) -> list[RecResult]:
        """Text, score and word boxes of each RGB crop, read in packed inputs (see the module's
        documentation): the readings rapidocr's own recogniser gives crop by crop, bar a few spaces
        and letter cases."""
        _, rec = self._models()
        inputs = [_rec_input(c) for c in crops]
        widths = [x.shape[2] for x in inputs]
        # Glyph-sized crops share inputs only among themselves: the longer crops are read exactly
        # as when the glyphs are read alone, so reading a screen's glyphs alone again
        # (:meth:`read_alone`) gives every line the engine would read with ``pack_min_ratio=2``.
        canvases = pack_widths(widths, _REC_MIN_W, _PACK_GAP,
                               pack_min_ratio * _REC_H if self.pack else float("inf"), GLYPH_RATIO * _REC_H)
        # Batches of inputs of like width: each batch is padded to its widest input.
        canvases.sort(key=lambda c: max(_REC_MIN_W, c[0]))
        out: list[Any] = [None] * len(crops)
        infos: list[Any] = [None] * len(crops)
        for k1, k2 in plan_batches([max(_REC_MIN_W, c[0]) for c in canvases], self.rec_batch, self.batch_overhead):
            group = canvases[k1:k2]
            cw = max(_REC_MIN_W, max(c[0] for c in group))
            batch = np.zeros((len(group), 3, _REC_H, cw), np.float32)
            for j, (_, placed) in enumerate(group):
                for i, x0 in placed:
                    batch[j, :, :, x0:x0 + widths[i]] = inputs[i]
            preds = rec.session(batch)
            idx = preds.argmax(axis=2)
            prob = np.take_along_axis(preds, idx[..., None], axis=2)[..., 0]
            step = cw / float(preds.shape[1])
            for j, (_, placed) in enumerate(group):
                for (i, x0), (t1, t2) in zip(placed, _segments(placed, widths, cw, step)):
                    out[i], infos[i] = self._decode(rec, idx[j, t1:t2], prob[j, t1:t2],
                                                    x0 / step - t1, widths[i] / step)
        words: list[list[WordTuple]] = [[] for _ in crops]
        if self.word_boxes:
            words = self._word_boxes(crops, SimpleNamespace(txts=[t for t, _ in out], word_results=infos))
        return [(t, sc, wl) for (t, sc), wl in zip(out, words)]

    @staticmethod
    def _decode(rec: Any, idx: np.ndarray, prob: np.ndarray, col_offset: float,
                cols: float) -> tuple[tuple[str, float], Any]:
        """CTC greedy decoding of one crop's columns, as rapidocr's CTCLabelDecode does it, with
        column positions counted from the crop's left edge (``col_offset`` columns in)."""
        keep = np.ones(len(idx), dtype=bool)
        keep[1:] = idx[1:] != idx[:-1]
        keep &= idx != 0  # the CTC blank
        chars = rec.postprocess_op.character
        text = "".join(chars[int(c)] for c in idx[keep])
        conf = [round(float(c), 5) for c in prob[keep]]
        score = float(np.mean(conf)) if conf else 0.0
        info = rec.postprocess_op.get_word_info(text, keep)
        info.word_cols = [[c - col_offset for c in cs] for cs in info.word_cols]
        info.line_txt_len = cols
        info.confs = conf or [0.0]
        return (text, score), info

    @staticmethod
    def _word_boxes(crops: list[np.ndarray], out: Any) -> list[list[WordTuple]]:
        """Word boxes within each crop, from the recogniser's CTC column positions: rapidocr's
        computation (``CalRecBoxes``), the same boxes (tests hold them equal to rapidocr's and to
        :meth:`_word_boxes_stepwise`, the former code). A crop wider than 1.5 times its height
        whose box maps onto itself exactly (the inverse of ``cv2.getPerspectiveTransform`` of its
        box onto itself is the identity, as it is for most sizes) is computed here in plain
        arithmetic, in rapidocr's order of operations: its words' left and right edges, and their
        top and bottom the crop's, truncated as rapidocr truncates them; the others step by step
        (:meth:`_word_boxes_stepwise`). About a third of the step-by-step time went to numpy calls
        on single numbers."""
        per_line: list[list[WordTuple]] = []
        for crop, txt, info in zip(crops, out.txts, out.word_results):
            h, w = crop.shape[:2]
            items = None
            if txt is not None and info is not None and crop.size != 0 and 0 < w < 4096 and h < 4096 \
                    and round(float(h) / float(w), 2) < 1.5 and _maps_onto_itself(w, h):
                try:
                    items = _upright_word_boxes(txt, info, float(w), float(h))
                except Exception:  # noqa: BLE001 - answered step by step, as rapidocr's steps answer
                    items = None
            if items is None:
                items = RapidOcrEngine._word_boxes_stepwise([crop], SimpleNamespace(txts=[txt], word_results=[info]))[0]
            per_line.append(items)
        return per_line

    @staticmethod
    def _word_boxes_stepwise(crops: list[np.ndarray], out: Any) -> list[list[WordTuple]]:
        """Word boxes within each crop, from the recogniser's CTC column positions: rapidocr's own
        computation (``CalRecBoxes``) step by step, the same boxes (a test holds them equal), less
        what an upright crop's box needs not: its corners are not put in order, as only their
        extent is kept, and nothing is copied (that ordering and copying was two thirds of its
        time, about 3% of a full parse). :meth:`_word_boxes` computes most crops faster and falls
        back on this for the rest."""
        from rapidocr.cal_rec_boxes.main import CalRecBoxes, Direction

        cal = CalRecBoxes()
        angle = math.radians(-90)
        per_line: list[list[WordTuple]] = []
        for crop, txt, info in zip(crops, out.txts, out.word_results):
            items: list[WordTuple] = []
            h, w = crop.shape[:2]
            if txt is None or info is None or crop.size == 0:
                per_line.append(items)
                continue
            try:
                img_box = np.array([[0, 0], [w, 0], [w, h], [0, h]])
                contents, boxes, confs = cal.cal_ocr_word_box(txt, img_box, info, False)
                boxes = cal.adjust_box_overlap(boxes)
                quad = img_box.astype(np.float32)
                vertical = cal.get_box_direction(quad) == Direction.VERTICAL
                # reverse_rotate_crop_image with the crop's own box: left and top are 0
                cw, ch = int(np.linalg.norm(quad[0] - quad[1])), int(np.linalg.norm(quad[0] - quad[3]))
                pts = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], dtype=np.float32)
                _, inv = cv2.invert(cv2.getPerspectiveTransform(quad, pts))
                for word, conf, points in zip(contents, confs, boxes):
                    xs, ys = [], []
                    for point in points:
                        if vertical:
                            point = cal.s_rotate(angle, point[0], point[1], 0, 0)
                            point[0] = point[0] + cw
                        x, y, z = np.dot(inv, np.array(point + [1]))
                        xs.append(int(x / z))
                        ys.append(int(y / z))
                    items.append((str(word), float(conf), (min(xs), min(ys), max(xs), max(ys))))
            except Exception:  # noqa: BLE001 - word boxes are a refinement; lines stay usable without them
                items = []
            per_line.append(items)
        return per_line

    def read_glyphs(self, rgb: np.ndarray, known: list[Box], max_glyphs: int = 96) -> list[TextLine]:
        """Single glyphs the line detector misses (a keyboard's "l" or ",", a lone "1" in a calendar).

        At detection scale a thin glyph is a few pixels wide and falls under the detector's
        thresholds. Here blobs of ink at full resolution, outside the ``known`` text boxes and of a
        glyph's size, are read one by one in square crops; what reads as one or two characters with
        enough confidence comes back as a line of its own.
        """
        boxes = glyph_boxes(rgb, known, max_glyphs)
        if not boxes:
            return []
        h, w = rgb.shape[:2]
        crops: list[Box] = []
        owner: list[int] = []
        for k, b in enumerate(boxes):
            side = int(max(b.height, b.width) * 1.6) + 12
            c = b.center
            crops.append(Box(max(0, c.x - side // 2), max(0, c.y - side // 2),
                             min(w, c.x - side // 2 + side), min(h, c.y - side // 2 + side)))
            owner.append(k)
            if b.height < 32:
                # A small blob may be punctuation on a baseline (a comma reads as "1" when centred):
                # read it again with room above, as it would sit at the foot of a line of text.
                # Square, as every crop here, so that batching pads none of them.
                top = max(40, 2 * b.height)
                side = top + b.height + 10
                x1 = c.x - side // 2
                crops.append(Box(max(0, x1), max(0, b.y1 - top), min(w, x1 + side), min(h, b.y2 + 10)))
                owner.append(k)
        best: dict[int, TextLine] = {}
        # each glyph is read alone, whatever the engine packs
        for k, line in zip(owner, self.recognize(rgb, crops, keep_all=True, pack_min_ratio=GLYPH_RATIO)):
            if line is None:
                continue
            t = line.text.strip()
            if 1 <= len(t) <= 2 and line.score >= max(self.text_score, 0.7):
                if k not in best or line.score > best[k].score:
                    b = boxes[k]
                    best[k] = TextLine(t, b, line.score, (Word(t, b, line.score),))
        return [best[k] for k in sorted(best)]

    def read(self, rgb: np.ndarray, det_scale: float | None = None) -> list[TextLine]:
        t0 = time.perf_counter()
        boxes = self.detect(rgb, det_scale)
        t1 = time.perf_counter()
        lines = self.recognize(rgb, boxes)
        self._stages.timings = {"ocr_detect": t1 - t0, "ocr_recognize": time.perf_counter() - t1}
        self._stages.packed = self.packed_glyphs(rgb, boxes)
        return lines

    def packed_glyphs(self, rgb: np.ndarray, boxes: list[Box]) -> list[Box]:
        """Those of ``boxes`` whose crops are glyph-sized (narrower than ``GLYPH_RATIO`` times their
        height once scaled to the recogniser's height) and which :meth:`recognize` reads packed
        beside others with this engine's settings: their readings may differ from a reading alone."""
        if not self.pack or self.pack_min_ratio >= GLYPH_RATIO:
            return []
        h = rgb.shape[0]
        out = []
        for b in boxes:
            pad = int(b.height * self.crop_pad)
            ch = min(h, b.y2 + pad) - max(0, b.y1 - pad)
            width = math.ceil(_REC_H * b.width / float(max(1, ch)))
            if self.pack_min_ratio * _REC_H <= width < GLYPH_RATIO * _REC_H:
                out.append(b)
        return out

    def last_packed_glyphs(self) -> list[Box]:
        """The glyph-sized boxes this thread's last :meth:`read` (or :meth:`read_bands`) read packed
        (:meth:`packed_glyphs`)."""
        return list(getattr(self._stages, "packed", []))

    def read_alone(self, rgb: np.ndarray, boxes: list[Box]) -> list[TextLine]:
        """The text in each box, each glyph-sized crop read alone in its own recogniser input
        (longer crops packed as always): what ``pack_min_ratio=2`` reads. Crops read so before are
        taken from the cache, so reading a screen's glyphs alone a second time costs nothing."""
        return self.recognize(rgb, boxes, pack_min_ratio=GLYPH_RATIO)

    def stage_timings(self) -> dict[str, float]:
        """Seconds spent detecting and recognising in this thread's last :meth:`read`."""
        return dict(getattr(self._stages, "timings", {}))


@lru_cache(maxsize=4096)
def _maps_onto_itself(w: int, h: int) -> bool:
    """Whether rapidocr's mapping of a point of a ``w`` x ``h`` crop back onto the crop (the inverse
    of ``cv2.getPerspectiveTransform`` of its box onto the same box) is exactly the identity: then
    each point maps onto itself, with no rounding."""
    quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    _, inv = cv2.invert(cv2.getPerspectiveTransform(quad, quad.copy()))
    return bool(np.array_equal(inv, np.eye(3)))


def _upright_word_boxes(txt: str, info: Any, w: float, h: float) -> list[WordTuple] | None:
    """Word boxes of a crop ``w`` wide and ``h`` tall that rapidocr reads upright and maps onto
    itself (:meth:`RapidOcrEngine._word_boxes`): rapidocr's ``CalRecBoxes.cal_ocr_word_box``,
    ``adjust_box_overlap`` and point mapping in the same arithmetic, on each box's left and right
    edges (its four corners share them). ``None`` where a word has no columns (rapidocr's steps
    fail there, and the step-by-step code answers as they do)."""
    from rapidocr.ch_ppocr_rec.typings import WordType

    if not txt or info.line_txt_len == 0:
        return []
    avg_col_width = (w - 0.0) / info.line_txt_len
    is_all_en_num = all(v is WordType.EN_NUM for v in info.word_types)
    groups: list[list[Any]] = []  # the columns of each box: a word's (Latin) or a character's
    contents: list[Any] = []
    char_widths: list[float] = []
    for word, word_col in zip(info.words, info.word_cols):
        if not word_col:
            return None
        if is_all_en_num:
            groups.append(word_col)
            contents.append("".join(word))
        else:
            groups.extend([c] for c in word_col)
            contents.extend(word)
        if len(word_col) == 1:
            continue
        char_widths.append((word_col[-1] - word_col[0]) * avg_col_width / (len(word_col) - 1))
    if char_widths:
        avg_char_width = sum(char_widths) / len(char_widths)
    else:
        avg_char_width = (w - 0.0) / len(txt)
    edges: list[list[float]] = []
    for cols in groups:
        cells = []
        for col_idx in cols:
            center_x = (col_idx + 0.5) * avg_col_width
            cells.append((max(int(center_x - avg_char_width / 2), 0) + 0.0,
                          min(int(center_x + avg_char_width / 2), w - 0.0) + 0.0))
        if is_all_en_num:
            xs = [x for cell in cells for x in cell]
            edges.append([float(min(xs)), float(max(xs))])
        else:
            edges.append(list(cells[0]))
    if not is_all_en_num:
        edges.sort(key=lambda e: e[0])  # rapidocr sorts a line's character cells by their left edge
    for cur, nxt in pairwise(edges):
        if cur[1] > nxt[0]:  # overlapping: the overlap split between the two
            distance = abs(cur[1] - nxt[0])
            cur[1] -= distance / 2
            nxt[0] += distance - distance / 2
    top, bottom = int(0.0), int(h)
    return [(str(word), float(conf), (min(int(x1), int(x2)), top, max(int(x1), int(x2)), bottom))
            for word, conf, (x1, x2) in zip(contents, info.confs, edges)]


def glyph_boxes(rgb: np.ndarray, known: list[Box], limit: int = 96) -> list[Box]:
    """Boxes of lone glyph-sized blobs of ink in ``rgb`` whose centres lie outside ``known`` boxes.

    Ink is where the morphological gradient is strong (dark on light and light on dark alike);
    strokes a few pixels apart (the dot of an "i") are joined. Blobs from 6 to 110 px tall that
    are no wider than a glyph are kept, the tallest first, at most ``limit``.
    """
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    grad = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    mask = (grad > 60).astype(np.uint8)
    mask = cv2.dilate(mask, np.ones((9, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out: list[Box] = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if not (6 <= bh <= 110 and 4 <= bw <= 110 and bw <= 1.5 * bh + 8):
            continue
        box = Box(x, y, x + bw, y + bh)
        c = box.center
        if any(k.contains_point(c) for k in known):
            continue
        out.append(box)
    out.sort(key=lambda b: -b.height)
    return out[:limit]


def _tune_session(infer: Any, threads: int | None, model_path: str | None = None, flush: bool = True,
                  spin_us: float | None = None) -> None:
    """Replace the onnxruntime session of a rapidocr model (``infer.session``) by one on the same
    model file (or on ``model_path``: the int8 detector) that flushes denormal floats to zero
    (``flush``), memory arena on, its idle worker threads spinning ``spin_us`` microseconds before
    they sleep (``None``: onnxruntime's own spinning). Left as it is where the session is not an
    onnxruntime one on a file."""
    import onnxruntime as ort

    sess = getattr(infer, "session", None)
    path = model_path or getattr(sess, "_model_path", None)
    if not isinstance(sess, ort.InferenceSession) or not path:
        return
    opts = ort.SessionOptions()
    opts.log_severity_level = 4
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.enable_cpu_mem_arena = True
    if threads is not None:
        opts.intra_op_num_threads = int(threads)
    if flush:
        opts.add_session_config_entry("session.set_denormal_as_zero", "1")
    if spin_us is not None:
        # onnxruntime's worker threads spin about a million pause instructions (16 ms on a Zen
        # core, 47 ms on a Skylake one) before they sleep, after every operator they compute; a
        # time in microseconds bounds that (onnxruntime 1.25 and later).
        opts.add_session_config_entry("session.intra_op.spin_duration_us", str(int(round(spin_us))))
    infer.session = ort.InferenceSession(path, sess_options=opts, providers=sess.get_providers())


def pack_widths(widths: list[int], min_width: int, gap: int, alone_below: float,
                glyph_below: float = 0.0) -> list[tuple[int, list[tuple[int, int]]]]:
    """Place items of these widths side by side in inputs ``min_width`` wide, ``gap`` apart, the
    widest first, each into the first input it fits (first-fit decreasing). Items narrower than
    ``alone_below`` get an input of their own, as does any item wider than ``min_width``. Items
    narrower than ``glyph_below`` (and not alone) share inputs only among themselves, so that the
    others are placed exactly as they would be without them. Positions are multiples of 8 (the
    recogniser's column width). Returns ``(used width, [(item, x), ...])`` for each input: the
    inputs of the wider items first, then those of the narrower ones, then the items alone."""
    wide: list[list[Any]] = []
    narrow: list[list[Any]] = []
    alone: list[tuple[int, list[tuple[int, int]]]] = []
    for i in sorted(range(len(widths)), key=lambda k: -widths[k]):
        w = widths[i]
        if w < alone_below or w >= min_width:
            alone.append((w, [(i, 0)]))
            continue
        bins = narrow if w < glyph_below else wide
        for b in bins:
            x = -(-(b[0] + gap) // 8) * 8
            if x + w <= min_width:
                b[1].append((i, x))
                b[0] = x + w
                break
        else:
            bins.append([w, [(i, 0)]])
    return [(int(b[0]), list(b[1])) for b in wide + narrow] + alone


def plan_batches(widths: list[int], size: int, overhead: float) -> list[tuple[int, int]]:
    """Split inputs of these widths (sorted ascending) into batches ``[k1, k2)`` of at most ``size``
    consecutive inputs, each padded to its widest, so that the columns computed (the batch's count
    times its widest input) plus ``overhead`` columns a batch are fewest (dynamic programming). A
    batch of eight 320 px inputs does not pad the 320 px inputs of the next to a 900 px line."""
    n = len(widths)
    if math.isinf(overhead):  # fewest batches: consecutive runs of ``size`` (the former default)
        return [(k, min(n, k + size)) for k in range(0, n, size)]
    best = [0.0] + [math.inf] * n
    start = [0] * (n + 1)
    for j in range(1, n + 1):
        for i in range(max(0, j - size), j):
            cost = best[i] + (j - i) * widths[j - 1] + overhead
            if cost <= best[j]:  # ties: the earlier batches full, as runs of ``size`` fill them
                best[j], start[j] = cost, i
    out = []
    j = n
    while j > 0:
        out.append((start[j], j))
        j = start[j]
    return out[::-1]


def _segments(placed: list[tuple[int, int]], widths: list[int], width: int,
              step: float) -> list[tuple[int, int]]:
    """The recogniser's output columns ``[t1, t2)`` that belong to each placed item: those whose
    centre lies between the midpoints of the gaps on either side of it."""
    bounds = [0.0]
    for (i, x), (_, nx) in pairwise(placed):
        bounds.append((x + widths[i] + nx) / 2.0)
    bounds.append(float(width))
    cols = round(width / step)
    # column t covers [t*step, (t+1)*step); it belongs where its centre falls
    return [(max(0, math.ceil(a / step - 0.5)), min(cols, math.ceil(b / step - 0.5)))
            for a, b in pairwise(bounds)]


def _rec_input(rgb: np.ndarray) -> np.ndarray:
    """An RGB crop scaled to the recogniser's height, its channels swapped to the recogniser's BGR
    order and normalised as PaddleOCR does ((x/255-0.5)/0.5), channels first. Scaled first, swapped
    after: each channel is scaled on its own, so these are the values of the crop swapped first
    (the former code; a test holds the two equal)."""
    h, w = rgb.shape[:2]
    width = _REC_H * w / float(max(1, h))
    # Rounded up, except past the least input width, where rapidocr rounds down (its input is
    # as wide as the widest crop's floor): the same pixels, the same readings.
    rw = max(1, math.ceil(width) if width <= _REC_MIN_W else int(width))
    x = cv2.resize(rgb, (rw, _REC_H)).astype(np.float32)
    x = x.transpose(2, 0, 1)[::-1] / 127.5
    x -= 1.0
    return x
