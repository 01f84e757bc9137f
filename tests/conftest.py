"""What every test gets: a process that holds no API key from an earlier test (keys a test's run
remembered are redacted from all later text in the process: mobile_agent.errors.remember_secret),
and in which the system parts ``MOBILE_AGENT_TEST_WITHOUT`` names are missing (tests/fakes/system.py);
the terminal summary prints each worker's peak memory and the whole process tree's (tests/fakes/memory.py)."""

from __future__ import annotations

import pytest

from mobile_agent.errors import forget_secrets
from tests.fakes import memory, system


def pytest_configure(config: pytest.Config) -> None:
    system.hide_parts()
    memory.controller_start(config)


def pytest_runtest_logstart(nodeid: str) -> None:
    memory.before_test(nodeid)


def pytest_runtest_logfinish(nodeid: str) -> None:
    memory.after_test(nodeid)


def pytest_sessionfinish(session: pytest.Session) -> None:
    memory.worker_done(session.config)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:  # noqa: ANN001 - xdist's hook
    memory.node_down(node)


def pytest_terminal_summary(terminalreporter) -> None:  # noqa: ANN001 - pytest's TerminalReporter
    memory.summary(terminalreporter)


@pytest.fixture(autouse=True)
def _no_secrets_from_earlier_tests():
    yield
    forget_secrets()
