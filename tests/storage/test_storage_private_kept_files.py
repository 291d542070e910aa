"""Files the back-office keeps for itself (an SMS import's source) are private at the edge:
with `FILE_STORAGE=bucket` each one gets a random name and a content secret, so neither its
name nor its plain CDN URL gives it away, while the back-office reads it back through the
authenticated REST API."""

from __future__ import annotations

import io
import re

import pytest
import requests
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from storage.services.details import fetch_details
from storage.services.file_storage import BucketStorage

pytestmark = pytest.mark.django_db

NUMBERS = b"13800138000\n13900139000\n"


@pytest.fixture
def kept(settings, provider):
    settings.FILE_STORAGE_FOLDER = "/backoffice-private"
    settings.STORAGES = {**settings.STORAGES, "default": {
        "BACKEND": "storage.services.file_storage.BucketStorage"}}
    return default_storage


def edge_get(provider, path: str) -> requests.Response:
    base = provider.info["delivery_url"].rstrip("/")
    return requests.get(base + path, timeout=30, allow_redirects=False)


def test_a_kept_file_gets_a_random_name_keeping_only_a_safe_extension(kept):
    name = kept.save("sms/imports/客户 numbers 13800138000.csv", ContentFile(NUMBERS))
    folder, _slash, base = name.rpartition("/")
    assert folder == "sms/imports"
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}\.csv", base), base
    assert "13800138000" not in name
    odd = kept.save("sms/imports/list.c$v", ContentFile(NUMBERS))
    assert re.fullmatch(r"sms/imports/[A-Za-z0-9_-]{32}", odd), odd


def test_the_plain_edge_url_of_a_kept_file_is_refused(kept, provider, sandbox_storage):
    name = kept.save("sms/imports/numbers.csv", ContentFile(NUMBERS))
    path = f"/backoffice-private/{name}"
    assert sandbox_storage.head(path).size == len(NUMBERS)  # it is there...
    assert edge_get(provider, path).status_code == 404  # ...but not at its plain URL
    for separator in "!-_":
        assert edge_get(provider, f"{path}{separator}wrongsecret1").status_code == 404


def test_a_file_without_a_secret_is_served_by_the_edge(provider, sandbox_storage):
    # The control: the refusal above is the secret's doing, not a path the edge lacks.
    sandbox_storage.upload("/backoffice-private/sms/imports/plain.csv", io.BytesIO(NUMBERS))
    answer = edge_get(provider, "/backoffice-private/sms/imports/plain.csv")
    assert answer.status_code == 200 and answer.content == NUMBERS


def test_the_back_office_reads_its_kept_file_back_through_the_rest_api(kept):
    name = kept.save("sms/imports/numbers.csv", ContentFile(NUMBERS))
    with kept.open(name) as stored:
        assert stored.read() == NUMBERS
    assert kept.exists(name) and kept.size(name) == len(NUMBERS)
    kept.delete(name)
    assert not kept.exists(name)


def test_every_kept_file_has_its_own_secret(kept, sandbox_storage):
    first = kept.save("sms/imports/a.csv", ContentFile(NUMBERS))
    second = kept.save("sms/imports/a.csv", ContentFile(NUMBERS))
    secrets = {
        fetch_details(sandbox_storage, f"/backoffice-private/{name}").secret
        for name in (first, second)
    }
    assert len(secrets) == 2 and None not in secrets
    assert all(re.fullmatch(r"[A-Za-z0-9]{32,}", secret or "") for secret in secrets)


def test_a_kept_file_written_under_its_old_name_is_made_private(kept, provider, sandbox_storage):
    # What the securing step does to a file kept before this release.
    sandbox_storage.upload("/backoffice-private/sms/imports/old list.csv", io.BytesIO(NUMBERS))
    storage = BucketStorage()
    new_name = storage.make_private("sms/imports/old list.csv")
    assert re.fullmatch(r"sms/imports/[A-Za-z0-9_-]{32}\.csv", new_name)
    # The old object is refused at the edge at once; its reference's owner deletes it.
    assert edge_get(provider, "/backoffice-private/sms/imports/old%20list.csv").status_code == 404
    assert edge_get(provider, f"/backoffice-private/{new_name}").status_code == 404
    with storage.open(new_name) as stored:
        assert stored.read() == NUMBERS
