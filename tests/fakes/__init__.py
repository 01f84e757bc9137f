"""Test fakes shared by several test folders and by the measurement scripts in bench/: a scripted
chat server on localhost (``chatserver``), agents wired to it (``agent_harness``, ``multi_harness``),
a tiny two-screen phone (``tinyphone``) and an adb server speaking the host protocol (``adb_server``).

Nothing here ships in the package. Tests import it as ``tests.fakes.*`` (pytest puts the repository
root on the path: ``pythonpath`` in pyproject.toml); a bench script puts the repository root on
``sys.path`` first.
"""
