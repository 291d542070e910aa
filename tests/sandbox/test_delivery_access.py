"""Access rules of the edge: CORS headers, Referer allow/deny, IP blacklist, User-Agent
whitelist and forced HTTPS."""

from __future__ import annotations

import pytest

from tests.sandbox.test_delivery_support import Edge, Storage, assert_refused


@pytest.fixture
def edge(sandbox):
    Storage(sandbox).put("/site/logo.svg", b"<svg/>")
    return Edge(sandbox)


# --- CORS

def test_configured_cors_headers_are_sent(edge):
    edge.configure(cors={"access-control-allow-origin": "*",
                         "Access-Control-Allow-Methods": "GET, HEAD",
                         "Access-Control-Allow-Headers": "X-Token",
                         "Access-Control-Expose-Headers": "X-Cache",
                         "Access-Control-Max-Age": 600})
    headers = edge.get("/site/logo.svg").headers
    assert headers["Access-Control-Allow-Origin"] == "*"
    assert headers["Access-Control-Allow-Methods"] == "GET, HEAD"
    assert headers["Access-Control-Allow-Headers"] == "X-Token"
    assert headers["Access-Control-Expose-Headers"] == "X-Cache"
    assert headers["Access-Control-Max-Age"] == "600"


def test_no_cors_header_is_sent_by_default(edge):
    assert "Access-Control-Allow-Origin" not in edge.get("/site/logo.svg").headers


def test_a_preflight_is_answered_with_the_cors_headers(edge):
    edge.configure(cors={"Access-Control-Allow-Origin": "https://shop.example.com"})
    response = edge.request("OPTIONS", "/site/logo.svg")
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "https://shop.example.com"


def test_refusals_carry_the_cors_headers_too(edge):
    edge.configure(cors={"Access-Control-Allow-Origin": "*"})
    response = edge.get("/site/missing.svg")
    assert response.status_code == 404
    assert response.headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize(("cors", "field"), [
    ({"X-Custom": "1"}, "cors.X-Custom"),
    ({"Access-Control-Max-Age": "soon"}, "cors.Access-Control-Max-Age"),
    ({"Access-Control-Allow-Origin": 5}, "cors.Access-Control-Allow-Origin"),
    ("*", "cors"),
])
def test_a_bad_cors_setting_is_refused(sandbox, cors, field):
    response = sandbox.control("POST", "/delivery/config", {"cors": cors})
    assert response.status_code == 400
    assert response.json()["field"] == field


# --- Referer

def test_an_allow_list_serves_listed_referers_only(edge):
    edge.configure(referer={"mode": "allow", "domains": ["shop.example.com", "*.cdn.test"]})
    assert edge.get("/site/logo.svg",
                    headers={"Referer": "https://shop.example.com/p/1"}).status_code == 200
    assert edge.get("/site/logo.svg",
                    headers={"Referer": "http://img.cdn.test/x"}).status_code == 200
    body = assert_refused(edge.get("/site/logo.svg",
                                   headers={"Referer": "https://evil.example.org/"}),
                          403, "40310011")
    assert "evil.example.org" in body["msg"]
    assert_refused(edge.get("/site/logo.svg", headers={"Referer": "https://example.com/"}),
                   403, "40310011")


def test_a_referer_wildcard_stands_for_any_run_of_characters_as_the_docs_example(edge):
    # cdn/advanced.md: `*upyun.com` lets in www.upyun.com and abcupyun.com.
    edge.configure(referer={"mode": "allow", "domains": ["*upyun.com"]})
    for referer in ("https://www.upyun.com/a", "http://abcupyun.com/", "http://WWW.UPYUN.COM/"):
        assert edge.get("/site/logo.svg", headers={"Referer": referer}).status_code == 200
    assert_refused(edge.get("/site/logo.svg", headers={"Referer": "http://upyun.com.evil.org/"}),
                   403, "40310011")


def test_the_user_agent_is_checked_before_the_referer(edge):
    edge.configure(referer={"mode": "allow", "domains": ["shop.example.com"]},
                   ua_whitelist=["MyApp/"])
    both_wrong = {"Referer": "https://evil.example.org/", "User-Agent": "Wget/1.21"}
    assert_refused(edge.get("/site/logo.svg", headers=both_wrong), 403, "40310012")
    referer_wrong = {"Referer": "https://evil.example.org/", "User-Agent": "MyApp/2"}
    assert_refused(edge.get("/site/logo.svg", headers=referer_wrong), 403, "40310011")


def test_a_deny_list_refuses_listed_referers(edge):
    edge.configure(referer={"mode": "deny", "domains": ["evil.example.org"]})
    assert_refused(edge.get("/site/logo.svg", headers={"Referer": "http://evil.example.org/"}),
                   403, "40310011")
    assert edge.get("/site/logo.svg",
                    headers={"Referer": "https://shop.example.com/"}).status_code == 200


