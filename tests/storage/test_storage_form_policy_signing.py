"""The back-office's FORM API policy signer: a policy it signs is accepted by the provider
(the sandbox), and a request outside its scope (path, bucket, size, time) is refused."""

from __future__ import annotations

import base64
import json

import pytest
import requests

from console.services import default_service
from storage import signing
from storage.services import SignatureRefused, UploadOptions, sign_form_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def service(provider):
    return default_service()


def post(grant, data: bytes, filename: str = "a.txt", fields: dict | None = None):
    return requests.post(grant.url, data={**grant.fields, **(fields or {})},
                         files={"file": (filename, data)}, timeout=30)


def test_the_page_s_worked_example_signs_as_the_docs_say():
    """api/authorization.md's example, its date written as the signed text shows it."""
    policy = ("eyJidWNrZXQiOiAidXB5dW4tdGVtcCIsICJzYXZlLWtleSI6ICIvZGVtby5qcGciLCAiZXhwaXJhdGlvbiI6"
              "ICIxNDc4Njc0NjE4IiwgImRhdGUiOiAiV2VkLCA5IE5vdiAyMDE2IDE0OjI2OjU4IEdNVCIsICJjb250ZW50"
              "LW1kNSI6ICI3YWM2NmMwZjE0OGRlOTUxOWI4YmQyNjQzMTJjNGQ2NCJ9")
    assert signing.form_authorization(
        "operator123", "password123", "/upyun-temp", policy,
        date="Wed, 09 Nov 2016 14:26:58 GMT", content_md5="7ac66c0f148de9519b8bd264312c4d64",
    ) == "SVC operator123:DTGOeaCa1yk1JWG4G3DH+u5sI5M="


def test_a_signed_policy_is_accepted_by_the_provider(service, sandbox_storage):
    grant = sign_form_upload(service, "/direct/hello.txt", max_size=100)
    answer = post(grant, b"hello direct")
    assert answer.status_code == 200, answer.text
    assert answer.json()["url"] == "/direct/hello.txt"
    assert sandbox_storage.head("/direct/hello.txt").size == len(b"hello direct")


def test_the_policy_names_the_bucket_path_size_and_expiry(service, provider):
    grant = sign_form_upload(service, "direct/x.bin", max_size=10, lifetime_s=600, now=1000)
    fields = json.loads(base64.b64decode(grant.policy))
    assert fields == {"bucket": provider.info["storage"]["bucket"], "save-key": "/direct/x.bin",
                      "expiration": 1600, "content-length-range": "0,10"}
    assert grant.url == f"{provider.info['storage_url']}/{provider.info['storage']['bucket']}"


def test_upload_options_are_signed_into_the_policy_and_applied(service, sandbox_storage):
    options = UploadOptions(gmkerl={"x-gmkerl-thumb": "/format/png"}, ttl_days=2)
    grant = sign_form_upload(service, "/direct/opts.txt", max_size=100, options=options,
                             content_type="text/plain")
    fields = json.loads(base64.b64decode(grant.policy))
    assert fields["x-gmkerl-thumb"] == "/format/png" and fields["x-svc-meta-ttl"] == "2"
    assert fields["content-type"] == "text/plain"


def test_a_file_over_the_signed_size_is_refused_by_the_provider(service, sandbox_storage):
    grant = sign_form_upload(service, "/direct/small.txt", max_size=4)
    answer = post(grant, b"five!")
    assert answer.status_code == 403
    assert answer.json()["code"] == 40300009
    assert not sandbox_storage.exists("/direct/small.txt")


def test_another_path_than_the_signed_one_cannot_be_reached(service, sandbox_storage):
    grant = sign_form_upload(service, "/direct/one.txt", max_size=100)
    fields = json.loads(base64.b64decode(grant.policy))
    fields["save-key"] = "/direct/other.txt"
    forged = base64.b64encode(json.dumps(fields).encode()).decode()
    answer = requests.post(grant.url, data={"policy": forged,
                                            "authorization": grant.authorization},
                           files={"file": ("a.txt", b"x")}, timeout=30)
    assert answer.status_code == 401 and answer.json()["code"] == 40100005
    assert not sandbox_storage.exists("/direct/other.txt")


def test_an_expired_policy_is_refused_by_the_provider(service, provider):
    grant = sign_form_upload(service, "/direct/late.txt", max_size=100,
                             now=provider.now() - 3600, lifetime_s=60)
    answer = post(grant, b"late")
    assert answer.status_code == 403 and answer.json()["code"] == 40300006


@pytest.mark.parametrize("path, within, field, forbidden", [
    ("/", "/", "path", False),
    ("/a/{random}.txt", "/", "path", False),
    ("/elsewhere/a.txt", "/mine", "path", True),
    ("/mine-too/a.txt", "/mine", "path", True),
])
def test_a_path_outside_the_scope_is_not_signed(service, path, within, field, forbidden):
    with pytest.raises(SignatureRefused) as refused:
        sign_form_upload(service, path, max_size=10, within=within)
    assert (refused.value.field, refused.value.forbidden) == (field, forbidden)
    assert refused.value.message


def test_a_path_inside_the_allowed_folder_is_signed(service):
    assert sign_form_upload(service, "/mine/a.txt", max_size=10, within="/mine").path == \
        "/mine/a.txt"


def test_the_kept_files_folder_is_never_signed(service, settings):
    with pytest.raises(SignatureRefused) as refused:
        sign_form_upload(service, f"{settings.FILE_STORAGE_FOLDER}/x.txt", max_size=10)
    assert refused.value.forbidden


@pytest.mark.parametrize("size", [0, -1, 10 * 1024 * 1024 + 1])
def test_a_size_over_the_limit_is_not_signed(service, settings, size):
    settings.STORAGE_RESUMABLE_THRESHOLD = 10 * 1024 * 1024
    with pytest.raises(SignatureRefused) as refused:
        sign_form_upload(service, "/a.txt", max_size=size)
    assert refused.value.field == "size" and not refused.value.forbidden


@pytest.mark.parametrize("lifetime", [0, 3601])
def test_a_lifetime_out_of_bounds_is_not_signed(service, lifetime):
    with pytest.raises(SignatureRefused) as refused:
        sign_form_upload(service, "/a.txt", max_size=10, lifetime_s=lifetime)
    assert refused.value.field == "lifetime_s"
