"""A domain of an own-origin (cdn) service at the sandbox edge: served from the merchant's
origin servers (real HTTP servers of the test), by weight and with a backup, cached, `_upv`
going through, mirror storage on / paused / off, and the refreshes."""

from __future__ import annotations

import pytest

from tests.sandbox.origin_support import DOWN_ADDRESS, OwnOriginConsole, origin
from tests.sandbox.test_delivery_support import Edge, Purge, Storage, assert_refused

DOMAIN = "shop.sandbox.localhost"
SERVICE = "shop-cdn"
HOST = {"Host": DOMAIN}


@pytest.fixture
def console(sandbox):
    return OwnOriginConsole(sandbox)


@pytest.fixture
def edge(sandbox):
    return Edge(sandbox)


@pytest.fixture
def storage(sandbox):
    return Storage(sandbox)


@pytest.fixture
def site(console, origin_server):
    """The service `shop-cdn` over one origin, its domain `shop.sandbox.localhost`."""
    origin_server.page("/a.css", b"body{color:red}", content_type="text/css")
    origin_server.page("/page.html", b"<p>dynamic</p>", content_type="text/html")
    console.create(SERVICE, DOMAIN, [origin(origin_server.address)])
    return origin_server


def get(edge, path, **headers):
    return edge.get(path, headers={**HOST, **headers})


def stored(storage, path):
    """The bucket's file as the storage API answers it (404 when it is not there)."""
    return storage._request("GET", path)


def entries_of(edge, domain):
    return [entry for entry in edge.cache_entries() if entry["domain"] == domain]


def test_an_own_origin_domain_is_served_from_its_origin(edge, site):
    response = get(edge, "/a.css")
    assert (response.status_code, response.content) == (200, b"body{color:red}")
    assert response.headers["Content-Type"] == "text/css"
    assert response.headers["X-Cache"] == "MISS"
    received = site.requests[-1]
    assert received.headers["Host"] == DOMAIN
    assert received.headers["X-Real-IP"] == "127.0.0.1"


def test_an_origin_error_is_passed_on(edge, site):
    response = get(edge, "/nothing-here")
    assert response.status_code == 404
    assert response.content == b"no such page at the origin"


def test_redirect404_applies_to_an_origin_404(sandbox, edge, site):
    response = sandbox.control("POST", f"/delivery/config?domain={DOMAIN}", {"rules": [
        {"pattern": "", "rule": "$REDIRECT404(/a.css)", "break": False, "debug": False}]})
    assert response.status_code == 200, response.text
    moved = get(edge, "/nothing-here")
    assert (moved.status_code, moved.headers["Location"]) == (302, "/a.css")


def test_a_storage_domain_is_not_sent_to_any_origin(edge, site):
    assert edge.get("/a.css").status_code == 404  # the default (storage) domain
    assert site.hits() == 0


def test_a_post_reaches_the_origin_with_its_body(edge, site):
    site.page("/form", b"thanks", content_type="text/plain")
    response = edge.request("POST", "/form?x=1", data=b"a=1", headers={
        **HOST, "Content-Type": "application/x-www-form-urlencoded"})
    assert (response.status_code, response.content) == (200, b"thanks")
    received = site.requests[-1]
    assert (received.method, received.target, received.body) == ("POST", "/form?x=1", b"a=1")


def test_weights_spread_the_requests(console, edge, origin_servers):
    light, heavy = origin_servers(), origin_servers()
    for server in (light, heavy):
        server.page("/page.html", b"<p>dynamic</p>", content_type="text/html")
    console.create(SERVICE, DOMAIN, [origin(light.address, 1), origin(heavy.address, 3)])
    for _ in range(8):  # an HTML page without cache headers is never kept
        assert get(edge, "/page.html").status_code == 200
    assert (light.hits(), heavy.hits()) == (2, 6)


def test_the_backup_takes_over_when_the_primary_is_down(console, edge, origin_server):
    origin_server.page("/a.css", b"from the backup", content_type="text/css")
    console.create(SERVICE, DOMAIN, [origin(DOWN_ADDRESS), origin(origin_server.address,
                                                                  backup=True)])
    assert get(edge, "/a.css").content == b"from the backup"


