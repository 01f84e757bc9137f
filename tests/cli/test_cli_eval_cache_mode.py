"""``mobile-agent eval --cache DIR --cache-mode``: read-only replays the kept run and leaves the
cache folder exactly as it was (no entry replaced, no lines kept); the mode is checked before any
work, as run's is."""

from __future__ import annotations

import hashlib
from pathlib import Path

from mobile_agent.agent.trajectory import read_summary
from mobile_agent.cli import main


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every path below ``folder`` (hidden ones too) with its kind, size, modification time and
    contents' digest."""
    out: dict[str, tuple] = {}
    for p in sorted(folder.rglob("*")):
        st = p.lstat()
        digest = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_symlink() else ""
        out[p.relative_to(folder).as_posix()] = (p.is_dir(), st.st_size, st.st_mtime_ns, st.st_mode, digest)
    return out


def test_eval_read_only_replays_and_leaves_the_cache_unchanged(tmp_path, capsys):
    cache = tmp_path / "cache"
    assert main(["eval", "--tasks", "settings-1", "--cache", str(cache), "--out", str(tmp_path / "fill")]) == 0
    assert "1 kept" in " ".join(capsys.readouterr().out.split())
    before = snapshot(cache)
    assert any(name.endswith("steps.jsonl") for name in before)  # the kept run is there

    code = main(["eval", "--tasks", "settings-1", "--cache", str(cache), "--cache-mode", "read-only",
                 "--out", str(tmp_path / "ro")])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0, out
    assert "cache: 1 of 1 task(s) replayed from it; 0 kept" in out
    (cid,) = [p for p in (tmp_path / "ro").iterdir() if p.is_dir()]
    replay = read_summary(cid / "settings-1")["replay"]
    assert replay["replayed_steps"] == 4 and replay["planned_steps"] == 0
    assert snapshot(cache) == before


def test_eval_cache_mode_is_checked_before_any_work(tmp_path, capsys):
    missing = tmp_path / "nothing-here"
    assert main(["eval", "--tasks", "settings-1", "--cache", str(missing), "--cache-mode", "read-only",
                 "--out", str(tmp_path / "a")]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "does not exist" in err and not missing.exists()
    assert main(["eval", "--tasks", "settings-1", "--cache-mode", "write-only", "--out", str(tmp_path / "b")]) == 2
    assert "--cache-mode says how --cache DIR is used: give --cache DIR too" in " ".join(capsys.readouterr().err.split())
    assert main(["eval", "--tasks", "settings-1", "--cache", str(tmp_path / "c"), "--cache-mode", "sometimes",
                 "--out", str(tmp_path / "c-out")]) == 2
    assert "--cache-mode must be one of read-write, read-only, write-only" in " ".join(capsys.readouterr().err.split())
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
