"""The edge cache: X-Cache HIT/MISS, what it is keyed by, and the automatic refresh when a
stored file is replaced or deleted (all its versions with it)."""

from __future__ import annotations

import pytest

from tests.sandbox.test_delivery_support import (
    Edge,
    Storage,
    assert_refused,
    image_bytes,
    opened,
)


@pytest.fixture
def storage(sandbox):
    return Storage(sandbox)


@pytest.fixture
def edge(sandbox, storage):
    storage.put("/c/page.txt", b"first")
    storage.put("/c/pic.png", image_bytes(300, 100))
    edge = Edge(sandbox)
    edge.configure(versions={"small": "/fw/30"})
    return edge


def test_the_first_request_misses_and_the_next_hits(edge):
    first = edge.get("/c/page.txt")
    assert (first.headers["X-Cache"], first.content) == ("MISS", b"first")
    second = edge.get("/c/page.txt")
    assert (second.headers["X-Cache"], second.content) == ("HIT", b"first")


def test_processed_images_are_cached_per_url(edge):
    assert edge.get("/c/pic.png!/fw/100").headers["X-Cache"] == "MISS"
    hit = edge.get("/c/pic.png!/fw/100")
    assert hit.headers["X-Cache"] == "HIT"
    assert opened(hit).size == (100, 33)
    assert edge.get("/c/pic.png!/fw/50").headers["X-Cache"] == "MISS"


def test_the_query_is_ignored_unless_parameters_are_followed(edge):
    edge.get("/c/page.txt?a=1")
    assert edge.get("/c/page.txt?a=2").headers["X-Cache"] == "HIT"
    edge.configure(param_follow=True)
    assert edge.get("/c/page.txt?a=1").headers["X-Cache"] == "MISS"
    assert edge.get("/c/page.txt?a=1").headers["X-Cache"] == "HIT"
    assert edge.get("/c/page.txt?a=2").headers["X-Cache"] == "MISS"


def test_a_replaced_file_is_not_served_stale(edge, storage):
    edge.get("/c/page.txt")
    storage.put("/c/page.txt", b"second")
    response = edge.get("/c/page.txt")
    assert (response.headers["X-Cache"], response.content) == ("MISS", b"second")


def test_replacing_a_file_refreshes_all_its_versions(edge, storage):
    edge.get("/c/pic.png!small")
    edge.get("/c/pic.png!/fw/100")
    assert edge.get("/c/pic.png!small").headers["X-Cache"] == "HIT"
    storage.put("/c/pic.png", image_bytes(600, 100))
    small = edge.get("/c/pic.png!small")
    assert small.headers["X-Cache"] == "MISS"
    assert opened(small).size == (30, 5)
    assert [entry["path"] for entry in edge.cache_entries()] == ["/c/pic.png!small"]


def test_a_deleted_file_is_no_longer_served(edge, storage):
    edge.get("/c/page.txt")
    edge.get("/c/pic.png!small")
    storage.delete("/c/page.txt")
    storage.delete("/c/pic.png")
    assert_refused(edge.get("/c/page.txt"), 404, "40400001")
    assert_refused(edge.get("/c/pic.png!small"), 404, "40400001")


def test_a_file_given_a_secret_stops_being_served_plain(edge, storage):
    edge.get("/c/page.txt")
    storage.put("/c/page.txt", b"first", secret="k3y")
    assert_refused(edge.get("/c/page.txt"), 404, "40400001")
    assert edge.get("/c/page.txt!k3y").content == b"first"


def test_head_answers_from_the_cache_without_a_body(edge):
    edge.get("/c/page.txt")
    response = edge.request("HEAD", "/c/page.txt")
    assert response.headers["X-Cache"] == "HIT"
    assert response.headers["Content-Length"] == "5"
    assert response.content == b""


def test_errors_are_not_cached(edge, storage):
    assert edge.get("/c/later.txt").status_code == 404
    storage.put("/c/later.txt", b"now here")
    response = edge.get("/c/later.txt")
    assert (response.status_code, response.headers["X-Cache"]) == (200, "MISS")


def test_the_cache_can_be_inspected_and_emptied(edge, sandbox):
    edge.get("/c/page.txt")
    edge.get("/c/pic.png!small")
    entries = {entry["path"]: entry for entry in edge.cache_entries()}
    assert set(entries) == {"/c/page.txt", "/c/pic.png!small"}
    assert entries["/c/pic.png!small"]["sources"] == ["/c/pic.png"]
    assert entries["/c/page.txt"]["holds_body"] is False
    assert sandbox.control("DELETE", "/delivery/cache").json() == {"deleted": 2}
    assert edge.get("/c/page.txt").headers["X-Cache"] == "MISS"


def test_a_settings_change_empties_the_cache(edge):
    edge.get("/c/page.txt")
    edge.configure(html_minify=True)
    assert edge.get("/c/page.txt").headers["X-Cache"] == "MISS"


def test_a_reset_empties_the_cache(edge, sandbox, storage):
    edge.get("/c/page.txt")
    sandbox.reset()
    assert edge.cache_entries() == []
