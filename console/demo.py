"""Demo data for `make run` (hook: `load(stdout)`): the account's other services.

Beside the environment's storage service (`demo-bucket`, the sandbox's own), the demo account
gets, at the sandbox and then as records here:
- `demo-videos`, a second storage service with its own operator (a random password, made once)
  and the domain `videos.sandbox.localhost`;
- `demo-site`, a CDN service whose own origin is `make run`'s demo web server
  (`DEMO_ORIGIN_URL`), with the domain `site.sandbox.localhost`.

Services are made in the provider's console by a person, never by the back-office (the console
API has no call for it); the sandbox's control API stands for that person here. This module is
the only back-office code that calls it for services, and only when SANDBOX_CONTROL_URL is set.

Idempotent: what exists (at the sandbox, or here) is kept, so a second `make run` changes
nothing; the operator's password is the one the sandbox already holds, else the one recorded
here (a sandbox made afresh beside a kept database), else a new random one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, TextIO
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction

from console.models import Domain, Origin, Service, ServiceKind
from console.services import environment_service

VIDEOS = "demo-videos"
VIDEOS_OPERATOR = "videos-operator"
VIDEOS_DOMAIN = "videos.sandbox.localhost"
SITE = "demo-site"
SITE_DOMAIN = "site.sandbox.localhost"
ORIGIN_WEIGHT = 10
TIMEOUT_S = 10


class DemoSkipped(Exception):
    """Why the demo services are not made (said on `make run`'s output, never fatal)."""


@dataclass(frozen=True)
class Sandbox:
    """The sandbox's control API (for services) and the edge port the demo domains use."""

    control_url: str
    edge_port: int

    def services(self) -> dict[str, dict[str, Any]]:
        """Every service the sandbox holds, by name (with operators and origins)."""
        response = requests.get(f"{self.control_url}/console/services", timeout=TIMEOUT_S)
        response.raise_for_status()
        return {item["bucket_name"]: item for item in response.json()["services"]}

    def create(self, body: dict[str, Any]) -> None:
        response = requests.post(f"{self.control_url}/console/services", json=body,
                                 timeout=TIMEOUT_S)
        if response.status_code != 201:
            raise DemoSkipped(f"the sandbox refused {body['name']}: {response.text[:200]}")

    def base_url(self, domain: str) -> str:
        return f"http://{domain}:{self.edge_port}"


def sandbox() -> Sandbox:
    control_url = settings.PROVIDER.get("sandbox_control_url")
    edge_url = settings.PROVIDER["delivery"].get("delivery_url")
    if not control_url or not edge_url:
        raise DemoSkipped("SANDBOX_CONTROL_URL and DELIVERY_URL are needed (the sandbox)")
    port = urlsplit(str(edge_url)).port
    if port is None:
        raise DemoSkipped(f"DELIVERY_URL names no port: {edge_url}")
    return Sandbox(str(control_url).rstrip("/"), port)


def _videos_password(held: dict[str, Any] | None, record: Service | None) -> str:
    if held is not None and held.get("operators", {}).get(VIDEOS_OPERATOR):
        return str(held["operators"][VIDEOS_OPERATOR])
    if record is not None and record.operator == VIDEOS_OPERATOR and record.operator_password:
        return record.operator_password
    return secrets.token_urlsafe(18)


def _record_domain(service: Service, name: str, base_url: str) -> bool:
    """The domain's record (a random token secret, sealed, the first time); True if changed."""
    domain = Domain.objects.filter(name=name).first()
    if domain is None:
        Domain.objects.create(service=service, name=name, base_url=base_url,
                              token_secret=secrets.token_urlsafe(24))
        return True
    if domain.base_url != base_url:  # another SANDBOX_BASE_PORT: the edge moved
        domain.base_url = base_url
        domain.save(update_fields=["base_url"])
        return True
    return False


def ensure_videos(box: Sandbox, held: dict[str, dict[str, Any]]) -> bool:
    """`demo-videos` at the sandbox and here; True when anything was made or changed."""
    record = Service.objects.filter(name=VIDEOS).first()
    password = _videos_password(held.get(VIDEOS), record)
    changed = False
    if VIDEOS not in held:
        box.create({"name": VIDEOS, "business_type": "file",
                    "operators": {VIDEOS_OPERATOR: password}, "domains": [VIDEOS_DOMAIN]})
        changed = True
    with transaction.atomic():
        if record is None:
            record = Service.objects.create(
                name=VIDEOS, kind=ServiceKind.STORAGE, label="Demo videos",
                operator=VIDEOS_OPERATOR, operator_password=password)
            changed = True
        elif record.operator != VIDEOS_OPERATOR or record.operator_password != password:
            record.operator, record.operator_password = VIDEOS_OPERATOR, password
            record.save(update_fields=["operator", "operator_password", "updated_at"])
            changed = True
        changed |= _record_domain(record, VIDEOS_DOMAIN, box.base_url(VIDEOS_DOMAIN))
    return changed


def ensure_site(box: Sandbox, held: dict[str, dict[str, Any]], origin: str) -> bool:
    """`demo-site` (own origin `origin`) at the sandbox and here; True when anything changed.

    A sandbox service with another origin (another base port) keeps it: the records follow
    what the console holds, and staff can change it on the service's page."""
    at_sandbox = held.get(SITE)
    changed = False
    if at_sandbox is None:
        box.create({"name": SITE, "business_type": "cdn", "domains": [SITE_DOMAIN],
                    "origins": [{"address": origin, "weight": ORIGIN_WEIGHT, "backup": False}]})
        addresses: list[dict[str, Any]] = [
            {"address": origin, "weight": ORIGIN_WEIGHT, "backup": False}]
        changed = True
    else:
        addresses = list(at_sandbox.get("origins") or [])
    with transaction.atomic():
        record = Service.objects.filter(name=SITE).first()
        if record is None:
            record = Service.objects.create(name=SITE, kind=ServiceKind.CDN,
                                            label="Demo site (own origin)")
            changed = True
        if not record.origins.exists():
            for position, item in enumerate(addresses):
                Origin.objects.create(service=record, position=position,
                                      address=str(item["address"]), weight=int(item["weight"]),
                                      backup=bool(item["backup"]))
            changed = True
        changed |= _record_domain(record, SITE_DOMAIN, box.base_url(SITE_DOMAIN))
    return changed


def load(stdout: TextIO) -> None:
    """Make the demo services (at the sandbox, then here) that are missing."""
    try:
        box = sandbox()
        # The environment's service first, so that it stays the oldest record and the default.
        environment_service()
        held = box.services()
        videos = ensure_videos(box, held)
        stdout.write(f"  services: {VIDEOS} ({VIDEOS_DOMAIN}) {'added' if videos else 'kept'}\n")
        origin = settings.PROVIDER.get("demo_origin_url")
        if not origin:
            stdout.write(f"  services: {SITE} skipped: DEMO_ORIGIN_URL is not set\n")
            return
        site = ensure_site(box, held, str(origin).rstrip("/"))
        stdout.write(f"  services: {SITE} ({SITE_DOMAIN}, origin {origin}) "
                     f"{'added' if site else 'kept'}\n")
    except DemoSkipped as reason:
        stdout.write(f"  services: no demo services: {reason}\n")
    except requests.RequestException as error:
        stdout.write(f"  services: no demo services: the sandbox did not answer: {error}\n")
