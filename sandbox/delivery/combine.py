"""JS/CSS combining (content-delivery.md, "JS/CSS combine"): `/<dir>/!!<file1>,<file2>,...`.

The listed names are paths relative to `<dir>` (they may go deeper, never up); `<dir>` is
everything before the first `/!!` of the path. All must be `.js`
or all `.css`: a mix has no right content type. The files are joined in the order listed, each
followed by a newline unless it ends with one, so that a last line without a newline (or a
missing semicolon before a newline) cannot glue two files' statements together.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.delivery.errors import BAD_COMBINE, EdgeError

MARKER = "!!"
MAX_FILES = 50
CONTENT_TYPES = {".js": "application/javascript", ".css": "text/css"}


@dataclass(frozen=True)
class Combination:
    paths: tuple[str, ...]
    content_type: str


def parse(path: str) -> Combination | None:
    """The files a combine path lists, or None when `path` is not a combine path."""
    start = path.find("/" + MARKER)
    if start < 0:
        return None
    folder = path[:start]
    names = path[start + 1 + len(MARKER):].split(",")
    if any(not name.strip() for name in names):
        raise EdgeError(400, BAD_COMBINE, "combine: an empty file name in the list")
    if len(names) > MAX_FILES:
        raise EdgeError(400, BAD_COMBINE, f"combine: at most {MAX_FILES} files, got {len(names)}")
    extensions = {_extension(name) for name in names}
    if len(extensions) != 1 or not extensions <= CONTENT_TYPES.keys():
        raise EdgeError(400, BAD_COMBINE,
                        "combine: the files must all be .js or all be .css")
    for name in names:
        if ".." in name.split("/"):
            raise EdgeError(400, BAD_COMBINE, f"combine: {name!r} may not go up a folder")
    paths = tuple(f"{folder}/{name.strip().lstrip('/')}" for name in names)
    return Combination(paths, CONTENT_TYPES[extensions.pop()])


def _extension(name: str) -> str:
    base = name.strip().rsplit("/", 1)[-1]
    dot = base.rfind(".")
    return base[dot:].lower() if dot > 0 else ""


def join(parts: list[bytes]) -> bytes:
    return b"".join(part if part.endswith(b"\n") else part + b"\n" for part in parts)
