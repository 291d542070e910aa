"""The delivery port: the CDN edge answers every path (the path names the stored file)."""

from django.urls import URLPattern, re_path

from sandbox.delivery import views

urlpatterns: list[URLPattern] = [
    # (?s): a path with an encoded newline still reaches the edge, which answers 404 itself.
    re_path(r"(?s)^.*$", views.edge),
]

handler404 = "sandbox.delivery.errors.unknown_path"
handler500 = "sandbox.delivery.errors.server_error"
