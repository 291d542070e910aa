"""What a request path asks the edge for: a stored original, a processed image, or a combined
set of JS/CSS files. Files are found only through the storage emulator's store API.

Reading `<file URL><separator><suffix>` (content-delivery.md, "Image URLs"):
1. A path that is a stored file is that file (a file's name may contain the separator).
2. `<file><sep>/<key>/<value>...` is URL-parameter processing of `<file>`.
3. `<file><sep><version>/<key>/<value>...`: the custom version with the URL's parameters on
   top (cloud/image.md, "混合使用"; `imageparams.with_version`).
4. `<file><sep><suffix>`: the original when `<suffix>` is the file's secret (a secret equal to a
   version name wins over the version), else the custom version `<suffix>`. The split is tried
   at each separator of the last path segment, rightmost first, so names such as
   `my_photo.jpg_thumb` with separator `_` still resolve.
A processed image's `sources` are the file, then the image of each `/watermark/url/` mark (in
the same service, as the page requires), so that a changed mark is never served stale.
A file with a secret is served as an original only under its secret: its plain URL is answered
404, exactly as a missing file, so the URL does not even reveal that the file exists. Versions
and parameter URLs of such a file are served, since they are not the original.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from sandbox.delivery import combine, imageparams
from sandbox.delivery.cache import Fingerprint
from sandbox.delivery.config import Published
from sandbox.delivery.errors import BAD_IMAGE_PARAMETER, EdgeError, not_found
from sandbox.delivery.imageparams import Recipe
from sandbox.storage import store
from sandbox.storage.errors import StorageError
from sandbox.storage.store import StoredObject

ORIGINAL, IMAGE, COMBINED = "original", "image", "combined"


@dataclass(frozen=True)
class Target:
    kind: str
    sources: tuple[StoredObject, ...]
    recipe: Recipe | None = None
    content_type: str = ""  # for combined files

    @property
    def source(self) -> StoredObject:
        return self.sources[0]

    @property
    def fingerprints(self) -> tuple[Fingerprint, ...]:
        return tuple(fingerprint(found) for found in self.sources)


def fingerprint(found: StoredObject) -> Fingerprint:
    return (found.path, found.md5, found.modified_at, found.secret or "")


def lookup(bucket: str, path: str) -> StoredObject | None:
    """The stored file at `path` of `bucket`, or None (folders and unusable paths are not
    files)."""
    if not path.startswith("/") or path.endswith("/"):
        return None
    try:
        found = store.resolve(bucket, path)
    except StorageError:
        return None
    return found if found is not None and not found.is_folder else None


def resolve(bucket: str, path: str, settings: Published) -> Target:
    """What `path` names in `bucket`, the bucket of the domain asked."""
    if settings.flag("combine"):
        combination = combine.parse(path)
        if combination is not None:
            return _combined(bucket, combination)
    found = lookup(bucket, path)
    if found is not None:
        if found.secret:
            raise not_found()
        return Target(ORIGINAL, (found,))
    sep = settings.separator
    processed = _with_parameters(bucket, path, sep)
    if processed is None:
        processed = _with_version_and_parameters(bucket, path, sep, settings)
    if processed is not None:
        return processed
    return _with_suffix(bucket, path, sep, settings)


def image_target(bucket: str, found: StoredObject, recipe: Recipe) -> Target:
    """A processed image of `found`, with the images of its watermarks as further sources."""
    marks = []
    for mark in recipe.watermarks:
        if mark.kind != "url":
            continue
        image = lookup(bucket, mark.path)
        if image is None:
            raise EdgeError(400, BAD_IMAGE_PARAMETER, f"watermark/url: {mark.path} is not a "
                                                      f"file of this service")
        marks.append(image)
    return Target(IMAGE, (found, *marks), recipe)


def _combined(bucket: str, combination: combine.Combination) -> Target:
    sources = []
    for path in combination.paths:
        found = lookup(bucket, path)
        if found is None or found.secret:
            raise not_found(f"file not found: {path}")
        sources.append(found)
    return Target(COMBINED, tuple(sources), content_type=combination.content_type)


def _with_parameters(bucket: str, path: str, sep: str) -> Target | None:
    marker = sep + "/"
    start = path.find(marker)
    while start > 0:
        found = lookup(bucket, path[:start])
        if found is not None:
            try:
                recipe = imageparams.parse(path[start + 1:])
            except imageparams.ImageParamError as error:
                raise EdgeError(400, BAD_IMAGE_PARAMETER, str(error)) from None
            return image_target(bucket, found, recipe)
        start = path.find(marker, start + 1)
    return None


def _with_version_and_parameters(bucket: str, path: str, sep: str,
                                 settings: Published) -> Target | None:
    """`<file><sep><version>/<parameters>`: tried at each separator, leftmost first, where
    what follows names a version and holds a `/`."""
    texts: dict[str, str] = settings.data["versions"]
    start = path.find(sep, 1)
    while start > 0:
        name, slash, params = path[start + 1:].partition("/")
        if slash and name in texts:
            found = lookup(bucket, path[:start])
            if found is not None:
                try:
                    recipe = imageparams.with_version(texts[name], params)
                except imageparams.ImageParamError as error:
                    raise EdgeError(400, BAD_IMAGE_PARAMETER, str(error)) from None
                return image_target(bucket, found, recipe)
        start = path.find(sep, start + 1)
    return None


def _with_suffix(bucket: str, path: str, sep: str, settings: Published) -> Target:
    folder_end = path.rfind("/") + 1
    segment = path[folder_end:]
    position = segment.rfind(sep)
    while position > 0:
        suffix = segment[position + 1:]
        found = lookup(bucket, path[:folder_end + position]) if suffix else None
        if found is not None:
            if found.secret and hmac.compare_digest(suffix.encode(), found.secret.encode()):
                return Target(ORIGINAL, (found,))
            recipe = settings.versions.get(suffix)
            if recipe is not None:
                return image_target(bucket, found, recipe)
        position = segment.rfind(sep, 0, position)
    raise not_found()
