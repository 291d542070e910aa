"""Serving what a path names: the file looked up in storage, the cache's copy when it is still
current, else a fresh answer (processed when asked), then the decorations that do not change
the content (`_upd`, `X-Cache`).

Cache key: the domain, the served path (after rewriting), plus the query when parameter-follow
is on. A
`_upv` request (parameter-follow off) goes to the origin and leaves the cache as it was. Only
successful answers are cached. HEAD answers like GET without the body.
"""

from __future__ import annotations

from pathlib import Path

from django.http import FileResponse, HttpResponse, HttpResponseBase
from PIL import Image, UnidentifiedImageError

from sandbox.core import clock
from sandbox.delivery import combine, downloads, htmlmin, imaging, query, targets, watermarks
from sandbox.delivery.cache import EDGE_CACHE, MAX_ENTRY_BYTES, CacheKey, Entry
from sandbox.delivery.config import Published
from sandbox.delivery.errors import (
    BAD_COMBINE,
    BAD_IMAGE_PARAMETER,
    IMAGE_TOO_LARGE,
    IMAGE_TOO_WIDE,
    NOT_AN_IMAGE,
    NOT_AN_IMAGE_INFO,
    EdgeError,
    not_found,
)
from sandbox.delivery.imageparams import ImageParamError, Recipe
from sandbox.delivery.sites import Site
from sandbox.delivery.targets import COMBINED, IMAGE, Target

HTML_TYPES = ("text/html", "application/xhtml+xml")
IGNORABLE = (405, 409, 503)
IMAGE_LIMITS = {405: IMAGE_TOO_WIDE, 409: IMAGE_TOO_LARGE}


class Replaced(Exception):  # noqa: N818 - a retry signal, not an error
    """The stored bytes vanished under us: the file was replaced or deleted meanwhile."""


def serve(site: Site, path: str, raw_query: str, settings: Published, *,
          head: bool) -> HttpResponseBase:
    values = query.parameters(raw_query)
    follow = settings.flag("param_follow")
    bypass = query.cache_bypass(values) and not follow
    upd = None if follow else query.download_name(values)
    key: CacheKey = (site.domain, path, query.followed(raw_query) if follow else None)
    response, entry = _answer_retrying(site, path, key, settings, bypass=bypass, head=head)
    if upd is not None:
        response["Content-Disposition"] = downloads.content_disposition(
            entry.filename if upd == "true" else upd)
    return response


def _answer_retrying(site: Site, path: str, key: CacheKey, settings: Published, *,
                     bypass: bool, head: bool) -> tuple[HttpResponseBase, Entry]:
    try:
        return _answer(site, path, key, settings, bypass=bypass, head=head)
    except Replaced:
        pass  # replaced or deleted between the lookup and the read: look it up once more
    try:
        return _answer(site, path, key, settings, bypass=bypass, head=head)
    except Replaced:
        raise not_found() from None


def _answer(site: Site, path: str, key: CacheKey, settings: Published, *, bypass: bool,
            head: bool) -> tuple[HttpResponseBase, Entry]:
    # Storage is asked first, every time: a deleted file is never answered from the cache, and
    # a replaced one shows up as a fingerprint mismatch below.
    if site.bucket is None:  # own origin: served by own_origin.py; here only if it vanished
        raise not_found(f"{site.domain} is a CDN service's domain without a service")
    target = targets.resolve(site.bucket, path, settings)
    entry = None if bypass else EDGE_CACHE.get(key, target.fingerprints)
    hit = entry is not None
    if entry is None:
        entry = _produce(key, target, settings)
        if not bypass:
            EDGE_CACHE.put(entry)
    response = _response(entry, target, head=head)
    response["X-Cache"] = "HIT" if hit else "MISS"
    return response, entry


