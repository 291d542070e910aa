"""The Concatenate page: playlists gathered from file-browser links into a list kept in the
session, put in order with plain buttons, joined by the real sandbox in that order; every bad
row is named by its number before any call."""

from __future__ import annotations

import m3u8
import pytest
from django.urls import reverse

from media.models import JobKind, JobState, ProcessingJob
from media.views.basket import SESSION_KEY
from tests.media_fixtures import MediaLab

pytestmark = pytest.mark.django_db
LONG = f"{MediaLab.HLS_FOLDER}/index.m3u8"
SHORT = f"{MediaLab.SHORT_HLS_FOLDER}/index.m3u8"


def listed(client) -> list[str]:
    return client.session.get(SESSION_KEY, [])


def segment_uris(lab: MediaLab, path: str) -> list[str]:
    return [segment.uri for segment in m3u8.loads(lab.read_text(path)).segments]


def test_file_browser_links_gather_playlists_once_each(operator_client):
    url = reverse("media:concat")
    operator_client.get(url, {"path": "/a/index.m3u8"})
    operator_client.get(url, {"path": "/b/index.m3u8"})
    response = operator_client.get(url, {"path": "/a/index.m3u8"})
    assert listed(operator_client) == ["/a/index.m3u8", "/b/index.m3u8"]
    html = response.content.decode()
    assert html.index('value="/a/index.m3u8"') < html.index('value="/b/index.m3u8"')
    assert 'value="/a/index_joined.m3u8"' in html  # a suggested name beside the first


@pytest.mark.parametrize(("action", "expected"), [
    ("up:1", ["/b.m3u8", "/a.m3u8", "/c.m3u8"]),
    ("down:0", ["/b.m3u8", "/a.m3u8", "/c.m3u8"]),
    ("up:0", ["/a.m3u8", "/b.m3u8", "/c.m3u8"]),
    ("down:2", ["/a.m3u8", "/b.m3u8", "/c.m3u8"]),
    ("remove:1", ["/a.m3u8", "/c.m3u8"]),
    ("clear", []),
    ("save", ["/a.m3u8", "/b.m3u8", "/c.m3u8"]),
    ("up:99", ["/a.m3u8", "/b.m3u8", "/c.m3u8"]),
])
def test_the_buttons_reorder_the_list_without_calling_the_provider(operator_client, action,
                                                                    expected):
    response = operator_client.post(reverse("media:concat"), {
        "m3u8s": ["/a.m3u8", "/b.m3u8", "", "/c.m3u8", ""], "save_as": "/out/j.m3u8",
        "action": action})
    assert response.status_code == 200
    assert listed(operator_client) == expected
    assert 'value="/out/j.m3u8"' in response.content.decode()
    assert not ProcessingJob.objects.exists()


def test_playlists_are_joined_in_the_order_listed(lab, operator_client):
    lab.upload_short_hls()
    response = operator_client.post(reverse("media:concat"), {
        "m3u8s": [SHORT, LONG, ""], "save_as": "/out/joined.m3u8", "action": "run"})
    job = ProcessingJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("media:job_detail", args=[job.pk])
    assert (job.kind, job.state) == (JobKind.CONCAT, JobState.SUCCEEDED)
    assert job.sources == [SHORT, LONG]
    names = [uri.rsplit("/", 1)[-1] for uri in segment_uris(lab, "/out/joined.m3u8")]
    short_names = [path.name for path in lab.media.short_hls.segments]
    long_names = [path.name for path in lab.media.hls.segments]
    assert names == short_names + long_names
    meta = lab.post("m3u8er/get_meta", {"m3u8": "/out/joined.m3u8"}).json()["meta"]
    assert meta["duration"] == pytest.approx(
        lab.media.short_hls.duration + lab.media.hls.duration, abs=0.1)
    assert listed(operator_client) == []  # the list is done with

    page = operator_client.get(response["Location"]).content.decode()
    assert page.index(SHORT) < page.index(LONG)


def test_a_missing_playlist_is_the_providers_404_shown_and_stored(lab, operator_client):
    response = operator_client.post(reverse("media:concat"), {
        "m3u8s": [LONG, "/nope/index.m3u8"], "save_as": "/out/joined.m3u8", "action": "run"})
    assert response.status_code == 400
    job = ProcessingJob.objects.get()
    assert (job.state, job.error_kind, job.http_status) == (JobState.FAILED, "not_found", 404)
    html = response.content.decode()
    assert "/nope/index.m3u8" in job.error and job.error in html
    assert listed(operator_client) == [LONG, "/nope/index.m3u8"]  # kept, to fix and retry


@pytest.mark.parametrize(("rows", "save_as", "field", "message"), [
    ([LONG], "/out/j.m3u8", "m3u8s", "at least 2 playlists"),
    ([], "/out/j.m3u8", "m3u8s", "at least 2 playlists"),
    ([LONG, "/videos/a.mp4"], "/out/j.m3u8", "m3u8s", "Playlist 2 (/videos/a.mp4)"),
    (["hls/a.m3u8", LONG], "/out/j.m3u8", "m3u8s", "Playlist 1 (hls/a.m3u8)"),
    ([LONG, "", "/x/../y.m3u8"], "/out/j.m3u8", "m3u8s", "Playlist 3 (/x/../y.m3u8)"),
    ([LONG] * 101, "/out/j.m3u8", "m3u8s", "At most 100 playlists"),
    ([LONG, SHORT], "", "save_as", "Enter a storage path."),
    ([LONG, SHORT], "/out/j.mp4", "save_as", "not an M3U8 playlist"),
    ([LONG, SHORT], SHORT, "save_as", "overwrite its source"),
])
def test_each_bad_field_is_named_and_nothing_is_sent(operator_client, rows, save_as, field,
                                                     message):
    response = operator_client.post(reverse("media:concat"), {
        "m3u8s": rows, "save_as": save_as, "action": "run"})
    assert response.status_code == 400
    html = response.content.decode()
    errors = html[html.index(f'data-errors-for="{field}"'):]
    assert message in errors[:errors.index("</div>")]
    assert not ProcessingJob.objects.exists()


def test_run_again_puts_an_earlier_jobs_playlists_in_the_list(lab, operator_client):
    lab.upload_short_hls()
    operator_client.post(reverse("media:concat"), {
        "m3u8s": [LONG, SHORT], "save_as": "/out/j.m3u8", "action": "run"})
    job = ProcessingJob.objects.get()
    response = operator_client.get(reverse("media:concat"), {"job": job.pk})
    assert listed(operator_client) == [LONG, SHORT]
    assert 'value="/out/j.m3u8"' in response.content.decode()


def test_a_file_that_is_not_a_playlist_is_not_added(operator_client):
    response = operator_client.get(reverse("media:concat"), {"path": "/videos/a.mp4"})
    assert listed(operator_client) == []
    assert "/videos/a.mp4 is not an M3U8 playlist" in response.content.decode()
