"""From the Access page to the real sandbox edge: a panel saved on the page, published by the
publish service, changes what the edge answers (region restriction by the client's address,
origin authentication asking a real local endpoint, the external-links switch)."""

from __future__ import annotations

from typing import Any

import pytest

from console.services import default_domain
from delivery import services
from delivery.models import PublishStatus
from tests.auth_server import UNREACHABLE_URL, AuthServer
from tests.delivery.conftest import Edge
from tests.source_address import from_address

pytestmark = pytest.mark.django_db
PAGE = "/delivery/access/"


@pytest.fixture
def site(edge: Edge) -> Edge:
    edge.upload("/logo.txt", b"logo", content_type="text/plain")
    return edge


def save_and_publish(client: Any, user: Any, data: dict[str, Any]) -> None:
    assert client.post(PAGE, data).status_code == 302
    record = services.publish(user=user, domain=default_domain(), rule_set=None)
    assert record.status == PublishStatus.OK, record.answers


def fetch(edge: Edge, address: str = "127.0.0.1", **kwargs: Any) -> Any:
    return from_address(address, edge.base_url + "/logo.txt", **kwargs)


def test_a_blocked_country_is_refused_by_the_edge(site: Edge, manager_client: Any,
                                                  manager: Any) -> None:
    save_and_publish(manager_client, manager, {"panel": "region", "region_mode": "block",
                                               "regions": "CN"})
    assert manager_client.get(PAGE).context["published"]["region"] is True
    assert site.config()["region"] == {"mode": "block", "regions": ["CN"]}
    refused = fetch(site, "127.0.0.2")  # a CN test address of the sandbox's database
    assert refused.status_code == 403 and refused.headers["X-Error-Code"] == "40310020"
    assert fetch(site, "127.0.0.3").content == b"logo"  # US


def test_allow_only_serves_only_the_listed_countries(site: Edge, manager_client: Any,
                                                     manager: Any) -> None:
    save_and_publish(manager_client, manager, {"panel": "region", "region_mode": "allow",
                                               "regions": "US\nJP"})
    assert fetch(site, "127.0.0.3").ok and fetch(site, "127.0.0.4").ok
    assert fetch(site, "127.0.0.2").status_code == 403
    assert fetch(site, "127.0.0.1").status_code == 403  # no known country: not in the list


def test_origin_authentication_lets_through_only_what_the_endpoint_allows(
        site: Edge, manager_client: Any, manager: Any) -> None:
    with AuthServer.running(status=200) as auth:
        save_and_publish(manager_client, manager, {
            "panel": "origin_auth", "action": "save", "origin_auth_url": auth.url,
            "origin_auth_timeout": "2", "origin_auth_timeout_refuses": "on"})
        assert fetch(site, "127.0.0.3", headers={"User-Agent": "ShopApp/3"}).content == b"logo"
        asked = auth.received[-1]
        assert asked["x-svc-uri"] == "/logo.txt"
        assert asked["x-svc-client-ip"] == "127.0.0.3"
        assert asked["x-svc-method"] == "GET"
        assert asked["x-svc-header-user-agent"] == "ShopApp/3"
        auth.status = 403
        refused = fetch(site)
        assert refused.status_code == 403 and refused.headers["X-Error-Code"] == "40310021"


def test_an_unreachable_auth_url_refuses_every_request(site: Edge, manager_client: Any,
                                                       manager: Any) -> None:
    save_and_publish(manager_client, manager, {
        "panel": "origin_auth", "action": "save", "origin_auth_url": UNREACHABLE_URL,
        "origin_auth_timeout": "1"})
    assert fetch(site).status_code == 403


def test_a_slow_endpoint_refuses_or_serves_as_the_timeout_switch_says(
        site: Edge, manager_client: Any, manager: Any) -> None:
    with AuthServer.running(status=200) as auth:
        auth.delay = 2.5
        save_and_publish(manager_client, manager, {
            "panel": "origin_auth", "action": "save", "origin_auth_url": auth.url,
            "origin_auth_timeout": "1", "origin_auth_timeout_refuses": "on"})
        assert fetch(site).status_code == 403
        save_and_publish(manager_client, manager, {
            "panel": "origin_auth", "action": "save", "origin_auth_url": auth.url,
            "origin_auth_timeout": "1"})
        assert fetch(site).content == b"logo"


def test_external_links_off_answers_405(site: Edge, manager_client: Any,
                                        manager: Any) -> None:
    save_and_publish(manager_client, manager, {"panel": "external_links", "confirmed": "1"})
    refused = fetch(site)
    assert refused.status_code == 405 and refused.headers["X-Error-Code"] == "40500020"
    save_and_publish(manager_client, manager, {"panel": "external_links",
                                               "external_links": "on"})
    assert fetch(site).ok


def test_a_section_the_console_refuses_stays_not_published_with_its_answer(
        site: Edge, publish: Any) -> None:
    # A row written around the page's form: the console's own check refuses the mode.
    with pytest.raises(services.PublishFailed) as failed:
        publish(region_mode="deny", regions="CN", external_links=False)
    record = failed.value.record
    assert record.status == PublishStatus.FAILED and failed.value.failed == ["region"]
    assert "region.mode" in record.answers["region"]["answer"]
    assert record.answers["external_links"]["ok"] is True  # the other panels went through
    assert site.config()["region"] == {"mode": "off", "regions": []}
    assert fetch(site).status_code == 405


def test_the_page_says_which_panels_the_edge_does_not_hold_yet(
        site: Edge, manager_client: Any, manager: Any) -> None:
    save_and_publish(manager_client, manager, {"panel": "external_links",
                                               "external_links": "on"})
    assert manager_client.post(PAGE, {"panel": "region", "region_mode": "block",
                                      "regions": "JP"}).status_code == 302
    response = manager_client.get(PAGE)
    assert response.context["published"] == {"region": False, "origin_auth": True,
                                              "external_links": True}
    assert 'data-published="no"' in response.content.decode()
