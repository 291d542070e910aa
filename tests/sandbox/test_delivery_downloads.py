"""Forced downloads (`_upd`) and the cache-bypass parameter (`_upv`)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.sandbox.test_delivery_support import Edge, Storage, assert_refused, image_bytes


@pytest.fixture
def edge(sandbox):
    Storage(sandbox).put("/d/report-2024.pdf", b"%PDF-1.4 pretend")
    return Edge(sandbox)


def test_a_plain_request_carries_no_content_disposition(edge):
    assert "Content-Disposition" not in edge.get("/d/report-2024.pdf").headers


def test_upd_true_keeps_the_original_name(edge):
    response = edge.get("/d/report-2024.pdf?_upd=true")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="report-2024.pdf"'
    assert response.content == b"%PDF-1.4 pretend"


def test_upd_with_an_ascii_name_uses_that_name(edge):
    response = edge.get("/d/report-2024.pdf?_upd=annual.pdf")
    assert response.headers["Content-Disposition"] == 'attachment; filename="annual.pdf"'


def test_upd_with_a_chinese_name_adds_the_rfc_6266_form(edge):
    name = "年度报告.pdf"
    response = edge.get(f"/d/report-2024.pdf?_upd={quote(name)}")
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=\"____.pdf\"; "
        "filename*=UTF-8''%E5%B9%B4%E5%BA%A6%E6%8A%A5%E5%91%8A.pdf")


def test_upd_with_a_quote_in_the_name_is_escaped(edge):
    response = edge.get("/d/report-2024.pdf?_upd=" + quote('a"b.pdf'))
    assert response.headers["Content-Disposition"] == 'attachment; filename="a\\"b.pdf"'


def test_upd_true_on_a_converted_image_renames_the_extension(edge, sandbox):
    Storage(sandbox).put("/d/pic.png", image_bytes(20, 20))
    response = edge.get("/d/pic.png!/format/webp?_upd=true")
    assert response.headers["Content-Disposition"] == 'attachment; filename="pic.webp"'


@pytest.mark.parametrize("value", ["", "a%2Fb.pdf", "a%0Ab.pdf", "x" * 256])
def test_a_bad_upd_is_refused(edge, value):
    body = assert_refused(edge.get(f"/d/report-2024.pdf?_upd={value}"), 400, "40000001")
    assert "_upd" in body["msg"]


def test_upd_is_ineffective_when_parameters_are_followed(edge):
    edge.configure(param_follow=True)
    response = edge.get("/d/report-2024.pdf?_upd=true")
    assert response.status_code == 200
    assert "Content-Disposition" not in response.headers


def test_upv_bypasses_the_cache(edge):
    assert edge.get("/d/report-2024.pdf").headers["X-Cache"] == "MISS"
    assert edge.get("/d/report-2024.pdf").headers["X-Cache"] == "HIT"
    bypassed = edge.get("/d/report-2024.pdf?_upv=07")
    assert bypassed.status_code == 200
    assert bypassed.headers["X-Cache"] == "MISS"
    assert edge.get("/d/report-2024.pdf?_upv=07").headers["X-Cache"] == "MISS"
    assert edge.get("/d/report-2024.pdf").headers["X-Cache"] == "HIT"


def test_upv_fetches_the_current_file(edge, sandbox):
    edge.get("/d/report-2024.pdf")
    Storage(sandbox).put("/d/report-2024.pdf", b"%PDF-1.4 second")
    assert edge.get("/d/report-2024.pdf?_upv=00").content == b"%PDF-1.4 second"


@pytest.mark.parametrize("value", ["", "1", "123", "ab", "-1", "1a"])
def test_a_bad_upv_is_refused(edge, value):
    body = assert_refused(edge.get(f"/d/report-2024.pdf?_upv={value}"), 400, "40000001")
    assert "_upv" in body["msg"]


def test_with_parameters_followed_upv_makes_its_own_cache_entry(edge):
    edge.configure(param_follow=True)
    assert edge.get("/d/report-2024.pdf?_upv=01").headers["X-Cache"] == "MISS"
    assert edge.get("/d/report-2024.pdf?_upv=01").headers["X-Cache"] == "HIT"
    assert edge.get("/d/report-2024.pdf?_upv=02").headers["X-Cache"] == "MISS"
