"""One atomic-write helper for every file (a temporary name unique to each writer, fsync,
os.replace), and the lock on an output folder."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time

import pytest

from mobile_agent.errors import ConfigError
from mobile_agent.fsutil import FolderLock, atomic_save_image, atomic_write_text


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "results.json"
    atomic_write_text(target, "old")

    class Boom:
        def encode(self, _):  # the data cannot be produced: nothing may be half-written
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        atomic_write_text(target, Boom())  # type: ignore[arg-type]
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["results.json"]


def test_an_image_name_without_a_known_format_is_a_clear_error(tmp_path):
    from PIL import Image

    with pytest.raises(ConfigError, match=r"\.png or \.jpg"):
        atomic_save_image(tmp_path / "shot.nope", Image.new("RGB", (4, 4)))
    atomic_save_image(tmp_path / "shot.png", Image.new("RGB", (4, 4)))
    assert Image.open(tmp_path / "shot.png").size == (4, 4)


def test_a_folder_lock_is_exclusive_and_names_its_holder(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom mobile_agent.fsutil import FolderLock\n"
         "lock = FolderLock(sys.argv[1], 'eval'); lock.acquire(); print('held', flush=True); time.sleep(60)", str(tmp_path)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ConfigError, match=rf"another eval is using .* \(process {holder.pid}\)"):
            FolderLock(tmp_path, "eval").acquire()
    finally:
        holder.kill()
        holder.wait()
    # the lock went with its process: no stale lock is left behind
    deadline = time.monotonic() + 5
    while True:
        try:
            with FolderLock(tmp_path, "eval") as lock:
                assert lock.held
            break
        except ConfigError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    with FolderLock(tmp_path) as first:
        with pytest.raises(ConfigError):
            FolderLock(tmp_path).acquire()  # the same process, another lock object: refused too
    assert not first.held


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="POSIX file modes")
@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_a_new_file_gets_the_mode_the_umask_gives(tmp_path, umask, mode):
    # in a child process: the umask is the process's, and the test must not change this one's
    code = ("import os, stat, sys\nfrom PIL import Image\n"
            "from mobile_agent.fsutil import atomic_save_image, atomic_write_text\n"
            f"os.umask({umask})\nd = sys.argv[1]\n"
            "atomic_write_text(os.path.join(d, 'report.html'), 'page')\n"
            "atomic_save_image(os.path.join(d, 'shot.png'), Image.new('RGB', (2, 2)))\n"
            "print(oct(stat.S_IMODE(os.stat(os.path.join(d, 'report.html')).st_mode)),"
            " oct(stat.S_IMODE(os.stat(os.path.join(d, 'shot.png')).st_mode)))\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [oct(mode), oct(mode)]


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="POSIX file modes")
def test_overwriting_a_file_keeps_its_mode(tmp_path):
    shared, private = tmp_path / "shared.json", tmp_path / "private.json"
    for path, mode in ((shared, 0o644), (private, 0o600)):
        path.write_text("old")
        path.chmod(mode)
        atomic_write_text(path, "new")
        assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == mode
