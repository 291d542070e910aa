"""The console API at console_url (docs/decisions.md, "Services, domains and the console
API"): tokens, services, domains, origins, mirror storage, settings by section, refresh and
records, certificates, and every error code of the table."""

from __future__ import annotations

import pytest
import requests

from tests.certificates import TestCA
from tests.sandbox.test_console_support import Console, console_error, create_service
from tests.sandbox.test_delivery_support import Edge, Purge, Storage

DEMO = "demo-bucket.sandbox.localhost"
LEAF = TestCA().leaf(DEMO)
CERT, KEY = LEAF.chain, LEAF.key


@pytest.fixture
def console(sandbox):
    return Console(sandbox)


@pytest.fixture
def shop(sandbox):
    return create_service(sandbox, name="shop-cdn", business_type="cdn",
                          domains=["www.shop.example.com"],
                          origins=[{"address": "http://origin.example.com", "weight": 10}])


# --- tokens


def test_a_login_answers_a_token_for_30_days(console, sandbox):
    answer = console.login().json()
    assert answer["access_token"]
    assert abs(answer["expired_at"] - (sandbox.now() + 30 * 86400)) < 5


def test_a_wrong_password_is_10402(console):
    console_error(console.login(password="wrong"), 401, 10402)


def test_a_bad_code_is_10400(console):
    console_error(console.login(code="short"), 400, 10400, "code")


def test_a_new_token_leaves_the_earlier_one_valid(console):
    first = console.token
    console.login()
    assert console.request("GET", "/buckets", token=first).status_code == 200


def test_no_unknown_or_expired_token_is_10401(console, sandbox):
    console_error(requests.get(f"{console.url}/buckets", timeout=5), 401, 10401)
    console_error(console.request("GET", "/buckets", token="nope"), 401, 10401)
    sandbox.advance(30 * 86400 + 1)
    console_error(console.get("/buckets"), 401, 10401)


# --- services


def test_services_are_listed_newest_first_with_a_pager(console, sandbox, shop):
    create_service(sandbox, name="photos", business_type="file", line="unicom")
    page = console.get("/buckets", limit=2).json()
    assert [s["bucket_name"] for s in page["buckets"]] == ["photos", "shop-cdn"]
    assert page["buckets"][0]["line"] == "unicom" and page["buckets"][0]["status"] == "enabled"
    rest = console.get("/buckets", limit=2, max=page["pager"]["max"]).json()
    assert [s["bucket_name"] for s in rest["buckets"]] == ["demo-bucket"]
    assert rest["pager"]["max"] is None
    cdn = console.get("/buckets", business_type="cdn").json()["buckets"]
    assert [s["bucket_name"] for s in cdn] == ["shop-cdn"]
    console_error(console.get("/buckets", limit=0), 400, 10400, "limit")


def test_info_answers_one_service_and_404_for_an_unknown(console):
    info = console.get("/buckets/info", bucket_name="demo-bucket").json()
    assert info["business_type"] == "file" and info["domains"] == [DEMO]
    console_error(console.get("/buckets/info", bucket_name="nobody"), 404, 10404)
    console_error(console.get("/buckets/info"), 400, 10400, "bucket_name")


# --- domains


def test_a_domain_is_bound_listed_and_unbound(console):
    bound = console.put("/buckets/domains", {"bucket_name": "demo-bucket",
                                             "domain": "cdn.example.com"})
    assert bound.status_code == 200 and bound.json()["domain"] == "cdn.example.com"
    again = console.put("/buckets/domains", {"bucket_name": "demo-bucket",
                                             "domain": "cdn.example.com"})
    assert again.status_code == 200  # binding it again to its own service is a no-op
    names = [d["domain"] for d in console.get("/buckets/domains",
                                              bucket_name="demo-bucket").json()["domains"]]
    assert names == [DEMO, "cdn.example.com"]
    gone = console.request("DELETE", "/buckets/domains",
                           params={"bucket_name": "demo-bucket", "domain": "cdn.example.com"})
    assert gone.status_code == 200
    console_error(console.request("DELETE", "/buckets/domains", params={
        "bucket_name": "demo-bucket", "domain": "cdn.example.com"}), 404, 10404)


