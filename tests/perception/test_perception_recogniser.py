"""The learned icon recogniser: the shipped model answers on real F-Droid apps' icons, its training
script runs end to end, a description the lexicon does not know gets a score, and a missing or
corrupt model file is named and perception falls back to the marks."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.perception import Perception
from mobile_agent.perception.icons import learned, recogniser
from mobile_agent.perception.icons.learned import LearnedIconMatcher, concept_weights, open_glyphs
from mobile_agent.perception.icons.recogniser import IconRecogniser, RecogniserError, concept_of_spec, prepare
from mobile_agent.types import Box

ROOT = Path(__file__).resolve().parents[2]
REAL = Path(__file__).parent / "fixtures" / "realicons"


def real_targets() -> list[tuple[str, Box, str, set[str]]]:
    """(image, ink box, description, concepts) of the fixture screens' icon targets that name a
    vocabulary concept."""
    out = []
    for line in (REAL / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d["kind"] != "icon":
            continue
        want = {c for c, _, _ in concept_weights(d["target"])}
        if want:
            out.append((d["image"], Box(*d["bbox"]), d["target"], want))
    return out


@pytest.fixture(scope="module")
def rec() -> IconRecogniser:
    return recogniser.default_recogniser()


def test_the_shipped_model_is_small_and_names_every_vocabulary_concept(rec):
    assert recogniser.DEFAULT_MODEL.stat().st_size <= 5 * 1024 * 1024
    assert rec.classes[0] == recogniser.NOT_ICON
    assert set(recogniser.lexicon_concepts()) <= set(rec.classes)
    card = (recogniser.MODEL_DIR / "MODEL_CARD.md").read_text(encoding="utf-8")
    for needed in ("Licence", "retrain", "top-1"):
        assert needed in card


def test_the_shipped_model_recognises_real_app_icons(rec):
    """F-Droid apps' toolbars, FABs and form icons (catima, My Expenses; MIT fixtures), each the
    detector's box in the target's node: most targets' concepts in the first five, and the plain
    toolbar glyphs first."""
    from mobile_agent.screensets.realscreens import detector_box

    targets = real_targets()
    assert len(targets) >= 15
    hits1 = hits5 = 0
    firsts: dict[str, str] = {}
    p = Perception()
    for image, node, desc, want in targets:
        with Image.open(REAL / image) as im:
            img = im.convert("RGB")
        rgb = np.asarray(img)
        box = detector_box(p.parse(img, icons=True).icons or [], node)
        probs, emb = rec.classify(rgb, [box])
        top = rec.top(probs, 5)[0]
        assert abs(float(probs.sum()) - 1.0) < 1e-3 and emb.shape[0] == 1
        hits1 += top[0][0] in want
        hits5 += any(c in want for c, _ in top)
        firsts[desc] = top[0][0]
    assert hits5 >= 0.75 * len(targets), firsts
    assert hits1 >= 0.5 * len(targets), firsts
    assert firsts["More options"] == "ellipsis_vertical"
    assert firsts["Navigate up"] in ("arrow_left", "chevron_left")


def test_a_plain_patch_and_a_word_are_no_icon(rec):
    plain = np.full((60, 60, 3), 250, np.uint8)
    img = Image.new("RGB", (260, 80), (255, 255, 255))
    ImageDraw.Draw(img).text((10, 10), "Settings", fill=(30, 30, 30), font=_text_font(48))
    probs, _ = rec.run(np.stack([prepare(plain), prepare(np.asarray(img))]))
    assert [t[0][0] for t in rec.top(probs, 1)] == [recogniser.NOT_ICON] * 2


def test_a_description_the_lexicon_does_not_know_gets_a_clear_score():
    """"Anchor" names no vocabulary glyph: the glyphs named anchor are drawn and compared by the
    recogniser's embedding; the anchor on the toolbar scores highest, each score in [0, 1]."""
    assert not concept_weights("Anchor") and open_glyphs("Anchor")
    m = LearnedIconMatcher()
    screen, boxes = _toolbar(["anchor", "magnify", "cog", "heart"])
    scores = m.score(screen, boxes, "Anchor")
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert int(np.argmax(scores)) == 0, scores
    assert scores[0] >= learned.OPEN_SURE and max(scores[1:]) < scores[0]
    # and Click Icon answers it, where the shape matcher alone knew no glyph for it
    g = Perception().ground_icon(Image.fromarray(screen), "Anchor")
    assert g.status == "found" and boxes[0].expand(4).contains_point(g.point), g
    assert Perception(matcher="offline").ground_icon(Image.fromarray(screen), "Anchor").status != "found"


