"""One list of screen sets: the registry (mobile_agent.screensets.registry) is what ``mobile-agent
bench perception --set``, bench/bench_parse.py and bench/bench_icons.py offer and load; an unknown
name is one line that lists the names; a real folder is one more set (``dir:PATH``)."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
from pathlib import Path

import pytest

from heldout_checks import needs
from mobile_agent.cli import main
from mobile_agent.screensets import icon_heldout, registry, text_stress
from mobile_agent.screensets.realscreens import RealFolder

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "bench" / "fixtures" / "realscreens"
CONSUMERS = [ROOT / "src" / "mobile_agent" / "cli" / "bench.py", ROOT / "bench" / "bench_parse.py",
             ROOT / "bench" / "bench_icons.py"]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"_screensets_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _listed(line: str) -> list[str]:
    """The set names a one-line message lists (``use a, b or dir:PATH``; argparse's ``choose from``)."""
    return [n for n in re.findall(r"[a-z0-9]+", line) if n in registry.SETS]


def test_an_unknown_name_is_one_line_that_lists_every_set():
    with pytest.raises(registry.UnknownScreenSet) as e:
        registry.get("textheldin")
    msg = str(e.value)
    assert "\n" not in msg and "'textheldin'" in msg and "dir:PATH" in msg
    assert _listed(msg) == list(registry.SETS)
    with pytest.raises(registry.UnknownScreenSet, match="dir:PATH"):
        registry.get("dir:")
    with pytest.raises(registry.UnknownScreenSet, match="heldout"):  # a text set where icon targets are wanted
        registry.get("textstress", ("icon", "both"))
    assert set(registry.names()) == set(registry.SETS)
    assert all(s.kind in registry.KINDS and s.truth in registry.TRUTHS for s in registry.SETS.values())


def test_the_cli_offers_and_refuses_the_registry_names(capsys):
    assert main(["bench", "perception", "--set", "textheldin"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: unknown screen set 'textheldin'")
    assert _listed(err) == list(registry.SETS)
    assert main(["bench", "perception", "--help"]) == 0
    out = capsys.readouterr().out
    assert set(registry.SETS) <= set(re.findall(r"[a-z0-9]+", out)) and "dir:PATH" in out
    assert main(["bench", "perception", "--dir", str(FIXTURES), "--set", "sim"]) == 2
    assert "--set dir:DIR" in capsys.readouterr().err


def test_the_bench_scripts_take_their_sets_from_the_registry(capsys):
    parse = _script("bench_parse")
    for name in registry.SETS:
        assert parse._screen_set(name) == name
    with pytest.raises(SystemExit) as e:
        parse.main(["--set", "textheldin"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "unknown screen set 'textheldin'" in err and _listed(err) == list(registry.SETS)
    assert parse._tree_sets() == [n for n, s in registry.SETS.items() if s.truth == "tree"]

    icons = _script("bench_icons")
    with pytest.raises(SystemExit) as e:
        icons.main(["--set", "textheldin"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "invalid choice" in err
    assert _listed(err) == list(registry.names(("icon", "both"))) == [
        n for n, s in registry.SETS.items() if s.kind != "text"]


def test_no_consumer_keeps_a_list_of_its_own():
    """The commands and scripts name no set themselves (their help, choices and loaders come from
    the registry): no string in them is a set's name, but the default."""
    for path in CONSUMERS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = sorted({n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                        and n.value in registry.SETS} - {"sim"})
        assert named == [], f"{path.name} names screen sets itself: {named}"


def test_a_real_folder_is_a_set_of_the_registry():
    s = registry.get(f"dir:{FIXTURES}")
    assert (s.kind, s.truth, s.path) == ("both", "folder", FIXTURES)
    assert s.default_count() is None and not s.frozen
    folder = s.load(absent=0)
    assert isinstance(folder, RealFolder) and folder.problems == []
    assert len(folder.screens) == len(list((FIXTURES / "img").glob("*.png")))
    assert all(sc.targets for sc in folder.screens)
    assert {t.kind for sc in folder.screens for t in sc.targets} == {"text", "icon"}
    assert len(s.load(count=2).screens) == 2
    images = s.images(count=2)
    assert [im.size for im in images] == [(sc.width, sc.height) for sc in folder.screens[:2]]
    assert {im.mode for im in images} == {"RGB"}
    with pytest.raises(FileNotFoundError):
        registry.get(f"dir:{FIXTURES / 'missing'}").load()


def test_a_real_folder_through_the_cli_set(capsys):
    assert main(["bench", "perception", "--set", f"dir:{FIXTURES}", "--max-screens", "1", "--no-timing",
                 "--no-icons", "--absent", "0", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["settings"]["dir"] == str(FIXTURES) and d["settings"]["screens"] == 1
    assert main(["bench", "perception", "--set", f"dir:{FIXTURES / 'missing'}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --set ") and "no such folder" in err and len(err.splitlines()) == 1


@needs(text_stress, ("dejavu", "noto-cjk"))
def test_a_drawn_set_loads_through_the_registry_as_its_module_draws_it():
    s = registry.get("textstress")
    assert (s.kind, s.truth, s.frozen, s.default_count()) == ("text", "text", True, text_stress.SCREENS)
    screens = s.load(count=2)
    assert s.digest(screens) == text_stress.set_digest(text_stress.collect_stress_screens(count=2))
    assert all(sc.targets for sc in screens)
    assert not s.is_frozen_set(screens, 0)  # two screens are not the frozen sixty


@needs(icon_heldout, ("entypo", "glyphicons"))
def test_an_icon_set_is_measured_by_the_cli(capsys):
    assert main(["bench", "perception", "--set", "heldout", "--max-screens", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["settings"]["set"] == "heldout" and d["screens"] == 1
    assert d["targets"] == len(icon_heldout.heldout_screens(count=1)[0].targets) > 0
    assert 0 <= d["top1"] <= d["targets"] and not d["frozen"]
    assert sum(v[0] for v in d["by_family"].values()) == d["targets"]


def test_the_scripts_write_the_set_fonts_where_the_material_set_reads_them():
    from mobile_agent.screensets import icon_material

    refs = _script("build_icon_refs")
    fonts = Path(icon_material.__file__).resolve().with_name("fonts")
    for style in ("Material Symbols Rounded", "Material Symbols Sharp"):
        stem, where, _ = refs.STYLES[style]
        assert where.resolve() == fonts and (fonts / f"{stem}.ttf").is_file()