def test_a_domain_of_another_service_is_10409(console, shop):
    console_error(console.put("/buckets/domains", {"bucket_name": "demo-bucket",
                                                   "domain": "www.shop.example.com"}),
                  409, 10409)


def test_a_domain_with_a_port_is_10400(console):
    console_error(console.put("/buckets/domains", {"bucket_name": "demo-bucket",
                                                   "domain": "cdn.example.com:80"}),
                  400, 10400, "domain")


# --- origins and mirror storage


def test_origins_are_replaced_and_checked(console, shop):
    assert console.get("/buckets/origins", bucket_name="shop-cdn").json()["origins"] == [
        {"address": "http://origin.example.com", "weight": 10, "backup": False}]
    new = [{"address": "https://a.example.com:8443", "weight": 5, "backup": False},
           {"address": "http://b.example.com", "weight": 1, "backup": True}]
    assert console.put("/buckets/origins", {"bucket_name": "shop-cdn",
                                            "origins": new}).json()["origins"] == new
    console_error(console.put("/buckets/origins", {"bucket_name": "shop-cdn", "origins": [
        {"address": "http://b.example.com", "weight": 1, "backup": True}]}), 400, 10400,
        "origins")
    console_error(console.put("/buckets/origins", {"bucket_name": "shop-cdn", "origins": [
        {"address": "http://b.example.com", "weight": 101}]}), 400, 10400, "weight")


def test_origins_of_a_storage_service_are_10403(console):
    console_error(console.get("/buckets/origins", bucket_name="demo-bucket"), 403, 10403)


def test_mirror_storage_is_stored(console, shop):
    answer = console.put("/buckets/mirror", {"bucket_name": "shop-cdn", "status": "on",
                                             "storage_bucket": "demo-bucket",
                                             "cache_seconds": 90000}).json()
    assert answer["status"] == "on" and answer["storage_bucket"] == "demo-bucket"
    assert answer["cache_seconds"] == 90000 and answer["changed_at"]
    assert console.get("/buckets/mirror", bucket_name="shop-cdn").json() == answer
    console_error(console.put("/buckets/mirror", {"bucket_name": "shop-cdn", "status": "on",
                                                  "storage_bucket": "demo-bucket",
                                                  "cache_seconds": 86400}),
                  400, 10400, "cache_seconds")
    console_error(console.put("/buckets/mirror", {"bucket_name": "shop-cdn", "status": "on",
                                                  "storage_bucket": "shop-cdn"}),
                  400, 10400, "storage_bucket")


# --- domain settings by section


def test_every_section_is_answered_with_the_token_masked(console):
    console.put("/buckets/domains/config", {"domain": DEMO, "section": "token",
                                            "value": {"enabled": True, "secret": "s3cret"}})
    sections = console.get("/buckets/domains/config", domain=DEMO).json()["sections"]
    assert set(sections) == {"token", "separator", "versions", "rewrite", "cors", "referer",
                             "ip_ban", "ua", "https", "optimise", "region", "origin_auth",
                             "external_links"}
    assert sections["token"] == {"enabled": True, "secret": "****"}


def test_a_section_change_answers_a_new_revision(console):
    first = console.put("/buckets/domains/config", {"domain": DEMO, "section": "ip_ban",
                                                    "value": ["10.11.12.*", "1.2.3.4"]}).json()
    assert first["value"] == ["10.11.12.*", "1.2.3.4"]
    second = console.put("/buckets/domains/config", {"domain": DEMO, "section": "https",
                                                     "value": {"force": True}}).json()
    assert second["revision"] != first["revision"]


