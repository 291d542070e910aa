"""The console's refreshes from the delivery pages, against the sandbox's console and edge with
a real origin server: a rule refresh with `*` makes the next request miss; an eleventh pattern,
a pattern of another service's domain or of no domain of ours is refused at the field; the
console's answer is shown per pattern; preheat warms a URL before any visitor; whole-site
refresh is refused for a storage domain and works, after a confirmation naming the domain, for
an own-origin one; the operation list pairs our records with the provider's progress (on the
sandbox's clock) and keeps them after the provider's 3 days."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from django.urls import reverse

from backoffice.models import AuditEntry
from console.models import Domain, Service, ServiceKind
from console.services import default_domain
from delivery import services
from delivery.models import RefreshKind, RefreshOperation, RefreshState
from tests.console.conftest import create_service
from tests.sandbox.origin_support import OriginServer
from tests.sandbox_process import SandboxProcess

pytestmark = pytest.mark.django_db(transaction=True)
SHOP = "shop.sandbox.localhost"


@pytest.fixture
def origin_server() -> Iterator[OriginServer]:
    server = OriginServer.start()
    for path in ("/a.css", "/img/b.css", "/img/c.css", "/new.css"):
        server.page(path, f"body{{/*{path}*/}}".encode(), content_type="text/css")
    yield server
    server.stop()


@pytest.fixture
def shop(provider: SandboxProcess, origin_server: OriginServer) -> Domain:
    """An own-origin service's domain, made in the console by a person and recorded here,
    reached at the sandbox edge's port under its own name."""
    create_service(provider, name="shop-site", business_type="cdn", domains=[SHOP],
                   origins=[{"address": origin_server.address, "weight": 10, "backup": False}])
    service = Service.objects.create(name="shop-site", kind=ServiceKind.CDN)
    port = urlsplit(provider.info["delivery_url"]).port
    return Domain.objects.create(service=service, name=SHOP, base_url=f"http://{SHOP}:{port}")


@pytest.fixture
def on_shop(manager_client: Any, shop: Domain) -> Any:
    manager_client.post(reverse("delivery:choose_domain"), {"domain": shop.pk})
    return manager_client


def get(provider: SandboxProcess, path: str) -> requests.Response:
    return requests.get(provider.info["delivery_url"].rstrip("/") + path,
                        headers={"Host": SHOP}, timeout=30)


def rule_refresh(client: Any, *patterns: str) -> Any:
    return client.post(reverse("delivery:refresh_rule"),
                       {"items": "\n".join(patterns), "confirmed": "1"})


def test_a_rule_refresh_with_a_star_makes_the_next_request_miss(
        provider: SandboxProcess, on_shop: Any, origin_server: OriginServer) -> None:
    for path in ("/a.css", "/img/b.css", "/img/c.css"):
        get(provider, path)
        assert get(provider, path).headers["X-Cache"] == "HIT"
    response = rule_refresh(on_shop, f"http://{SHOP}/img/*")
    assert response.status_code == 302
    assert get(provider, "/img/b.css").headers["X-Cache"] == "MISS"
    assert get(provider, "/img/c.css").headers["X-Cache"] == "MISS"
    assert get(provider, "/a.css").headers["X-Cache"] == "HIT"
    operation = RefreshOperation.objects.get()
    assert (operation.kind, operation.status, operation.items) == (
        RefreshKind.RULE, RefreshState.ACCEPTED, [f"http://{SHOP}/img/*"])
    assert operation.answers == [{"url": f"http://{SHOP}/img/*", "code": 1,
                                  "status": "accepted"}]
    assert AuditEntry.objects.filter(app="delivery", action="refresh.rule").exists()


def test_a_rule_refresh_is_confirmed_first(provider: SandboxProcess, on_shop: Any) -> None:
    get(provider, "/a.css")
    response = on_shop.post(reverse("delivery:refresh_rule"), {"items": f"http://{SHOP}/*"})
    assert response.status_code == 200
    assert "Refresh every cached file matching 1 pattern?" in response.content.decode()
    assert not RefreshOperation.objects.exists()
    assert get(provider, "/a.css").headers["X-Cache"] == "HIT"