def test_a_backup_is_not_used_while_a_primary_answers(console, edge, origin_servers):
    primary, backup = origin_servers(), origin_servers()
    primary.page("/page.html", b"primary", content_type="text/html")
    console.create(SERVICE, DOMAIN, [origin(backup.address, backup=True),
                                     origin(primary.address)])
    for _ in range(3):
        assert get(edge, "/page.html").content == b"primary"
    assert backup.hits() == 0


def test_no_origin_answering_is_a_502(console, edge):
    console.create(SERVICE, DOMAIN, [origin(DOWN_ADDRESS)])
    assert_refused(get(edge, "/a.css"), 502, "50200001")


def test_the_second_request_is_a_hit_that_does_not_reach_the_origin(edge, site):
    get(edge, "/a.css")
    second = get(edge, "/a.css")
    assert (second.headers["X-Cache"], second.content) == ("HIT", b"body{color:red}")
    assert site.hits("/a.css") == 1


def test_upv_reaches_the_origin_and_leaves_the_cache_alone(edge, site):
    get(edge, "/a.css")
    bypassed = get(edge, "/a.css?_upv=01")
    assert bypassed.headers["X-Cache"] == "MISS"
    assert site.requests[-1].target == "/a.css?_upv=01"
    assert get(edge, "/a.css").headers["X-Cache"] == "HIT"
    assert site.hits("/a.css") == 2


def test_an_invalid_upv_is_refused(edge, site):
    assert_refused(get(edge, "/a.css?_upv=1"), 400, "40000001")
    assert site.hits() == 0


def test_the_origin_keeps_nothing_it_says_not_to(edge, site):
    site.page("/private.css", b"x", content_type="text/css", cache_control="no-store")
    get(edge, "/private.css")
    assert get(edge, "/private.css").headers["X-Cache"] == "MISS"
    assert site.hits("/private.css") == 2


def test_an_origin_answer_expires_on_the_sandbox_clock(sandbox, edge, site):
    site.page("/short.css", b"x", content_type="text/css", cache_control="max-age=60")
    get(edge, "/short.css")
    assert get(edge, "/short.css").headers["X-Cache"] == "HIT"
    sandbox.advance(61)
    assert get(edge, "/short.css").headers["X-Cache"] == "MISS"


def test_mirror_on_copies_the_file_and_serves_it_without_the_origin(console, sandbox, edge,
                                                                    storage, site):
    console.set_mirror(SERVICE, "on", storage.bucket, cache_seconds=90000)
    first = get(edge, "/a.css")
    assert first.content == b"body{color:red}"
    copy = stored(storage, "/a.css")
    assert (copy.content, copy.headers["Content-Type"]) == (b"body{color:red}", "text/css")
    [entry] = [e for e in entries_of(edge, DOMAIN) if e["path"] == "/a.css"]
    assert entry["expires_at"] - entry["stored_at"] == pytest.approx(90000)
    console.refresh_site(DOMAIN)  # the edge forgets it: the bucket answers, not the origin
    again = get(edge, "/a.css")
    assert (again.headers["X-Cache"], again.content) == ("MISS", b"body{color:red}")
    assert site.hits("/a.css") == 1


def test_mirror_on_copies_only_200_answers(console, edge, storage, site):
    console.set_mirror(SERVICE, "on", storage.bucket)
    get(edge, "/missing.css")
    assert stored(storage, "/missing.css").status_code == 404


def test_mirror_paused_serves_stored_files_but_copies_nothing(console, edge, storage, site):
    storage.put("/stored.css", b"from the bucket", content_type="text/css")
    console.set_mirror(SERVICE, "paused", storage.bucket)
    assert get(edge, "/stored.css").content == b"from the bucket"
    assert site.hits("/stored.css") == 0
    assert get(edge, "/a.css").content == b"body{color:red}"
    assert stored(storage, "/a.css").status_code == 404


