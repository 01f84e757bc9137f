"""Small real filesystems for fault tests: a tmpfs of a few hundred KB (a disk that fills up) and a
read-only folder. Mounting needs root; elsewhere a read-only folder is a folder without write
permission, and a full disk is skipped with the reason."""

from __future__ import annotations

import os
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest


def _mount(path: Path, options: str) -> bool:
    if os.name != "posix" or os.geteuid() != 0:
        return False
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True)
    return r.returncode == 0


def _umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True)


@contextmanager
def small_disk(path: Path, size_kb: int) -> Iterator[Path]:
    """A tmpfs of ``size_kb`` KB at ``path``; the test is skipped where none can be mounted."""
    path.mkdir(parents=True, exist_ok=True)
    if not _mount(path, f"size={size_kb}k"):
        pytest.skip("cannot mount a small tmpfs here (needs root and mount(8)): the full-disk case is not run")
    try:
        yield path
    finally:
        _umount(path)


def grow(path: Path, size_kb: int) -> None:
    """Make room on a :func:`small_disk` (as when the user frees space)."""
    subprocess.run(["mount", "-o", f"remount,size={size_kb}k", str(path)], check=True, capture_output=True)


@contextmanager
def read_only_folder(path: Path) -> Iterator[Path]:
    """A folder nothing can be written in: a read-only tmpfs as root, a folder without write permission
    otherwise."""
    path.mkdir(parents=True, exist_ok=True)
    if _mount(path, "ro,size=64k"):
        try:
            yield path
        finally:
            _umount(path)
        return
    if os.name == "posix" and os.geteuid() == 0:
        pytest.skip("root writes through permissions and no read-only tmpfs could be mounted")
    path.chmod(0o555)
    try:
        yield path
    finally:
        path.chmod(0o755)
