"""What every test gets: a process that holds no API key from an earlier test (keys a test's run
remembered are redacted from all later text in the process: mobile_agent.errors.remember_secret)."""

from __future__ import annotations

import pytest

from mobile_agent.errors import forget_secrets


@pytest.fixture(autouse=True)
def _no_secrets_from_earlier_tests():
    yield
    forget_secrets()
