"""The storage port: the REST API at the root, `/<bucket>` and `/<bucket>/<path>`, the FORM API
(`POST /<bucket>`), and CORS around both."""

from django.http import HttpRequest, HttpResponseBase
from django.urls import URLPattern, re_path

from sandbox.storage import cors, form_api, views


def storage_port(request: HttpRequest, bucket: str, path: str | None = None) -> HttpResponseBase:
    if form_api.is_form_upload(request, path):
        response = form_api.upload(request, bucket)
        if not response.has_header("Content-Length") and not response.streaming:
            response["Content-Length"] = str(len(response.content))  # type: ignore[attr-defined]
        return response
    return views.storage(request, bucket, path)


urlpatterns: list[URLPattern] = [
    # (?s): a name with a newline must reach the view, which refuses it with a clear error.
    re_path(r"(?s)^(?P<bucket>[^/]+)(?P<path>/.*)?$", cors.allowing(storage_port)),
]

# Unknown paths and crashes answer in the protocol's own error shape.
handler404 = "sandbox.storage.errors.not_found"
handler500 = "sandbox.storage.errors.server_error"
