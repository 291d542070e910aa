"""Mirror storage of an own-origin service from the service page, against the sandbox's console
and edge with a real origin server: switched on (after a confirmation) the first request copies
the origin's file into the bucket and the next is served from it; paused copies nothing; off
asks the origin only; on is left through paused; a cache time of 24 hours or less is refused at
its field; a failed publication is marked and retried; the page counts the files migrated from
the storage listing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
from django.urls import reverse

from backoffice.models import AuditEntry
from console.models import Domain, MirrorStatus, PublishState, Service, ServiceKind
from console.services import console_client, default_service
from storage.services import sync_tree
from tests.console.conftest import create_service
from tests.sandbox.origin_support import OriginServer
from tests.sandbox.test_delivery_support import Storage
from tests.sandbox_process import SandboxProcess

pytestmark = pytest.mark.django_db(transaction=True)
DOMAIN = "shop.sandbox.localhost"


@pytest.fixture
def origin_server() -> Iterator[OriginServer]:
    server = OriginServer.start()
    server.page("/a.css", b"body{color:red}", content_type="text/css")
    server.page("/b.css", b"body{color:blue}", content_type="text/css")
    yield server
    server.stop()


@pytest.fixture
def shop(provider: SandboxProcess, origin_server: OriginServer) -> Service:
    """An own-origin service made in the console by a person, recorded here."""
    create_service(provider, name="shop-site", business_type="cdn", domains=[DOMAIN],
                   origins=[{"address": origin_server.address, "weight": 10, "backup": False}])
    service = Service.objects.create(name="shop-site", kind=ServiceKind.CDN)
    Domain.objects.create(service=service, name=DOMAIN)
    return service


def get(provider: SandboxProcess, path: str) -> requests.Response:
    return requests.get(provider.info["delivery_url"].rstrip("/") + path,
                        headers={"Host": DOMAIN}, timeout=30)


def move(client: Any, service: Service, to: str, **fields: Any) -> Any:
    return client.post(reverse("console:mirror_move", args=[service.pk, to]),
                       {**fields, "confirmed": "1"})


def switch_on(client: Any, service: Service, seconds: int = 90000) -> Service:
    response = move(client, service, "on", storage_bucket=default_service().pk,
                    cache_seconds=seconds)
    assert response.status_code == 302, response.content.decode()[:2000]
    service.refresh_from_db()
    return service


def test_switching_on_asks_for_a_confirmation_first(shop: Service, manager_client: Any) -> None:
    response = manager_client.post(reverse("console:mirror_move", args=[shop.pk, "on"]), {
        "storage_bucket": default_service().pk, "cache_seconds": 90000})
    page = response.content.decode()
    assert response.status_code == 200 and "Switch mirror storage on for shop-site" in page
    shop.refresh_from_db()
    assert shop.mirror_status == MirrorStatus.OFF
    assert console_client().mirror("shop-site").status == "off"


def test_mirror_on_copies_on_the_first_request_and_serves_the_copy_next(
        provider: SandboxProcess, shop: Service, manager_client: Any,
        origin_server: OriginServer) -> None:
    shop = switch_on(manager_client, shop)
    assert (shop.mirror_status, shop.mirror_state) == (MirrorStatus.ON, PublishState.PUBLISHED)
    at_console = console_client().mirror("shop-site")
    assert (at_console.status, at_console.storage_bucket, at_console.cache_seconds) == (
        "on", default_service().name, 90000)
    storage = Storage(provider)
    assert storage._request("GET", "/a.css").status_code == 404
    assert get(provider, "/a.css").content == b"body{color:red}"
    assert storage._request("GET", "/a.css").content == b"body{color:red}"  # copied
    console_client().refresh_site(DOMAIN)  # the edge forgets it: the next one is a miss
    second = get(provider, "/a.css")
    assert (second.headers["X-Cache"], second.content) == ("MISS", b"body{color:red}")
    assert origin_server.hits("/a.css") == 1  # served from the bucket, not copied again
    # The count comes from the storage listing, once walked.
    page = manager_client.get(reverse("console:service", args=[shop.pk]))
    assert page.context["migrated_files"] == 0
    sync_tree(default_service())
    page = manager_client.get(reverse("console:service", args=[shop.pk]))
    assert page.context["migrated_files"] == 1
    assert AuditEntry.objects.filter(app="console", action="mirror.move").exists()


def test_paused_copies_nothing_and_still_serves_stored_files(
        provider: SandboxProcess, shop: Service, manager_client: Any,
        origin_server: OriginServer) -> None:
    switch_on(manager_client, shop)
    get(provider, "/a.css")
    assert move(manager_client, shop, "paused").status_code == 302
    shop.refresh_from_db()
    assert console_client().mirror("shop-site").status == "paused"
    assert get(provider, "/b.css").content == b"body{color:blue}"
    assert Storage(provider)._request("GET", "/b.css").status_code == 404
    console_client().refresh_site(DOMAIN)
    assert get(provider, "/a.css").content == b"body{color:red}"
    assert origin_server.hits("/a.css") == 1  # still from the bucket


def test_off_asks_the_origin_only_and_is_reached_through_paused(
        provider: SandboxProcess, shop: Service, manager_client: Any,
        origin_server: OriginServer) -> None:
    switch_on(manager_client, shop)
    get(provider, "/a.css")
    refused = manager_client.post(reverse("console:mirror_move", args=[shop.pk, "off"]),
                                  {"confirmed": "1"}, follow=True)
    assert "on is left through paused" in refused.content.decode()
    assert console_client().mirror("shop-site").status == "on"
    move(manager_client, shop, "paused")
    move(manager_client, shop, "off")
    shop.refresh_from_db()
    assert shop.mirror_status == MirrorStatus.OFF
    assert console_client().mirror("shop-site").status == "off"
    console_client().refresh_site(DOMAIN)
    get(provider, "/a.css")
    assert origin_server.hits("/a.css") == 2
    # And on again, from off.
    assert switch_on(manager_client, shop).mirror_status == MirrorStatus.ON


@pytest.mark.parametrize("seconds", [86400, 3600, 0, -5])
def test_a_cache_time_of_24_hours_or_less_is_refused_at_the_field(
        shop: Service, manager_client: Any, seconds: int) -> None:
    response = move(manager_client, shop, "on", storage_bucket=default_service().pk,
                    cache_seconds=seconds)
    assert response.status_code == 400
    [form] = [m["form"] for m in response.context["mirror_moves"] if m["to"] == "on"]
    assert "more than 24 hours" in str(form.errors["cache_seconds"])
    shop.refresh_from_db()
    assert shop.mirror_status == MirrorStatus.OFF
    assert console_client().mirror("shop-site").status == "off"


def test_the_bucket_must_be_a_storage_service(shop: Service, manager_client: Any) -> None:
    response = move(manager_client, shop, "on", storage_bucket=shop.pk, cache_seconds=90000)
    assert response.status_code == 400
    shop.refresh_from_db()
    assert shop.mirror_status == MirrorStatus.OFF


def test_a_failed_publication_is_marked_and_retried(
        provider: SandboxProcess, shop: Service, manager_client: Any, settings: Any) -> None:
    console = dict(settings.PROVIDER["console"])
    settings.PROVIDER = {**settings.PROVIDER, "console": {**console,
                                                          "console_url": "http://127.0.0.1:9"}}
    switch_on(manager_client, shop)
    assert (shop.mirror_status, shop.mirror_state) == (MirrorStatus.ON, PublishState.FAILED)
    assert shop.mirror_error
    page = manager_client.get(reverse("console:service", args=[shop.pk])).content.decode()
    assert "Not published" in page and 'id="cs-mirror-retry"' in page
    assert AuditEntry.objects.filter(action="mirror.publish", outcome="failed").exists()
    settings.PROVIDER = {**settings.PROVIDER, "console": console}
    manager_client.post(reverse("console:mirror_publish", args=[shop.pk]))
    shop.refresh_from_db()
    assert shop.mirror_state == PublishState.PUBLISHED and not shop.mirror_error
    assert console_client().mirror("shop-site").status == "on"


def test_an_auditor_sees_the_state_and_cannot_move_it(shop: Service, auditor_client: Any) -> None:
    page = auditor_client.get(reverse("console:service", args=[shop.pk])).content.decode()
    assert 'data-mirror-status="off"' in page and "cs-mirror-on" not in page
    response = move(auditor_client, shop, "on", storage_bucket=default_service().pk,
                    cache_seconds=90000)
    assert response.status_code == 403