def _produce(key: CacheKey, target: Target, settings: Published) -> Entry:
    source = target.source
    body: bytes | None = None
    content_type, filename = source.mime_type, source.name
    headers: tuple[tuple[str, str], ...] = ()
    if target.kind == IMAGE:
        assert target.recipe is not None
        try:
            rendered = _render(source.local_path, target.recipe, _mark_loader(target))
        except EdgeError as error:
            # cloud/image.md: `ignore-error/true` answers the original instead of a 405, 409
            # or 503, naming the error in `x-gmkerl-err-code`.
            if not (target.recipe.ignore_error and error.status in IGNORABLE):
                raise
            return Entry(key=key, fingerprints=target.fingerprints, body=None,
                         content_type=content_type, filename=filename, stored_at=clock.now(),
                         headers=(("x-gmkerl-err-code", str(error.status)),))
        body, content_type = rendered.body, rendered.content_type
        if (target.recipe.format is not None or target.recipe.info is not None
                or target.recipe.excolor is not None):
            # `_upd=true` names the download as it now is
            filename = f"{source.name.rsplit('.', 1)[0]}.{rendered.extension}"
    elif target.kind == COMBINED:
        total = sum(found.size for found in target.sources)
        if total > MAX_ENTRY_BYTES:  # joined in memory: bounded like a cache entry
            raise EdgeError(400, BAD_COMBINE, f"the files add up to {total} bytes; the edge "
                                              f"combines at most {MAX_ENTRY_BYTES}")
        body = combine.join([_read(found.local_path) for found in target.sources])
        content_type = target.content_type
    elif (settings.flag("html_minify") and source.mime_type.split(";")[0] in HTML_TYPES
          and source.size <= MAX_ENTRY_BYTES):  # a larger page is streamed as stored
        body = _minified(_read(source.local_path))
    return Entry(key=key, fingerprints=target.fingerprints, body=body,
                 content_type=content_type, filename=filename, stored_at=clock.now(),
                 headers=headers)


def _render(local_path: Path | None, recipe: Recipe,
            load: watermarks.MarkLoader) -> imaging.Rendered:
    if local_path is None:
        raise Replaced()
    try:
        with open(local_path, "rb") as source:
            return imaging.render(source, recipe, load=load)
    except FileNotFoundError:
        raise Replaced() from None
    except ImageParamError as error:
        raise EdgeError(400, BAD_IMAGE_PARAMETER, str(error)) from None
    except imaging.LimitExceeded as error:
        raise EdgeError(error.status, IMAGE_LIMITS[error.status], str(error)) from None
    except imaging.NotAnImage as error:
        if error.info:  # cloud/image.md: information asked of a non-image is 406
            raise EdgeError(406, NOT_AN_IMAGE_INFO, str(error)) from None
        raise EdgeError(405, NOT_AN_IMAGE, str(error)) from None


def _mark_loader(target: Target) -> watermarks.MarkLoader:
    """Opens the image of a `/watermark/url/` mark among the target's sources."""
    paths = [mark.path for mark in (target.recipe.watermarks if target.recipe else ())
             if mark.kind == "url"]
    marks = dict(zip(paths, target.sources[1:], strict=True))  # targets.image_target's order

    def load(path: str) -> Image.Image:
        found = marks.get(path)
        if found is None or found.local_path is None:
            raise Replaced()
        try:
            with Image.open(found.local_path) as image:
                image.load()
                return image.copy()
        except FileNotFoundError:
            raise Replaced() from None
        except (UnidentifiedImageError, Image.DecompressionBombError, OSError) as error:
            raise ImageParamError("watermark/url", f"{path} is not an image the edge can "
                                                   f"use ({error})") from None

    return load


def _read(local_path: Path | None) -> bytes:
    if local_path is None:
        raise Replaced()
    try:
        return local_path.read_bytes()
    except FileNotFoundError:
        raise Replaced() from None


def _minified(body: bytes) -> bytes:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return body  # not UTF-8: served as stored rather than risk mangling it
    return htmlmin.minify(text).encode("utf-8")


def _response(entry: Entry, target: Target, *, head: bool) -> HttpResponseBase:
    response = _stored_response(entry, target, head=head)
    for name, value in entry.headers:
        response[name] = value
    return response


def _stored_response(entry: Entry, target: Target, *, head: bool) -> HttpResponseBase:
    if entry.body is not None:
        response: HttpResponseBase = HttpResponse(b"" if head else entry.body,
                                                  content_type=entry.content_type)
        response["Content-Length"] = str(len(entry.body))
        return response
    source = target.source
    if head:
        response = HttpResponse(b"", content_type=entry.content_type)
        response["Content-Length"] = str(source.size)
        return response
    if source.local_path is None:
        raise Replaced()
    try:
        handle = open(source.local_path, "rb")  # noqa: SIM115 - FileResponse closes it
    except FileNotFoundError:
        raise Replaced() from None
    response = FileResponse(handle, content_type=entry.content_type)
    if "Content-Disposition" in response:
        del response["Content-Disposition"]  # only `_upd` asks for one
    return response
