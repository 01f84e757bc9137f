"""Teaching the icon recogniser real screens (perception/icons/learn.py, ``mobile-agent perception learn``,
``--icon-model``): crops cut from real apps' screenshots and their uiautomator dumps (the committed
development screens: tests/perception/fixtures/devscreens), labelled by each node's own content-desc
(the app's words, not ours); the ONNX graph rebuilt in torch gives onnxruntime's answers; a model
learned from a user's screens names those apps' icons better than the shipped one, is used by
``Perception(icon_model=...)``, ``AgentSettings.icon_model`` and the CLI's ``--icon-model``, and a
missing or corrupt one is refused naming the file. The fine-tuning needs the train extra (torch, onnx):
those tests skip without it, naming it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mobile_agent.errors import ConfigError
from mobile_agent.perception import Perception
from mobile_agent.perception.icons import learn
from mobile_agent.screensets import real_crops
from mobile_agent.perception.icons.recogniser import DEFAULT_MODEL, NOT_ICON, IconRecogniser, RecogniserError, prepare

from devscreens import COMMITTED

needs_train = pytest.mark.skipif(not learn.has_torch(), reason='needs torch and onnx, the train extra: '
                                 'pip install -e ".[train]"')
#: a user's own apps: the committed screens of three of them
APPS = ("org.totschnig.myexpenses", "me.hackerchick.catima", "com.poupa.vinylmusicplayer")


def _user_folder(tmp_path: Path, apps=APPS) -> Path:
    """The committed screens of ``apps`` as `devices capture` keeps them (img/ beside xml/), no manifest."""
    out = tmp_path / "captured"
    (out / "img").mkdir(parents=True)
    (out / "xml").mkdir()
    for img in sorted((COMMITTED / "img").glob("*.png")):
        if img.name.split("__")[0] in apps:
            (out / "img" / img.name).write_bytes(img.read_bytes())
            (out / "xml" / f"{img.stem}.xml").write_bytes((COMMITTED / "xml" / f"{img.stem}.xml").read_bytes())
    return out


@pytest.fixture(scope="module")
def user_crops(tmp_path_factory) -> learn.CropSet:
    return real_crops.screen_crops([_user_folder(tmp_path_factory.mktemp("user"))])


def test_crops_are_cut_from_the_dumps_own_descriptions(user_crops):
    c = user_crops.counts()
    assert c["screens"] == 10 and c["apps"] == 3, c
    assert c["icon_nodes"] >= 20 and c["negatives"] >= 10, c
    labelled = [k for k in user_crops.crops if k.label != NOT_ICON]
    # each label is the concept the node's own content-desc names (the app's words): "Navigate up" is the
    # framework's back arrow, "More options" its overflow menu, "Search" a magnifier
    by_desc = {k.description: k.label for k in labelled}
    assert by_desc.get("Navigate up") == "arrow_left", by_desc
    assert by_desc.get("More options") == "ellipsis_vertical", by_desc
    assert all(k.pixels.ndim == 3 and k.box_crop().size for k in user_crops.crops)
    # a crop holds its node's box inside a margin (the jitter's room)
    x1, y1, x2, y2 = labelled[0].inner
    assert 0 <= x1 < x2 <= labelled[0].pixels.shape[1] and 0 <= y1 < y2 <= labelled[0].pixels.shape[0]
    # negatives are text leaves, never an icon node's crop
    assert {k.source for k in user_crops.crops if k.label == NOT_ICON} == {"text"}


def test_a_half_keeps_only_its_apps():
    a = real_crops.screen_crops([COMMITTED], halves="A")
    b = real_crops.screen_crops([COMMITTED], halves="B")
    assert a.apps and b.apps and not set(a.apps) & set(b.apps)
    from mobile_agent.screensets.realscreens import split_half

    assert {split_half(x) for x in a.apps} == {"A"} and {split_half(x) for x in b.apps} == {"B"}


def test_a_folder_without_screens_is_refused_naming_it(tmp_path):
    with pytest.raises(ConfigError, match=str(tmp_path / "empty")):
        (tmp_path / "empty").mkdir()
        real_crops.screen_crops([tmp_path / "empty"])


@needs_train
def test_the_onnx_graph_rebuilt_in_torch_answers_as_onnxruntime():
    import torch

    rec = IconRecogniser()
    net = learn.torch_from_onnx(DEFAULT_MODEL).eval()
    x = (np.random.default_rng(3).random((16, 32, 32)) * 255).astype(np.uint8)
    probs, emb = rec.run(x)
    with torch.no_grad():
        logits, e = net(torch.from_numpy(x).float().div(255).unsqueeze(1))
    assert np.abs(torch.softmax(logits, 1).numpy() - probs).max() < 1e-4
    e = e.numpy() / np.linalg.norm(e.numpy(), axis=1, keepdims=True)
    assert np.abs(e - emb).max() < 1e-4


def _top1(model: Path | None, crops: learn.CropSet) -> float:
    rec = IconRecogniser(model)
    icons = [k for k in crops.crops if k.label != NOT_ICON and k.source == "node"]
    probs, _ = rec.run(np.stack([prepare(k.box_crop()) for k in icons]))
    return float(np.mean([rec.classes[int(j)] == k.label for j, k in zip(probs.argmax(1), icons)]))


@pytest.fixture(scope="module")
def learned(user_crops, tmp_path_factory) -> Path:
    """A model learned from the user's screens (no rendered replay: the last layers learn)."""
    if not learn.has_torch():
        pytest.skip('needs torch and onnx, the train extra: pip install -e ".[train]"')
    out = tmp_path_factory.mktemp("model")
    settings = learn.LearnSettings(epochs=6, draws=16, replay_per_class=0, lr=3e-3)
    learn.finetune(user_crops, out, settings=settings)
    return out


