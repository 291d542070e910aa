"""The storage management commands: upload (file and folder, resumable, rerun resumes),
download, list and sync."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from storage.models import StoredFile, UploadTask
from storage.resumable import PART_SIZE
from tests.storage.conftest import md5_of, pseudo_random_bytes

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_a_large_file_is_uploaded_in_parts_with_a_progress_bar(provider, tmp_path, settings,
                                                               sandbox_storage):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    data = pseudo_random_bytes(PART_SIZE * 3 + 5)
    local = tmp_path / "movie.bin"
    local.write_bytes(data)
    output = run("storage_upload", str(local), "/films/movie.bin", "--ttl", "10",
                 "--meta", "owner=ops")
    assert "movie.bin -> /films/movie.bin (in parts)" in output
    assert "100.0%" in output and "movie.bin: done" in output
    assert sandbox_storage.head("/films/movie.bin").md5 == md5_of(data)
    meta = sandbox_storage.download("/films/movie.bin", io.BytesIO()).metadata
    assert meta == {"owner": "ops", "ttl": "10"}
    assert local.exists()  # the user's own file is never removed


def test_a_chinese_metadata_value_is_url_encoded_for_the_user(provider, tmp_path,
                                                              sandbox_storage):
    local = tmp_path / "note.txt"
    local.write_bytes(b"note")
    run("storage_upload", str(local), "/notes/note.txt", "--meta", "owner=运维组")
    meta = sandbox_storage.download("/notes/note.txt", io.BytesIO()).metadata
    assert meta == {"owner": "%E8%BF%90%E7%BB%B4%E7%BB%84"}


def test_running_the_upload_again_resumes_an_interrupted_file(provider, tmp_path, settings,
                                                              sandbox_storage):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    data = pseudo_random_bytes(PART_SIZE * 4 + 1)
    local = tmp_path / "big.bin"
    local.write_bytes(data)
    provider.add_fault(service="storage", path="/big.bin", method="PUT", action="status",
                       status=400, body={"code": 40000000, "msg": "refused once", "id": "i"},
                       times=1)
    with pytest.raises(CommandError, match="run again to resume"):
        run("storage_upload", str(local))
    first = UploadTask.objects.get()
    assert first.state == "failed"
    output = run("storage_upload", str(local))
    assert "in parts" in output
    task = UploadTask.objects.get()
    assert task.pk == first.pk and task.state == "done"
    assert sandbox_storage.head("/big.bin").md5 == md5_of(data)


def test_a_folder_is_uploaded_recursively(provider, tmp_path, sandbox_storage):
    (tmp_path / "site" / "css").mkdir(parents=True)
    (tmp_path / "site" / "index.html").write_text("<h1>hi</h1>")
    (tmp_path / "site" / "css" / "a.css").write_text("h1{}")
    run("storage_upload", str(tmp_path / "site"), "/www")
    assert sandbox_storage.head("/www/index.html").size == 11
    assert sandbox_storage.head("/www/css/a.css").size == 4


@pytest.mark.parametrize(("args", "message"), [
    (["/does/not/exist"], "does not exist"),
    (["{file}", "/a//b"], "empty name"),
    (["{file}", "--ttl", "200"], "TTL"),
    (["{file}", "--meta", "novalue"], "--meta #1: write NAME=VALUE"),
])
def test_bad_upload_arguments_are_refused_clearly(provider, tmp_path, args, message):
    local = tmp_path / "f.txt"
    local.write_text("x")
    with pytest.raises(CommandError, match=message):
        run("storage_upload", *[arg.replace("{file}", str(local)) for arg in args])
    assert not UploadTask.objects.exists()


def test_a_file_is_downloaded_through_a_part_file(provider, tmp_path, sandbox_storage):
    data = pseudo_random_bytes(300_000)
    sandbox_storage.upload("/d/data.bin", io.BytesIO(data))
    output = run("storage_download", "/d/data.bin", str(tmp_path))
    assert (tmp_path / "data.bin").read_bytes() == data
    assert not (tmp_path / "data.bin.part").exists()
    assert md5_of(data) in output
    with pytest.raises(CommandError, match="--force"):
        run("storage_download", "/d/data.bin", str(tmp_path))
    run("storage_download", "/d/data.bin", str(tmp_path), "--force")


def test_downloading_a_missing_file_leaves_nothing_behind(provider, tmp_path):
    with pytest.raises(CommandError, match="There is no file or folder at /d/none.bin"):
        run("storage_download", "/d/none.bin", str(tmp_path / "none.bin"))
    assert list(tmp_path.iterdir()) == []


def test_a_folder_is_listed_plain_recursive_and_as_json(provider, sandbox_storage):
    sandbox_storage.upload("/l/a.txt", io.BytesIO(b"aa"))
    sandbox_storage.upload("/l/sub/b.txt", io.BytesIO(b"b"))
    plain = run("storage_list", "/l")
    assert "/l/a.txt" in plain and "/l/sub/" in plain and "/l/sub/b.txt" not in plain
    assert plain.strip().endswith("2 entries")
    recursive = run("storage_list", "/l", "-r", "--order", "desc")
    assert recursive.index("/l/sub/") < recursive.index("/l/a.txt")
    assert "/l/sub/b.txt" in recursive
    lines = [json.loads(line) for line in run("storage_list", "/l", "--json").splitlines()]
    assert lines[0] == {"path": "/l/a.txt", "type": "file", "size": 2,
                        "last_modified": lines[0]["last_modified"],
                        "content_type": lines[0]["content_type"]}


def test_listing_a_missing_folder_is_refused_clearly(provider):
    with pytest.raises(CommandError, match="There is no file or folder"):
        run("storage_list", "/nowhere")


def test_sync_mirrors_the_tree_and_reports_counts(provider, sandbox_storage):
    sandbox_storage.upload("/s/a.txt", io.BytesIO(b"a"))
    output = run("storage_sync")
    assert "/: 2 folders, 2 entries seen, 2 added, 0 changed, 0 gone" in output
    assert StoredFile.objects.filter(path="/s/a.txt", deleted_at__isnull=True).exists()


def test_an_unconfigured_provider_stops_the_commands_with_the_missing_setting(settings,
                                                                              tmp_path):
    settings.PROVIDER = {**settings.PROVIDER, "storage": {"url": "", "bucket": "b",
                                                          "operator": "o", "password": "p",
                                                          "signature": "current"}}
    local = tmp_path / "f.txt"
    local.write_text("x")
    with pytest.raises(CommandError, match="set STORAGE_URL"):
        run("storage_list")
    with pytest.raises(CommandError, match="set STORAGE_URL"):
        run("storage_upload", str(local))
    with pytest.raises(CommandError, match="set STORAGE_URL"):
        run("storage_sync")
    assert Path(local).exists() and not UploadTask.objects.exists()


def test_every_command_refuses_a_service_the_account_does_not_have(provider, tmp_path):
    local = tmp_path / "f.txt"
    local.write_text("x")
    for command in (("storage_list",), ("storage_upload", str(local)), ("storage_sync",),
                    ("storage_download", "/f.txt", str(tmp_path / "out"))):
        with pytest.raises(CommandError, match="--service: there is no storage service named"):
            run(*command, "--service", "no-such-bucket")
    assert not UploadTask.objects.exists()


def test_a_command_works_on_the_service_it_names(provider, sandbox_storage):
    """`--service` names the bucket; the environment's bucket is found by its name too."""
    sandbox_storage.upload("/named/a.txt", io.BytesIO(b"abc"))
    listed = run("storage_list", "/named", "--service", provider.info["storage"]["bucket"])
    assert "/named/a.txt" in listed
