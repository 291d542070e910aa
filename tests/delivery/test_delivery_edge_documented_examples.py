"""The provider's documented rewrite examples, saved and published from the back-office and
run by the real sandbox edge, each with the effect the docs describe; the tester agrees."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from delivery import services
from delivery.tester import SampleRequest
from tests.delivery.conftest import Edge, png_bytes
from tests.edgerules.documented_examples import (
    ADD_RESPONSE_HEADER,
    DENY_FOO_WITHOUT_REFERER,
    HIDE_ORIGINAL_IMAGES,
    LIMIT_RATE_OF_10_MP4,
    NEW_IMAGES_AS_NRIMG,
    SCRIPTS_TO_HTTPS,
    Example,
)

pytestmark = pytest.mark.django_db


def as_rules(example: Example) -> list[dict[str, Any]]:
    return [{"pattern": example.pattern, "rule": example.rule}]


def width_of(response: Any) -> int:
    assert response.status_code == 200, response.text[:300]
    return Image.open(io.BytesIO(response.content)).size[0]


def test_foo_without_referer_is_403_and_with_one_200(edge: Edge, publish: Any) -> None:
    edge.upload("/foo/a.txt", b"foo")
    publish(rules=as_rules(DENY_FOO_WITHOUT_REFERER))
    assert edge.get("/foo/a.txt").status_code == 403
    allowed = edge.get("/foo/a.txt", headers={"Referer": "https://shop.example.com/"})
    assert (allowed.status_code, allowed.content) == (200, b"foo")


def test_a_script_over_http_is_redirected_302_to_https(edge: Edge, publish: Any) -> None:
    edge.upload("/static/a.js", b"let a = 1;")
    publish(rules=as_rules(SCRIPTS_TO_HTTPS))
    response = edge.get(f"{edge.base_url}/static/a.js")
    assert response.status_code == 302
    assert response.headers["Location"] == edge.base_url.replace("http://", "https://", 1) + \
        "/static/a.js"
    over_https = edge.get("/static/a.js", headers={"X-Forwarded-Proto": "https"})
    assert (over_https.status_code, over_https.content) == (200, b"let a = 1;")


def test_the_original_image_is_404_and_a_processed_one_200(edge: Edge, publish: Any) -> None:
    edge.upload("/img/pic.jpg", png_bytes(400, 300, image_format="JPEG"))
    publish(rules=as_rules(HIDE_ORIGINAL_IMAGES))
    assert edge.get("/img/pic.jpg").status_code == 404
    assert width_of(edge.get("/img/pic.jpg!/fw/50")) == 50


def test_a_new_image_is_served_as_the_nrimg_version(edge: Edge, publish: Any) -> None:
    edge.upload("/d/new/pic.jpg", png_bytes(400, 300, image_format="JPEG"))
    publish(versions={"nrimg": "/fw/40"}, rules=as_rules(NEW_IMAGES_AS_NRIMG))
    assert width_of(edge.get("/d/new/pic.jpg")) == 40


def test_a_10_mp4_on_the_test_host_gets_rate_limit_headers(edge: Edge, publish: Any) -> None:
    edge.upload("/v/clip-10.mp4", b"\x00\x00\x00\x18ftypmp42")
    publish(rules=as_rules(LIMIT_RATE_OF_10_MP4))
    # The sandbox edge answers only its account's domains: test.example.com as an alias of
    # the default domain, so the rules published there apply to it.
    edge.sandbox.control("POST", "/delivery/config", {"domains": ["test.example.com"]})
    limited = edge.get("/v/clip-10.mp4", headers={"Host": "test.example.com"})
    assert limited.status_code == 200
    assert limited.headers["X-RateLimit-After"] == str(20 * 1024 * 1024)
    assert limited.headers["X-RateLimit-Rate"] == str(100 * 1024)
    other_host = edge.get("/v/clip-10.mp4")
    assert "X-RateLimit-After" not in other_host.headers


def test_add_rsp_header_with_two_arguments_adds_it(edge: Edge, publish: Any) -> None:
    edge.upload("/page.txt", b"page")
    publish(rules=as_rules(ADD_RESPONSE_HEADER))
    assert edge.get("/page.txt").headers["X-Foo"] == "bar"


@pytest.mark.parametrize(("example", "request_", "expected"), [
    (DENY_FOO_WITHOUT_REFERER, SampleRequest(url="/foo/a.txt"), ("exit", 403)),
    (DENY_FOO_WITHOUT_REFERER,
     SampleRequest(url="/foo/a.txt", headers="Referer: https://shop.example.com/"), None),
    (SCRIPTS_TO_HTTPS, SampleRequest(url="http://cdn.example.com/a.js"), ("redirect", 302)),
    (HIDE_ORIGINAL_IMAGES, SampleRequest(url="/img/pic.jpg"), ("exit", 404)),
    (HIDE_ORIGINAL_IMAGES, SampleRequest(url="/img/pic.jpg!/fw/50"), None),
])
def test_the_tester_agrees_with_the_edge(example: Example, request_: SampleRequest,
                                         expected: tuple[str, int] | None) -> None:
    specs = [{"break": False, "state": "enabled", **rule} for rule in as_rules(example)]
    outcome = services.run_test(None, specs, request_)
    response = outcome.exit or outcome.redirect
    found = None if response is None else (
        "exit" if outcome.exit else "redirect", response.status)
    assert found == expected


def test_the_tester_serves_new_images_as_nrimg() -> None:
    specs = [{"break": False, "state": "enabled", **rule} for rule in as_rules(NEW_IMAGES_AS_NRIMG)]
    assert services.run_test(None, specs, SampleRequest(url="/d/new/pic.jpg")).url == \
        "/d/new/pic.jpg!nrimg"