@needs_train
def test_a_model_learned_from_a_users_screens_names_their_icons_better(user_crops, learned):
    shipped_sha = hashlib.sha256(DEFAULT_MODEL.read_bytes()).hexdigest()
    before, after = _top1(None, user_crops), _top1(learned / learn.MODEL_FILE, user_crops)
    assert after > before + 0.05, (before, after)
    meta = json.loads((learned / "icon_recogniser.json").read_text())
    assert meta["learned_from"]["apps"] == sorted(APPS) and meta["base"] == DEFAULT_MODEL.name
    assert meta["classes"] == IconRecogniser().classes
    # the shipped model is never written
    assert hashlib.sha256(DEFAULT_MODEL.read_bytes()).hexdigest() == shipped_sha


@needs_train
def test_learning_is_deterministic(user_crops, tmp_path):
    settings = learn.LearnSettings(epochs=1, draws=3, replay_per_class=0, lr=3e-3)
    learn.finetune(user_crops, tmp_path / "a", settings=settings)
    learn.finetune(user_crops, tmp_path / "b", settings=settings)
    rec_a, rec_b = IconRecogniser(tmp_path / "a" / learn.MODEL_FILE), IconRecogniser(tmp_path / "b" / learn.MODEL_FILE)
    x = np.stack([prepare(k.box_crop()) for k in user_crops.crops[:20]])
    assert np.array_equal(rec_a.run(x)[0], rec_b.run(x)[0])
    assert not np.array_equal(rec_a.run(x)[0], IconRecogniser().run(x)[0])  # it did learn something


@needs_train
def test_the_learned_model_is_the_one_perception_uses(learned):
    from mobile_agent.agent.loop import AgentSettings, StepLoop

    p = Perception(icon_model=learned)
    assert Path(p.matcher.recogniser.path) == learned / learn.MODEL_FILE
    q = Perception()
    StepLoop(None, None, q, AgentSettings(icon_model=learned))  # the settings' model is put in the perception
    assert Path(q.matcher.recogniser.path) == learned / learn.MODEL_FILE


def test_a_missing_corrupt_or_foreign_icon_model_is_refused_naming_the_file(tmp_path):
    with pytest.raises(RecogniserError, match=f"{tmp_path / 'none'} is missing"):
        Perception(icon_model=tmp_path / "none")
    (tmp_path / "none").mkdir()
    with pytest.raises(RecogniserError, match="is missing"):
        Perception(icon_model=tmp_path / "none")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / learn.MODEL_FILE).write_bytes(b"not a model")
    (bad / "icon_recogniser.json").write_text(DEFAULT_MODEL.with_suffix(".json").read_text())
    with pytest.raises(RecogniserError, match="not a model onnxruntime can load"):
        Perception(icon_model=bad)
    # the shipped model with a class list of another model: the two files are not of one model
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / learn.MODEL_FILE).write_bytes(DEFAULT_MODEL.read_bytes())
    meta = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    meta["classes"] = meta["classes"][:10]
    (foreign / "icon_recogniser.json").write_text(json.dumps(meta))
    with pytest.raises(RecogniserError, match="not of one model"):
        Perception(icon_model=foreign)
    with pytest.raises(ConfigError, match="does not use one"):
        Perception(matcher="offline", icon_model=foreign)


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    """The CLI in this process (as tests/cli do): exit status, stdout, stderr."""
    from mobile_agent.cli import main

    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@needs_train
def test_the_cli_learns_then_locate_uses_the_model_and_refuses_to_overwrite(tmp_path, learned, capsys):
    folder = _user_folder(tmp_path, apps=("org.totschnig.myexpenses",))
    mine = tmp_path / "mine"
    code, out, err = _cli(capsys, "perception", "learn", str(folder), "--out", str(mine), "--epochs", "1",
                          "--replay", "0")
    assert code == 0, err
    assert "labelled icons" in out and f"--icon-model {mine}" in out
    assert IconRecogniser(mine / learn.MODEL_FILE).classes == IconRecogniser().classes
    code, _, err = _cli(capsys, "perception", "learn", str(folder), "--out", str(mine))
    assert code == 2 and "--overwrite" in err
    code, _, err = _cli(capsys, "perception", "learn", str(folder), "--out", str(DEFAULT_MODEL.parent), "--overwrite")
    assert code == 2 and "never overwritten" in err
    nothing = tmp_path / "nothing"
    nothing.mkdir()
    code, _, err = _cli(capsys, "perception", "learn", str(nothing), "--out", str(tmp_path / "x"))
    assert code == 2 and str(nothing) in err
    shot = tmp_path / "shot.png"
    Image.open(next((folder / "img").glob("*.png"))).save(shot)
    code, out, err = _cli(capsys, "locate", str(shot), "--icon", "Navigate up", "--icon-model", str(learned))
    assert code == 0, err
    code, _, err = _cli(capsys, "locate", str(shot), "--icon", "Navigate up", "--icon-model", str(tmp_path / "none"))
    assert code == 2 and str(tmp_path / "none") in err
