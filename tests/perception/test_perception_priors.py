"""Click Icon's hand rules as named priors in one registry: each names code that exists, each can be
switched off (for one thread only), an unknown name is refused with the list, and switching one off
changes what is found on real screens, which the ablation reports per app."""

from __future__ import annotations

import importlib
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image

from mobile_agent.perception import Perception
from mobile_agent.perception.icons import priors
from mobile_agent.perception.icons.lexicon import IconQuery
from mobile_agent.screensets.ablation import ablate, markdown
from mobile_agent.types import Box
from tests.devscreens import COMMITTED

REAL = Path(__file__).parent / "fixtures" / "realicons"


def _resolve(dotted: str) -> object:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module("mobile_agent.perception." + ".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


def test_every_prior_names_code_that_exists():
    assert len(priors.PRIORS) >= 10
    for p in priors.PRIORS.values():
        assert p.what and p.where, p.name
        for dotted in p.where:
            assert callable(_resolve(dotted)), (p.name, dotted)


def test_an_unknown_prior_is_refused_with_the_list():
    with pytest.raises(KeyError) as e:
        with priors.switched_off("layout_prior"):
            pass
    assert "layout_prior'" in str(e.value) and "layout_priors" in str(e.value)
    with pytest.raises(KeyError):
        priors.on("no such prior")


def test_switching_off_holds_inside_and_for_this_thread_only():
    seen: dict[str, bool] = {}
    assert priors.on("keyboard")
    with priors.switched_off("keyboard", "dialog"):
        assert not priors.on("keyboard") and not priors.on("dialog") and priors.on("status_bar")
        t = threading.Thread(target=lambda: seen.update(other=priors.on("keyboard")))
        t.start()
        t.join()
        with priors.switched_off("status_bar"):
            assert priors.off() == {"keyboard", "dialog", "status_bar"}
        assert priors.on("status_bar")
    assert priors.on("keyboard") and priors.off() == frozenset()
    assert seen["other"] is True  # another thread's run is not ablated


def test_the_environment_switches_priors_off_for_the_process(monkeypatch):
    from mobile_agent.errors import ConfigError

    monkeypatch.setenv(priors.ENV, "keyboard, dialog")
    assert not priors.on("keyboard") and not priors.on("dialog") and priors.on("status_bar")
    monkeypatch.setenv(priors.ENV, "keyboard,no_such")
    with pytest.raises(ConfigError, match="MOBILE_AGENT_ICON_PRIORS_OFF.*no_such"):
        priors.on("keyboard")
    monkeypatch.delenv(priors.ENV)
    assert priors.on("keyboard")


def test_the_query_reads_a_description_once():
    q = IconQuery.parse("My profile picture")
    assert q.avatar and not q.account
    assert IconQuery.parse("@ann profile").holds is False
    assert IconQuery.parse("Wi-Fi").status and not IconQuery.parse("Search").status
    assert IconQuery.parse("Emoji keyboard").keyboard
    assert "back" in IconQuery.parse("Navigate up").families
    assert IconQuery.parse("Search") is IconQuery.parse("Search")  # memoised


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def _labelled_target() -> tuple[Image.Image, Box, str]:
    import json

    for line in (REAL / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d["target"] == "Opening balance : Income" and d["image"].endswith("14726600.png"):
            return Image.open(REAL / d["image"]).convert("RGB"), Box(*d["bbox"]), d["target"]
    raise AssertionError("fixture target missing")


def test_switching_a_prior_off_changes_the_answer_on_a_real_screen(perception):
    # My Expenses' form: "Opening balance : Income" is the row's Income switch, named by the label
    # on its row (the labelled_controls prior); without the prior the glyph matcher has no glyph
    # for "Income" to go by
    img, box, target = _labelled_target()
    on = perception.ground_icon(img, target)
    assert on.status == "found" and box.contains_point(on.chosen.point)
    with priors.switched_off("labelled_controls"):
        off = perception.ground_icon(img, target)
    assert off.chosen is None or not box.contains_point(off.chosen.point)
    again = perception.ground_icon(img, target)  # switched back on
    assert again.chosen is not None and box.contains_point(again.chosen.point)


def _fixture_folder() -> SimpleNamespace:
    """The committed real screens as the ablation reads a folder (they carry no dumps, which
    ``load_folder`` wants)."""
    import json

    screens: dict[str, SimpleNamespace] = {}
    for line in (REAL / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        s = screens.setdefault(d["image"], SimpleNamespace(name=d["image"], image=REAL / d["image"], app=d["app"],
                                                           width=d["width"], height=d["height"], targets=[]))
        s.targets.append(SimpleNamespace(kind=d["kind"], target=d["target"], box=Box(*d["bbox"])))
    return SimpleNamespace(screens=list(screens.values()))


def test_the_ablation_reports_wins_per_app(perception):
    folder = _fixture_folder()
    # the two form screens of My Expenses (the ablation grounds every target three times a prior)
    folder.screens = [s for s in folder.screens if s.name.endswith(("14726600.png", "662143729.png"))]
    table = ablate(folder, perception, ["labelled_controls", "nearby_labels"])
    assert table.total == 12 and table.nohint >= 8  # every target of these screens is an icon
    rows = {r.name: r for r in table.rows}
    lab = rows["labelled_controls"]
    assert "Opening balance : Income" in lab.wins["nohint"]["org.totschnig.myexpenses"]
    assert lab.nohint < table.nohint and lab.net_apps() == ["org.totschnig.myexpenses"]
    assert not lab.keep()  # one app alone would not keep it
    # but it is a part of the nearby-labels signal, which the house rule judges as a whole
    assert lab.verdict() == "part of nearby_labels" and "| labelled_controls |" in markdown(table)
    sig = rows["nearby_labels"]
    assert sig.nohint <= lab.nohint and sig.verdict() == "goes"  # these two screens are one app


def test_a_signal_switches_its_parts_off_together():
    assert set(priors.parts("position")) >= {"status_bar", "dialog", "keyboard", "layout_priors"}
    assert set(priors.parts("nearby_labels")) == {"labelled_controls", "selection_control", "nearby_label"}
    with priors.switched_off("position"):
        assert not any(priors.on(p) for p in priors.parts("position"))
        assert all(priors.on(p) for p in priors.parts("nearby_labels"))
    assert all(priors.on(p) for p in priors.parts("position"))
    # the house rule judges the signals and the priors of no signal, each once
    judged = priors.judged()
    assert set(priors.SIGNALS) <= set(judged) and "text_controls" in judged and "keyboard" not in judged
    for p in priors.PRIORS.values():
        assert not p.signal or p.signal in priors.SIGNALS, p.name
    from mobile_agent.screensets.ablation import Row

    assert Row("recogniser", 0, 0).verdict() == "the model's" and Row("text_controls", 0, 0).verdict() == "goes"


DEV_SET = COMMITTED
FIREFOX_THEMES = "Firefox_Fast_Private_Browser_v101.1.1__1588025648"


def test_the_cli_ablates_a_folder_of_real_screens(tmp_path, capsys):
    """``bench perception --dir DIR --ablate``: one real screen of the development set (Firefox's
    theme radios, named by their labels) copied into a folder of its own; the nearby-labels signal
    wins its targets there, text controls none."""
    import json
    import shutil

    from mobile_agent.cli import main

    lines = [l for l in (DEV_SET / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
             if FIREFOX_THEMES in l]
    assert lines
    for sub in ("img", "xml"):
        (tmp_path / sub).mkdir()
    d = json.loads(lines[0])
    for key in ("image", "xml"):
        shutil.copy(DEV_SET / d[key], tmp_path / d[key])
    (tmp_path / "manifest.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["bench", "perception", "--dir", str(tmp_path), "--ablate", "--priors", "nearby_labels,text_controls"]) == 0
    out = capsys.readouterr().out
    rows = {l.split("|")[1].strip(): l for l in out.splitlines() if l.startswith("| ") and "---" not in l}
    assert "nearby_labels" in rows and "text_controls" in rows, out
    assert "Dark theme" in out and "nohint win: Firefox" in out  # the signal's wins, per app
    assert "| -0 |" not in rows["nearby_labels"] and rows["nearby_labels"].split("|")[2].strip().startswith("-")
    assert rows["text_controls"].split("|")[2].strip() == "+0"
    # a name that is neither a prior nor a signal is refused with the list, before any work
    assert main(["bench", "perception", "--dir", str(tmp_path), "--ablate", "--priors", "no_such"]) == 2
    assert "no icon prior or signal named 'no_such'" in capsys.readouterr().err
    assert main(["bench", "perception", "--set", "sim", "--ablate"]) == 2
    assert "--ablate needs a folder of real screens" in capsys.readouterr().err
