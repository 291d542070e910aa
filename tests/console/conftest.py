"""Fixtures of the services pages' tests: a Content manager and an Auditor, signed in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.sandbox_process import SandboxProcess


@pytest.fixture
def manager(db: Any, make_user: Callable[..., Any]) -> Any:
    return make_user("manager", "Content managers")


@pytest.fixture
def auditor(db: Any, make_user: Callable[..., Any]) -> Any:
    return make_user("auditor", "Auditors")


@pytest.fixture
def manager_client(client: Any, manager: Any) -> Any:
    client.force_login(manager)
    return client


@pytest.fixture
def auditor_client(client: Any, auditor: Any) -> Any:
    client.force_login(auditor)
    return client


def create_service(sandbox: SandboxProcess, **fields: Any) -> dict[str, Any]:
    """A service made in the provider's console by a person (the sandbox's control API)."""
    response = sandbox.control("POST", "/console/services", fields)
    assert response.status_code == 201, response.text
    return dict(response.json())
