"""Fixtures of the top-up back-office tests: the real sandbox, products, users, Celery modes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import requests

from tests.sandbox_process import SandboxProcess

# Numbers whose range belongs to each carrier (the sandbox refuses another carrier's product).
CMCC_NUMBER = "13800138000"
CUCC_NUMBER = "13012345678"
CTCC_NUMBER = "13312345678"


@pytest.fixture(autouse=True)
def _fresh_cache(request: pytest.FixtureRequest) -> None:
    """A clean shared cache for every database test (the token copy, the 510 pause).

    Without REDIS_URL the cache is the database cache, whose table `make run` creates with
    createcachetable; the test database gets it here.
    """
    if request.node.get_closest_marker("django_db") is None:
        return
    request.getfixturevalue("_django_db_helper")
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection

    from topup.services.shared_token import forget_recent

    forget_recent()
    if settings.CACHES["default"]["BACKEND"].endswith("DatabaseCache"):
        table = settings.CACHES["default"]["LOCATION"]
        if table not in connection.introspection.table_names():
            call_command("createcachetable", verbosity=0)
    cache.clear()


@pytest.fixture
def products(db: Any) -> dict[str, Any]:
    """Our product list as the demo loads it: the sandbox's catalogue with its prices."""
    from topup.demo import load_products
    from topup.models import Product

    load_products()
    return {product.code: product for product in Product.objects.all()}


@pytest.fixture
def operator(db: Any, make_user: Callable[..., Any]) -> Any:
    return make_user("operator", "Top-up operators")


@pytest.fixture
def auditor(db: Any, make_user: Callable[..., Any]) -> Any:
    return make_user("auditor", "Auditors")


class TopupControl:
    """The sandbox's top-up control endpoints, as the tests use them."""

    def __init__(self, sandbox: SandboxProcess) -> None:
        self.sandbox = sandbox

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        response = self.sandbox.control(method, f"/topup/{path}", body)
        response.raise_for_status()
        return response.json()

    def settings(self, **values: Any) -> dict[str, Any]:
        return self._call("POST", "settings", values)

    def rule(self, mobile: str, **fields: Any) -> dict[str, Any]:
        return self._call("POST", "rules", {"mobile": mobile, **fields})

    def orders(self) -> list[dict[str, Any]]:
        return self._call("GET", "orders")["orders"]

    def callbacks(self) -> list[dict[str, Any]]:
        return self._call("GET", "callbacks")["callbacks"]

    def balance(self) -> dict[str, Any]:
        return self._call("GET", "settings")

    def advance(self, seconds: float) -> float:
        """Move the provider's clock; due callbacks are delivered before it answers, which for
        hundreds of orders takes longer than the foundation helper's 30 s timeout."""
        response = requests.post(f"{self.sandbox.control_url}/clock/advance",
                                 json={"seconds": seconds}, timeout=600)
        response.raise_for_status()
        return response.json()["now"]

    def fault(self, **fields: Any) -> dict[str, Any]:
        return self.sandbox.add_fault(service="topup", **fields)

    def clear_faults(self) -> None:
        requests.delete(f"{self.sandbox.control_url}/faults", timeout=10).raise_for_status()


@pytest.fixture
def topup_sandbox(provider: SandboxProcess, settings: Any) -> TopupControl:
    """The sandbox (reset) with the back-office pointed at it; short timeouts for fault tests."""
    settings.PROVIDER_TIMEOUT_S = 3
    return TopupControl(provider)


@pytest.fixture
def callbacks_here(topup_sandbox: TopupControl, live_server: Any) -> str:
    """Point the sandbox's callbacks at this test's live server; returns the address."""
    url = f"{live_server.url}/api/topup/callback/"
    topup_sandbox.settings(callback_url=url)
    return url
