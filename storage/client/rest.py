"""The storage REST calls on files, folders, listings and metadata (spec part A, DECISIONS).

Each call is checked against the spec's rules before it leaves (`storage.rules`), sent signed by
`SignedClient.send`, and its error answer raised as a typed `StorageError`. Files are streamed
both ways in fixed-size chunks, so memory stays flat whatever their size.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import ExitStack
from typing import IO, BinaryIO, Literal

from storage import rules
from storage.client.answers import (
    DownloadResult,
    FileInfo,
    ListItem,
    ListPage,
    OpenDownload,
    UploadResult,
    is_json,
    parse_file_date,
    parse_json_listing,
    parse_text_listing,
    parse_theme_colours,
)
from storage.client.bodies import Body, FileBody, Source, file_md5, file_size, open_source
from storage.client.errors import NotFound, StorageProtocolError, int_header
from storage.client.signed import SignedClient
from storage.signing import encode_uri

MetadataOption = Literal["merge", "replace"]


class StorageClient(SignedClient):
    """Signed calls to `/<bucket>/...` of the storage service.

    Paths are names inside the bucket (`photos/a.jpg`, with or without a leading `/`); they
    are checked by `rules.normalise_path` and percent-encoded here, so callers pass plain names.
    Built as `SignedClient` is (`storage.client.signed`), which sends every call.
    """

    def __repr__(self) -> str:  # never show the password
        return (
            f"StorageClient({self.base_url!r}, bucket={self.bucket!r}, operator={self.operator!r})"
        )

    # --- files ---

    def upload(
        self,
        path: str,
        source: Source,
        *,
        content_type: str | None = None,
        content_md5: bool | str = True,
        secret: str | None = None,
        metadata: Mapping[str, object] | None = None,
        ttl_days: int | None = None,
        gmkerl: Mapping[str, object] | None = None,
    ) -> UploadResult:
        """PUT a whole file (always from its first byte), streamed.

        `content_md5`: True computes the MD5 in a streaming pass and sends it as Content-MD5
        so the provider checks the body; False sends none; a string is sent as given.
        `ttl_days` is a shorthand for `metadata={"ttl": ...}`; `gmkerl` holds `x-gmkerl-*`
        preprocessing headers (prefix optional).
        """
        rules.normalise_path(path)  # fail before reading the file
        headers = self._upload_headers(
            content_type, content_md5, secret, metadata, ttl_days, gmkerl
        )
        with ExitStack() as stack:
            file = open_source(source, stack)
            size = file_size(file)
            md5 = content_md5 if isinstance(content_md5, str) else None
            if content_md5 is True:
                md5 = file_md5(file)
            body: Body = FileBody(file, 0, size) if size else b""
            response = self.send(
                "PUT", path, headers=headers, body=body, content_md5=md5, idempotent=True
            )
        return UploadResult(
            size=size,
            content_md5=md5,
            width=int_header(response.headers, "x-svc-width"),
            height=int_header(response.headers, "x-svc-height"),
            file_type=response.headers.get("x-svc-file-type"),
            frames=int_header(response.headers, "x-svc-frames"),
            colours=parse_theme_colours(response),
        )

    def _upload_headers(
        self,
        content_type: str | None,
        content_md5: bool | str,
        secret: str | None,
        metadata: Mapping[str, object] | None,
        ttl_days: int | None,
        gmkerl: Mapping[str, object] | None,
    ) -> dict[str, str]:
        """Every upload header, validated together so one error lists every mistake."""
        meta = dict(metadata or {})
        problems: list[rules.Problem] = []
        if ttl_days is not None:
            if any(rules.meta_name(name) == rules.TTL_NAME for name in meta):
                problems.append(
                    rules.Problem(
                        "x-svc-meta-ttl", "duplicate", "give ttl_days or metadata ttl, not both"
                    )
                )
            meta[rules.TTL_NAME] = ttl_days
        problems += rules.check_metadata(meta)
        if secret is not None:
            problems += rules.check_secret(secret)
        if isinstance(content_md5, str):
            problems += rules.check_content_md5(content_md5)
        if content_type is not None:
            problems += rules.check_meta_value("Content-Type", content_type)
        problems += rules.check_gmkerl(gmkerl or {})
        rules.require(problems)
        headers = rules.metadata_headers(meta)
        headers.update(rules.gmkerl_headers(gmkerl or {}))
        if content_type is not None:
            headers["Content-Type"] = content_type
        if secret is not None:
            headers["Content-Secret"] = secret
        return headers

    def download(self, path: str, destination: BinaryIO | str | os.PathLike[str]) -> DownloadResult:
        """GET a file and write it to `destination` in chunks.

        A destination path is opened only once the provider has answered 200, so a missing
        file never truncates an existing local one. A body cut short raises
        `StorageConnectionError` (it is not repeated: part of it is already written).
        """
        body = self.open_download(path)
        digest = hashlib.md5()
        size = 0
        with ExitStack() as stack:
            stack.callback(body.close)
            if isinstance(destination, str | os.PathLike):
                target: IO[bytes] = stack.enter_context(open(destination, "wb"))
            else:
                target = destination
            for chunk in body.chunks():
                target.write(chunk)
                digest.update(chunk)
                size += len(chunk)
        return DownloadResult(
            size=size, md5=digest.hexdigest(), content_type=body.content_type,
            metadata=body.metadata,
        )

    def open_download(self, path: str) -> OpenDownload:
        """Start a streamed GET of a file: the provider's refusals (NotFound...) are raised
        here, before the caller passes on any byte; the body is read by iterating
        `OpenDownload.chunks()`."""
        return OpenDownload(path, self.send("GET", path, idempotent=True, stream=True))

    def delete(self, path: str, *, asynchronous: bool = False) -> None:
        """DELETE a file; `asynchronous` asks the provider to do it later (answered at once,
        and not subject to the synchronous delete's rate limit)."""
        headers = {"x-svc-async": "true"} if asynchronous else {}
        self.send("DELETE", path, headers=headers, idempotent=True).close()

    def head(self, path: str) -> FileInfo:
        """HEAD a file or folder: type, size, creation date and MD5."""
        response = self.send("HEAD", path, idempotent=True)
        response.close()
        headers = response.headers
        return FileInfo(
            type=headers.get("x-svc-file-type"),
            size=int_header(headers, "x-svc-file-size"),
            date=parse_file_date(headers.get("x-svc-file-date")),
            md5=headers.get("Content-Md5"),
        )

    def exists(self, path: str) -> bool:
        """Whether a file or folder is at `path` (a HEAD); other failures raise."""
        try:
            self.head(path)
        except NotFound:
            return False
        return True

    def copy(
        self,
        source: str,
        target: str,
        *,
        metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Copy the file `source` to `target` in this bucket, on the provider's side (no byte
        passes through here). The copy keeps the source's metadata, or takes `metadata`
        instead (the `replace` directive; it must not be empty). An existing file at `target`
        is replaced. Refusals: CopySameKey, CopySourceInvalid (no file there, or a folder),
        MetadataRequired, and what an upload to `target` would meet."""
        self._transfer("x-svc-copy-source", source, target, metadata)

    def move(
        self,
        source: str,
        target: str,
        *,
        metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Move (rename) the file `source` to `target`: as `copy`, and nothing is left at
        `source`. Never repeated automatically: a lost answer may hide a move that happened."""
        self._transfer("x-svc-move-source", source, target, metadata)

    def _transfer(
        self, header: str, source: str, target: str, metadata: Mapping[str, object] | None
    ) -> None:
        origin = rules.normalise_path(source)
        rules.normalise_path(target)  # fail before anything is sent
        headers = {header: encode_uri(f"/{self.bucket}{origin}")}
        if metadata is not None:
            if not metadata:
                raise ValueError("metadata is empty: leave it out to keep the source's")
            rules.require(rules.check_metadata(metadata))
            headers.update(rules.metadata_headers(metadata))
            headers["x-svc-metadata-directive"] = "replace"
        # A copy done twice gives the same result; a move done twice fails the second time.
        idempotent = header == "x-svc-copy-source"
        self.send("PUT", target, headers=headers, body=b"", idempotent=idempotent).close()

    # --- folders ---

    def create_folder(self, path: str) -> None:
        """POST `folder: true`; FolderExists if it is already there (never repeated)."""
        self.send("POST", path, headers={"folder": "true"}, idempotent=False).close()

    def remove_folder(self, path: str) -> None:
        """DELETE an empty folder; DirectoryNotEmpty otherwise."""
        self.send("DELETE", path, idempotent=True).close()

    def list_page(
        self,
        path: str = "/",
        *,
        cursor: str | None = None,
        limit: int = 100,
        order: str = "asc",
        as_json: bool = True,
    ) -> ListPage:
        """One page of a folder listing from `cursor` (the previous page's `next_iter`;
        None for the first page), sent as `x-list-iter`."""
        rules.require(rules.check_list_options(limit, order))
        headers = {"x-list-limit": str(limit), "x-list-order": order}
        if cursor:
            headers["x-list-iter"] = cursor
        if as_json:
            headers["Accept"] = "application/json"
        response = self.send("GET", path, headers=headers, idempotent=True, allow_root=True)
        next_iter = response.headers.get("x-svc-list-iter")
        if is_json(response):
            items, body_iter = parse_json_listing(response)
            next_iter = next_iter or body_iter
        else:
            items = parse_text_listing(response.text)
        return ListPage(items=items, next_iter=next_iter)

    def iter_list(
        self, path: str = "/", *, limit: int = 100, order: str = "asc", as_json: bool = True
    ) -> Iterator[ListItem]:
        """Every entry of a folder, page after page, until the end marker."""
        cursor: str | None = None
        while True:
            page = self.list_page(path, cursor=cursor, limit=limit, order=order, as_json=as_json)
            yield from page.items
            if page.is_last:
                return
            if page.next_iter == cursor:
                raise StorageProtocolError(f"listing of {path} returned the same cursor twice")
            cursor = page.next_iter

    # --- bucket and metadata ---

    def usage(self) -> int:
        """Bytes used by the bucket (`GET /<bucket>/?usage`)."""
        response = self.send("GET", "/", query=[("usage", None)], idempotent=True, allow_root=True)
        text = response.text.strip()
        if not text.isdigit():
            raise StorageProtocolError(f"usage answer is not a byte count: {text[:80]!r}")
        return int(text)

    def patch_metadata(
        self,
        path: str,
        metadata: Mapping[str, object],
        *,
        option: MetadataOption = "merge",
        update_last_modified: bool = False,
    ) -> None:
        """PATCH `?metadata=merge` (same-named entries replaced) or `replace` (all replaced).

        Names `ttl` and `secret` act on the lifetime and the file secret.
        """
        if option not in ("merge", "replace"):
            raise ValueError("option must be merge or replace; use delete_metadata to remove")
        if not metadata:
            raise ValueError("metadata is empty: nothing to change")
        self._patch(path, rules.metadata_headers(metadata), option, update_last_modified)

    def delete_metadata(
        self, path: str, names: Iterable[str], *, update_last_modified: bool = False
    ) -> None:
        """PATCH `?metadata=delete` removing the named entries (values are not needed)."""
        names = list(names)
        if not names:
            raise ValueError("names is empty: nothing to delete")
        problems = [problem for name in names for problem in rules.check_meta_name(name)]
        rules.require(problems)
        # The provider reads only the header names here; its own example sends `true`.
        headers = {rules.meta_header(name): "true" for name in names}
        self._patch(path, headers, "delete", update_last_modified)

    def _patch(
        self, path: str, headers: dict[str, str], option: str, update_last_modified: bool
    ) -> None:
        query: list[tuple[str, str | None]] = [("metadata", option)]
        if update_last_modified:
            query.append(("update_last_modified", "true"))
        self.send("PATCH", path, query=query, headers=headers, idempotent=False).close()
