"""The console's control endpoints: services for tests, and storage lines' request counts."""

from __future__ import annotations

import requests

from tests.sandbox.test_console_support import create_service
from tests.sandbox.test_delivery_support import Storage


def test_a_service_is_created_listed_and_deleted(sandbox):
    made = create_service(sandbox, name="photos", business_type="file",
                          operators={"ph-op": "secret-1"}, domains=["img.example.com"],
                          line="telecom")
    assert made["bucket_name"] == "photos" and made["line"] == "telecom"
    assert made["domains"] == ["img.example.com"]
    names = [s["bucket_name"] for s in sandbox.control("GET", "/console/services").json()[
        "services"]]
    assert names == ["photos", "demo-bucket"]
    assert sandbox.control("DELETE", "/console/services/photos").status_code == 200
    assert sandbox.control("DELETE", "/console/services/photos").status_code == 404


def test_a_bad_field_is_named(sandbox):
    for body, field in [({"business_type": "file"}, "name"),
                        ({"name": "Bad Name", "business_type": "file"}, "name"),
                        ({"name": "photos", "business_type": "ftp"}, "business_type"),
                        ({"name": "photos", "business_type": "file", "line": "x"}, "line"),
                        ({"name": "photos", "business_type": "file", "domains": ["a:80"]},
                         "domains[0]"),
                        ({"name": "shop1", "business_type": "cdn",
                          "origins": [{"address": "http://o.example.com/path"}]},
                         "origins[0].address")]:
        response = sandbox.control("POST", "/console/services", body)
        assert response.status_code == 400, response.text
        assert response.json()["field"] == field


def test_a_taken_name_or_domain_is_409(sandbox):
    create_service(sandbox, name="photos", business_type="file", domains=["a.example.com"])
    again = sandbox.control("POST", "/console/services", {"name": "photos",
                                                          "business_type": "file"})
    assert again.status_code == 409
    taken = sandbox.control("POST", "/console/services", {
        "name": "others", "business_type": "file", "domains": ["a.example.com"]})
    assert taken.status_code == 409
    assert "others" not in str(sandbox.control("GET", "/console/services").json())


def test_a_reset_removes_created_services_and_keeps_the_demo_one(sandbox):
    create_service(sandbox, name="photos", business_type="file")
    sandbox.reset()
    services = sandbox.control("GET", "/console/services").json()["services"]
    assert [s["bucket_name"] for s in services] == ["demo-bucket"]
    assert services[0]["domains"] == ["demo-bucket.sandbox.localhost"]


def test_storage_requests_are_counted_per_line(sandbox):
    storage = Storage(sandbox)
    storage.put("/a.txt", b"a")
    for line in ("telecom", "telecom", "cmcc"):
        storage.base = sandbox.info["storage_lines"][line]
        storage.put("/a.txt", b"a")
    counts = sandbox.control("GET", "/console/lines").json()["lines"]
    assert counts == {"auto": 1, "telecom": 2, "unicom": 0, "cmcc": 1}


def test_an_unknown_line_address_is_not_listened_on(sandbox):
    port = sandbox.base_port + 3
    try:
        requests.get(f"http://127.0.0.5:{port}/", timeout=2)
    except requests.ConnectionError:
        return
    raise AssertionError("127.0.0.5 answered")
