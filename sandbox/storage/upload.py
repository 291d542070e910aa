"""Plain upload (PUT without `x-svc-multi-stage`): checks, streaming, preprocessing, commit.

Everything that can be refused from the headers alone is refused before the body is read. The
body is streamed to a temporary file in chunks (never held in memory), checked against
Content-MD5, preprocessed when `x-gmkerl-*` headers ask for it (`preprocess.py`), then moved
into place.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

from sandbox.storage import disk, errors, gmkerl, metadata, preprocess, store
from sandbox.storage.errors import StorageError
from sandbox.storage.values import is_whole


def content_length(request: HttpRequest, *, required: bool = True) -> int:
    """The body's length; a request without a body may leave it out when not `required`."""
    raw = (request.META.get("CONTENT_LENGTH") or "").strip()
    if not raw and not required:
        return 0
    if not raw:
        raise StorageError(errors.NEED_CONTENT_LENGTH, "send the body's length in bytes")
    if not is_whole(raw):
        raise StorageError(errors.WRONG_CONTENT_LENGTH,
                           f"Content-Length must be a number of bytes, got {raw!r}")
    return int(raw)


def put_file(request: HttpRequest, bucket: str, path: str) -> HttpResponse:
    length = content_length(request)
    expected_md5 = request.headers.get("Content-MD5", "").strip().lower()
    meta = metadata.from_headers(request.headers)
    metadata.validate(meta)
    options = gmkerl.parse(request.headers)
    store.check_bucket(bucket)
    store.check_writable(bucket, path, over_resumable=False)
    received = disk.receive(request, length)
    extra_headers: dict[str, str] = {}
    try:
        if expected_md5 and expected_md5 != received.md5:
            raise StorageError(errors.WRONG_CONTENT_MD5,
                               f"Content-MD5 {expected_md5} differs from the body's {received.md5}")
        colours = None
        mime_type = request.headers.get("Content-Type", "").strip() or store.guess_mime(path)
        if options is not None:
            outcome = preprocess.run(bucket, received, options)
            received = outcome.received
            extra_headers = outcome.headers()
            colours = outcome.colours
            mime_type = outcome.mime_type or mime_type
        store.commit_file(bucket, path, received, mime_type=mime_type, meta=meta,
                          resumable=False, over_resumable=False)
    except BaseException:
        received.discard()
        raise
    if colours is not None:  # theme colours asked for: the answer's body (docs/decisions.md)
        response: HttpResponse = JsonResponse({"colors": colours})
    else:
        response = HttpResponse(status=200, content_type="text/plain; charset=utf-8")
    for name, value in extra_headers.items():
        response[name] = value
    return response