def test_a_pattern_written_with_the_link_address_is_sent_with_the_domains_name(
        provider: SandboxProcess, on_shop: Any, shop: Domain) -> None:
    get(provider, "/a.css")
    rule_refresh(on_shop, f"{shop.base_url}/a.*")
    assert RefreshOperation.objects.get().items == [f"http://{SHOP}/a.*"]
    assert get(provider, "/a.css").headers["X-Cache"] == "MISS"


def test_an_eleventh_pattern_is_refused_at_the_field(provider: SandboxProcess,
                                                     on_shop: Any) -> None:
    get(provider, "/a.css")
    response = rule_refresh(on_shop, *(f"http://{SHOP}/p{n}/*" for n in range(10)),
                            f"http://{SHOP}/a.*")
    assert response.status_code == 400
    assert "At most 10 lines a request" in str(response.context["form"].errors["items"])
    assert not RefreshOperation.objects.exists()
    assert get(provider, "/a.css").headers["X-Cache"] == "HIT"  # nothing was sent
    ten = rule_refresh(on_shop, *(f"http://{SHOP}/p{n}/*" for n in range(10)))
    assert ten.status_code == 302


def test_a_pattern_of_another_services_domain_is_refused_at_the_field(
        provider: SandboxProcess, on_shop: Any) -> None:
    storage_domain = default_domain()
    other = f"{services.delivery_base_url(storage_domain)}/photos/*"
    response = rule_refresh(on_shop, f"http://{SHOP}/img/*", other)
    assert response.status_code == 400
    errors = str(response.context["form"].errors["items"])
    assert "Line 2" in errors and storage_domain.service.name in errors
    assert not RefreshOperation.objects.exists()


@pytest.mark.parametrize("line", ["http://elsewhere.example.com/*", "shop.sandbox.localhost/*",
                                  "ftp://shop.sandbox.localhost/*", "http://*.localhost/a"])
def test_a_line_that_is_no_address_of_ours_is_refused_at_the_field(on_shop: Any,
                                                                   line: str) -> None:
    response = rule_refresh(on_shop, line)
    assert response.status_code == 400
    assert response.context["form"].errors["items"]
    assert not RefreshOperation.objects.exists()


def test_the_consoles_answer_is_shown_per_pattern(provider: SandboxProcess,
                                                  manager_client: Any) -> None:
    """The environment's domain is 127.0.0.1 here, which the sandbox's console does not
    know: it refuses the pattern ("invalid domain"), and the page says so for that line."""
    base = services.delivery_base_url(default_domain())
    response = rule_refresh(manager_client, f"{base}/photos/*")
    assert response.status_code == 302
    operation = RefreshOperation.objects.get()
    assert operation.status == RefreshState.REFUSED
    page = manager_client.get(reverse("delivery:refresh_rule"), follow=True)
    shown = page.content.decode()
    assert 'data-accepted="0"' in shown and "refused: invalid domain" in shown
    assert "refused 1" in str([str(m) for m in page.context["messages"]])


def test_preheat_warms_a_url_before_any_visitor(provider: SandboxProcess, on_shop: Any,
                                                origin_server: OriginServer) -> None:
    response = on_shop.post(reverse("delivery:refresh_preheat"),
                            {"items": f"http://{SHOP}/new.css"})
    assert response.status_code == 302
    assert origin_server.hits("/new.css") == 1
    assert get(provider, "/new.css").headers["X-Cache"] == "HIT"
    assert origin_server.hits("/new.css") == 1
    operation = RefreshOperation.objects.get()
    assert (operation.kind, operation.status) == (RefreshKind.PREHEAT, RefreshState.ACCEPTED)


def test_preheat_takes_whole_urls_and_at_most_fifty(on_shop: Any) -> None:
    url = reverse("delivery:refresh_preheat")
    starred = on_shop.post(url, {"items": f"http://{SHOP}/img/*"})
    assert starred.status_code == 400 and "“*”" in str(starred.context["form"].errors["items"])
    many = on_shop.post(url, {"items": "\n".join(f"http://{SHOP}/{n}.css" for n in range(51))})
    assert many.status_code == 400 and "At most 50" in str(many.context["form"].errors["items"])
    assert not RefreshOperation.objects.exists()