def test_mirror_off_asks_the_origin_only(console, edge, storage, site):
    storage.put("/a.css", b"from the bucket", content_type="text/css")
    console.set_mirror(SERVICE, "off")
    assert get(edge, "/a.css").content == b"body{color:red}"
    assert site.hits("/a.css") == 1


def test_a_whole_site_refresh_makes_the_next_request_miss(console, edge, site):
    get(edge, "/a.css")
    console.refresh_site(DOMAIN)
    assert get(edge, "/a.css").headers["X-Cache"] == "MISS"
    assert site.hits("/a.css") == 2


def test_a_url_refresh_makes_the_next_request_miss(sandbox, edge, site):
    get(edge, "/a.css")
    response = Purge(sandbox).send([f"http://{DOMAIN}/a.css"])
    assert response.json() == {"invalid_domain_of_url": []}
    assert get(edge, "/a.css").headers["X-Cache"] == "MISS"


def test_the_domains_access_rules_apply(sandbox, edge, site):
    response = sandbox.control("POST", f"/delivery/config?domain={DOMAIN}",
                               {"ip_blacklist": ["127.0.0.1"]})
    assert response.status_code == 200, response.text
    assert_refused(get(edge, "/a.css"), 403, "40310010")
    assert site.hits() == 0


def test_a_rule_refresh_drops_the_matching_paths(console, edge, site):
    site.page("/img/b.css", b"b", content_type="text/css")
    get(edge, "/a.css")
    get(edge, "/img/b.css")
    console.refresh_rule(f"http://{DOMAIN}/img/*")
    assert get(edge, "/img/b.css").headers["X-Cache"] == "MISS"
    assert get(edge, "/a.css").headers["X-Cache"] == "HIT"


def test_a_preheat_fetches_from_the_origin_before_any_visitor(console, edge, site):
    console.preheat(f"http://{DOMAIN}/a.css")
    assert site.hits("/a.css") == 1
    assert get(edge, "/a.css").headers["X-Cache"] == "HIT"
    assert site.hits("/a.css") == 1


def test_changed_origins_apply_to_the_next_request(console, edge, origin_servers, site):
    other = origin_servers()
    other.page("/page.html", b"other", content_type="text/html")
    console.set_origins(SERVICE, [origin(other.address)])
    assert get(edge, "/page.html").content == b"other"
    assert site.hits("/page.html") == 0


def test_html_minification_applies_to_origin_pages(sandbox, edge, site):
    site.page("/m.html", b"<p>  a  </p>\n\n<!-- c -->\n<p>b</p>", content_type="text/html")
    response = sandbox.control("POST", f"/delivery/config?domain={DOMAIN}",
                               {"html_minify": True})
    assert response.status_code == 200, response.text
    assert b"<!--" not in get(edge, "/m.html").content


def test_head_answers_the_length_without_a_body_and_asks_the_origin_for_get(edge, site):
    response = edge.request("HEAD", "/a.css", headers=HOST)
    assert (response.status_code, response.content) == (200, b"")
    assert response.headers["Content-Length"] == str(len(b"body{color:red}"))
    assert site.requests[-1].method == "GET"
    assert get(edge, "/a.css").headers["X-Cache"] == "HIT"


def test_upd_names_the_download_of_an_origin_file(edge, site):
    response = get(edge, "/a.css?_upd=style.css")
    assert response.headers["Content-Disposition"].startswith("attachment")
    assert "style.css" in response.headers["Content-Disposition"]


def test_set_method_and_set_body_change_what_the_origin_receives(sandbox, edge, site):
    response = sandbox.control("POST", f"/delivery/config?domain={DOMAIN}", {"rules": [
        {"pattern": "^/form", "rule": "$SET_METHOD(PUT)$SET_BODY(b=2)", "state": "enabled"}]})
    assert response.status_code == 200
    edge.request("POST", "/form", data=b"a=1", headers={
        **HOST, "Content-Type": "application/x-www-form-urlencoded"})
    received = site.requests[-1]
    assert (received.method, received.body) == ("PUT", b"b=2")
