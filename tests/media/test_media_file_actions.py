"""The media tools in the storage file browser: Media info, Snapshot, Clip and Concatenate
beside videos and playlists (by name or content type), none beside other files, and only for
people who may run jobs."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.urls import reverse

from media import paths
from media.file_actions import ACTIONS
from tests.media_fixtures import MediaLab

PLAYLIST = f"{MediaLab.HLS_FOLDER}/index.m3u8"


def link(name: str, path: str) -> str:
    return f"{reverse(name)}?{urlencode({'service': 'demo-bucket', 'path': path})}".replace(
        "&", "&amp;")


@pytest.mark.parametrize(("path", "content_type", "expected"), [
    ("/v/a.mp4", None, {"media:info", "media:snapshot"}),
    ("/v/a.MOV", "video/quicktime", {"media:info", "media:snapshot"}),
    ("/v/noname", "video/webm", {"media:info", "media:snapshot"}),
    ("/h/index.m3u8", None, {"media:info", "media:snapshot", "media:clip", "media:concat"}),
    ("/h/list", "application/vnd.apple.mpegurl",
     {"media:info", "media:snapshot", "media:clip", "media:concat"}),
    ("/a/tone.m4a", "audio/mp4", {"media:info"}),
    ("/a/song.mp3", None, {"media:info"}),
    ("/i/photo.jpg", "image/jpeg", set()),
    ("/d/notes.txt", "text/plain", set()),
    ("/v/fake.mp4", "image/png", set()),
])
def test_which_tools_apply_to_which_files(path, content_type, expected):
    applying = {url_name for _label, url_name, applies in ACTIONS
                if applies(path, content_type)}
    assert applying == expected


def test_the_registration_reaches_the_storage_app():
    from storage import services as storage

    registered = {action.url_name: action for action in storage.registered_file_actions()}
    for label, url_name, _applies in ACTIONS:
        assert registered[url_name].label == label
        assert registered[url_name].permission == "media.run_media_jobs"


def test_the_labels_read_well():
    assert [str(label) for label, *_rest in ACTIONS] == [
        "Media info", "Snapshot", "Clip", "Concatenate"]
    assert paths.is_playlist("/a/B.M3U8")


@pytest.mark.django_db
def test_the_file_browser_shows_the_tools_beside_videos_and_playlists(lab, operator_client):
    lab.storage.put_bytes(b"\x89PNG\r\n\x1a\n", "/videos/still.png", "image/png")
    videos = operator_client.get(reverse("storage:index"), {"path": "/videos"}).content.decode()
    assert link("media:snapshot", MediaLab.VIDEO) in videos
    assert link("media:info", MediaLab.VIDEO) in videos
    assert link("media:clip", MediaLab.VIDEO) not in videos
    assert "still.png" in videos and link("media:snapshot", "/videos/still.png") not in videos

    hls = operator_client.get(reverse("storage:index"),
                              {"path": MediaLab.HLS_FOLDER}).content.decode()
    for name in ("media:info", "media:snapshot", "media:clip", "media:concat"):
        assert link(name, PLAYLIST) in hls


@pytest.mark.django_db
def test_an_auditor_sees_no_tools_in_the_file_browser(lab, auditor_client):
    videos = auditor_client.get(reverse("storage:index"), {"path": "/videos"}).content.decode()
    assert "pattern.mp4" in videos
    assert reverse("media:snapshot") not in videos


@pytest.mark.django_db
def test_the_file_page_offers_the_tools_too(lab, operator_client):
    page = operator_client.get(reverse("storage:file"), {"path": PLAYLIST}).content.decode()
    assert link("media:clip", PLAYLIST) in page
