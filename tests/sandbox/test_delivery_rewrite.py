"""The published rule set run through the edge: rewrites, redirects, exits, header changes,
`$REDIRECT404`, rate limits, and debug rules only under the preview header."""

from __future__ import annotations

import pytest

from tests.sandbox.test_delivery_support import Edge, Storage, assert_refused, upt
from tests.source_address import from_address

PREVIEW = {"X-svc-Rewrite-Preview": "true"}


def live(pattern: str, rule: str, *, break_: bool = False) -> dict:
    return {"pattern": pattern, "rule": rule, "break": break_, "debug": False}


@pytest.fixture
def edge(sandbox):
    storage = Storage(sandbox)
    storage.put("/app/stream.m3u8", b"#EXTM3U stream")
    storage.put("/new/logo.txt", b"new logo")
    storage.put("/old/logo.txt", b"old logo")
    storage.put("/fallback.txt", b"fallback")
    return Edge(sandbox)


def test_a_rewrite_serves_the_rewritten_path(edge):
    edge.configure(rules=[live(r"/(.*)/playlist\.m3u8$", "/$1'.m3u8'")])
    response = edge.get("/app/stream/playlist.m3u8")
    assert response.status_code == 200
    assert response.content == b"#EXTM3U stream"


def test_a_rewritten_path_is_cached_under_that_path(edge):
    edge.configure(rules=[live(r"^/legacy/(.*)$", "/new/$1")])
    assert edge.get("/legacy/logo.txt").headers["X-Cache"] == "MISS"
    assert edge.get("/new/logo.txt").headers["X-Cache"] == "HIT"


def test_a_redirect_answers_with_its_status_and_location(edge):
    edge.configure(rules=[live(r"^/old/(.*)$", "$REDIRECT(https://cdn.example.com/new/$1, 301)"),
                          live(r"^/tmp/(.*)$", "$REDIRECT(/new/$1, 302)")])
    moved = edge.get("/old/logo.txt")
    assert moved.status_code == 301
    assert moved.headers["Location"] == "https://cdn.example.com/new/logo.txt"
    temporary = edge.get("/tmp/logo.txt")
    assert (temporary.status_code, temporary.headers["Location"]) == (302, "/new/logo.txt")


def test_an_exit_answers_with_its_status_and_body(edge):
    edge.configure(rules=[live(r"^/new/", "$WHEN($EQ($_GET_block, yes))$EXIT(451, gone)")])
    response = edge.get("/new/logo.txt?block=yes")
    assert (response.status_code, response.text) == (451, "gone")
    assert edge.get("/new/logo.txt?block=no").content == b"new logo"


def test_a_false_when_with_exit_does_not_answer(edge):
    edge.configure(rules=[live("", "$WHEN($ANY(), $EXIT(403))")])  # $ANY() is false
    assert edge.get("/new/logo.txt").status_code == 200


def test_response_header_changes_are_applied(edge):
    edge.configure(rules=[live(r"\.txt$", "$ADD_RSP_HEADER(X-Served-By, edge-1,)"
                                          "$ADD_RSP_HEADER(Content-Type, text/x-note, 1)"
                                          "$DEL_RSP_HEADER(Content-Type)"
                                          "$ADD_RSP_HEADER(Content-Type, text/x-note)")])
    response = edge.get("/new/logo.txt")
    assert response.headers["X-Served-By"] == "edge-1"
    assert response.headers["Content-Type"] == "text/x-note"


def test_protected_response_headers_are_not_deleted(edge):
    edge.configure(rules=[live("", "$DEL_RSP_HEADER(X-Cache)$DEL_RSP_HEADER(Server)"
                                   "$DEL_RSP_HEADER(Content-Length)$DEL_RSP_HEADER(X-Other)"
                                   "$ADD_RSP_HEADER(X-Other, 1)")])
    response = edge.get("/new/logo.txt")
    assert response.headers["X-Cache"] == "MISS"
    assert response.headers["Server"] == "provider-sandbox"
    assert response.headers["Content-Length"] == "8"
    assert response.headers["X-Other"] == "1"


