"""Optional model-based icon detectors and matchers, for users who have the weights.

Nothing here is downloaded at run time, and none of these packages is a dependency of
mobile-agent: each class imports its package when created and raises :class:`ConfigError` naming
the package to install or the weights that are missing.

* :class:`YoloIconDetector`: a YOLO-style UI element detector exported to ONNX (for example
  OmniParser's MIT-licensed ``icon_detect`` exported with ``yolo export format=onnx``), run with
  onnxruntime (already a dependency). Output layout ``[1, 4 + classes, anchors]`` (YOLOv8/11) or
  ``[1, anchors, 5 + classes]`` (YOLOv5).
* :class:`GroundingDinoDetector`: Grounding DINO through ``transformers`` (needs ``torch`` and
  ``transformers``) from a local model folder, prompted with "icon".
* :class:`ClipIconMatcher`: CLIP through ``open_clip`` (a ``.pt``/``.bin`` checkpoint) or
  ``transformers`` (a model folder) scoring crops against "an icon of {description}".
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from mobile_agent.errors import ConfigError
from mobile_agent.perception.icons.cv import nms
from mobile_agent.perception.results import IconBox
from mobile_agent.types import Box


def _require(module: str, what: str, install: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ConfigError(f"{what} needs the {module!r} package, which is not installed: {install}") from exc


def _existing(path: str, what: str, hint: str) -> Path:
    p = Path(path).expanduser()
    if not p.exists():
        raise ConfigError(f"{what}: weights not found at {path}; {hint} (mobile-agent never downloads weights)")
    return p


class YoloIconDetector:
    """A YOLO-style detector exported to ONNX, on onnxruntime."""

    name = "yolo"

    def __init__(self, weights: str, input_size: int = 640, conf: float = 0.25, iou: float = 0.5,
                 threads: int | None = None) -> None:
        path = _existing(weights, "the yolo icon detector",
                         "export one to ONNX (e.g. OmniParser icon_detect: yolo export model=model.pt format=onnx)")
        if path.suffix.lower() != ".onnx":
            raise ConfigError(f"the yolo icon detector reads ONNX files; {path.name} is not one: "
                              "export it with `yolo export model=... format=onnx`")
        ort = _require("onnxruntime", "the yolo icon detector", "pip install onnxruntime")
        opts = ort.SessionOptions()
        if threads:
            opts.intra_op_num_threads = threads
        try:
            self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises several kinds
            raise ConfigError(f"cannot load the yolo weights {path}: {exc}") from exc
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        shape = inp.shape
        self.input_size = int(shape[2]) if isinstance(shape[2], int) else input_size
        self.conf, self.iou = conf, iou

    def decode(self, out: np.ndarray, scale: float, left: int, top: int, width: int, height: int) -> list[IconBox]:
        return decode_yolo(out, scale, left, top, width, height, self.conf, self.iou)

    def detect(self, rgb: np.ndarray, text_boxes: Sequence[Box] = ()) -> list[IconBox]:
        h, w = rgb.shape[:2]
        blob, s, left, top = letterbox(rgb, self.input_size)
        out = self.session.run(None, {self.input_name: blob})[0]
        return self.decode(out, s, left, top, w, h)


def letterbox(rgb: np.ndarray, size: int) -> tuple[np.ndarray, float, int, int]:
    """The image scaled into a ``size`` x ``size`` grey square, as a 1x3xHxW float blob in [0, 1],
    with the scale and the left/top offsets."""
    h, w = rgb.shape[:2]
    s = size / float(max(h, w))
    nh, nw = int(round(h * s)), int(round(w * s))
    canvas = np.full((size, size, 3), 114, np.uint8)
    top, left = (size - nh) // 2, (size - nw) // 2
    canvas[top:top + nh, left:left + nw] = cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_LINEAR)
    blob = canvas.astype(np.float32).transpose(2, 0, 1)[None] / 255.0
    return blob, s, left, top


def decode_yolo(out: np.ndarray, scale: float, left: int, top: int, width: int, height: int,
                conf: float = 0.25, iou: float = 0.5) -> list[IconBox]:
    """Boxes from a raw YOLO output array, in image coordinates.

    YOLOv8/11 exports are channel-first ``[1, 4 + classes, anchors]`` (fewer rows than
    columns): box then class scores. YOLOv5 exports are ``[1, anchors, 5 + classes]``: box,
    objectness, class scores.
    """
    a = np.asarray(out, dtype=np.float32)
    if a.ndim == 3:
        a = a[0]
    if a.ndim != 2 or min(a.shape) < 5:
        raise ConfigError(f"unexpected yolo output shape {np.asarray(out).shape}: expected [1, 4+classes, anchors] "
                          "or [1, anchors, 5+classes]")
    if a.shape[0] < a.shape[1]:
        a = a.T
        score = a[:, 4:].max(axis=1)
    elif a.shape[1] == 5:
        score = a[:, 4]
    else:
        score = a[:, 4] * a[:, 5:].max(axis=1)
    keep = score >= conf
    found: list[IconBox] = []
    for (cx, cy, bw, bh), sc in zip(a[keep, :4], score[keep]):
        x1 = (cx - bw / 2 - left) / scale
        y1 = (cy - bh / 2 - top) / scale
        x2 = (cx + bw / 2 - left) / scale
        y2 = (cy + bh / 2 - top) / scale
        box = Box(max(0, int(x1)), max(0, int(y1)), min(width, int(np.ceil(x2))), min(height, int(np.ceil(y2))))
        if not box.is_empty():
            found.append(IconBox(box, float(sc), "yolo"))
    return nms(found, iou)


class GroundingDinoDetector:
    """Grounding DINO (transformers) prompted with "icon", from a local model folder."""

    name = "gdino"

    def __init__(self, model_dir: str, prompt: str = "icon.", box_threshold: float = 0.25,
                 text_threshold: float = 0.2) -> None:
        path = _existing(model_dir, "the gdino icon detector",
                         "download a Grounding DINO model folder (e.g. IDEA-Research/grounding-dino-tiny) yourself")
        transformers = _require("transformers", "the gdino icon detector", "pip install torch transformers")
        self.torch = _require("torch", "the gdino icon detector", "pip install torch")
        try:
            self.processor = transformers.AutoProcessor.from_pretrained(str(path), local_files_only=True)
            self.model = transformers.AutoModelForZeroShotObjectDetection.from_pretrained(str(path), local_files_only=True)
        except Exception as exc:  # noqa: BLE001
            raise ConfigError(f"cannot load Grounding DINO from {path}: {exc}") from exc
        self.model.eval()
        self.prompt, self.box_threshold, self.text_threshold = prompt, box_threshold, text_threshold

    def detect(self, rgb: np.ndarray, text_boxes: Sequence[Box] = ()) -> list[IconBox]:
        from PIL import Image

        image = Image.fromarray(rgb)
        inputs = self.processor(images=image, text=self.prompt, return_tensors="pt")
        with self.torch.no_grad():
            outputs = self.model(**inputs)
        res = self.processor.post_process_grounded_object_detection(
            outputs, inputs["input_ids"], threshold=self.box_threshold, text_threshold=self.text_threshold,
            target_sizes=[image.size[::-1]])[0]
        h, w = rgb.shape[:2]
        found = []
        for (x1, y1, x2, y2), sc in zip(res["boxes"].tolist(), res["scores"].tolist()):
            box = Box(max(0, int(x1)), max(0, int(y1)), min(w, int(x2) + 1), min(h, int(y2) + 1))
            if not box.is_empty() and box.area < 0.25 * w * h:
                found.append(IconBox(box, float(sc), "gdino"))
        return nms(found, 0.5)


class ClipIconMatcher:
    """CLIP similarity between each crop and "an icon of {description}"."""

    name = "clip"

    def __init__(self, model: str, arch: str = "ViT-B-32") -> None:
        path = _existing(model, "the clip icon matcher",
                         "point it at an open_clip checkpoint file or a transformers CLIP model folder")
        self.torch = _require("torch", "the clip icon matcher", "pip install torch open_clip_torch (or transformers)")
        if path.is_dir():
            transformers = _require("transformers", "the clip icon matcher", "pip install transformers")
            self.kind = "hf"
            self.model = transformers.CLIPModel.from_pretrained(str(path), local_files_only=True).eval()
            self.processor = transformers.CLIPProcessor.from_pretrained(str(path), local_files_only=True)
        else:
            open_clip = _require("open_clip", "the clip icon matcher", "pip install open_clip_torch")
            self.kind = "open_clip"
            self.model, _, self.preprocess = open_clip.create_model_and_transforms(arch, pretrained=str(path))
            self.model.eval()
            self.tokenizer = open_clip.get_tokenizer(arch)

    def score(self, rgb: np.ndarray, boxes: Sequence[Box], description: str) -> list[float]:
        from PIL import Image

        if not boxes:
            return []
        crops = [Image.fromarray(rgb[b.y1:b.y2, b.x1:b.x2]) for b in boxes]
        text = f"an icon of {description}"
        torch = self.torch
        with torch.no_grad():
            if self.kind == "hf":
                inputs = self.processor(text=[text], images=crops, return_tensors="pt", padding=True)
                out = self.model(**inputs)
                sims = out.logits_per_image[:, 0] / 100.0
            else:
                imgs = torch.stack([self.preprocess(c) for c in crops])
                fi = self.model.encode_image(imgs)
                ft = self.model.encode_text(self.tokenizer([text]))
                fi = fi / fi.norm(dim=-1, keepdim=True)
                ft = ft / ft.norm(dim=-1, keepdim=True)
                sims = (fi @ ft.T)[:, 0]
        return [float(max(0.0, min(1.0, (s + 0.0)))) for s in sims.tolist()]