def test_known_descriptions_rank_their_glyph_first():
    m = LearnedIconMatcher(blend=1.0)
    screen, boxes = _toolbar(["anchor", "magnify", "cog", "heart"])
    for desc, k in (("Search", 1), ("Settings", 2), ("Favourite", 3)):
        scores = m.score(screen, boxes, desc)
        assert int(np.argmax(scores)) == k, (desc, scores)


def test_concepts_of_vocabulary_specs():
    assert concept_of_spec("r:heart~0.9") == "heart"
    assert concept_of_spec("mi:save") == "mi:save"
    assert concept_of_spec("play@180") == "play@180"
    assert concept_of_spec("paper_plane@-45") == "paper_plane"
    assert concept_of_spec("r:circle~0.8|nav") == "circle"


def test_a_missing_or_corrupt_model_is_named(tmp_path):
    with pytest.raises(RecogniserError, match="icon_recogniser.onnx is missing"):
        IconRecogniser(tmp_path / "icon_recogniser.onnx")
    bad = tmp_path / "icon_recogniser.onnx"
    shutil.copy(recogniser.DEFAULT_MODEL, bad)
    with pytest.raises(RecogniserError, match="icon_recogniser.json is missing"):
        IconRecogniser(bad)
    shutil.copy(recogniser.DEFAULT_MODEL.with_suffix(".json"), bad.with_suffix(".json"))
    bad.write_bytes(b"not a model")
    with pytest.raises(RecogniserError, match=str(bad).replace("\\", "\\\\")):
        IconRecogniser(bad)
    with pytest.raises(RecogniserError):  # a model the user names fails at once
        LearnedIconMatcher(str(bad))


def test_perception_falls_back_to_the_marks_saying_so(tmp_path, monkeypatch):
    bad = tmp_path / "icon_recogniser.onnx"
    shutil.copy(recogniser.DEFAULT_MODEL.with_suffix(".json"), bad.with_suffix(".json"))
    bad.write_bytes(b"\x00" * 64)
    monkeypatch.setattr(recogniser, "DEFAULT_MODEL", bad)
    recogniser.default_recogniser.cache_clear()
    try:
        m = LearnedIconMatcher()
    finally:
        recogniser.default_recogniser.cache_clear()
    assert m.recogniser is None and str(bad) in m.problem
    screen, boxes = _toolbar(["magnify", "cog"])
    p = Perception(matcher=m)
    g = p.ground_icon(Image.fromarray(screen), "Search")
    assert str(bad) in g.message
    # the detector's boxes are the candidates, as with the marks
    assert g.candidates and all(c.box is not None for c in g.candidates)


@pytest.mark.slow
def test_the_training_script_runs_end_to_end(tmp_path):
    pytest.importorskip("torch", reason="training needs the train extra: pip install -e '.[train]'")
    pytest.importorskip("onnx", reason="training needs the train extra: pip install -e '.[train]'")
    out = tmp_path / "tiny"
    r = subprocess.run([sys.executable, "-m", "train.icon_train", "--tiny", "--out", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    meta = json.loads((out / "icon_recogniser.json").read_text(encoding="utf-8"))
    assert meta["classes"][0] == recogniser.NOT_ICON and len(meta["classes"]) == 7
    tiny = IconRecogniser(out / "icon_recogniser.onnx")
    screen, boxes = _toolbar(["magnify", "cog"])
    probs, emb = tiny.classify(screen, boxes)
    assert probs.shape == (2, 7) and np.allclose(probs.sum(1), 1.0, atol=1e-4)
    assert emb.shape[0] == 2


# ------------------------------------------------------------------------------------------------
def _text_font(size: int) -> ImageFont.FreeTypeFont:
    from mobile_agent.device.sim.look import load_font  # the simulated phone's Roboto

    return load_font("lato", size, 400)


def _toolbar(names: list[str]) -> tuple[np.ndarray, list[Box]]:
    """Material Design Icons glyphs (the qtawesome wheel's font) drawn 72 px high, 220 px apart, on
    a white strip of a 1080 px-wide phone, with the box of each."""
    font_path, cmap = learned._mdi()  # type: ignore[misc]
    font = ImageFont.truetype(font_path, 72)
    img = Image.new("RGB", (1080, 600), (255, 255, 255))
    d = ImageDraw.Draw(img)
    boxes = []
    for k, n in enumerate(names):
        x, y = 120 + 220 * k, 120
        d.text((x, y), chr(cmap[n]), fill=(60, 60, 60), font=font)
        bb = d.textbbox((x, y), chr(cmap[n]), font=font)
        boxes.append(Box(bb[0] - 6, bb[1] - 6, bb[2] + 6, bb[3] + 6))
    return np.asarray(img), boxes