def test_whole_site_refresh_is_refused_for_a_storage_domain(provider: SandboxProcess,
                                                            manager_client: Any) -> None:
    page = manager_client.get(reverse("delivery:refresh_site")).content.decode()
    assert 'id="dl-site-refused"' in page
    response = manager_client.post(reverse("delivery:refresh_site"), {"confirmed": "1"},
                                   follow=True)
    assert "whole-site refresh is for domains of a CDN service" in response.content.decode()
    assert not RefreshOperation.objects.exists()
    with pytest.raises(services.SiteRefreshRefused):
        services.refresh_site(default_domain(), None)  # type: ignore[arg-type]


def test_whole_site_refresh_of_an_own_origin_domain_after_a_confirmation(
        provider: SandboxProcess, on_shop: Any, origin_server: OriginServer) -> None:
    get(provider, "/a.css")
    question = on_shop.post(reverse("delivery:refresh_site"))
    assert f"Refresh the whole site {SHOP}?" in question.content.decode()
    assert get(provider, "/a.css").headers["X-Cache"] == "HIT"
    assert on_shop.post(reverse("delivery:refresh_site"), {"confirmed": "1"}).status_code == 302
    assert get(provider, "/a.css").headers["X-Cache"] == "MISS"
    operation = RefreshOperation.objects.get()
    assert (operation.kind, operation.items, operation.status) == (
        RefreshKind.SITE, [f"http://{SHOP}/*"], RefreshState.ACCEPTED)
    assert AuditEntry.objects.filter(app="delivery", action="refresh.site").exists()


def test_records_show_the_providers_progress_on_its_clock(provider: SandboxProcess,
                                                          on_shop: Any, shop: Domain) -> None:
    rule_refresh(on_shop, f"http://{SHOP}/img/*")
    on_shop.post(reverse("delivery:refresh_site"), {"confirmed": "1"})
    services.request_manual_purge([f"{shop.base_url}/a.css"], None)  # type: ignore[arg-type]
    listed = services.operation_records(shop)
    assert listed.provider_error == ""
    assert [view.kind for view in listed.operations] == ["url", "site", "rule"]
    for view in listed.operations:
        assert view.progress is not None and view.progress < 100 and not view.done
    provider.advance(10)  # each runs 5 s of the sandbox's clock
    page = on_shop.get(reverse("delivery:refresh_rule"))
    operations = page.context["records"].operations
    assert all(view.done and view.progress == 100 for view in operations)
    assert page.content.decode().count('data-progress="100"') == 3


def test_records_are_kept_here_after_the_providers_three_days(provider: SandboxProcess,
                                                              on_shop: Any,
                                                              shop: Domain) -> None:
    rule_refresh(on_shop, f"http://{SHOP}/img/*")
    provider.advance(4 * 86400)
    [view] = services.operation_records(shop).operations
    assert view.kind == "rule" and view.progress is None and view.items[0].accepted


def test_a_console_that_does_not_answer_leaves_the_operation_not_sent(
        provider: SandboxProcess, on_shop: Any, shop: Domain, settings: Any) -> None:
    settings.PROVIDER = {**settings.PROVIDER, "console": {
        **settings.PROVIDER["console"], "console_url": "http://127.0.0.1:9"}}
    response = rule_refresh(on_shop, f"http://{SHOP}/img/*")
    assert response.status_code == 302
    operation = RefreshOperation.objects.get()
    assert operation.status == RefreshState.FAILED and operation.error
    page = on_shop.get(reverse("delivery:refresh_rule"))
    assert page.context["records"].provider_error
    assert 'id="dl-records-error"' in page.content.decode()


def test_an_auditor_reads_the_records_and_sends_nothing(shop: Domain, auditor_client: Any) -> None:
    page = auditor_client.get(reverse("delivery:refresh_rule")).content.decode()
    assert 'id="dl-operations"' in page and 'id="dl-refresh-form"' not in page
    for name in ("delivery:refresh_rule", "delivery:refresh_preheat", "delivery:refresh_site"):
        response = auditor_client.post(reverse(name), {"items": f"http://{SHOP}/*",
                                                        "confirmed": "1"})
        assert response.status_code == 403
    assert not RefreshOperation.objects.exists()
