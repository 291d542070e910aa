"""The purge API: its signature, the invalid-domain answer, the rate limit, and the edge
cache entries it evicts."""

from __future__ import annotations

from email.utils import formatdate
from urllib.parse import urlsplit

import pytest
import requests

from tests.sandbox.test_delivery_support import Edge, Purge, Storage, image_bytes


@pytest.fixture
def purge(sandbox):
    return Purge(sandbox)


@pytest.fixture
def edge(sandbox):
    storage = Storage(sandbox)
    storage.put("/p/a.txt", b"a")
    storage.put("/p/b.txt", b"b")
    storage.put("/p/pic.png", image_bytes(100, 100))
    storage.put("/p/中文.txt", b"zh")
    edge = Edge(sandbox)
    edge.configure(versions={"tiny": "/fw/10"})
    return edge


def purge_error(response: requests.Response, status: int, code: int,
                msg: str | None = None) -> dict:
    """The refusal's shape; `msg`, when given, is api/purge.md's text, compared exactly."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code and body["msg"] and body["id"], body
    if msg is not None:
        assert body["msg"] == msg, body
    return body


def test_a_signed_purge_is_accepted(purge, edge):
    response = purge.send([f"{edge.url}/p/a.txt"])
    assert response.status_code == 200
    assert response.json() == {"invalid_domain_of_url": []}


def test_a_purge_evicts_the_cached_url(purge, edge):
    edge.get("/p/a.txt")
    edge.get("/p/b.txt")
    assert edge.get("/p/a.txt").headers["X-Cache"] == "HIT"
    purge.send([f"{edge.url}/p/a.txt"])
    assert edge.get("/p/a.txt").headers["X-Cache"] == "MISS"
    assert edge.get("/p/b.txt").headers["X-Cache"] == "HIT"


def test_a_purge_evicts_every_version_and_parameter_variant(purge, edge):
    for path in ("/p/pic.png", "/p/pic.png!tiny", "/p/pic.png!/fw/20"):
        edge.get(path)
    purge.send([f"{edge.url}/p/pic.png"])
    assert edge.cache_entries() == []


def test_a_purge_of_one_version_keeps_the_others(purge, edge):
    edge.get("/p/pic.png")
    edge.get("/p/pic.png!tiny")
    purge.send([f"{edge.url}/p/pic.png!tiny"])
    assert [entry["path"] for entry in edge.cache_entries()] == ["/p/pic.png"]


def test_a_purge_evicts_every_query_variant(purge, edge):
    edge.configure(param_follow=True)
    edge.get("/p/a.txt?x=1")
    edge.get("/p/a.txt?x=2")
    purge.send([f"{edge.url}/p/a.txt"])
    assert edge.cache_entries() == []


def test_a_percent_encoded_url_evicts_the_decoded_path(purge, edge):
    edge.get("/p/中文.txt")
    purge.send([f"{edge.url}/p/%E4%B8%AD%E6%96%87.txt"])
    assert edge.cache_entries() == []


def test_urls_of_other_hosts_are_listed_as_invalid(purge, edge):
    port = urlsplit(edge.url).port
    urls = [f"{edge.url}/p/a.txt", "http://elsewhere.example.com/p/a.txt",
            f"http://localhost:{port}/p/b.txt", f"http://127.0.0.1:{port + 1}/p/b.txt",
            "not a url"]
    response = purge.send(urls)
    assert response.json() == {"invalid_domain_of_url": [
        "http://elsewhere.example.com/p/a.txt", f"http://127.0.0.1:{port + 1}/p/b.txt",
        "not a url"]}


def test_a_configured_domain_is_valid(purge, edge):
    edge.configure(domains=["cdn.example.com"])
    edge.get("/p/a.txt")
    response = purge.send(["https://cdn.example.com/p/a.txt"])
    assert response.json() == {"invalid_domain_of_url": []}
    assert edge.cache_entries() == []


def test_purges_are_recorded_for_the_control_api(purge, edge, sandbox):
    purge.send([f"{edge.url}/p/a.txt", "http://other.test/x"])
    [record] = sandbox.control("GET", "/purge/requests").json()["requests"]
    assert record["urls"] == [f"{edge.url}/p/a.txt", "http://other.test/x"]
    assert record["invalid_domain_of_url"] == ["http://other.test/x"]


def test_a_wrong_signature_is_refused_with_the_pages_sign_error(purge, edge):
    body = purge_error(purge.send([f"{edge.url}/p/a.txt"], password="wrong"), 401, 40100005,
                       "Sign error")
    assert "md5hex" in body["detail"]


def test_a_signature_over_other_urls_is_refused(purge, edge):
    date = formatdate(purge.sandbox.now(), usegmt=True)
    headers = {"Date": date, "Authorization": purge.authorization("http://x/other", date)}
    response = requests.post(purge.url, data={"purge": f"{edge.url}/p/a.txt"},
                             headers=headers, timeout=30)
    purge_error(response, 401, 40100005, "Sign error")


def test_a_missing_authorization_is_refused_with_need_authorization_header(purge, edge):
    response = requests.post(purge.url, data={"purge": f"{edge.url}/p/a.txt"},
                             headers={"Date": formatdate(usegmt=True)}, timeout=30)
    purge_error(response, 401, 40100004, "Need Authorization Header")


def test_a_missing_date_is_refused_with_need_date_header(purge, edge):
    field = f"{edge.url}/p/a.txt"
    response = requests.post(purge.url, data={"purge": field},
                             headers={"Authorization": purge.authorization(field, "")},
                             timeout=30)
    purge_error(response, 401, 40100001, "Need Date Header")


def test_an_unreadable_date_is_a_date_offset_error(purge, edge):
    body = purge_error(purge.send([f"{edge.url}/p/a.txt"], date="yesterday"), 401, 40100002,
                       "Date offset error")
    assert "RFC 1123" in body["detail"]


@pytest.mark.parametrize("authorization", ["SVC onlyone", "Basic a:b:c", "SVC a:b:"])
def test_a_malformed_authorization_is_refused(purge, edge, authorization):
    response = requests.post(purge.url, data={"purge": "x"},
                             headers={"Date": formatdate(usegmt=True),
                                      "Authorization": authorization}, timeout=30)
    purge_error(response, 401, 40100005, "Sign error")


def test_an_unknown_bucket_or_operator_is_refused_with_the_pages_texts(purge, edge):
    purge_error(purge.send([f"{edge.url}/p/a.txt"], bucket="other-bucket"), 401, 40100012,
                "Bucket is not exists")
    purge_error(purge.send([f"{edge.url}/p/a.txt"], operator="someone"), 401, 40100006,
                "User is not exists")


def test_a_stale_date_is_refused(purge, edge, sandbox):
    stale = formatdate(sandbox.now() - 31 * 60, usegmt=True)
    purge_error(purge.send([f"{edge.url}/p/a.txt"], date=stale), 401, 40100002,
                "Date offset error")
    fresh = formatdate(sandbox.now() - 29 * 60, usegmt=True)
    assert purge.send([f"{edge.url}/p/a.txt"], date=fresh).status_code == 200


def test_the_date_follows_the_sandbox_clock(purge, edge, sandbox):
    sandbox.advance(3600)
    assert purge.send([f"{edge.url}/p/a.txt"]).status_code == 200
    real_now = formatdate(usegmt=True)
    purge_error(purge.send([f"{edge.url}/p/a.txt"], date=real_now), 401, 40100002)


def test_a_missing_purge_field_is_refused(purge, edge):
    date = formatdate(purge.sandbox.now(), usegmt=True)
    response = requests.post(purge.url, data={"urls": "x"},
                             headers={"Date": date,
                                      "Authorization": purge.authorization("", date)},
                             timeout=30)
    purge_error(response, 400, 40000020)


def test_only_post_is_accepted(purge):
    purge_error(requests.get(purge.url, timeout=30), 405, 40500001)


def test_more_than_600_urls_a_minute_are_refused_with_406(purge, edge, sandbox):
    """api/purge.md: 406, 每分钟刷新 URL 个数超过 600 限制."""
    urls = [f"{edge.url}/p/{index}.txt" for index in range(300)]
    assert purge.send(urls).status_code == 200
    assert purge.send(urls).status_code == 200
    body = purge_error(purge.send([f"{edge.url}/p/a.txt"]), 406, 40600000)
    assert "600 in the last minute" in body["detail"]
    sandbox.advance(61)
    assert purge.send([f"{edge.url}/p/a.txt"]).status_code == 200


def test_a_single_request_of_601_urls_is_refused(purge, edge):
    urls = [f"{edge.url}/p/{index}.txt" for index in range(601)]
    purge_error(purge.send(urls), 406, 40600000)
    assert purge.send(urls[:600]).status_code == 200


def test_a_refused_request_does_not_count(purge, edge):
    urls = [f"{edge.url}/p/{index}.txt" for index in range(600)]
    assert purge.send(urls).status_code == 200
    purge_error(purge.send(urls[:1]), 406, 40600000)
    purge_error(purge.send(urls[:1]), 406, 40600000)
    purge.sandbox.advance(61)
    assert purge.send(urls).status_code == 200
