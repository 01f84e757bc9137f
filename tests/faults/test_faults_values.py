"""Bad values are refused with one clear line before any work: nothing is run and no folder is made."""

from __future__ import annotations

import pytest

from mobile_agent.cli import main


@pytest.mark.parametrize("args,words", [
    (["--tasks", "notes-1#99999999999999999999"], "variants go from 0 to"),
    (["--tasks", "notes-1#٣"], "is a number"),
    (["--variants", "100000000"], "--variants must be from 1 to 1000"),
    (["--workers", "0"], "--workers must be at least 1"),
])
def test_eval_refuses_bad_values_before_making_its_folder(tmp_path, capsys, args, words):
    out = tmp_path / "eval"
    assert main(["eval", "--out", str(out), *args]) == 2
    err = capsys.readouterr().err.replace("\n", "")
    assert words in err and "Traceback" not in err, err
    assert not out.exists()


def test_eval_refuses_a_file_as_out_and_a_folder_as_json(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert main(["eval", "--tasks", "settings-1", "--out", str(tmp_path / "file")]) == 2
    assert "is a file" in capsys.readouterr().err
    assert main(["eval", "--tasks", "settings-1", "--out", str(tmp_path / "eval"), "--json", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert not (tmp_path / "eval").exists()  # refused before the evaluation, not after it


def test_sim_serve_refuses_a_port_out_of_range(capsys):
    assert main(["sim", "serve", "--port", "99999"]) == 2
    err = capsys.readouterr().err
    assert "65535" in err and "Traceback" not in err