def test_a_rule_may_override_a_cors_header(edge):
    edge.configure(cors={"Access-Control-Allow-Origin": "*"},
                   rules=[live("", "$ADD_RSP_HEADER(Access-Control-Allow-Origin, "
                                   "https://shop.example.com, 1)")])
    response = edge.get("/new/logo.txt")
    assert response.headers["Access-Control-Allow-Origin"] == "https://shop.example.com"


def test_request_header_changes_reach_the_access_checks(edge):
    edge.configure(ua_whitelist=["TrustedApp"],
                   rules=[live(r"^/new/", "$ADD_REQ_HEADER(User-Agent, TrustedApp)")])
    assert edge.get("/new/logo.txt", headers={"User-Agent": "Other"}).status_code == 200
    assert_refused(edge.get("/old/logo.txt", headers={"User-Agent": "Other"}), 403, "40310012")


def test_deleting_the_referer_request_header_lets_an_empty_referer_through(edge):
    edge.configure(referer={"mode": "allow", "domains": ["shop.example.com"]},
                   rules=[live(r"^/new/", "$DEL_REQ_HEADER(Referer)")])
    headers = {"Referer": "https://evil.example.org/"}
    assert edge.get("/new/logo.txt", headers=headers).status_code == 200
    assert_refused(edge.get("/old/logo.txt", headers=headers), 403, "40310011")


def test_redirect404_redirects_a_missing_file(edge):
    edge.configure(rules=[live("", "$REDIRECT404(/fallback.txt)")])
    response = edge.get("/nowhere.txt")
    assert (response.status_code, response.headers["Location"]) == (302, "/fallback.txt")
    assert edge.get("/new/logo.txt").status_code == 200


def test_rate_limits_are_recorded_as_headers(edge):
    edge.configure(rules=[live("", "$LIMIT_RATE_AFTER(20, m)$LIMIT_RATE(100, k)")])
    response = edge.get("/new/logo.txt")
    assert response.headers["X-RateLimit-After"] == str(20 * 1024 * 1024)
    assert response.headers["X-RateLimit-Rate"] == str(100 * 1024)


def test_a_debug_rule_applies_only_with_the_preview_header(edge):
    edge.configure(rules=[{"pattern": r"^/old/(.*)$", "rule": "/new/$1", "debug": True}])
    assert edge.get("/old/logo.txt").content == b"old logo"
    assert edge.get("/old/logo.txt", headers=PREVIEW).content == b"new logo"
    assert edge.get("/old/logo.txt", headers={"X-svc-Rewrite-Preview": "no"}).content == \
        b"old logo"


def test_a_new_rule_is_in_test_by_default(edge):
    answer = edge.configure(rules=[{"pattern": r"^/old/(.*)$", "rule": "/new/$1"}])
    assert (answer["rules"][0]["state"], answer["rules"][0]["test_addresses"]) == ("test", [])
    assert edge.get("/old/logo.txt").content == b"old logo"


def test_the_older_debug_flag_still_reads_as_a_state(edge):
    answer = edge.configure(rules=[{"rule": "/a", "debug": False}, {"rule": "/b", "debug": True}])
    assert [rule["state"] for rule in answer["rules"]] == ["enabled", "test"]


def test_a_rule_that_is_off_never_applies(edge):
    edge.configure(rules=[{"pattern": r"^/old/(.*)$", "rule": "/new/$1", "state": "off"}])
    assert edge.get("/old/logo.txt", headers=PREVIEW).content == b"old logo"


def test_a_rule_in_test_applies_to_its_addresses_and_to_the_preview_header(edge):
    edge.configure(rules=[{"pattern": r"^/old/(.*)$", "rule": "/new/$1", "state": "test",
                           "test_addresses": ["127.0.0.9", "10.1.0.0/16"]}])
    assert edge.get("/old/logo.txt").content == b"old logo"  # from 127.0.0.1
    assert edge.get("/old/logo.txt", headers={"X-Forwarded-For": "127.0.0.9"}).content == \
        b"new logo"
    assert edge.get("/old/logo.txt", headers={"X-Forwarded-For": "10.1.2.3"}).content == \
        b"new logo"
    assert edge.get("/old/logo.txt", headers=PREVIEW).content == b"new logo"


