"""The storage REST API at the root of its port: `/<bucket>/<path>`, one view per method.

Every request is authenticated first; every refusal is a StorageError answered in the
protocol's error shape. The views stay thin: the rules live in store, multipart, upload,
listing and metadata.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase

from sandbox.storage import errors, listing, metadata, multipart, paths, store, transfer, upload
from sandbox.storage.auth import authenticate
from sandbox.storage.errors import StorageError
from sandbox.storage.store import StoredObject

# An asynchronous delete happens this many sandbox seconds after it is accepted, so that
# "answered at once, executed later" is observable (and testable by moving the clock).
ASYNC_DELETE_DELAY_S = 2.0

Handler = Callable[[HttpRequest, str, str], HttpResponseBase]


def storage(request: HttpRequest, bucket: str, path: str | None = None) -> HttpResponseBase:
    try:
        authenticate(request, bucket)
        handler = HANDLERS.get((request.method or "").upper())
        if handler is None:
            raise StorageError(errors.BAD_REQUEST,
                               f"method {request.method} is not allowed; use "
                               f"{', '.join(HANDLERS)}")
        response = handler(request, bucket, paths.normalize(path or ""))
    except StorageError as error:
        response = error.response()
    # An HttpResponse is one that is not streaming.
    if isinstance(response, HttpResponse) and not response.has_header("Content-Length"):
        # A sized answer keeps the connection open (waitress closes after a chunked one).
        response["Content-Length"] = str(len(response.content))
    return response


def put(request: HttpRequest, bucket: str, path: str) -> HttpResponse:
    if transfer.is_transfer(request.headers):
        wanted = transfer.parse(request.headers, bucket,
                                upload.content_length(request, required=False))
        store.copy_file(bucket, wanted.source, path, metadata=wanted.metadata, move=wanted.move)
        return empty(200)
    if not multipart.is_resumable(request.headers):
        return upload.put_file(request, bucket, path)
    length = upload.content_length(request)
    answer = multipart.handle(request.headers, request, length, bucket, path)
    return empty(answer.status, answer.headers)


def get(request: HttpRequest, bucket: str, path: str) -> HttpResponseBase:
    if "usage" in request.GET:
        if path != paths.ROOT:
            raise StorageError(errors.WRONG_URI, "usage is asked of the bucket root: "
                                                 "GET /<bucket>/?usage")
        return HttpResponse(str(store.usage(bucket)), content_type="text/plain")
    found = existing(bucket, path)
    if found.is_folder:
        return folder_listing(request, bucket, path)
    return download(bucket, path, found)


def head(request: HttpRequest, bucket: str, path: str) -> HttpResponse:
    found = existing(bucket, path)
    response = HttpResponse(status=200, content_type=found.mime_type or "application/json")
    describe(response, found)
    return response


def post(request: HttpRequest, bucket: str, path: str) -> HttpResponse:
    if request.headers.get("folder", "").strip().lower() != "true":
        raise StorageError(errors.FOLDER_ARGS_INVALID, "POST creates a folder and needs the "
                                                       "header folder: true")
    store.make_folder(bucket, path)
    return empty(200)


def delete(request: HttpRequest, bucket: str, path: str) -> HttpResponse:
    if multipart.UUID_HEADER in request.headers:  # cancels a resumable upload
        multipart.cancel(request.headers[multipart.UUID_HEADER], bucket, path)
        return empty(200)
    mode = request.headers.get("x-svc-async", "").strip().lower()
    if mode not in ("", "true", "false"):
        raise StorageError(errors.BAD_REQUEST, f"x-svc-async must be true or false, got {mode!r}")
    if mode == "true":
        store.schedule_delete(bucket, path, ASYNC_DELETE_DELAY_S)
    else:
        store.delete(bucket, path)
    return empty(200)


def patch(request: HttpRequest, bucket: str, path: str) -> HttpResponse:
    option = request.GET.get("metadata", "") or "merge"
    touch = request.GET.get("update_last_modified", "false").lower()
    if touch not in ("true", "false"):
        raise StorageError(errors.BAD_REQUEST,
                           f"update_last_modified must be true or false, got {touch!r}")
    incoming = metadata.from_headers(request.headers, content_secret=False)
    store.patch_metadata(bucket, path, incoming, option, touch == "true")
    return empty(200)


HANDLERS: dict[str, Handler] = {
    "GET": get, "HEAD": head, "PUT": put, "POST": post, "DELETE": delete, "PATCH": patch,
}


def existing(bucket: str, path: str) -> StoredObject:
    found = store.resolve(bucket, path)
    if found is None:
        raise StorageError(errors.NOT_FOUND, f"nothing at {path}")
    return found


def folder_listing(request: HttpRequest, bucket: str, path: str) -> HttpResponse:
    page = listing.page_from_headers(request.headers)
    items: list[StoredObject] = []
    if not page.at_end:
        items = store.list_folder(bucket, path, after=page.after, limit=page.limit + 1,
                                  descending=page.descending)
    more = len(items) > page.limit
    items = items[:page.limit]
    iterator = listing.next_iter(items, more)
    body, content_type = listing.render(items, iterator, page.as_json)
    response = HttpResponse(body, content_type=content_type)
    response["x-svc-list-iter"] = iterator
    return response


def download(bucket: str, path: str, found: StoredObject) -> FileResponse:
    """Stream the file; an overwrite between lookup and open is retried once."""
    assert found.local_path is not None
    try:
        handle = open(found.local_path, "rb")  # noqa: SIM115 - FileResponse closes it
    except FileNotFoundError:
        found = existing(bucket, path)
        if found.is_folder or found.local_path is None:
            raise StorageError(errors.NOT_FOUND, f"{path} was removed meanwhile") from None
        handle = open(found.local_path, "rb")  # noqa: SIM115 - FileResponse closes it
    response = FileResponse(handle, content_type=found.mime_type, filename=found.name)
    describe(response, found)
    return response


def describe(response: HttpResponseBase, found: StoredObject) -> None:
    """The file-information headers of HEAD and GET, and the metadata."""
    response["x-svc-file-type"] = "folder" if found.is_folder else "file"
    response["x-svc-file-size"] = str(found.size)
    response["x-svc-file-date"] = str(int(found.created_at))
    if not found.is_folder:
        response["Content-Md5"] = found.md5
        for name, value in found.metadata.items():
            response[name] = value


def empty(status: int, headers: dict[str, str] | None = None) -> HttpResponse:
    response = HttpResponse(status=status, content_type="text/plain; charset=utf-8")
    if status == 204:
        del response["Content-Type"]
    for name, value in (headers or {}).items():
        response[name] = value
    return response