def test_bad_sections_and_values_are_10400(console):
    console_error(console.put("/buckets/domains/config", {"domain": DEMO, "section": "nope",
                                                          "value": 1}), 400, 10400, "section")
    console_error(console.put("/buckets/domains/config", {"domain": DEMO, "section": "token",
                                                          "value": {"enabled": True}}),
                  400, 10400, "value.secret")
    console_error(console.put("/buckets/domains/config", {"domain": DEMO, "section": "ua",
                                                          "value": ["a"] * 51}),
                  400, 10400, "value")
    console_error(console.put("/buckets/domains/config", {"domain": "x.example.com",
                                                          "section": "https",
                                                          "value": {"force": True}}),
                  404, 10404)


def test_settings_act_only_on_their_own_domain(console, sandbox):
    create_service(sandbox, name="photos", business_type="file",
                   operators={"ph-op": "pw-photos"}, domains=["img.example.com"])
    Storage(sandbox).put("/a.txt", b"demo")
    edge = Edge(sandbox)
    console.put("/buckets/domains/config", {"domain": "img.example.com", "section": "ua",
                                            "value": ["*Chrome*"]})
    # img.example.com serves its own bucket, photos, which lacks the file...
    assert edge.get("/a.txt", headers={"Host": "img.example.com",
                                       "User-Agent": "Chrome/1"}).status_code == 404
    # ...and its UA rule refuses a client the demo domain still serves.
    assert edge.get("/a.txt", headers={"Host": "img.example.com",
                                       "User-Agent": "curl"}).status_code == 403
    assert edge.get("/a.txt", headers={"Host": DEMO, "User-Agent": "curl"}).content == b"demo"
    assert edge.get("/a.txt", headers={"User-Agent": "curl"}).content == b"demo"


def test_an_unknown_host_is_404_at_the_edge(sandbox):
    response = Edge(sandbox).get("/a.txt", headers={"Host": "unknown.example.com"})
    assert response.status_code == 404
    assert "unknown.example.com" in response.json()["msg"]


def test_the_old_control_endpoint_takes_a_domain(sandbox):
    create_service(sandbox, name="photos", business_type="file", domains=["img.example.com"])
    answer = sandbox.control("POST", "/delivery/config?domain=img.example.com",
                             {"force_https": True})
    assert answer.json()["force_https"] is True
    assert sandbox.control("GET", "/delivery/config").json()["force_https"] is False


# --- two storage services


def test_each_bucket_takes_only_its_own_operators(sandbox):
    create_service(sandbox, name="photos", business_type="file",
                   operators={"ph-op": "pw-photos"}, domains=["img.example.com"])
    photos = Storage(sandbox)
    photos.bucket, photos.operator, photos.password = "photos", "ph-op", "pw-photos"
    photos.put("/p.txt", b"photo")
    assert Edge(sandbox).get("/p.txt", headers={"Host": "img.example.com"}).content == b"photo"
    wrong = Storage(sandbox)
    wrong.bucket = "photos"  # the demo operator is not one of photos' operators
    assert wrong._request("PUT", "/x.txt", b"x").json()["code"] == 40100006
    wrong.bucket = "no-such-bucket"
    assert wrong._request("PUT", "/x.txt", b"x").json()["code"] == 40100012


def test_a_purge_signed_for_another_bucket_refreshes_its_domain(sandbox):
    create_service(sandbox, name="photos", business_type="file",
                   operators={"ph-op": "pw-photos"}, domains=["img.example.com"])
    purge = Purge(sandbox)
    purge.bucket, purge.operator, purge.password = "photos", "ph-op", "pw-photos"
    assert purge.send(["http://img.example.com/a.txt"]).json() == {"invalid_domain_of_url": []}
    assert purge.send(["http://img.example.com/a.txt"], operator="demo-operator",
                      password=sandbox.info["storage"]["password"]).status_code == 401


# --- refresh


