"""Fixtures of the sandbox tests (the sandbox itself is in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.sandbox.origin_support import OriginServer


@pytest.fixture
def origin_servers() -> Iterator[Callable[[], OriginServer]]:
    """`origin_servers()` starts one more real origin server; all stop after the test."""
    started: list[OriginServer] = []

    def start() -> OriginServer:
        started.append(OriginServer.start())
        return started[-1]

    yield start
    for origin in started:
        origin.stop()


@pytest.fixture
def origin_server(origin_servers: Callable[[], OriginServer]) -> OriginServer:
    """One real origin server (see tests/sandbox/origin_support.py)."""
    return origin_servers()
