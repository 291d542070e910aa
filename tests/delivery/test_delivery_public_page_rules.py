"""The public page's whole language from the back-office (cdn/edgerules.md): every worked case
saved, published for real and run at the real sandbox edge, the tester agreeing; rule states
(enabled, off, in test for listed addresses) published and obeyed; the tester's client address
and country; the editor's reference of the new functions and variables, in Chinese too."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from delivery import services
from delivery.services import testing
from delivery.tester import SampleRequest
from edgerules import Outcome
from tests.delivery.conftest import Edge
from tests.edgerules.documented_examples import (
    ADD_FROM_CDN,
    EMPTY_ALL_IS_FALSE,
    HEX_TIME_EXPIRED,
    IP_AND_METHOD,
    LIMIT_RATE_800K,
    LOWERCASE_MATCH,
    NO_QUERY_AT_ALL,
    NO_TOKEN_COOKIE,
    OVERWRITE_CDN_HEADER,
    PAY_REWRITE,
    PLAYLIST_RENAME,
    QUOTED_VARIABLE,
    SUB_OF_DECODED_HEADER,
    TOKEN_RULES,
    Example,
)
from tests.geoip import write_country_database
from tests.source_address import from_address

pytestmark = pytest.mark.django_db


def rules_of(*examples: Example, **fields: Any) -> list[dict[str, Any]]:
    return [{"pattern": example.pattern, "rule": example.rule, "state": "enabled", **fields}
            for example in examples]


def in_tester(rules: list[dict[str, Any]], request: SampleRequest) -> Outcome:
    specs = [{"break": False, "test_addresses": [], **rule} for rule in rules]
    return services.run_test(None, specs, request)


def signed(path: str, etime: int) -> str:
    key = hashlib.md5(f"abc{etime}{path}".encode(), usedforsecurity=False).hexdigest()
    return f"key={key}&t={etime}"


@pytest.fixture
def country_database(tmp_path: Path) -> Iterator[Path]:
    path = write_country_database(tmp_path / "countries.mmdb")
    testing._lookup.cache_clear()
    with override_settings(GEOIP_DATABASE=str(path)):
        yield path
    testing._lookup.cache_clear()


def test_case_1_token_rules_at_the_edge_and_in_the_tester(edge: Edge, publish: Any,
                                                          sandbox: Any) -> None:
    edge.upload("/test.ts", b"ts")
    rules = rules_of(*TOKEN_RULES)
    publish(rules=rules)
    now = int(sandbox.now())
    good, expired = signed("/test.ts", now + 600), signed("/test.ts", now - 10)
    wrong = signed("/other.ts", now + 600)
    assert edge.get(f"/test.ts?{good}").status_code == 200
    assert edge.get("/test.ts").status_code == 403
    assert edge.get(f"/test.ts?{expired}").status_code == 401
    assert edge.get(f"/test.ts?{wrong}").status_code == 403
    assert in_tester(rules, SampleRequest(url=f"/test.ts?{good}")).exit is None
    assert in_tester(rules, SampleRequest(url="/test.ts")).exit.status == 403  # type: ignore[union-attr]
    assert in_tester(rules, SampleRequest(url=f"/test.ts?{wrong}")).exit.status == 403  # type: ignore[union-attr]


def test_case_2_redirects_without_the_token_cookie(edge: Edge, publish: Any) -> None:
    edge.upload("/index.html", b"<p>hi</p>")
    rules = rules_of(NO_TOKEN_COOKIE)
    publish(rules=rules)
    moved = edge.get("/index.html")
    assert (moved.status_code, moved.headers["Location"]) == (
        301, "http://test.example.com/no_token.html")
    assert edge.get("/index.html", cookies={"token": "1"}).status_code == 200
    assert in_tester(rules, SampleRequest(url="/index.html")).redirect is not None
    assert in_tester(rules, SampleRequest(url="/index.html", cookies="token=1")).redirect is None


def test_case_3_rewrites(edge: Edge, publish: Any) -> None:
    edge.upload("/pay.php", b"pay")
    edge.upload("/app/stream.m3u8", b"#EXTM3U")
    rules = rules_of(PAY_REWRITE, PLAYLIST_RENAME)
    publish(rules=rules)
    assert edge.get("/pay/25/8/x.html").content == b"pay"
    assert edge.get("/app/stream/playlist.m3u8").content == b"#EXTM3U"
    assert in_tester(rules, SampleRequest(url="/pay/25/8/x.html")).url == \
        "/pay.php?payid=25&categoryid=8"


def test_case_4_headers(edge: Edge, publish: Any) -> None:
    edge.upload("/a.txt", b"a")
    rules = rules_of(ADD_FROM_CDN, OVERWRITE_CDN_HEADER)
    publish(rules=rules)
    assert edge.get("/a.txt").headers["CDN"] == "UPYUN"
    outcome = in_tester(rules, SampleRequest(url="/a.txt"))
    assert [(c.action, c.name, c.value) for c in outcome.response_headers] == [
        ("set", "CDN", "UPYUN")]
    assert [(c.name, c.value) for c in outcome.request_headers] == [("X-From-Cdn", "upyun")]


def test_case_5_is_limited_on_the_test_host(edge: Edge, publish: Any) -> None:
    edge.upload("/mp4/clip-10.mp4", b"\x00" * 64)
    rules = rules_of(LIMIT_RATE_800K)
    publish(rules=rules)
    edge.sandbox.control("POST", "/delivery/config", {"domains": ["test.example.com"]})
    limited = edge.get("/mp4/clip-10.mp4", headers={"Host": "test.example.com"})
    assert limited.headers["X-RateLimit-Rate"] == str(800 * 1024)
    outcome = in_tester(rules, SampleRequest(url="http://test.example.com/mp4/clip-10.mp4"))
    assert (outcome.limit_rate_after, outcome.limit_rate) == (20 * 1024**2, 800 * 1024)


def test_case_6_lower_case_match(edge: Edge, publish: Any) -> None:
    edge.upload("/UPtest.png", b"png")
    rules = rules_of(LOWERCASE_MATCH)
    publish(rules=rules)
    assert edge.get("/UPTEST.PNG").content == b"png"
    assert in_tester(rules, SampleRequest(url="/uptest.png")).url == "/UPtest.png"


def test_case_7_an_hour_old_hexadecimal_time(edge: Edge, publish: Any, sandbox: Any) -> None:
    # The rule's value, "true" once t is over an hour old, is the URL it rewrites to.
    edge.upload("/true", b"expired")
    edge.upload("/a.mp4", b"video")
    rules = rules_of(HEX_TIME_EXPIRED)
    publish(rules=rules)
    now = int(sandbox.now())
    old, fresh = format(now - 7200, "x"), format(now - 60, "x")
    assert edge.get(f"/a.mp4?t={old}").content == b"expired"
    assert edge.get(f"/a.mp4?t={fresh}").content == b"video"
    real_old = format(int(time.time()) - 7200, "x")
    assert in_tester(rules, SampleRequest(url=f"/a.mp4?t={real_old}")).uri == "true"
    assert in_tester(rules, SampleRequest(url=f"/a.mp4?t={format(int(time.time()), 'x')}"))\
        .rewritten is False


def test_case_7_inside_when_refuses_an_old_link(edge: Edge, publish: Any, sandbox: Any) -> None:
    edge.upload("/a.mp4", b"video")
    rules = [{"pattern": "", "state": "enabled",
              "rule": f"$WHEN({HEX_TIME_EXPIRED.rule})$EXIT(403)"}]
    publish(rules=rules)
    now = int(sandbox.now())
    assert edge.get(f"/a.mp4?t={format(now - 7200, 'x')}").status_code == 403
    assert edge.get(f"/a.mp4?t={format(now, 'x')}").status_code == 200


def test_the_guide_and_syntax_examples(edge: Edge, publish: Any) -> None:
    # (/foo?? of the page serves the file /foo, which cannot sit beside the folder /foo/: it
    # runs in the tester below.)
    edge.upload("/foo/$_HOST", b"quoted")
    edge.upload("/index.php", b"php")
    publish(rules=[{**rules_of(QUOTED_VARIABLE)[0], "pattern": "^/q/"},
                   {**rules_of(IP_AND_METHOD)[0], "pattern": "^/index.htm$"},
                   {**rules_of(EMPTY_ALL_IS_FALSE)[0], "pattern": "^/all/"}])
    assert edge.get("/q/anything").content == b"quoted"
    assert edge.get("/index.htm").content == b"php"
    assert edge.get("/all/x").status_code == 404  # not 403: $ALL() is false
    assert in_tester(rules_of(IP_AND_METHOD), SampleRequest(url="/index.htm", ip="192.168.1.1"))\
        .url == "/index.php?ip=192.168.1.1&method=GET"
    nested = in_tester(rules_of(SUB_OF_DECODED_HEADER),
                    SampleRequest(url="/x?from=2&to=4", headers="foo: YWJjZGVm"))
    assert nested.uri == "/bcd/"
    assert in_tester(rules_of(NO_QUERY_AT_ALL), SampleRequest(url="/a?x=1")).url == "/foo"
    assert in_tester(rules_of(EMPTY_ALL_IS_FALSE), SampleRequest(url="/a")).exit is None


def test_a_rule_in_test_applies_to_its_addresses_at_the_edge_and_in_the_tester(
        edge: Edge, publish: Any) -> None:
    edge.upload("/old.txt", b"old")
    edge.upload("/new.txt", b"new")
    rules = [{"pattern": "^/old.txt$", "rule": "/new.txt", "state": "test",
              "test_addresses": ["127.0.0.2"]}]
    publish(rules=rules)
    url = edge.base_url + "/old.txt"
    assert from_address("127.0.0.2", url).content == b"new"
    assert from_address("127.0.0.3", url).content == b"old"
    assert edge.get("/old.txt", headers={"X-svc-Rewrite-Preview": "true"}).content == b"new"
    assert in_tester(rules, SampleRequest(url="/old.txt", ip="127.0.0.2")).url == "/new.txt"
    assert in_tester(rules, SampleRequest(url="/old.txt", ip="127.0.0.3")).url == "/old.txt"


def test_a_rule_that_is_off_is_published_and_never_applies(edge: Edge, publish: Any) -> None:
    edge.upload("/old.txt", b"old")
    rules = [{"pattern": "^/old.txt$", "rule": "$EXIT(410)", "state": "off"}]
    publish(rules=rules)
    assert edge.config()["rules"][0]["state"] == "off"
    assert edge.get("/old.txt", headers={"X-svc-Rewrite-Preview": "true"}).status_code == 200
    outcome = in_tester(rules, SampleRequest(url="/old.txt", preview=True))
    assert (outcome.exit, str(outcome.trace[0].status)) == (None, "off")


def test_the_tester_knows_the_country_of_its_client_address(country_database: Path) -> None:
    rules = [{"pattern": "", "state": "enabled",
              "rule": "$ADD_RSP_HEADER(X-Country, $_GEOIP_COUNTRY_CODE)"}]
    outcome = in_tester(rules, SampleRequest(url="/a", ip="127.0.0.2"))
    assert outcome.response_headers[0].value == "CN"
    assert in_tester(rules, SampleRequest(url="/a", ip="2001:db8::1")).response_headers[0].value \
        == "FR"
    assert in_tester(rules, SampleRequest(url="/a", ip="10.0.0.1")).response_headers[0].value == ""


def test_without_a_database_the_tester_knows_no_country() -> None:
    testing._lookup.cache_clear()
    rules = [{"pattern": "", "state": "enabled", "rule": "/$_GEOIP_COUNTRY_CODE"}]
    step = in_tester(rules, SampleRequest(url="/a", ip="127.0.0.2")).trace[0]
    assert (str(step.status), step.error.code if step.error else None) == (
        "failed", "missing-variable")


def test_an_unreadable_database_is_logged_and_the_country_unknown(tmp_path: Path,
                                                                  caplog: Any) -> None:
    broken = tmp_path / "broken.mmdb"
    broken.write_bytes(b"not a database")
    testing._lookup.cache_clear()
    with override_settings(GEOIP_DATABASE=str(broken)):
        assert testing.country_lookup() is None
    testing._lookup.cache_clear()
    assert "GEOIP_DATABASE" in caplog.text


def test_the_tester_refuses_a_bad_client_address(manager_client: Any) -> None:
    response = manager_client.post(
        reverse("delivery:test"),
        {"rules": [], "request": {"url": "/a", "ip": "not-an-ip"}},
        content_type="application/json")
    assert response.status_code == 400
    assert response.json()["input_errors"][0]["field"] == "ip"


def test_the_tester_refuses_an_unknown_rule_state(manager_client: Any) -> None:
    response = manager_client.post(
        reverse("delivery:test"),
        {"rules": [{"rule": "/x", "state": "live"}], "request": {"url": "/a"}},
        content_type="application/json")
    assert response.status_code == 400
    assert "state" in response.json()["error"]


def test_the_tester_endpoint_applies_test_addresses(manager_client: Any) -> None:
    rules = [{"rule": "/x", "state": "test", "test_addresses": ["10.0.0.0/8"]}]
    inside = manager_client.post(reverse("delivery:test"), {
        "rules": rules, "request": {"url": "/a", "ip": "10.1.2.3"}},
        content_type="application/json").json()
    outside = manager_client.post(reverse("delivery:test"), {
        "rules": rules, "request": {"url": "/a", "ip": "192.168.1.1"}},
        content_type="application/json").json()
    assert (inside["outcome"]["url"], outside["outcome"]["url"]) == ("/x", "/a")


def test_the_editor_saves_state_and_test_addresses_and_refuses_a_bad_one(
        manager_client: Any) -> None:
    from delivery.models import RuleSet

    data = {"name": "states", "description": "", "rules-TOTAL_FORMS": "2",
            "rules-INITIAL_FORMS": "0", "rules-MIN_NUM_FORMS": "0", "rules-MAX_NUM_FORMS": "1000",
            "rules-0-position": "1", "rules-0-rule": "/a", "rules-0-state": "test",
            "rules-0-test_addresses": "10.0.0.1\n192.168.0.0/16",
            "rules-1-position": "2", "rules-1-rule": "/b", "rules-1-state": "off"}
    assert manager_client.post(reverse("delivery:ruleset_new"), data).status_code == 302
    saved = RuleSet.objects.get(name="states")
    assert [rule.as_spec() for rule in saved.rules.all()] == [
        {"pattern": "", "rule": "/a", "break": False, "state": "test",
         "test_addresses": ["10.0.0.1", "192.168.0.0/16"]},
        {"pattern": "", "rule": "/b", "break": False, "state": "off", "test_addresses": []}]
    data.update({"name": "bad", "rules-0-test_addresses": "10.0.0.1\nnot-an-address"})
    refused = manager_client.post(reverse("delivery:ruleset_new"), data)
    assert refused.status_code == 200
    assert "Line 2: “not-an-address” is not an IP address" in refused.content.decode()


def test_a_new_rule_is_in_test_for_the_editors_address(manager_client: Any) -> None:
    html = manager_client.get(reverse("delivery:ruleset_new"),
                              REMOTE_ADDR="10.9.8.7").content.decode()
    assert "10.9.8.7</textarea>" in html
    assert '<option value="test" selected>' in html


def test_the_reference_lists_the_new_functions_and_variables(manager_client: Any) -> None:
    html = manager_client.get(reverse("delivery:ruleset_new")).content.decode()
    for name in ("CAPTURE", "SET_METHOD", "SET_BODY", "ADD", "MOD", "MSUB", "MULTIPLY",
                 "DIVIDE", "BYTE", "FLOOR", "CEIL", "GSUB", "LEN", "ESCAPE", "UNESCAPE",
                 "MD5_BIN", "UNIXT", "INT", "STRF_TIME", "LIMIT_RATE_AFTER", "LIMIT_RATE"):
        assert f'data-function="{name}"' in html
    for name in ("$_IP", "$_BODY", "$_GEOIP_COUNTRY_CODE", "$n.m"):
        assert f'data-variable="{name}"' in html
    assert "$INT(E1[, E2][, E3])" in html


def test_the_reference_is_translated(manager_client: Any) -> None:
    with translation.override("zh-hans"):
        html = manager_client.get(reverse("delivery:ruleset_new"),
                                  HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "The length of E, in characters." not in html
    assert "The client's country" not in html


def test_the_tester_shows_a_changed_method_and_body(manager_client: Any) -> None:
    rules = [{"rule": "$SET_METHOD(POST)$SET_BODY(a=1)", "state": "enabled"}]
    answer = manager_client.post(reverse("delivery:test"), {
        "rules": rules, "request": {"url": "/a"}}, content_type="application/json").json()
    assert (answer["outcome"]["method"], answer["outcome"]["body"]) == ("POST", "a=1")
    assert 'data-outcome-method="POST"' in answer["html"]


def test_the_tester_shows_why_set_method_get_fails_on_a_body(manager_client: Any) -> None:
    rules = [{"rule": "$SET_METHOD(GET)", "state": "enabled"}]
    answer = manager_client.post(reverse("delivery:test"), {
        "rules": rules, "request": {"url": "/a", "method": "POST", "body": "a=1"}},
        content_type="application/json").json()
    step = answer["outcome"]["trace"][0]
    assert (step["status"], step["error"]["code"]) == ("failed", "body-method")
    assert answer["outcome"]["method"] is None