def test_an_empty_referer_passes_unless_denied(edge):
    edge.configure(referer={"mode": "allow", "domains": ["shop.example.com"]})
    assert edge.get("/site/logo.svg").status_code == 200
    edge.configure(referer={"mode": "allow", "domains": ["shop.example.com"],
                            "deny_empty": True})
    assert_refused(edge.get("/site/logo.svg"), 403, "40310011")
    assert edge.get("/site/logo.svg",
                    headers={"Referer": "https://shop.example.com/"}).status_code == 200


@pytest.mark.parametrize(("referer", "field"), [
    ({"mode": "block"}, "referer.mode"),
    ({"domains": ["a.com"]}, "referer.mode"),
    ({"mode": "allow", "domains": "a.com"}, "referer.domains"),
    ({"mode": "allow", "domains": ["not a domain"]}, "referer.domains[0]"),
    ({"mode": "allow", "domains": ["a.com", "**.a.com"]}, "referer.domains[1]"),
    ({"mode": "allow", "domains": ["*"]}, "referer.domains[0]"),
    ({"mode": "allow", "deny_empty": "yes"}, "referer.deny_empty"),
    ({"mode": "allow", "hosts": []}, "referer.hosts"),
])
def test_a_bad_referer_setting_is_refused(sandbox, referer, field):
    response = sandbox.control("POST", "/delivery/config", {"referer": referer})
    assert response.status_code == 400
    assert response.json()["field"] == field


# --- IP blacklist

def test_a_blacklisted_ip_is_refused(edge):
    edge.configure(ip_blacklist=["203.0.113.7", "198.51.100.0/24"])
    body = assert_refused(edge.get("/site/logo.svg",
                                   headers={"X-Forwarded-For": "203.0.113.7"}), 403, "40310010")
    assert "203.0.113.7" in body["msg"]
    assert_refused(edge.get("/site/logo.svg", headers={"X-Forwarded-For": "198.51.100.99"}),
                   403, "40310010")
    assert edge.get("/site/logo.svg",
                    headers={"X-Forwarded-For": "203.0.113.8"}).status_code == 200


def test_the_direct_peer_address_is_checked(edge):
    edge.configure(ip_blacklist=["127.0.0.0/8"])
    assert_refused(edge.get("/site/logo.svg"), 403, "40310010")


def test_a_bad_blacklist_entry_is_refused(sandbox):
    response = sandbox.control("POST", "/delivery/config", {"ip_blacklist": ["10.0.0.300"]})
    assert response.status_code == 400
    assert response.json()["field"] == "ip_blacklist[0]"


# --- User-Agent whitelist

def test_only_whitelisted_user_agents_are_served(edge):
    edge.configure(ua_whitelist=["MyApp/", "/^curl\\/[0-9]/"])
    assert edge.get("/site/logo.svg", headers={"User-Agent": "myapp/2.1"}).status_code == 200
    assert edge.get("/site/logo.svg", headers={"User-Agent": "curl/8.5.0"}).status_code == 200
    assert_refused(edge.get("/site/logo.svg", headers={"User-Agent": "Wget/1.21"}),
                   403, "40310012")
    assert_refused(edge.get("/site/logo.svg", headers={"User-Agent": "xcurl/8"}),
                   403, "40310012")


def test_an_empty_whitelist_lets_every_agent_in(edge):
    assert edge.get("/site/logo.svg", headers={"User-Agent": "Anything"}).status_code == 200


def test_a_bad_user_agent_pattern_is_refused(sandbox):
    response = sandbox.control("POST", "/delivery/config", {"ua_whitelist": ["ok", "/(/"]})
    assert response.status_code == 400
    assert response.json()["field"] == "ua_whitelist[1]"


# --- forced HTTPS

def test_forced_https_redirects_plain_http(edge):
    # The Host must be a domain of the account (an alias of the default domain here).
    edge.configure(force_https=True, domains=["cdn.example.com"])
    response = edge.get("/site/logo.svg?v=2", headers={"Host": "cdn.example.com"})
    assert response.status_code == 301
    assert response.headers["Location"] == "https://cdn.example.com/site/logo.svg?v=2"


def test_forced_https_serves_a_request_forwarded_as_https(edge):
    edge.configure(force_https=True)
    response = edge.get("/site/logo.svg", headers={"X-Forwarded-Proto": "https"})
    assert response.status_code == 200
    assert response.content == b"<svg/>"


def test_without_forced_https_plain_http_is_served(edge):
    assert edge.get("/site/logo.svg").status_code == 200


# --- methods

@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_the_edge_serves_only_get_and_head(edge, method):
    response = edge.request(method, "/site/logo.svg")
    assert_refused(response, 405, "40500001")
    assert response.headers["Allow"] == "GET, HEAD, OPTIONS"
