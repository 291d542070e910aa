"""The Clip page against the real sandbox: the new playlist keeps (or drops) the span, in
seconds or by segment numbers, and its duration is what remains; every bad field is named
before any call."""

from __future__ import annotations

import re

import m3u8
import pytest
from django.urls import reverse

from media.models import JobKind, JobState, ProcessingJob
from tests.media_fixtures import MediaLab

pytestmark = pytest.mark.django_db
PLAYLIST = f"{MediaLab.HLS_FOLDER}/index.m3u8"


def clip_form(**fields: str) -> dict[str, str]:
    return {"m3u8": PLAYLIST, "mode": "keep", "unit": "seconds", "start": "0", "end": "2",
            "save_as": "/out/clip.m3u8", **fields}


def segment_names(lab: MediaLab, path: str) -> list[str]:
    playlist = m3u8.loads(lab.read_text(path))
    return [segment.uri.rsplit("/", 1)[-1] for segment in playlist.segments]


def duration_of(lab: MediaLab, path: str) -> float:
    return lab.post("m3u8er/get_meta", {"m3u8": path}).json()["meta"]["duration"]


def test_the_file_browser_link_prefills_the_playlist_and_a_name_beside_it(operator_client):
    html = operator_client.get(reverse("media:clip"), {"path": "/hls/a/index.m3u8"}) \
        .content.decode()
    assert 'value="/hls/a/index.m3u8"' in html
    assert 'value="/hls/a/index_clip.m3u8"' in html


def test_keeping_a_span_of_seconds_writes_a_shorter_playlist(lab, operator_client):
    response = operator_client.post(reverse("media:clip"), clip_form(start="2", end="4"))
    job = ProcessingJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("media:job_detail", args=[job.pk])
    assert (job.kind, job.state) == (JobKind.CLIP, JobState.SUCCEEDED)
    assert job.parameters == {"include": [2.0, 4.0], "index": False}
    assert segment_names(lab, "/out/clip.m3u8") == ["seg1.ts"]
    assert duration_of(lab, "/out/clip.m3u8") == pytest.approx(lab.media.hls.durations[1],
                                                               abs=0.05)


def test_dropping_segments_by_number_keeps_the_rest(lab, operator_client):
    response = operator_client.post(reverse("media:clip"), clip_form(
        mode="drop", unit="segments", start="1", end="1"))
    assert response.status_code == 302
    job = ProcessingJob.objects.get()
    assert job.parameters == {"exclude": [1, 1], "index": True}
    assert segment_names(lab, "/out/clip.m3u8") == ["seg0.ts", "seg2.ts"]
    hls = lab.media.hls
    assert duration_of(lab, "/out/clip.m3u8") == pytest.approx(
        hls.durations[0] + hls.durations[2], abs=0.05)


def test_keeping_segments_by_number(lab, operator_client):
    response = operator_client.post(reverse("media:clip"), clip_form(
        unit="segments", start="1", end="2"))
    assert response.status_code == 302
    assert segment_names(lab, "/out/clip.m3u8") == ["seg1.ts", "seg2.ts"]


def test_the_job_page_offers_to_read_the_new_playlist(lab, operator_client):
    response = operator_client.post(reverse("media:clip"), clip_form(start="0", end="2"))
    page = operator_client.get(response["Location"]).content.decode()
    assert 'id="read-output-info"' in page
    info = operator_client.post(reverse("media:info"),
                                {"path": "/out/clip.m3u8", "read_as": "playlist"})
    assert info.status_code == 302
    job = ProcessingJob.objects.get(kind=JobKind.PLAYLIST_INFO)
    assert job.answer["points"] == [0.0]


def test_run_again_prefills_the_form_from_an_earlier_job(lab, operator_client):
    operator_client.post(reverse("media:clip"), clip_form(
        mode="drop", unit="segments", start="1", end="2"))
    job = ProcessingJob.objects.get()
    html = operator_client.get(reverse("media:clip"), {"job": job.pk}).content.decode()
    assert f'value="{PLAYLIST}"' in html
    assert re.search(r'value="drop"[^>]*checked', html)
    assert re.search(r'value="segments"[^>]*checked', html)
    assert re.search(r'name="start"[^>]*value="1"', html) or \
        re.search(r'value="1"[^>]*name="start"', html)


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"m3u8": ""}, "m3u8", "Enter a storage path."),
    ({"m3u8": "/videos/a.mp4"}, "m3u8", "not an M3U8 playlist"),
    ({"m3u8": "hls/index.m3u8"}, "m3u8", "starts with /"),
    ({"mode": "both"}, "mode", "Select a valid choice"),
    ({"unit": "frames"}, "unit", "Select a valid choice"),
    ({"start": ""}, "start", "This field is required."),
    ({"start": "abc"}, "start", "Enter a number."),
    ({"start": "-1"}, "start", "greater than or equal to 0"),
    ({"end": "nan"}, "end", "Enter a number."),
    ({"start": "3", "end": "3"}, "end", "The end must come after the start."),
    ({"start": "4", "end": "2"}, "end", "The end must come after the start."),
    ({"unit": "segments", "start": "2", "end": "1"}, "end", "cannot come before the first"),
    ({"unit": "segments", "start": "0.5", "end": "2"}, "start", "whole numbers"),
    ({"save_as": "/out/clip.txt"}, "save_as", "not an M3U8 playlist"),
    ({"save_as": PLAYLIST}, "save_as", "overwrite its source"),
])
def test_each_bad_field_is_named_and_nothing_is_sent(operator_client, fields, field, message):
    response = operator_client.post(reverse("media:clip"), clip_form(**fields))
    assert response.status_code == 400
    html = response.content.decode()
    errors = html[html.index(f'data-errors-for="{field}"'):]
    assert message in errors[:errors.index("</div>")]
    assert not ProcessingJob.objects.exists()


def test_a_segment_number_past_the_end_is_the_providers_400_shown_on_the_field(
        lab, operator_client):
    response = operator_client.post(reverse("media:clip"), clip_form(
        unit="segments", start="3", end="9"))
    assert response.status_code == 400
    job = ProcessingJob.objects.get()
    assert (job.state, job.error_kind, job.http_status) == (JobState.FAILED, "bad_request", 400)
    html = response.content.decode()
    assert 'id="job-error"' in html and job.error in html
    assert 'data-errors-for="start"' in html
