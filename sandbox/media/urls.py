"""The media-processing port: `/<service>/...`, where the service is the storage bucket."""

from django.urls import URLPattern, path

from sandbox.media import views

urlpatterns: list[URLPattern] = [
    path("<str:service>/m3u8er/concat", views.concat_view),
    path("<str:service>/m3u8er/clip", views.clip_view),
    path("<str:service>/snapshot", views.snapshot_view),
    path("<str:service>/m3u8er/get_meta", views.m3u8_meta_view),
    path("<str:service>/avmeta/get_meta", views.avmeta_view),
]

# Unknown paths and crashes answer in the protocol's own shape: {status_code, message}.
handler404 = "sandbox.media.errors.not_found"
handler500 = "sandbox.media.errors.server_error"
