"""Fill a folder with many small generated files at once (control API), e.g. to exercise the
listing of a 25,000-file folder without 25,000 uploads.

The files are ordinary stored files (rows and blobs), indistinguishable from uploaded ones:
name `<prefix><zero-padded index><suffix>`, content the name and a newline repeated to `size`
bytes, MIME type from the suffix. Names that exist already are left alone and counted as
skipped.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from sandbox.core import clock
from sandbox.storage import disk, errors, paths, store
from sandbox.storage.errors import StorageError
from sandbox.storage.models import Entry


@dataclass(frozen=True)
class Seeded:
    created: int
    skipped: int


def content_of(name: str, size: int) -> bytes:
    line = (name + "\n").encode()
    return (line * (size // len(line) + 1))[:size]


def seed_folder(bucket: str, folder: str, count: int, prefix: str, suffix: str,
                size: int) -> Seeded:
    folder = paths.normalize(folder)
    store.check_bucket(bucket)
    if folder != paths.ROOT:
        found = store.find_entry(bucket, folder)
        if found is None:
            store.make_folder(bucket, folder)
        elif not found.is_folder:
            raise StorageError(errors.DIR_NOT_ACCEPTABLE, f"{folder} is a file")
    existing = set(Entry.objects.filter(bucket=bucket, parent=folder)
                   .values_list("name", flat=True))
    width = len(str(count - 1))
    mime_type = store.guess_mime(f"x{suffix}")
    now = clock.now()
    rows: list[Entry] = []
    for index in range(count):
        name = f"{prefix}{index:0{width}d}{suffix}"
        if name in existing:
            continue
        content = content_of(name, size)
        blob = disk.new_blob_name()
        disk.write_blob(blob, content)
        rows.append(Entry(bucket=bucket, parent=folder, name=name, size=size,
                          mime_type=mime_type, md5=hashlib.md5(content).hexdigest(),
                          metadata={}, blob=blob, created_at=now, modified_at=now))
    try:
        with transaction.atomic():
            Entry.objects.bulk_create(rows, batch_size=2000)
    except IntegrityError:
        for row in rows:
            disk.remove_blob(row.blob)
        raise StorageError(errors.DIR_NOT_ACCEPTABLE,
                           "files were created in the folder meanwhile; try again") from None
    return Seeded(created=len(rows), skipped=count - len(rows))
