"""The "why was I refused" tester: the back-office's own verdicts on the published sections
(delivery.refusal_tester), checked on fixed cases and compared with the real sandbox edge's
answers on a table of requests."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.urls import reverse

from delivery import refusal_tester as tester
from delivery.client import upt_token
from delivery.refusal_tester import Probe, ProbeError, run_checks
from tests.delivery.conftest import Edge

HOST = "cdn.example.com"
SECRET = "s3cret"
SECTIONS: dict[str, Any] = {
    "ip_ban": ["203.0.113.*", "2001:db8::/32"],
    "ua": ["*ShopApp*", "Mozilla/5.0 (iPhone*"],
    "referer": {"mode": "allow", "domains": ["*shop.example.com"], "deny_empty": False},
    "token": {"enabled": True, "secret": "********"},
    "rewrite": [{"pattern": "", "rule": "$WHEN($MATCH($_URI, '^/blocked/'))$EXIT(403)",
                 "break": False, "state": "enabled", "test_addresses": []}],
}


def signed(path: str, etime: int | None = None, secret: str = SECRET) -> str:
    etime = etime if etime is not None else int(time.time()) + 3600
    return f"{path}?_upt={upt_token(secret, path, etime)}"


def stop_of(probe: Probe, sections: dict[str, Any] = SECTIONS) -> tester.Verdict | None:
    return tester.first_stop(run_checks(sections, probe, host=HOST, secret=SECRET))


def test_a_request_passing_every_check_is_served() -> None:
    verdicts = run_checks(SECTIONS, Probe(signed("/a.jpg"), "198.51.100.1", "",
                                          "shopapp/2 (android)"), host=HOST, secret=SECRET)
    assert [(v.check, v.outcome) for v in verdicts] == [
        ("https_access", "off"), ("external_links", "passed"), ("forced_https", "off"),
        ("rewrite", "passed"), ("ip_ban", "passed"), ("user_agent", "passed"),
        ("referer", "passed"), ("region", "off"), ("token", "passed"), ("ip_limits", "off"),
        ("waf", "off"), ("origin_auth", "off")]


def test_the_first_refusing_check_stops_the_rest() -> None:
    verdicts = run_checks(SECTIONS, Probe("/a.jpg", "203.0.113.9", "https://evil.org/", "wget"),
                          host=HOST, secret=SECRET)
    outcomes = {v.check: v.outcome for v in verdicts}
    assert outcomes["ip_ban"] == "refused"
    after = list(tester.CHECKS)[list(tester.CHECKS).index("ip_ban") + 1:]
    assert {outcomes[check] for check in after} == {"not_reached"}
    assert [v.detail for v in verdicts if v.check == "ip_ban"] == [{"entry": "203.0.113.0/24"}]


@pytest.mark.parametrize(("probe", "check", "detail"), [
    (Probe("/a.jpg", user_agent="Wget/1", referer="https://evil.org/"), "user_agent", {}),
    (Probe("/a.jpg", user_agent="ShopApp", referer="https://evil.org/"), "referer",
     {"reason": "not_allowed", "host": "evil.org"}),
    (Probe("/a.jpg", user_agent="ShopApp"), "token", {"reason": "missing"}),
    (Probe(signed("/a.jpg", etime=1000), user_agent="ShopApp"), "token",
     {"reason": "expired", "etime": "1000"}),
    (Probe(signed("/a.jpg", secret="other"), user_agent="ShopApp"), "token",
     {"reason": "signature"}),
    (Probe(signed("/b.jpg").replace("/b.jpg?", "/a.jpg?"), user_agent="ShopApp"), "token",
     {"reason": "signature"}),
    (Probe("/blocked/a.jpg", user_agent="Wget/1"), "rewrite", {"body": ""}),
])
def test_each_check_names_why_it_refuses(probe: Probe, check: str, detail: dict) -> None:
    stop = stop_of(probe)
    assert stop is not None
    assert (stop.check, stop.outcome, dict(stop.detail)) == (check, "refused", detail)


def test_an_empty_referer_passes_unless_denied() -> None:
    probe = Probe(signed("/a.jpg"), user_agent="ShopApp")
    assert stop_of(probe) is None
    denying = {**SECTIONS, "referer": {**SECTIONS["referer"], "deny_empty": True}}
    stop = stop_of(probe, denying)
    assert stop is not None and (stop.check, stop.detail) == ("referer", {"reason": "empty"})


def test_forced_https_answers_plain_http_with_its_https_address() -> None:
    sections = {"https": {"access": True, "force": True, "certificate_id": "c1"}}
    stop = stop_of(Probe("http://cdn.example.com/a.jpg?x=1"), sections)
    assert stop is not None
    assert (stop.outcome, stop.status, stop.detail) == (
        "answered", 301, {"location": "https://cdn.example.com/a.jpg?x=1"})
    assert stop_of(Probe("https://cdn.example.com/a.jpg"), sections) is None


def test_nothing_published_means_every_check_is_off() -> None:
    verdicts = run_checks({}, Probe("/a.jpg"), host=HOST)
    assert {v.check: v.outcome for v in verdicts if v.outcome != "off"} == {
        "external_links": "passed"}  # on by default


def test_the_panels_of_the_console_each_name_their_refusal() -> None:
    sections: dict[str, Any] = {
        "https": {"access": False, "force": False, "certificate_id": None},
        "external_links": {"enabled": True},
        "region": {"mode": "block", "regions": ["CN", "JP"]},
        "waf": {"enabled": True},
        "ip_limits": [{"pattern": "/login*", "count": 10, "action": "ban", "seconds": 600}],
        "origin_auth": {"url": "https://shop.example.com/auth", "timeout": 3,
                        "timeout_refuses": True},
    }
    assert (stop_of(Probe("https://cdn.example.com/a.jpg"), sections).check  # type: ignore[union-attr]
            == "https_access")
    blocked = stop_of(Probe("/a.jpg", country="cn"), sections)
    assert blocked is not None and (blocked.check, blocked.code, dict(blocked.detail)) == (
        "region", "40310020", {"reason": "block", "country": "CN"})
    attack = stop_of(Probe("/a.jpg?id=1%27%20or%20%271%27=%271", country="US"), sections)
    assert attack is not None and (attack.check, attack.code, attack.detail["kind"]) == (
        "waf", "40310030", "sqli")
    verdicts = {v.check: v for v in run_checks(sections, Probe("/login/x", country="US"),
                                               host=HOST)}
    assert verdicts["ip_limits"].outcome == "depends"
    assert verdicts["ip_limits"].detail["count"] == "10"
    assert verdicts["origin_auth"].outcome == "depends"
    assert stop_of(Probe("/login/x", country="US"), sections) is None
    switched_off = {**sections, "external_links": {"enabled": False}}
    refused = stop_of(Probe("/a.jpg", country="US"), switched_off)
    assert refused is not None and (refused.check, refused.status) == ("external_links", 405)


@pytest.mark.parametrize(("probe", "field"), [
    (Probe("a.jpg"), "url"), (Probe("/a b.jpg"), "url"), (Probe("http:///a.jpg"), "url"),
    (Probe("/a.jpg", client_ip="10.0.0.300"), "client_ip"),
    (Probe("/a.jpg", country="China"), "country"),
])
def test_a_bad_request_field_is_named(probe: Probe, field: str) -> None:
    with pytest.raises(ProbeError) as raised:
        run_checks(SECTIONS, probe, host=HOST)
    assert raised.value.field == field


# --- the back-office's verdicts against the real edge's answers


@pytest.mark.django_db
def test_the_testers_verdicts_match_the_sandbox_edges_answers(edge: Edge, publish: Any) -> None:
    from console.services import default_domain
    from delivery.services import check_request

    edge.upload("/a.jpg", b"jpeg bytes", content_type="image/jpeg")
    edge.upload("/blocked/a.jpg", b"jpeg bytes", content_type="image/jpeg")
    record = publish(token_protection=True, ip_blacklist="203.0.113.*\n198.51.100.0/25",
                     ua_whitelist="ShopApp\nMozilla/5.0 (iPhone*",
                     referer_mode="allow", referer_domains="*shop.example.com",
                     referer_allow_empty=True,
                     rules=[{"rule": "$WHEN($MATCH($_URI, '^/blocked/'))$EXIT(403)"}])
    assert record.status == "ok"
    secret = edge.secret
    now = int(time.time())

    def token(path: str, etime: int = now + 3600, key: str = secret) -> str:
        return f"{path}?_upt={upt_token(key, path, etime)}"

    cases = [  # (path and query, client address, Referer, User-Agent)
        (token("/a.jpg"), "198.51.100.200", "", "ShopApp/2.1"),
        (token("/a.jpg"), "203.0.113.77", "", "ShopApp/2.1"),
        (token("/a.jpg"), "198.51.100.5", "", "ShopApp/2.1"),
        (token("/a.jpg"), "192.0.2.1", "https://evil.example.org/", "Wget/1.21"),
        (token("/a.jpg"), "192.0.2.1", "https://evil.example.org/", "shopapp"),
        (token("/a.jpg"), "192.0.2.1", "https://www.shop.example.com/p", "SHOPAPP"),
        (token("/a.jpg"), "192.0.2.1", "http://myshop.example.com/", "mozilla/5.0 (iphone; x)"),
        (token("/a.jpg"), "192.0.2.1", "", "x Mozilla/5.0 (iPhone"),
        ("/a.jpg", "192.0.2.1", "", "ShopApp"),
        (token("/a.jpg", etime=now - 60), "192.0.2.1", "", "ShopApp"),
        (token("/a.jpg", key="wrong"), "192.0.2.1", "", "ShopApp"),
        (token("/blocked/a.jpg"), "192.0.2.1", "", "ShopApp"),
        ("/blocked/a.jpg", "203.0.113.1", "", "Wget"),
    ]
    domain = default_domain()
    for path, ip, referer, agent in cases:
        headers = {"X-Forwarded-For": ip, "User-Agent": agent}
        if referer:
            headers["Referer"] = referer
        answer = edge.get(path, headers=headers)
        report = check_request(domain, Probe(path, ip, referer, agent))
        stop = tester.first_stop(report.verdicts)
        expected = (stop.status, stop.code) if stop else (200, "")
        assert (answer.status_code, answer.headers.get("X-Error-Code", "")) == expected, (
            path, ip, referer, agent)


@pytest.mark.django_db
def test_the_page_names_the_refusing_check_and_why(edge: Edge, publish: Any,
                                                   auditor_client: Any) -> None:
    publish(ua_whitelist="ShopApp")
    response = auditor_client.get(reverse("delivery:refusal_tester"), {
        "url": "/a.jpg", "client_ip": "192.0.2.1", "user_agent": "Wget/1"})
    assert response.status_code == 200
    assert response.context["stop"].check == "user_agent"
    page = response.content.decode()
    assert "Refused by the User-Agent whitelist (403)." in page
    assert "40310012" in page


@pytest.mark.django_db
def test_the_page_refuses_a_bad_field_and_shows_no_verdict(auditor_client: Any) -> None:
    response = auditor_client.get(reverse("delivery:refusal_tester"), {
        "url": "/a.jpg", "client_ip": "not-an-ip", "country": "C1"})
    form = response.context["form"]
    assert set(form.errors) == {"client_ip", "country"}
    assert "report" not in response.context


@pytest.mark.django_db
def test_region_and_external_links_verdicts_match_the_edge(edge: Edge, publish: Any,
                                                           tmp_path: Any, settings: Any) -> None:
    """The back-office reads the client's country from its own test database (tests/geoip.py),
    the edge from the sandbox's: the same networks, written apart."""
    from console.services import default_domain
    from delivery.services import check_request
    from delivery.services.testing import _lookup
    from tests.geoip import write_country_database

    settings.GEOIP_DATABASE = str(write_country_database(tmp_path / "countries.mmdb"))
    _lookup.cache_clear()
    edge.upload("/a.jpg", b"jpeg bytes", content_type="image/jpeg")
    domain = default_domain()

    def compare(ip: str) -> tuple[int | None, str]:
        answer = edge.get("/a.jpg", headers={"X-Forwarded-For": ip})
        stop = tester.first_stop(check_request(domain, Probe("/a.jpg", ip)).verdicts)
        expected = (stop.status, stop.code) if stop else (200, "")
        assert (answer.status_code, answer.headers.get("X-Error-Code", "")) == expected, ip
        return expected

    assert publish(region_mode="block", regions="CN\nJP").status == "ok"
    assert [compare(ip) for ip in ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.1")] == [
        (403, "40310020"), (200, ""), (403, "40310020"), (200, "")]
    assert publish(region_mode="allow", regions="US").status == "ok"
    assert [compare(ip) for ip in ("127.0.0.3", "127.0.0.2", "127.0.0.1")] == [
        (200, ""), (403, "40310020"), (403, "40310020")]  # no known country: not listed
    assert publish(region_mode="off", external_links=False).status == "ok"
    assert compare("127.0.0.3") == (405, "40500020")
    _lookup.cache_clear()
