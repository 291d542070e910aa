"""What the provider tells about one file: HEAD for type, size, date and MD5, and the headers
of a GET for the content type and the metadata (HEAD does not carry metadata in the spec)."""

from __future__ import annotations

from dataclasses import dataclass, field

from storage import rules
from storage.client import FileInfo, StorageClient


@dataclass(frozen=True)
class FileDetails:
    """A file's facts; `metadata` excludes the secret and the TTL, which have their own fields."""

    path: str
    info: FileInfo
    content_type: str | None
    metadata: dict[str, str] = field(default_factory=dict)
    secret: str | None = None
    ttl_days: int | None = None

    @property
    def is_folder(self) -> bool:
        return self.info.type == "folder"

    @property
    def has_secret(self) -> bool:
        return bool(self.secret)

    def readable_metadata(self) -> dict[str, str]:
        """The entries by bare name (no `x-svc-meta-` prefix), values URL-decoded."""
        return {name: rules.decode_meta_value(value) for name, value in self.metadata.items()}

    def all_metadata(self) -> dict[str, str]:
        """Every entry as the provider stores it, secret and TTL included."""
        entries = dict(self.metadata)
        if self.secret:
            entries[rules.SECRET_NAME] = self.secret
        if self.ttl_days is not None:
            entries[rules.TTL_NAME] = str(self.ttl_days)
        return entries


def fetch_details(client: StorageClient, path: str) -> FileDetails:
    """HEAD `path`, then (for a file) read only the headers of a GET and drop the body."""
    info = client.head(path)
    if info.type == "folder":
        return FileDetails(path=path, info=info, content_type=None)
    # Streamed and closed at once: only the headers are read, whatever the file's size.
    response = client.send("GET", path, idempotent=True, stream=True)
    try:
        headers = response.headers
        content_type = headers.get("Content-Type")
        metadata = {
            key.lower()[len(rules.META_PREFIX) :]: value
            for key, value in headers.items()
            if key.lower().startswith(rules.META_PREFIX)
        }
    finally:
        response.close()
    secret = metadata.pop(rules.SECRET_NAME, None)
    ttl_text = metadata.pop(rules.TTL_NAME, None)
    ttl = int(ttl_text) if ttl_text and ttl_text.strip().isdigit() else None
    return FileDetails(
        path=path,
        info=info,
        content_type=content_type,
        metadata=metadata,
        secret=secret,
        ttl_days=ttl,
    )
