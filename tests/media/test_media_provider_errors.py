"""Provider errors are shown clearly on the page and stored on the job: 404 for a missing
source, 400 for a refused parameter, 401 for refused credentials, an injected 503, and a lost
answer (the output may exist: `no_answer`, never plain `failed`)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from media.models import ErrorKind, JobState, ProcessingJob
from tests.media_fixtures import MediaLab

pytestmark = pytest.mark.django_db


def snapshot(client, **fields: str):
    form = {"source": MediaLab.VIDEO, "point": "00:00:01", "size": "", "image_format": "",
            "save_as": "/snaps/frame.jpg", **fields}
    return client.post(reverse("media:snapshot"), form)


def shown(response) -> str:
    html = response.content.decode()
    assert 'id="job-error"' in html
    return html[html.index('id="job-error"'):]


def test_a_missing_source_is_a_404_shown_and_stored(lab, operator_client):
    response = snapshot(operator_client, source="/videos/missing.mp4")
    assert response.status_code == 400
    job = ProcessingJob.objects.get()
    assert (job.state, job.error_kind) == (JobState.FAILED, ErrorKind.NOT_FOUND)
    assert job.http_status == 404 and job.answer["status_code"] == 404
    assert "/videos/missing.mp4" in job.error
    assert job.finished_at is not None and job.duration_ms is not None
    box = shown(response)
    assert "Source does not exist (404)" in box and job.error in box
    assert f'href="{reverse("media:job_detail", args=[job.pk])}"' in box
    # the form keeps what was typed, ready to fix
    assert 'value="/videos/missing.mp4"' in response.content.decode()


def test_a_refused_parameter_is_a_400_shown_and_stored(lab, operator_client):
    response = snapshot(operator_client, point="00:00:09")  # the video lasts 6 s
    assert response.status_code == 400
    job = ProcessingJob.objects.get()
    assert (job.state, job.error_kind, job.http_status) == (
        JobState.FAILED, ErrorKind.BAD_REQUEST, 400)
    assert job.request_id  # the provider's id, for support
    box = shown(response)
    assert "Request parameter error (400)" in box and job.request_id in box
    html = response.content.decode()
    assert 'data-errors-for="point"' in html  # the provider named the field


def test_refused_credentials_are_a_401_shown_and_stored(lab, operator_client, settings):
    settings.PROVIDER = {**settings.PROVIDER, "storage": {
        **settings.PROVIDER["storage"], "password": "not-the-password"}}
    response = operator_client.post(reverse("media:info"),
                                    {"path": MediaLab.VIDEO, "read_as": "auto"})
    assert response.status_code == 400
    job = ProcessingJob.objects.get()
    assert (job.state, job.error_kind, job.http_status) == (
        JobState.FAILED, ErrorKind.UNAUTHORIZED, 401)
    assert "check the storage operator settings" in shown(response)


def test_an_injected_503_is_shown_and_stored(lab, operator_client):
    lab.sandbox.add_fault(service="media", path="/snapshot$", action="status", status=503,
                          body={"status_code": 503, "message": "injected outage"}, times=1)
    response = snapshot(operator_client)
    assert response.status_code == 502
    job = ProcessingJob.objects.get()
    assert (job.state, job.error_kind, job.http_status) == (
        JobState.FAILED, ErrorKind.SERVER, 503)
    assert job.error == "injected outage"
    box = shown(response)
    assert "Provider failure (5xx)" in box and "injected outage" in box

    # the fault is spent: running it again works and is a new job
    assert snapshot(operator_client).status_code == 302
    assert ProcessingJob.objects.filter(state=JobState.SUCCEEDED).count() == 1
    job.refresh_from_db()
    assert job.state == JobState.FAILED  # the earlier outcome is kept as it was


def test_a_lost_answer_after_the_work_is_no_answer_and_the_output_may_exist(
        lab, operator_client):
    lab.sandbox.add_fault(service="media", path="/snapshot$", action="drop", when="after",
                          times=1)
    response = snapshot(operator_client)
    assert response.status_code == 502
    job = ProcessingJob.objects.get()
    assert (job.state, job.error_kind) == (JobState.NO_ANSWER, ErrorKind.NO_ANSWER)
    assert job.http_status is None
    assert "may or may not have been written" in shown(response)
    assert lab.storage.get("/snaps/frame.jpg").status_code == 200  # indeed it was


def test_a_provider_that_is_not_configured_records_nothing(lab, operator_client, settings):
    settings.PROVIDER = {**settings.PROVIDER, "media": {"process_url": ""}}
    response = operator_client.post(reverse("media:info"),
                                    {"path": MediaLab.VIDEO, "read_as": "auto"})
    assert response.status_code == 503
    assert "process_url" in response.content.decode()
    assert not ProcessingJob.objects.exists()


def test_the_failed_jobs_page_shows_the_stored_error(lab, operator_client):
    snapshot(operator_client, source="/videos/missing.mp4")
    job = ProcessingJob.objects.get()
    page = operator_client.get(reverse("media:job_detail", args=[job.pk])).content.decode()
    assert 'data-error-kind="not_found"' in page
    assert job.error in page
    assert 'data-http-status>404<' in page


def test_a_snapshot_of_a_text_file_says_it_is_not_a_video_or_playlist(lab, operator_client):
    lab.storage.put_bytes(b"just some notes\n", "/docs/notes.txt", "text/plain")
    response = snapshot(operator_client, source="/docs/notes.txt")
    assert response.status_code == 400
    job = ProcessingJob.objects.get()
    assert (job.state, job.error_kind) == (JobState.FAILED, ErrorKind.NOT_MEDIA)
    box = shown(response)
    assert "Not a video or playlist" in box
    assert "Provider failure" not in box
    assert 'id="not-media-advice"' in box
    # the advice sits beside the source field too, where the path is corrected
    html = response.content.decode()
    errors = html[html.index('data-errors-for="source"'):]
    assert "not a video or playlist" in errors[:600]


def test_a_snapshot_of_an_audio_file_says_it_is_not_a_video_or_playlist(lab, operator_client):
    lab.storage.put(lab.media.audio, "/audio/tone.m4a", "audio/mp4")
    snapshot(operator_client, source="/audio/tone.m4a")
    job = ProcessingJob.objects.get()
    assert job.error_kind == ErrorKind.NOT_MEDIA
    assert job.http_status == 400

