"""Token protection (`_upt`, `_upp`, cookie) against the edge, expiry on the sandbox clock."""

from __future__ import annotations

import pytest
import requests

from tests.sandbox.test_delivery_support import Edge, Storage, assert_refused, upt

BODY = b"protected bytes"


@pytest.fixture
def edge(sandbox):
    Storage(sandbox).put("/a/b/c/foo.jpg", BODY)
    edge = Edge(sandbox)
    edge.configure(token_protection=True)
    return edge


def assert_token_refused(response: requests.Response) -> None:
    assert response.status_code == 403
    assert response.headers["X-Error-Code"] == "40310013"
    assert response.json() == {"code": "40310013", "msg": "invalid user token"}


def test_a_valid_token_is_served(edge, sandbox):
    etime = int(sandbox.now()) + 600
    response = edge.get(f"/a/b/c/foo.jpg?_upt={upt(edge.secret, etime, '/a/b/c/foo.jpg')}")
    assert response.status_code == 200
    assert response.content == BODY


def test_the_default_secret_is_the_accounts_delivery_token_secret(edge, sandbox):
    assert edge.configure()["token_secret"] == sandbox.info["delivery"]["token_secret"]


def test_a_request_without_a_token_is_refused(edge):
    assert_token_refused(edge.get("/a/b/c/foo.jpg"))


def test_an_expired_token_is_refused_once_the_clock_passes_etime(edge, sandbox):
    etime = int(sandbox.now()) + 60
    url = f"/a/b/c/foo.jpg?_upt={upt(edge.secret, etime, '/a/b/c/foo.jpg')}"
    assert edge.get(url).status_code == 200
    sandbox.advance(120)
    assert_token_refused(edge.get(url))


def test_an_altered_signature_is_refused(edge, sandbox):
    token = upt(edge.secret, int(sandbox.now()) + 600, "/a/b/c/foo.jpg")
    altered = ("0" if token[0] != "0" else "1") + token[1:]
    assert_token_refused(edge.get(f"/a/b/c/foo.jpg?_upt={altered}"))


def test_a_token_for_another_file_is_refused(edge, sandbox):
    token = upt(edge.secret, int(sandbox.now()) + 600, "/a/b/c/other.jpg")
    assert_token_refused(edge.get(f"/a/b/c/foo.jpg?_upt={token}"))


def test_a_later_etime_with_the_old_signature_is_refused(edge, sandbox):
    etime = int(sandbox.now()) + 600
    token = upt(edge.secret, etime, "/a/b/c/foo.jpg")
    stretched = token[:8] + str(etime + 86_400)
    assert_token_refused(edge.get(f"/a/b/c/foo.jpg?_upt={stretched}"))


def test_a_token_signed_with_another_secret_is_refused(edge, sandbox):
    token = upt("not-the-secret", int(sandbox.now()) + 600, "/a/b/c/foo.jpg")
    assert_token_refused(edge.get(f"/a/b/c/foo.jpg?_upt={token}"))


@pytest.mark.parametrize("value", ["", "abc", "12345678", "abcdefgh12x4"])
def test_a_malformed_token_is_refused(edge, value):
    assert_token_refused(edge.get(f"/a/b/c/foo.jpg?_upt={value}"))


def test_a_token_in_the_upt_cookie_is_accepted(edge, sandbox):
    token = upt(edge.secret, int(sandbox.now()) + 600, "/a/b/c/foo.jpg")
    response = edge.get("/a/b/c/foo.jpg", cookies={"_upt": token})
    assert response.status_code == 200
    assert response.content == BODY


def test_a_bad_token_in_the_cookie_is_refused(edge, sandbox):
    token = upt("wrong", int(sandbox.now()) + 600, "/a/b/c/foo.jpg")
    assert_token_refused(edge.get("/a/b/c/foo.jpg", cookies={"_upt": token}))


@pytest.mark.parametrize(("level", "signed"), [
    ("0", "/"), ("1", "/a/"), ("2", "/a/b/"), ("3", "/a/b/c/"),
])
def test_upp_signs_the_first_n_directory_levels(edge, sandbox, level, signed):
    token = upt(edge.secret, int(sandbox.now()) + 600, signed)
    response = edge.get(f"/a/b/c/foo.jpg?_upt={token}&_upp={level}")
    assert response.status_code == 200


def test_one_directory_token_serves_every_file_below_it(edge, sandbox):
    Storage(sandbox).put("/a/b/other.txt", b"other")
    token = upt(edge.secret, int(sandbox.now()) + 600, "/a/")
    assert edge.get(f"/a/b/other.txt?_upt={token}&_upp=1").content == b"other"
    assert edge.get(f"/a/b/c/foo.jpg?_upt={token}&_upp=1").content == BODY


def test_a_directory_token_does_not_open_another_directory(edge, sandbox):
    Storage(sandbox).put("/z/foo.jpg", b"z")
    token = upt(edge.secret, int(sandbox.now()) + 600, "/a/")
    assert_token_refused(edge.get(f"/z/foo.jpg?_upt={token}&_upp=1"))


@pytest.mark.parametrize("level", ["4", "21", "-1", "x", ""])
def test_an_upp_out_of_range_or_too_deep_signs_the_full_uri(edge, sandbox, level):
    full = upt(edge.secret, int(sandbox.now()) + 600, "/a/b/c/foo.jpg")
    assert edge.get(f"/a/b/c/foo.jpg?_upt={full}&_upp={level}").status_code == 200
    root = upt(edge.secret, int(sandbox.now()) + 600, "/")
    assert_token_refused(edge.get(f"/a/b/c/foo.jpg?_upt={root}&_upp={level}"))


def test_a_configured_secret_replaces_the_default(edge, sandbox):
    edge.configure(token_secret="MyOwnSecret1")
    etime = int(sandbox.now()) + 600
    assert edge.get(f"/a/b/c/foo.jpg?_upt={upt('MyOwnSecret1', etime, '/a/b/c/foo.jpg')}"
                    ).status_code == 200
    assert_token_refused(
        edge.get(f"/a/b/c/foo.jpg?_upt={upt(edge.secret, etime, '/a/b/c/foo.jpg')}"))


def test_a_chinese_path_may_be_signed_encoded_or_decoded(edge, sandbox):
    Storage(sandbox).put("/图片/猫.jpg", b"cat")
    etime = int(sandbox.now()) + 600
    encoded = "/%E5%9B%BE%E7%89%87/%E7%8C%AB.jpg"
    for uri in (encoded, "/图片/猫.jpg"):
        response = edge.get(f"{encoded}?_upt={upt(edge.secret, etime, uri)}")
        assert response.status_code == 200, uri
        assert response.content == b"cat"


def test_without_token_protection_no_token_is_needed(edge):
    edge.configure(token_protection=False)
    assert edge.get("/a/b/c/foo.jpg").content == BODY


def test_a_missing_file_with_a_valid_token_is_not_found(edge, sandbox):
    token = upt(edge.secret, int(sandbox.now()) + 600, "/a/b/c/missing.jpg")
    assert_refused(edge.get(f"/a/b/c/missing.jpg?_upt={token}"), 404, "40400001")
