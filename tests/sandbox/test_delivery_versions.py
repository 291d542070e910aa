"""Custom image versions (`<url><sep><version>`) and secret-protected originals
(`<url><sep><secret>`)."""

from __future__ import annotations

import pytest

from tests.sandbox.test_delivery_support import (
    Edge,
    Storage,
    assert_refused,
    image_bytes,
    opened,
)

PHOTO = image_bytes(400, 200)


@pytest.fixture
def edge(sandbox):
    storage = Storage(sandbox)
    storage.put("/v/photo.png", PHOTO)
    storage.put("/v/locked.png", PHOTO, secret="s3cret")
    edge = Edge(sandbox)
    edge.configure(versions={"thumb": "/fw/100/format/webp", "s3cret": "/sq/10"})
    return edge


def test_a_version_is_processed_as_configured(edge):
    response = edge.get("/v/photo.png!thumb")
    assert response.headers["Content-Type"] == "image/webp"
    image = opened(response)
    assert (image.format, image.size) == ("WEBP", (100, 50))


def test_an_unknown_version_is_not_found(edge):
    assert_refused(edge.get("/v/photo.png!nosuch"), 404, "40400001")


def test_versions_follow_the_separator(edge):
    edge.configure(separator="-")
    assert opened(edge.get("/v/photo.png-thumb")).size == (100, 50)
    assert_refused(edge.get("/v/photo.png!thumb"), 404, "40400001")


def test_a_file_name_holding_the_separator_still_resolves(edge, sandbox):
    edge.configure(separator="_")
    Storage(sandbox).put("/v/my_photo_1.png", PHOTO)
    assert opened(edge.get("/v/my_photo_1.png_thumb")).size == (100, 50)
    assert edge.get("/v/my_photo_1.png").content == PHOTO


def test_a_version_name_holding_the_separator_resolves(edge):
    edge.configure(separator="_", versions={"small_one": "/fw/50"})
    assert opened(edge.get("/v/photo.png_small_one")).size == (50, 25)


def test_a_changed_version_is_applied_at_once(edge):
    assert opened(edge.get("/v/photo.png!thumb")).size == (100, 50)
    edge.configure(versions={"thumb": "/fw/40"})
    assert opened(edge.get("/v/photo.png!thumb")).size == (40, 20)


def test_the_plain_url_of_a_file_with_a_secret_is_not_found(edge):
    assert_refused(edge.get("/v/locked.png"), 404, "40400001")


def test_the_secret_url_serves_the_original(edge):
    response = edge.get("/v/locked.png!s3cret")
    assert response.status_code == 200
    assert response.content == PHOTO


def test_a_wrong_secret_is_not_found(edge):
    assert_refused(edge.get("/v/locked.png!S3CRET"), 404, "40400001")


def test_the_secret_wins_over_a_version_of_the_same_name(edge):
    assert edge.get("/v/locked.png!s3cret").content == PHOTO
    # On a file without that secret, the same suffix is the version.
    assert opened(edge.get("/v/photo.png!s3cret")).size == (10, 10)


def test_versions_and_parameters_of_a_protected_file_are_served(edge):
    assert opened(edge.get("/v/locked.png!thumb")).size == (100, 50)
    assert opened(edge.get("/v/locked.png!/fw/80")).size == (80, 40)


def test_the_secret_url_follows_the_separator(edge):
    edge.configure(separator="_")
    assert edge.get("/v/locked.png_s3cret").content == PHOTO


@pytest.mark.parametrize(("versions", "field"), [
    ({"thumb": "/fw/abc"}, "versions.thumb"),
    ({"thumb": "fw/100"}, "versions.thumb"),
    ({"bad name": "/fw/100"}, "versions.bad name"),
    ({"thumb": 100}, "versions.thumb"),
    (["thumb"], "versions"),
])
def test_a_bad_version_is_refused_naming_it(sandbox, versions, field):
    response = sandbox.control("POST", "/delivery/config", {"versions": versions})
    assert response.status_code == 400
    assert response.json()["field"] == field
