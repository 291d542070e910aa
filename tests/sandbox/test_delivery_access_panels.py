"""The edge's region restriction, origin authentication and external-links switch, set through
the control API and the console's sections, answered by the real sandbox edge."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.auth_server import UNREACHABLE_URL, AuthServer
from tests.sandbox.test_delivery_support import Edge, Storage, assert_refused
from tests.source_address import from_address

REGION_DENIED = "40310020"
ORIGIN_AUTH_DENIED = "40310021"
EXTERNAL_LINKS_OFF = "40500020"


@pytest.fixture
def edge(sandbox: Any) -> Edge:
    Storage(sandbox).put("/site/logo.svg", b"<svg/>")
    return Edge(sandbox)


def get_from(edge: Edge, address: str, **kwargs: Any) -> Any:
    return from_address(address, edge.url + "/site/logo.svg", **kwargs)


# --- region restriction


def test_a_blocked_country_is_refused_and_others_served(edge: Edge) -> None:
    edge.configure(region={"mode": "block", "regions": ["cn"]})
    assert_refused(get_from(edge, "127.0.0.2"), 403, REGION_DENIED)  # CN
    assert get_from(edge, "127.0.0.3").content == b"<svg/>"  # US
    assert get_from(edge, "127.0.0.1").ok  # no known country: not in the list, served


def test_allow_only_serves_only_the_listed_countries(edge: Edge) -> None:
    assert edge.configure(region={"mode": "allow", "regions": ["US", "JP"]})["region"] == {
        "mode": "allow", "regions": ["US", "JP"]}
    assert get_from(edge, "127.0.0.3").ok
    assert get_from(edge, "127.0.0.4").ok
    body = assert_refused(get_from(edge, "127.0.0.2"), 403, REGION_DENIED)
    assert "CN" in body["msg"]
    assert_refused(get_from(edge, "127.0.0.1"), 403, REGION_DENIED)  # unknown: refused


def test_region_off_serves_everyone(edge: Edge) -> None:
    edge.configure(region={"mode": "off", "regions": ["CN"]})
    assert get_from(edge, "127.0.0.2").ok


@pytest.mark.parametrize(("value", "field"), [
    ({"mode": "deny", "regions": []}, "region.mode"),
    ({"mode": "block", "regions": ["CHN"]}, "region.regions[0]"),
    ({"mode": "block", "regions": ["US", "1"]}, "region.regions[1]"),
    ({"mode": "block", "codes": []}, "region.codes"),
])
def test_bad_region_settings_are_refused_naming_the_part(edge: Edge, value: Any,
                                                         field: str) -> None:
    response = edge.sandbox.control("POST", "/delivery/config", {"region": value})
    assert response.status_code == 400
    assert field in response.text


# --- origin authentication


def test_only_a_200_of_the_auth_url_lets_a_request_through(edge: Edge) -> None:
    with AuthServer.running(status=200) as auth:
        edge.configure(origin_auth={"url": auth.url + "?site=1", "timeout": 2,
                                    "timeout_refuses": True})
        response = get_from(edge, "127.0.0.3", headers={"User-Agent": "ShopApp/1",
                                                         "Cookie": "s=1"})
        assert response.content == b"<svg/>"
        asked = auth.received[-1]
        assert auth.targets[-1] == "/auth?site=1"
        assert asked["x-svc-uri"] == "/site/logo.svg"
        assert asked["x-svc-method"] == "GET"
        assert asked["x-svc-client-ip"] == "127.0.0.3"
        assert asked["x-svc-host"] == edge.url.split("//", 1)[1]
        assert asked["x-svc-header-user-agent"] == "ShopApp/1"
        assert asked["x-svc-header-cookie"] == "s=1"
        auth.status = 403
        body = assert_refused(get_from(edge, "127.0.0.3"), 403, ORIGIN_AUTH_DENIED)
        assert "403" in body["msg"]
        auth.status = 302
        assert_refused(get_from(edge, "127.0.0.3"), 403, ORIGIN_AUTH_DENIED)


def test_an_unreachable_auth_url_refuses(edge: Edge) -> None:
    edge.configure(origin_auth={"url": UNREACHABLE_URL, "timeout": 1, "timeout_refuses": False})
    body = assert_refused(edge.get("/site/logo.svg"), 403, ORIGIN_AUTH_DENIED)
    assert "reached" in body["msg"]


def test_a_timeout_refuses_or_serves_as_configured(edge: Edge) -> None:
    with AuthServer.running(status=200) as auth:
        auth.delay = 2.5
        edge.configure(origin_auth={"url": auth.url, "timeout": 1, "timeout_refuses": True})
        started = time.monotonic()
        body = assert_refused(edge.get("/site/logo.svg"), 403, ORIGIN_AUTH_DENIED)
        assert "within 1 s" in body["msg"]
        assert time.monotonic() - started < 2.4
        edge.configure(origin_auth={"url": auth.url, "timeout": 1, "timeout_refuses": False})
        assert edge.get("/site/logo.svg").content == b"<svg/>"


def test_origin_authentication_is_asked_only_after_the_other_checks(edge: Edge) -> None:
    with AuthServer.running(status=200) as auth:
        edge.configure(origin_auth={"url": auth.url, "timeout": 2, "timeout_refuses": True},
                       region={"mode": "block", "regions": ["CN"]})
        assert_refused(get_from(edge, "127.0.0.2"), 403, REGION_DENIED)
        assert auth.received == []


@pytest.mark.parametrize(("value", "field"), [
    ({"url": "ftp://auth.example.com/", "timeout": 3, "timeout_refuses": True}, "url"),
    ({"url": "auth.example.com", "timeout": 3, "timeout_refuses": True}, "url"),
    ({"url": "http://a.example.com/", "timeout": 0, "timeout_refuses": True}, "timeout"),
    ({"url": "http://a.example.com/", "timeout": 11, "timeout_refuses": True}, "timeout"),
    ({"url": "http://a.example.com/", "timeout": 3, "timeout_refuses": "yes"},
     "timeout_refuses"),
])
def test_bad_origin_auth_settings_are_refused_naming_the_part(edge: Edge, value: Any,
                                                              field: str) -> None:
    response = edge.sandbox.control("POST", "/delivery/config", {"origin_auth": value})
    assert response.status_code == 400
    assert f"origin_auth.{field}" in response.text


# --- external links


def test_external_links_off_answers_405_to_every_request(edge: Edge) -> None:
    edge.configure(external_links=False, force_https=True)
    assert_refused(edge.get("/site/logo.svg"), 405, EXTERNAL_LINKS_OFF)
    assert_refused(edge.get("/no/such/file"), 405, EXTERNAL_LINKS_OFF)
    assert_refused(edge.request("OPTIONS", "/site/logo.svg"), 405, EXTERNAL_LINKS_OFF)
    edge.configure(external_links=True)
    assert edge.get("/site/logo.svg", headers={"X-Forwarded-Proto": "https"}).ok
