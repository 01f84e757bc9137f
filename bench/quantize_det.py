"""Build the int8 PP-OCR text detector that ``RapidOcrEngine(det_int8=True)`` loads.

    python bench/quantize_det.py [--sim 24] [--wide 24] [--seed 1] [--out PATH]

onnxruntime's static quantisation (QDQ, int8 weights per channel, uint8 activations) of the
detector bundled in the rapidocr wheel, calibrated on the detector's real inputs (screens scaled
and padded exactly as a parse does) from BOTH screen sets: the simulated phone's own look and the
wide set's looks (other fonts, icon sets, densities, themes, JPEG, Chinese). The calibration
screens come from seed 1, so the benchmark (seed 0) measures screens the calibration never saw.
Needs the ``onnx`` package (``pip install onnx``); runs offline, in about a minute or two.
The output is written with a provenance file beside it (source model, its SHA-256, the
calibration, the licence: the PP-OCR models are Apache-2.0).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "src" / "mobile_agent" / "perception" / "ocr" / "models" / \
    "ppocr_det_int8.onnx"


class _Recorder:
    """Stands in for the detector's onnxruntime session: keeps each input, then runs it."""

    def __init__(self, session: Any) -> None:
        self._session = session
        self.inputs: list[dict[str, np.ndarray]] = []

    def run(self, output_names: Any, feed: dict[str, np.ndarray], *args: Any, **kwargs: Any) -> Any:
        self.inputs.append({k: np.array(v, copy=True) for k, v in feed.items()})
        return self._session.run(output_names, feed, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sim", type=int, default=24, help="calibration screens in the sim look")
    ap.add_argument("--wide", type=int, default=24, help="calibration screens in the wide set's looks")
    ap.add_argument("--seed", type=int, default=1, help="seed of the calibration screens (the benchmark uses 0)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    try:
        from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as exc:
        print(f"error: onnxruntime's quantisation needs the onnx package: pip install onnx ({exc})", file=sys.stderr)
        return 2

    from mobile_agent.perception.ocr.rapid import RapidOcrEngine
    from mobile_agent.screensets import registry

    screens = registry.get("sim").load(seed=args.seed, count=args.sim)
    screens += registry.get("wide").load(seed=args.seed, count=args.wide)
    engine = RapidOcrEngine(flush_denormals=False)
    det, _ = engine._models()
    source = Path(det.session.session._model_path)
    recorder = _Recorder(det.session.session)
    det.session.session = recorder
    for s in screens:
        engine.detect(np.asarray(s.image.convert("RGB")))
    feeds = recorder.inputs
    print(f"calibration: {len(feeds)} detector inputs from {len(screens)} screens "
          f"({args.sim} sim, {args.wide} wide, seed {args.seed})")

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self._it = iter(feeds)

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self._it, None)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        import onnx
        from onnx import version_converter

        model = onnx.load(str(source))
        opset = max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
        if opset < 13:  # per-channel QDQ needs DequantizeLinear's axis (opset 13)
            model = version_converter.convert_version(model, 13)
        up = Path(tmp) / "det_opset13.onnx"
        onnx.save(model, str(up))
        pre = Path(tmp) / "det_pre.onnx"
        quant_pre_process(str(up), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(args.out), Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                        weight_type=QuantType.QInt8, activation_type=QuantType.QUInt8)
    from importlib.metadata import version

    import onnxruntime

    prov = args.out.with_suffix(".txt")
    prov.write_text(
        f"{args.out.name}: int8 static quantisation of the PP-OCR text detector.\n"
        f"source model: {source.name} from the rapidocr {version('rapidocr')} wheel (PaddleOCR's PP-OCR models converted to ONNX by RapidAI)\n"
        f"source sha256: {_sha256(source)}\n"
        f"output sha256: {_sha256(args.out)}\n"
        f"licence: Apache-2.0 (PaddleOCR models; rapidocr is Apache-2.0); this derived file is under the same licence\n"
        f"tool: onnx {onnx.__version__} (opset raised to 13 where lower), onnxruntime {onnxruntime.__version__} quantize_static, QDQ, per-channel int8 weights, uint8 activations\n"
        f"calibration: {len(feeds)} detector inputs from {args.sim} screens of the simulated phone (default look) and "
        f"{args.wide} of the wide set, seed {args.seed}, as scaled and padded by RapidOcrEngine.detect\n"
        f"rebuild: python bench/quantize_det.py --sim {args.sim} --wide {args.wide} --seed {args.seed}\n",
        encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB) and {prov.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
