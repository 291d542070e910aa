"""What the storage service answers, read into typed results: files, listings, downloads."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import requests

from storage import rules
from storage.client.bodies import CHUNK_SIZE
from storage.client.errors import StorageConnectionError, StorageProtocolError

# `x-svc-list-iter` value that marks the last page of a listing.
LIST_END = "g2gCZAAEbmV4dGQAA2VvZg"


@dataclass(frozen=True)
class ThemeColour:
    """One colour of a theme-colour extraction (cloud/image.md): `value` as the provider wrote
    it (`0xrrggbb` in hex, the decimal number in dec), `rgb` the colour, `count` its pixels."""

    value: str
    rgb: int
    count: int

    @property
    def css(self) -> str:
        return f"#{self.rgb:06x}"


@dataclass(frozen=True)
class UploadResult:
    """Answer to a whole-file PUT. The image fields are set only for images uploaded with
    `x-gmkerl-*` headers (the provider then reports what it stored); `colours` only when the
    upload asked for theme colours (`x-gmkerl-extract-*`), most frequent first."""

    size: int
    content_md5: str | None
    width: int | None = None
    height: int | None = None
    file_type: str | None = None
    frames: int | None = None
    colours: tuple[ThemeColour, ...] | None = None


def parse_theme_colours(response: requests.Response) -> tuple[ThemeColour, ...] | None:
    """The `{"colors": [{"color", "count"}, ...]}` body of an upload that asked for theme
    colours; None when the answer has none. A body of another shape is a protocol error."""
    if not is_json(response):
        return None
    try:
        body = response.json()
    except ValueError:
        raise StorageProtocolError("the upload answer is not valid JSON") from None
    items = body.get("colors") if isinstance(body, dict) else None
    if items is None:
        return None
    if not isinstance(items, list):
        raise StorageProtocolError("colors of the upload answer is not a list")
    return tuple(_theme_colour(item, index) for index, item in enumerate(items))


def theme_colours_of(items: list[Any]) -> tuple[ThemeColour, ...]:
    """The `colors` list of an upload answer (a FORM API result the page passed on)."""
    return tuple(_theme_colour(item, index) for index, item in enumerate(items))


def _theme_colour(item: Any, index: int) -> ThemeColour:
    colour = item.get("color") if isinstance(item, dict) else None
    count = item.get("count") if isinstance(item, dict) else None
    if isinstance(colour, bool) or isinstance(count, bool) or not isinstance(count, int):
        raise StorageProtocolError(f"colors[{index}] needs a color and a whole count")
    if isinstance(colour, int):
        rgb = colour
    elif isinstance(colour, str) and colour.lower().startswith("0x"):
        try:
            rgb = int(colour[2:], 16)
        except ValueError:
            rgb = -1
    else:
        rgb = -1
    if not 0 <= rgb <= 0xFFFFFF:
        raise StorageProtocolError(f"colors[{index}].color is not a colour: {colour!r}")
    return ThemeColour(str(colour), rgb, count)


@dataclass(frozen=True)
class DownloadResult:
    """What was written: byte count and MD5 computed while streaming, plus the answer's
    content type and metadata (bare lower-case names, e.g. `{"ttl": "30"}`)."""

    size: int
    md5: str
    content_type: str | None
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FileInfo:
    """HEAD answer: `type` is `file` or `folder`; fields the answer lacks are None."""

    type: str | None
    size: int | None
    date: datetime | None
    md5: str | None


@dataclass(frozen=True)
class ListItem:
    """One directory entry; `content_type` is the MIME type (JSON listings only)."""

    name: str
    is_folder: bool
    size: int
    last_modified: int
    content_type: str | None = None


@dataclass(frozen=True)
class ListPage:
    """One page of a listing; pass `next_iter` back to get the following page."""

    items: list[ListItem]
    next_iter: str | None

    @property
    def is_last(self) -> bool:
        return not self.next_iter or self.next_iter == LIST_END



class OpenDownload:
    """An answered GET whose body has not been read yet.

    `chunks()` streams it and closes the connection at the end, or when the consumer stops
    early (a browser that cancels); a body cut short raises StorageConnectionError.
    """

    def __init__(self, path: str, response: requests.Response) -> None:
        self.path = path
        self._response = response
        length = response.headers.get("Content-Length")
        self.size: int | None = int(length) if length and length.isdigit() else None
        self.content_type: str | None = response.headers.get("Content-Type")
        self.metadata: dict[str, str] = metadata_from(response.headers)

    def chunks(self) -> Iterator[bytes]:
        try:
            yield from self._response.iter_content(chunk_size=CHUNK_SIZE)
        except requests.RequestException as exc:
            raise StorageConnectionError(f"download of {self.path} interrupted: {exc}") from exc
        finally:
            self._response.close()

    def close(self) -> None:
        self._response.close()




def metadata_from(headers: Mapping[str, str]) -> dict[str, str]:
    return {
        key.lower()[len(rules.META_PREFIX) :]: value
        for key, value in headers.items()
        if key.lower().startswith(rules.META_PREFIX)
    }


def parse_file_date(value: str | None) -> datetime | None:
    """`x-svc-file-date` as UNIX seconds (what the provider sends) or an RFC 1123 date."""
    if not value:
        return None
    if value.strip().isdigit():
        return datetime.fromtimestamp(int(value), tz=UTC)
    try:
        return parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None


def is_json(response: requests.Response) -> bool:
    return "json" in response.headers.get("Content-Type", "").lower()


def parse_json_listing(response: requests.Response) -> tuple[list[ListItem], str | None]:
    try:
        payload: Any = response.json()
        entries = payload.get("files") or []
        items = [
            ListItem(
                name=str(entry["name"]),
                is_folder=entry.get("type") == "folder",
                size=int(entry.get("length") or 0),
                last_modified=int(entry.get("last_modified") or 0),
                content_type=None if entry.get("type") == "folder" else entry.get("type"),
            )
            for entry in entries
        ]
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise StorageProtocolError(f"malformed JSON listing: {exc}") from exc
    body_iter = payload.get("iter")
    return items, str(body_iter) if body_iter else None


def parse_text_listing(text: str) -> list[ListItem]:
    """Lines `name\\ttype\\tsize\\tmtime`, type `N` (file) or `F` (folder)."""
    items: list[ListItem] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        columns = line.split("\t")
        if len(columns) != 4 or columns[1] not in ("N", "F"):
            raise StorageProtocolError(f"listing line {number} is malformed: {line[:80]!r}")
        name, kind, size, mtime = columns
        if not size.isdigit() or not mtime.isdigit():
            raise StorageProtocolError(f"listing line {number} has a non-numeric size or time")
        items.append(ListItem(name, kind == "F", int(size), int(mtime)))
    return items
