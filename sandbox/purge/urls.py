"""The purge port: `POST /purge/` (the path without its slash is the same endpoint)."""

from django.urls import URLPattern, re_path

from sandbox.purge import views

urlpatterns: list[URLPattern] = [
    re_path(r"^purge/?$", views.purge),
]

# Unknown paths and crashes answer in the API's own error shape.
handler404 = "sandbox.purge.errors.not_found"
handler500 = "sandbox.purge.errors.server_error"
