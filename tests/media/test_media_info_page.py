"""The Info page against the real sandbox: a video's format and streams and a playlist's
duration and segment points, checked against what the fixtures encoded; bad paths refused
before anything is sent."""

from __future__ import annotations

import pytest
from django.urls import reverse

from media.models import JobKind, JobState, ProcessingJob
from tests.media_fixtures import MediaLab

pytestmark = pytest.mark.django_db


def run_info(client, path: str, read_as: str = "auto"):
    return client.post(reverse("media:info"), {"path": path, "read_as": read_as})


def field_value(html: str, key: str, occurrence: int = 0) -> str:
    """The text of the `occurrence`-th table row marked data-field=<key>."""
    marker = f'data-field="{key}"'
    start = -1
    for _ in range(occurrence + 1):
        start = html.index(marker, start + 1)
    cell = html.index("<td>", start) + len("<td>")
    return html[cell:html.index("</td>", cell)]


def test_the_file_browser_link_prefills_the_path(operator_client):
    response = operator_client.get(reverse("media:info"), {"path": "/videos/a.mp4"})
    assert response.status_code == 200
    assert 'value="/videos/a.mp4"' in response.content.decode()
    assert not ProcessingJob.objects.exists()


def test_a_video_shows_its_format_and_every_stream_as_encoded(lab, operator_client):
    spec = lab.media.spec
    response = run_info(operator_client, MediaLab.VIDEO)
    job = ProcessingJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("media:job_detail", args=[job.pk])
    assert job.kind == JobKind.MEDIA_INFO and job.state == JobState.SUCCEEDED
    assert job.request_id and job.duration_ms is not None
    video, audio = job.answer["streams"]
    assert (video["type"], video["codec"]) == ("video", spec.video_codec)
    assert (video["video_width"], video["video_height"]) == (spec.width, spec.height)
    assert video["video_fps"] == pytest.approx(spec.fps)
    assert (audio["type"], audio["codec"]) == ("audio", spec.audio_codec)
    assert audio["audio_channels"] == spec.channels
    assert audio["audio_samplerate"] == spec.sample_rate
    assert job.answer["format"]["duration"] == pytest.approx(spec.seconds, abs=0.1)
    assert job.answer["format"]["filesize"] == lab.media.mp4.stat().st_size

    page = operator_client.get(response["Location"]).content.decode()
    assert "QuickTime / MOV" in field_value(page, "fullname")
    assert f"{spec.width} × {spec.height}" in field_value(page, "video_width")
    assert "44,100 Hz" in field_value(page, "audio_samplerate")
    assert field_value(page, "audio_channels") == str(spec.channels)
    assert 'data-stream-type="video"' in page and 'data-stream-type="audio"' in page
    assert field_value(page, "handler_name") == "VideoHandler"


def test_a_playlist_shows_its_duration_and_segment_points(lab, operator_client):
    hls = lab.media.hls
    response = run_info(operator_client, f"{MediaLab.HLS_FOLDER}/index.m3u8")
    job = ProcessingJob.objects.get()
    assert response.status_code == 302
    assert job.kind == JobKind.PLAYLIST_INFO and job.state == JobState.SUCCEEDED
    assert job.answer["duration"] == pytest.approx(hls.duration, abs=0.05)
    starts = [sum(hls.durations[:n]) for n in range(len(hls.durations))]
    assert job.answer["points"] == pytest.approx(starts, abs=0.05)

    page = operator_client.get(response["Location"]).content.decode()
    assert f'id="segment-count">{len(hls.segments)}<' in page
    for number in range(len(hls.segments)):
        assert f'data-segment="{number}"' in page
    assert "00:00:06.000" in page


def test_read_as_overrides_the_name(lab, operator_client):
    """A playlist read as a media file is the provider's business: its 400 is shown."""
    response = run_info(operator_client, f"{MediaLab.HLS_FOLDER}/index.m3u8", "media")
    job = ProcessingJob.objects.get()
    assert response.status_code == 400
    assert job.kind == JobKind.MEDIA_INFO and job.state == JobState.FAILED
    assert job.http_status == 400
    assert "m3u8" in job.error.lower()


@pytest.mark.parametrize(("path", "message"), [
    ("", "Enter a storage path."),
    ("videos/a.mp4", "A storage path starts with /"),
    ("/videos/", "This is a folder"),
    ("/videos//a.mp4", "cannot contain //"),
    ("/videos/../a.mp4", "cannot contain . or .."),
    ("/videos/a\x01.mp4", "control characters"),
    ("/" + "a" * 1100, "at most 1024 characters"),
])
def test_a_bad_path_is_refused_before_any_call(operator_client, path, message):
    response = run_info(operator_client, path)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-errors-for="path"' in html
    assert message in html
    assert not ProcessingJob.objects.exists()


def test_a_bad_read_as_choice_names_the_field(operator_client):
    response = run_info(operator_client, "/videos/a.mp4", "everything")
    assert response.status_code == 400
    assert 'data-errors-for="read_as"' in response.content.decode()
    assert not ProcessingJob.objects.exists()


def test_the_playlist_page_leads_to_a_snapshot_at_each_segment(lab, operator_client):
    response = run_info(operator_client, f"{MediaLab.HLS_FOLDER}/index.m3u8")
    page = operator_client.get(response["Location"]).content.decode()
    assert 'data-snapshot-at="00:00:02"' in page
    link = (f'{reverse("media:snapshot")}?service=demo-bucket&amp;'
            'path=/hls/pattern/index.m3u8&amp;point=00:00:04')
    assert link in page
    form = operator_client.get(reverse("media:snapshot"),
                               {"path": "/hls/pattern/index.m3u8", "point": "00:00:04"})
    assert 'value="/hls/pattern/index_00-00-04.jpg"' in form.content.decode()
