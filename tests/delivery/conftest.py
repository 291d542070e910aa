"""Fixtures of the delivery back-office tests: users of each role, Celery modes, and an `edge`
helper that uploads to the real storage sandbox and fetches from the real sandbox edge."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
import requests
from PIL import Image

from tests.sandbox_process import SandboxProcess


@pytest.fixture
def manager(db: Any, make_user: Callable[..., Any]) -> Any:
    return make_user("manager", "Content managers")


@pytest.fixture
def auditor(db: Any, make_user: Callable[..., Any]) -> Any:
    return make_user("auditor", "Auditors")


@pytest.fixture
def manager_client(client: Any, manager: Any, domain: Any) -> Any:
    client.force_login(manager)
    return client


@pytest.fixture
def auditor_client(client: Any, auditor: Any, domain: Any) -> Any:
    client.force_login(auditor)
    return client


def png_bytes(width: int, height: int, colour: tuple[int, int, int] = (200, 40, 40),
              image_format: str = "PNG") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, image_format)
    return buffer.getvalue()


class Edge:
    """The sandbox's storage and edge as a test sees them."""

    def __init__(self, sandbox: SandboxProcess) -> None:
        self.sandbox = sandbox
        self.base_url = sandbox.info["delivery_url"].rstrip("/")
        self.secret = sandbox.info["delivery"]["token_secret"]

    def storage(self) -> Any:
        from console.services import default_service
        from storage.services import storage_client

        return storage_client(default_service())

    def upload(self, path: str, data: bytes, **options: Any) -> None:
        self.storage().upload(path, io.BytesIO(data), **options)

    def get(self, path_or_url: str, **kwargs: Any) -> requests.Response:
        url = path_or_url if path_or_url.startswith("http") else self.base_url + path_or_url
        kwargs.setdefault("timeout", 30)
        kwargs.setdefault("allow_redirects", False)
        return requests.get(url, **kwargs)

    def config(self) -> dict[str, Any]:
        response = self.sandbox.control("GET", "/delivery/config")
        response.raise_for_status()
        return response.json()


@pytest.fixture
def edge(provider: SandboxProcess) -> Edge:
    return Edge(provider)


@pytest.fixture
def domain(db: Any, request: pytest.FixtureRequest) -> Any:
    """The default domain: the environment's (DELIVERY_URL) when the test uses the sandbox
    (`provider` set up first, whatever the order of the test's arguments), else one made here
    that reads the environment's settings like the environment's domain."""
    from backoffice.operations.provider import ProviderNotConfigured
    from console.models import Domain, Service
    from console.services import default_domain

    if {"provider", "edge", "sandbox"} & set(request.fixturenames):
        request.getfixturevalue("provider")
    try:
        return default_domain()
    except ProviderNotConfigured:
        # As the environment's: its address and secret are whatever the test puts in
        # settings.PROVIDER["delivery"], as before domains were records.
        service = Service.objects.create(name="test-bucket", from_environment=True)
        return Domain.objects.create(service=service, name="cdn.example.com",
                                     from_environment=True)


@pytest.fixture
def publish(db: Any) -> Callable[..., Any]:
    """Save settings fields (and optionally versions and rules) of a domain (the default one
    unless `domain=` names another) and publish them for real."""
    from console.services import default_domain
    from delivery import services
    from delivery.models import DeliverySettings, ImageVersion, Rule, RuleSet

    def do(*, versions: dict[str, str] | None = None,
           rules: list[dict[str, Any]] | None = None, domain: Any = None,
           **fields: Any) -> Any:
        domain = domain or default_domain()
        row = DeliverySettings.for_domain(domain)
        for name, value in fields.items():
            setattr(row, name, value)
        row.save()
        if versions is not None:
            ImageVersion.objects.filter(domain=domain).delete()
            for name, params in versions.items():
                ImageVersion.objects.create(domain=domain, name=name, params=params)
        rule_set = None
        if rules is not None:
            RuleSet.objects.filter(domain=domain, name="test rules").delete()
            rule_set = RuleSet.objects.create(domain=domain, name="test rules")
            for position, item in enumerate(rules, start=1):
                Rule.objects.create(rule_set=rule_set, position=position,
                                    pattern=item.get("pattern", ""), rule=item["rule"],
                                    breaks=item.get("break", False),
                                    state=item.get("state", "enabled"),
                                    test_addresses="\n".join(item.get("test_addresses", [])))
        return services.publish(user=None, domain=domain, rule_set=rule_set)

    return do
