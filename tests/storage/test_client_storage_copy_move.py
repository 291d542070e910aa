"""Copy and move through the back-office's storage client, against the real sandbox, and how
their refusals read."""

from __future__ import annotations

import io

import pytest
from django.utils import translation

from storage.client import (
    CopySameKey,
    CopySourceInvalid,
    InvalidTTL,
    NotFound,
    PathConflict,
    StorageClient,
)
from storage.rules import RuleViolation
from storage.texts import error_text


@pytest.fixture
def storage(sandbox_storage: StorageClient) -> StorageClient:
    sandbox_storage.upload("/cm/a.txt", io.BytesIO(b"alpha"), metadata={"owner": "ann"})
    return sandbox_storage


def content(storage: StorageClient, path: str) -> bytes:
    out = io.BytesIO()
    storage.download(path, out)
    return out.getvalue()


def test_copy_keeps_the_source_and_its_metadata(storage):
    storage.copy("/cm/a.txt", "/cm/copies/b 副本.txt")
    assert content(storage, "/cm/copies/b 副本.txt") == b"alpha"
    assert content(storage, "/cm/a.txt") == b"alpha"
    out = io.BytesIO()
    assert storage.download("/cm/copies/b 副本.txt", out).metadata == {"owner": "ann"}


def test_copy_with_metadata_replaces_it(storage):
    storage.copy("/cm/a.txt", "/cm/c.txt", metadata={"team": "ops"})
    out = io.BytesIO()
    assert storage.download("/cm/c.txt", out).metadata == {"team": "ops"}


def test_move_leaves_nothing_at_the_source(storage):
    storage.move("/cm/a.txt", "/cm/moved/a.txt")
    assert content(storage, "/cm/moved/a.txt") == b"alpha"
    assert not storage.exists("/cm/a.txt")


def test_a_copy_onto_itself_is_refused_and_said_so(storage):
    with pytest.raises(CopySameKey) as caught:
        storage.copy("/cm/a.txt", "cm/a.txt")
    assert error_text(caught.value, "/cm/a.txt") == "/cm/a.txt is both the source and the target."


def test_a_move_from_a_folder_is_refused(storage):
    with pytest.raises(CopySourceInvalid) as caught:
        storage.move("/cm", "/elsewhere")
    assert "source is missing or a folder" in error_text(caught.value, "/elsewhere")
    assert storage.exists("/cm/a.txt")


def test_a_copy_onto_a_folder_is_a_path_conflict(storage):
    storage.create_folder("/cm/dir")
    with pytest.raises(PathConflict):
        storage.copy("/cm/a.txt", "/cm/dir")


def test_a_refusal_without_its_own_sentence_reads_the_table_message_in_chinese(storage):
    with pytest.raises(InvalidTTL) as caught:
        # Past the client's own checks, as another tool might send it.
        storage.send("PUT", "/cm/ttl.txt", headers={"x-svc-meta-ttl": "181"}, body=b"x",
                     idempotent=True)
    with translation.override("zh-hans"):
        text = error_text(caught.value, "/cm/ttl.txt")
    assert text.startswith("服务商拒绝：文件生存时间无效")
    assert "40011092" in text


def test_bad_paths_and_empty_metadata_are_refused_before_sending(storage):
    with pytest.raises(RuleViolation):
        storage.copy("/cm/a.txt", "/cm/../x.txt")
    with pytest.raises(ValueError):
        storage.copy("/cm/a.txt", "/cm/x.txt", metadata={})
    with pytest.raises(NotFound):
        storage.head("/cm/x.txt")
