"""The storage port: the REST API at the root, `/<bucket>` and `/<bucket>/<path>`."""

from django.urls import URLPattern, re_path

from sandbox.storage import views

urlpatterns: list[URLPattern] = [
    # (?s): a name with a newline must reach the view, which refuses it with a clear error.
    re_path(r"(?s)^(?P<bucket>[^/]+)(?P<path>/.*)?$", views.storage),
]

# Unknown paths and crashes answer in the protocol's own error shape.
handler404 = "sandbox.storage.errors.not_found"
handler500 = "sandbox.storage.errors.server_error"
