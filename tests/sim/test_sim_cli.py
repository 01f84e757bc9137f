"""The `mobile-agent sim` commands, run through the real CLI entry point."""

from __future__ import annotations

import numpy as np
from PIL import Image

from mobile_agent.cli import main
from mobile_agent.device.uitree import parse_tree


def test_sim_shot_writes_a_png_of_the_app(tmp_path, capsys):
    out = tmp_path / "settings.png"
    assert main(["sim", "shot", "--app", "Settings", "--dark", "--seed", "2", "--out", str(out)]) == 0
    img = Image.open(out)
    assert img.size == (1080, 2400)
    assert np.asarray(img.convert("L")).mean() < 80  # dark theme


def test_sim_tree_prints_the_xml(capsys):
    assert main(["sim", "tree", "--app", "Settings"]) == 0
    nodes = parse_tree(capsys.readouterr().out)
    assert any(n.text == "Network & internet" for n in nodes)


def test_sim_apps_lists_apps(capsys):
    assert main(["sim", "apps"]) == 0
    out = capsys.readouterr().out
    assert "Settings" in out and "Notes" in out


def test_unknown_app_is_a_usage_error(tmp_path, capsys):
    assert main(["sim", "shot", "--app", "Nope", "--out", str(tmp_path / "x.png")]) == 2
    assert "no app named 'Nope'" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
