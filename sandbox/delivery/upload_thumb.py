"""`x-gmkerl-thumb` at upload, drawn the edge's way (cloud/image.md, "上传预处理（同步）" and
"混合使用"); registered with the storage emulator (`sandbox/storage/thumb.py`) when the app
starts, since the storage package must not import the edge, which reads storage.

The value is a processing string with the keys of the edge's image URLs
(`/fw/300/unsharp/true/quality/80/format/png`), a thumbnail version name (`upyun520`), or a
version followed by parameters (`upyun520/fw/500`), the parameters overriding the version's.
Parsing and drawing are the edge's own (imageparams.py and imaging.py), so an upload and a URL
process an image alike. A version is looked up among the versions published for the bucket's
domains, in the console's order of the domains (the sandbox keeps versions per domain; the
provider per service).
A `/watermark/url/` mark is a file of the bucket, read as it is at the upload.

Refusals: a bad parameter 40011035 invalid param in thumb, an unknown version 40300017 no
thumb setting found for bucket, a file that is not an image 40300018 not an image, an image
beyond cloud/image.md's limits (20,000 px a side, 200 million pixels) 40300021 image limit
exceeded; with `ignore-error/true` those two store the file as uploaded instead.
"""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

from PIL import Image

from sandbox.console import directory
from sandbox.delivery import config, imageparams, imaging, targets
from sandbox.delivery.imageparams import ImageParamError, Recipe
from sandbox.delivery.watermarks import MarkLoader
from sandbox.storage import form_errors
from sandbox.storage.errors import StorageError

HEADER = "x-gmkerl-thumb"


class UploadThumb:
    """The processor `sandbox.storage.thumb` calls."""

    def check(self, text: str) -> None:
        """Refuse a bad processing string before the body is read (the version is looked up
        later, with the bucket)."""
        _, parameters = split(text)
        if parameters is not None:
            parameter_recipe(parameters)

    def render(self, bucket: str, text: str, source: Path) -> bytes:
        recipe = recipe_for(bucket, text)
        try:
            with open(source, "rb") as handle:
                return imaging.render(handle, recipe, load=mark_loader(bucket)).body
        except (imaging.LimitExceeded, imaging.NotAnImage) as error:
            if recipe.ignore_error:  # the page: the original instead of a 405 or 409
                return source.read_bytes()
            if isinstance(error, imaging.LimitExceeded):  # 20,000 px, 200 million pixels
                raise StorageError(form_errors.IMAGE_LIMIT, f"{HEADER}: {error}") from None
            raise StorageError(form_errors.NOT_AN_IMAGE, f"{HEADER}: {error}") from None
        except ImageParamError as error:  # values that do not fit this image
            raise StorageError(form_errors.BAD_THUMB, f"{HEADER}: {error}") from None


def mark_loader(bucket: str) -> MarkLoader:
    """Opens the image of a `/watermark/url/` mark: a file of the same bucket, as the page
    requires (an upload's marks are read as they are at upload)."""

    def load(path: str) -> Image.Image:
        found = targets.lookup(bucket, path)
        if found is None or found.local_path is None:
            raise ImageParamError("watermark/url", f"{path} is not a file of bucket {bucket}")
        try:
            with Image.open(found.local_path) as image:
                image.load()
                return image.copy()
        except (OSError, SyntaxError, Image.DecompressionBombError) as error:
            raise ImageParamError("watermark/url", f"{path} is not an image that can be used "
                                                   f"({error})") from None

    return load


def split(text: str) -> tuple[str, str | None]:
    """(version name or "", processing parameters or None)."""
    value = text.strip()
    if not value:
        raise StorageError(form_errors.BAD_THUMB, f"{HEADER} is empty: give a version name or "
                                             "parameters such as /fw/300")
    if value.startswith("/"):
        return "", value
    name, slash, rest = value.partition("/")
    return name, (rest if slash and rest.strip("/") else None)


def parameter_recipe(text: str) -> Recipe:
    try:
        return imageparams.parse(text)
    except ImageParamError as error:
        raise StorageError(form_errors.BAD_THUMB, f"{HEADER}: {error}") from None


def recipe_for(bucket: str, text: str) -> Recipe:
    name, parameters = split(text)
    recipe = version(bucket, name) if name else Recipe()
    if parameters is not None:
        recipe = overridden(recipe, parameter_recipe(parameters))
    return recipe


def version(bucket: str, name: str) -> Recipe:
    for domain in directory.domain_names():
        bound = directory.bound_domain(domain)
        if bound is None or bound.service != bucket:
            continue
        found = config.published(domain).versions.get(name)
        if found is not None:
            return found
    raise StorageError(form_errors.NO_THUMB_SETTING,
                  f"{HEADER}: no thumbnail version {name!r} is published for a domain of "
                  f"bucket {bucket}")


def overridden(base: Recipe, given: Recipe) -> Recipe:
    """`base` with every key `given` asks for (cloud/image.md: parameters win over the
    version)."""
    default = Recipe()
    changes = {item.name: getattr(given, item.name) for item in fields(Recipe)
               if getattr(given, item.name) != getattr(default, item.name)}
    return replace(base, **changes)