def test_a_rule_in_test_applies_to_a_client_connecting_from_its_address(edge, sandbox):
    edge.configure(rules=[{"pattern": r"^/old/(.*)$", "rule": "/new/$1", "state": "test",
                           "test_addresses": ["127.0.0.3"]}])
    assert from_address("127.0.0.3", edge.url + "/old/logo.txt").content == b"new logo"
    assert from_address("127.0.0.4", edge.url + "/old/logo.txt").content == b"old logo"


def test_break_stops_later_rules(edge):
    rules = [live(r"^/a/(.*)$", "/new/$1", break_=True),
             live(r"^/a/(.*)$", "/old/$1")]
    edge.configure(rules=rules)
    assert edge.get("/a/logo.txt").content == b"new logo"
    rules[0]["break"] = False
    edge.configure(rules=rules)
    assert edge.get("/a/logo.txt").content == b"old logo"


def test_a_rule_with_a_syntax_error_is_skipped(edge):
    edge.configure(rules=[live(r"^/a/(.*)$", "$NOSUCH(1)/old/$1"),
                          live(r"^/a/(.*)$", "/new/$1")])
    assert edge.get("/a/logo.txt").content == b"new logo"


def test_a_rewrite_with_a_query_feeds_the_edges_parameters(edge):
    edge.configure(rules=[live(r"^/dl/(.*)$", "/new/$1?_upd=logo-download.txt")])
    response = edge.get("/dl/logo.txt")
    assert response.headers["Content-Disposition"] == \
        'attachment; filename="logo-download.txt"'


def test_the_token_signs_the_url_the_client_requested(edge, sandbox):
    edge.configure(token_protection=True, rules=[live(r"^/short/(.*)$", "/new/$1")])
    etime = int(sandbox.now()) + 600
    good = edge.get(f"/short/logo.txt?_upt={upt(edge.secret, etime, '/short/logo.txt')}")
    assert good.content == b"new logo"
    other = edge.get(f"/short/logo.txt?_upt={upt(edge.secret, etime, '/new/logo.txt')}")
    assert other.status_code == 403


def test_rules_see_the_sandbox_clock(edge, sandbox):
    cutoff = int(sandbox.now()) + 3600
    edge.configure(rules=[live("", f"$WHEN($GT($_TIME, {cutoff}))$EXIT(410, expired)")])
    assert edge.get("/new/logo.txt").status_code == 200
    sandbox.advance(7200)
    assert edge.get("/new/logo.txt").status_code == 410


@pytest.mark.parametrize(("rules", "field"), [
    ("not a list", "rules"),
    (["a rule"], "rules[0]"),
    ([{"pattern": "x"}], "rules[0].rule"),
    ([{"rule": 5}], "rules[0].rule"),
    ([{"rule": "/a", "break": "yes"}], "rules[0].break"),
    ([{"rule": "/a", "debug": 1}], "rules[0].debug"),
    ([{"rule": "/a", "state": "on"}], "rules[0].state"),
    ([{"rule": "/a", "state": "enabled", "debug": True}], "rules[0].debug"),
    ([{"rule": "/a", "test_addresses": "127.0.0.1"}], "rules[0].test_addresses"),
    ([{"rule": "/a", "test_addresses": ["localhost"]}], "rules[0].test_addresses[0]"),
    ([{"rule": "/a", "test_addresses": ["10.0.0.1"] * 21}], "rules[0].test_addresses"),
    ([{"rule": "/a", "pattern": None}], "rules[0].pattern"),
    ([{"rule": "/a", "extra": True}], "rules[0].extra"),
])
def test_a_bad_rule_list_is_refused(sandbox, rules, field):
    response = sandbox.control("POST", "/delivery/config", {"rules": rules})
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_rules_see_https_only_when_forwarded_as_https(edge):
    edge.configure(rules=[live("", "$WHEN($EQ($_SCHEME, http))$EXIT(426, use https)")])
    assert edge.get("/new/logo.txt").status_code == 426
    assert edge.get("/new/logo.txt", headers={"X-Forwarded-Proto": "https"}).status_code == 200


def test_rules_run_for_methods_the_edge_does_not_serve(edge):
    edge.configure(rules=[live(r"^/form$", "$WHEN($EQ($_POST_name, ada))$EXIT(200, 'hello ada')")])
    response = edge.request("POST", "/form", data={"name": "ada"})
    assert (response.status_code, response.text) == (200, "hello ada")
