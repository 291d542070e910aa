"""Control endpoints of the storage emulator (control port, under /storage/)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from sandbox.core.account import current_account
from sandbox.core.jsonapi import FieldError, json_body, number, text
from sandbox.storage.errors import StorageError
from sandbox.storage.seed import seed_folder

MAX_SEED_COUNT = 100_000
MAX_SEED_SIZE = 1_048_576


@csrf_exempt
@require_http_methods(["POST"])
def seed(request: HttpRequest) -> JsonResponse:
    """POST {"path", "count", "prefix"?, "suffix"?, "size"?}: generate files in a folder of the
    demo bucket (created if missing)."""
    try:
        body = json_body(request)
        folder = text(body, "path", required=True) or ""
        if not folder.startswith("/"):
            raise FieldError("path", "must be a folder path starting with /")
        count = number(body, "count", required=True, integer=True, minimum=1,
                       maximum=MAX_SEED_COUNT)
        prefix = text(body, "prefix", default="file-") or ""
        suffix = text(body, "suffix", default=".txt") or ""
        if "/" in prefix + suffix:
            raise FieldError("prefix" if "/" in prefix else "suffix", "cannot contain /")
        size = number(body, "size", integer=True, minimum=0, maximum=MAX_SEED_SIZE, default=16)
        unknown = set(body) - {"path", "count", "prefix", "suffix", "size"}
        if unknown:
            raise FieldError(sorted(unknown)[0], "is not a seed field")
    except FieldError as error:
        return error.response()
    bucket = current_account().storage_bucket
    try:
        result = seed_folder(bucket, folder, count, prefix, suffix, size)
    except StorageError as error:
        return JsonResponse({"error": f"path: {error.explanation}", "field": "path"}, status=400)
    return JsonResponse({"bucket": bucket, "path": folder, "created": result.created,
                         "skipped": result.skipped}, status=201)
