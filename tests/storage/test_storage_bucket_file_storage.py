"""Kept files (an SMS import's source) in a private folder of the bucket: Django's default
storage with `FILE_STORAGE=bucket`, so every host reads and deletes what any other wrote."""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from storage.services.file_storage import BucketStorage

pytestmark = pytest.mark.django_db


@pytest.fixture
def bucket_default(settings, provider):
    settings.FILE_STORAGE_FOLDER = "/private-kept"
    settings.STORAGES = {**settings.STORAGES, "default": {
        "BACKEND": "storage.services.file_storage.BucketStorage"}}
    return default_storage


def test_a_kept_file_is_written_read_and_deleted_in_the_buckets_private_folder(
    bucket_default, sandbox_storage
):
    name = bucket_default.save("sms/imports/numbers.csv", ContentFile(b"13800138000\n"))
    assert name.startswith("sms/imports/") and name.endswith(".csv")  # a random name
    assert sandbox_storage.head(f"/private-kept/{name}").size == 12
    assert bucket_default.exists(name) and bucket_default.size(name) == 12
    with bucket_default.open(name) as kept:
        assert kept.read() == b"13800138000\n"
    bucket_default.delete(name)
    assert not bucket_default.exists(name)
    bucket_default.delete(name)  # deleting twice is harmless


def test_a_second_file_of_the_same_name_gets_a_new_name(bucket_default):
    first = bucket_default.save("a.csv", ContentFile(b"1"))
    second = bucket_default.save("a.csv", ContentFile(b"2"))
    assert second != first and second.endswith(".csv")


@pytest.mark.parametrize("name", ["../escape.csv", ""])
def test_a_name_outside_the_folder_is_refused(provider, name):
    with pytest.raises(ValueError, match="inside the folder"):
        BucketStorage(folder="/private-kept")._path(name)


def test_kept_files_have_no_public_url(provider):
    with pytest.raises(NotImplementedError):
        BucketStorage(folder="/private-kept").url("a.csv")