def test_a_rule_refresh_makes_the_next_request_miss(console, sandbox):
    storage, edge = Storage(sandbox), Edge(sandbox)
    storage.put("/img/a.jpg", b"a")
    storage.put("/css/b.css", b"b")
    for path in ("/img/a.jpg", "/css/b.css"):
        edge.get(path)
    answer = console.post("/buckets/purge/batch", {"source_url": f"http://{DEMO}/img/*",
                                                   "noif": 1}).json()
    assert answer == [{"code": 1, "status": "accepted", "url": f"http://{DEMO}/img/*"}]
    assert edge.get("/img/a.jpg").headers["X-Cache"] == "MISS"
    assert edge.get("/css/b.css").headers["X-Cache"] == "HIT"


def test_a_pattern_of_a_foreign_domain_is_refused_per_item(console):
    answer = console.post("/buckets/purge/batch", {
        "source_url": f"http://{DEMO}/*\nhttp://other.example.com/*"}).json()
    assert [item["code"] for item in answer] == [1, 0]


def test_more_than_10_patterns_are_10429(console):
    lines = "\n".join(f"http://{DEMO}/{n}/*" for n in range(11))
    console_error(console.post("/buckets/purge/batch", {"source_url": lines}), 429, 10429)
    console_error(console.post("/buckets/purge/batch", {}), 400, 10400, "source_url")


def test_preheat_warms_the_cache(console, sandbox):
    Storage(sandbox).put("/hot.txt", b"hot")
    answer = console.request("POST", "/preheat", data={"url": f"http://{DEMO}/hot.txt"})
    assert answer.json()[0]["code"] == 1
    assert Edge(sandbox).get("/hot.txt").headers["X-Cache"] == "HIT"
    urls = "\n".join(f"http://{DEMO}/{n}" for n in range(51))
    console_error(console.request("POST", "/preheat", data={"url": urls}), 429, 10429)


def test_a_whole_site_refresh_is_for_own_origin_domains_only(console, shop):
    answer = console.post("/buckets/purge/site", {"domain": "www.shop.example.com"}).json()
    assert answer == {"code": 1, "status": "accepted", "url": "http://www.shop.example.com/*"}
    console_error(console.post("/buckets/purge/site", {"domain": DEMO}), 403, 10403)
    console_error(console.post("/buckets/purge/site", {"domain": "x.example.com"}), 404, 10404)


def test_records_progress_over_five_seconds_and_last_three_days(console, sandbox):
    console.post("/buckets/purge/batch", {"source_url": f"http://{DEMO}/a/*"})
    Purge(sandbox).send([f"{sandbox.info['delivery_url']}/a.txt"])
    records = console.get("/buckets/purge/records").json()["records"]
    assert [r["type"] for r in records] == ["url", "rule"]
    assert all(r["progress"] < 100 for r in records)
    sandbox.advance(2.5)
    rule = console.get("/buckets/purge/records", type="rule").json()["records"][0]
    assert rule["status"] == "running" and 40 <= rule["progress"] < 100
    sandbox.advance(3)
    assert console.get("/buckets/purge/records", type="rule").json()["records"][0][
        "status"] == "done"
    sandbox.advance(3 * 86400)
    assert console.get("/buckets/purge/records").json()["records"] == []


# --- certificates and errors


def test_a_pem_certificate_is_stored(console):
    answer = console.post("/https/certificate/", {"certificate": CERT, "private_key": KEY})
    assert answer.status_code == 200 and answer.json()["result"]["certificate_id"]
    console_error(console.post("/https/certificate/", {"certificate": "hello",
                                                       "private_key": KEY}),
                  400, 10400, "certificate")
    console_error(console.post("/https/certificate/", {"certificate": CERT,
                                                       "private_key": CERT}),
                  400, 10400, "private_key")


def test_an_unknown_path_answers_in_the_console_shape(console):
    console_error(console.get("/no-such-thing"), 404, 10404)
