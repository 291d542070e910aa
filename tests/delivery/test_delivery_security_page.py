"""The security page of an own-origin domain, end to end: saved on the page, published through
the console API, and obeyed by the sandbox edge in front of a real origin server. The WAF
refuses a signature while the same request without it passes; a body over the size limit gets
413 from its headers alone; the 11th request in a 60 s window is banned (until the sandbox
clock moves past the ban) or delayed. Bad inputs are refused at their field, rules by line
number, and nothing stored is lost; a storage domain's page explains the panel is for
own-origin domains and its publish does not send it; a section the console refuses leaves the
publication failed with the console's answer."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from django.urls import reverse

from console.models import Domain, Service, ServiceKind
from delivery import services
from delivery.models import PublishedConfig, PublishStatus, SecuritySettings
from tests.console.conftest import create_service
from tests.sandbox.origin_support import OriginServer
from tests.sandbox_process import SandboxProcess

pytestmark = pytest.mark.django_db(transaction=True)
SHOP = "shop.sandbox.localhost"


@pytest.fixture
def origin_server() -> Iterator[OriginServer]:
    server = OriginServer.start()
    for path in ("/search", "/login", "/api/items", "/upload", "/a.css"):
        server.page(path, b"from the origin", content_type="text/plain")
    yield server
    server.stop()


@pytest.fixture
def shop(provider: SandboxProcess, origin_server: OriginServer) -> Domain:
    create_service(provider, name="shop-site", business_type="cdn", domains=[SHOP],
                   origins=[{"address": origin_server.address, "weight": 10, "backup": False}])
    service = Service.objects.create(name="shop-site", kind=ServiceKind.CDN)
    port = urlsplit(provider.info["delivery_url"]).port
    return Domain.objects.create(service=service, name=SHOP, base_url=f"http://{SHOP}:{port}")


@pytest.fixture
def on_shop(manager_client: Any, shop: Domain) -> Any:
    manager_client.post(reverse("delivery:choose_domain"), {"domain": shop.pk})
    return manager_client


def save(client: Any, **fields: Any) -> Any:
    form = {"max_body_mb": "512", "ip_limit_rules": "", **fields}
    if form.pop("waf_enabled", False):
        form["waf_enabled"] = "on"
    return client.post(reverse("delivery:security"), form)


def publish(client: Any) -> None:
    client.post(reverse("delivery:publish_now"), {"confirmed": "1"})
    record = PublishedConfig.objects.order_by("-pk").first()
    assert record is not None and record.status == PublishStatus.OK, record and record.answers


def get(provider: SandboxProcess, path: str, **headers: str) -> requests.Response:
    return requests.get(provider.info["delivery_url"].rstrip("/") + path,
                        headers={"Host": SHOP, **headers}, timeout=30, allow_redirects=False)


def test_the_waf_switched_on_here_refuses_a_signature_and_passes_the_clean_request(
        provider: SandboxProcess, on_shop: Any) -> None:
    attack = "/search?q=1%27%20union%20select%20password%20from%20users"
    assert get(provider, attack).status_code == 200
    assert save(on_shop, waf_enabled=True).status_code == 302
    publish(on_shop)
    refused = get(provider, attack)
    assert refused.status_code == 403 and refused.headers["X-Error-Code"] == "40310030"
    assert get(provider, "/search?q=select%20a%20colour").status_code == 200
    assert get(provider, "/search?name=O%27Brien").status_code == 200
    assert get(provider, "/a.css", **{"User-Agent": "Nikto/2.5"}).status_code == 403


def test_a_body_over_the_limit_set_here_gets_413_without_being_sent(
        provider: SandboxProcess, on_shop: Any, origin_server: OriginServer) -> None:
    assert save(on_shop, max_body_mb="2").status_code == 302
    publish(on_shop)
    host, port = urlsplit(provider.info["delivery_url"]).netloc.rsplit(":", 1)
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(f"POST /upload HTTP/1.1\r\nHost: {SHOP}\r\nContent-Length: "
                     f"{3 * 1024 * 1024}\r\n\r\nonly these bytes".encode())
        answer = conn.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"41300001" in answer and time.monotonic() - started < 5
    assert origin_server.hits("/upload") == 0
    small = requests.post(provider.info["delivery_url"].rstrip("/") + "/upload",
                          data=b"x" * (1024 * 1024), headers={"Host": SHOP}, timeout=30)
    assert small.status_code == 200


def test_the_eleventh_request_is_banned_until_the_ban_is_over(
        provider: SandboxProcess, on_shop: Any) -> None:
    assert save(on_shop, ip_limit_rules="/login* 10 ban 120").status_code == 302
    publish(on_shop)
    client = {"X-Forwarded-For": "203.0.113.20"}
    assert [get(provider, "/login", **client).status_code for _ in range(10)] == [200] * 10
    banned = get(provider, "/login", **client)
    assert banned.status_code == 403 and banned.headers["X-Error-Code"] == "40310031"
    assert get(provider, "/search", **client).status_code == 200  # not the rule's path
    provider.advance(121)
    assert get(provider, "/login", **client).status_code == 200


def test_the_eleventh_request_is_delayed(provider: SandboxProcess, on_shop: Any) -> None:
    assert save(on_shop, ip_limit_rules="/api/* 10 delay 2").status_code == 302
    publish(on_shop)
    client = {"X-Forwarded-For": "203.0.113.21"}
    for _ in range(10):
        assert get(provider, "/api/items", **client).status_code == 200
    started = time.monotonic()
    assert get(provider, "/api/items", **client).status_code == 200
    assert time.monotonic() - started >= 2


def test_bad_rules_are_refused_by_line_and_nothing_stored_is_lost(on_shop: Any,
                                                                  shop: Domain) -> None:
    assert save(on_shop, waf_enabled=True, ip_limit_rules="/login* 10 ban 600").status_code \
        == 302
    response = save(on_shop, max_body_mb="512", ip_limit_rules="\n".join([
        "/ok* 5 delay 3", "login 10 ban 600", "/a 0 ban 600", "/b 10 ban 59",
        "/c 10 delay 31", "/d 10 block 60", "/e 10"]))
    assert response.status_code == 200
    errors = response.context["form"].errors["ip_limit_rules"]
    assert errors == [
        "Line 2: the path pattern must start with /",
        "Line 3: the count must be a whole number from 1 to 100000",
        "Line 4: a ban lasts a whole number of seconds from 60 to 2592000",
        "Line 5: a delay is a whole number of seconds from 1 to 30",
        "Line 6: the action must be ban or delay, not block",
        "Line 7: write a path pattern, a count, then ban or delay and the seconds, e.g. "
        "/login* 10 ban 600",
    ]
    for size in ("0", "10241", "lots"):
        refused = save(on_shop, max_body_mb=size)
        assert refused.status_code == 200 and "max_body_mb" in refused.context["form"].errors
    row = SecuritySettings.objects.get(domain=shop)
    assert (row.waf_enabled, row.max_body_mb, row.ip_limit_rules) == (True, 512,
                                                                      "/login* 10 ban 600")


def test_a_storage_domain_page_explains_and_its_publish_sends_no_security(
        provider: SandboxProcess, manager_client: Any, domain: Domain) -> None:
    page = manager_client.get(reverse("delivery:security"))
    assert page.status_code == 200
    assert b"dl-security-own-origin-only" in page.content
    assert b"dl-security-form" not in page.content
    assert not {"waf", "body_limit", "ip_limits"} & set(services.preview(domain, None))


def test_a_section_the_console_refuses_leaves_the_publication_failed_with_its_answer(
        provider: SandboxProcess, on_shop: Any, shop: Domain, manager: Any) -> None:
    row = SecuritySettings.for_domain(shop)
    row.max_body_mb = 99999  # stored before a check, or by hand: the console says no
    row.save()
    with pytest.raises(services.PublishFailed) as failed:
        services.publish(user=manager, domain=shop, rule_set=None)
    assert failed.value.failed == ["body_limit"]
    record = PublishedConfig.objects.get(pk=failed.value.record.pk)
    assert record.status == PublishStatus.FAILED
    assert "max_body_mb" in str(record.answers["body_limit"])


def test_an_auditor_reads_the_page_and_changes_nothing(auditor_client: Any, shop: Domain,
                                                       ) -> None:
    auditor_client.post(reverse("delivery:choose_domain"), {"domain": shop.pk})
    page = auditor_client.get(reverse("delivery:security"))
    assert page.status_code == 200 and b"dl-read-only" in page.content
    assert save(auditor_client, waf_enabled=True).status_code == 403
    assert SecuritySettings.for_domain(shop).waf_enabled is False
