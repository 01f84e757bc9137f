"""Test fakes shared by several test folders and by the measurement scripts in bench/: a scripted
chat server on localhost (``chatserver``), agents wired to it (``agent_harness``, ``multi_harness``),
a tiny two-screen phone (``tinyphone``), an adb server speaking the host protocol (``adb_server``), the
``mobile-agent`` console script run as a user runs it (``console``) and the system parts some tests
need, with one way to skip without them (``system``).

Nothing here ships in the package. Tests import it as ``tests.fakes.*`` (pytest puts the repository
root on the path: ``pythonpath`` in pyproject.toml); a bench script puts the repository root on
``sys.path`` first.
"""
