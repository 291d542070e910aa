"""cloud/image.md's scaling at the edge (DECISIONS.md, "Image URLs follow cloud/image.md"):
`/scale` from 1 to 1000, `/force/true` letting fw, fh, fwfh, max and min enlarge, and a version
name followed by parameters. Every result is opened with Pillow."""

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
def edge(sandbox):
    Storage(sandbox).put("/s/photo.png", image_bytes(400, 200))
    edge = Edge(sandbox)
    edge.configure(versions={"small": "/fw/300/format/webp", "square": "/sq/50"})
    return edge


@pytest.mark.parametrize(("scale", "size"), [
    (1, (4, 2)), (20, (80, 40)), (99, (396, 198)), (100, (400, 200)), (200, (800, 400)),
    (1000, (4000, 2000)),
])
def test_scale_from_1_to_1000_enlarges_above_100(edge, scale, size):
    assert opened(edge.get(f"/s/photo.png!/scale/{scale}")).size == size


@pytest.mark.parametrize("scale", ["0", "1001", "-5", "50.5", "abc"])
def test_scale_outside_1_to_1000_is_refused_naming_the_key(edge, scale):
    body = assert_refused(edge.get(f"/s/photo.png!/scale/{scale}"), 400, "40000010")
    assert body["msg"].startswith("scale: must be a whole number from 1 to 1000"), body


@pytest.mark.parametrize("params", ["/fw/800", "/fh/400", "/fwfh/800x800", "/max/800",
                                    "/min/400"])
def test_without_force_the_limiting_keys_never_enlarge(edge, params):
    assert opened(edge.get(f"/s/photo.png!{params}")).size == (400, 200)


@pytest.mark.parametrize(("params", "size"), [
    ("/fw/800/force/true", (800, 400)),
    ("/force/true/fh/400", (800, 400)),
    ("/fwfh/800x800/force/true", (800, 400)),
    ("/max/800/force/true", (800, 400)),
    ("/min/400/force/true", (800, 400)),
    ("/fw/100/force/true", (100, 50)),  # shrinking is unchanged
])
def test_force_true_lets_them_enlarge(edge, params, size):
    assert opened(edge.get(f"/s/photo.png!{params}")).size == size


@pytest.mark.parametrize(("params", "message"), [
    ("/force/true", "force: only together with a scaling key"),
    ("/fw/800/force/yes", "force: must be true or false"),
    ("/fw/800/force/true/force/true", "force: given more than once"),
])
def test_bad_force_is_refused(edge, params, message):
    body = assert_refused(edge.get(f"/s/photo.png!{params}"), 400, "40000010")
    assert body["msg"].startswith(message), body


def test_a_version_followed_by_parameters_takes_the_parameters_over_the_version(edge):
    """cloud/image.md "混合使用": `demo.jpg!upyun520/fw/500`; parameters win."""
    response = edge.get("/s/photo.png!small/fw/80")
    assert response.headers["Content-Type"] == "image/webp"  # the version's format stays
    assert opened(response).size == (80, 40)  # the URL's width replaces the version's 300


def test_a_scaling_key_after_a_version_replaces_the_versions_scaling_key(edge):
    assert opened(edge.get("/s/photo.png!square/fh/20")).size == (40, 20)
    assert opened(edge.get("/s/photo.png!square/format/jpg")).format == "JPEG"
    assert opened(edge.get("/s/photo.png!square/format/jpg")).size == (50, 50)


def test_parameters_after_a_version_may_enlarge_with_force(edge):
    assert opened(edge.get("/s/photo.png!small/fw/600/force/true")).size == (600, 300)
    assert opened(edge.get("/s/photo.png!small/fw/600")).size == (400, 200)


def test_bad_parameters_after_a_version_are_refused_naming_the_key(edge):
    body = assert_refused(edge.get("/s/photo.png!small/scale/0"), 400, "40000010")
    assert body["msg"].startswith("scale:"), body
    body = assert_refused(edge.get("/s/photo.png!small/nokey/1"), 400, "40000010")
    assert body["msg"].startswith("nokey: unknown processing key"), body


def test_an_unknown_version_followed_by_parameters_is_not_found(edge):
    assert_refused(edge.get("/s/photo.png!nosuch/fw/80"), 404, "40400001")


def test_a_version_with_parameters_follows_the_separator(edge):
    edge.configure(separator="_")
    assert opened(edge.get("/s/photo.png_small/fw/80")).size == (80, 40)


def test_a_version_may_hold_force(edge):
    edge.configure(versions={"big": "/fw/800/force/true"})
    assert opened(edge.get("/s/photo.png!big")).size == (800, 400)
