"""The dashboard tile's figures (today's jobs by state) and the demo data of `make run`
(generated media uploaded through the storage app, idempotent, and every tool usable on it)."""

from __future__ import annotations

import io
from datetime import timedelta

import av
import m3u8
import pytest
from django.urls import reverse
from django.utils import timezone

from media import dashboard, demo
from media.models import JobKind, JobState, ProcessingJob
from media.services.counts import start_of_today
from tests.services_support import some_service

pytestmark = pytest.mark.django_db


def test_figures_count_todays_jobs_by_state(operator, auditor):
    for state in (JobState.SUCCEEDED, JobState.SUCCEEDED, JobState.FAILED, JobState.NO_ANSWER,
                  JobState.RUNNING):
        ProcessingJob.objects.create(service=some_service(),
                                     kind=JobKind.MEDIA_INFO, state=state, sources=["/a.mp4"])
    yesterday = ProcessingJob.objects.create(service=some_service(),
                                             kind=JobKind.CLIP, state=JobState.FAILED,
                                             sources=["/a.m3u8"])
    ProcessingJob.objects.filter(pk=yesterday.pk).update(
        created_at=start_of_today() - timedelta(seconds=1))
    expected = [("Today: running", "1"), ("Today: succeeded", "2"), ("Today: failed", "1"),
                ("Today: no answer", "1")]
    figures = dashboard.figures(operator)
    assert [tuple(figure) for figure in figures] == expected
    # Each figure links to the job list filtered by its state.
    assert [figure.url for figure in figures] == [
        f"/media/jobs/?state={state}"
        for state in ("running", "succeeded", "failed", "no_answer")
    ]
    # reading is enough
    assert [tuple(figure) for figure in dashboard.figures(auditor)] == expected


def test_figures_are_empty_for_staff_without_the_media_role(make_user):
    assert dashboard.figures(make_user("sms", "SMS operators")) == []


def test_the_dashboard_tile_shows_the_figures(operator_client):
    ProcessingJob.objects.create(service=some_service(),
                                 kind=JobKind.SNAPSHOT, state=JobState.SUCCEEDED,
                                 sources=["/a.mp4"], created_at=timezone.now())
    html = operator_client.get(reverse("dashboard")).content.decode()
    assert "Today: succeeded" in html


def test_demo_data_uploads_media_every_tool_can_use_once(provider, settings, tmp_path):
    from tests.media_fixtures import MediaLab

    settings.MEDIA_ROOT = tmp_path
    out = io.StringIO()
    demo.load(out)
    assert "uploaded" in out.getvalue(), out.getvalue()
    lab = MediaLab(provider, media=None)  # type: ignore[arg-type]
    video = av.open(io.BytesIO(lab.read(demo.VIDEO)))
    assert isinstance(video, av.container.InputContainer) and video.duration is not None
    assert (video.streams.video[0].width, video.streams.video[0].height) == (160, 120)
    assert 2 <= video.duration / 1_000_000 <= 4
    for playlist in (demo.PLAYLIST_A, demo.PLAYLIST_B):
        parsed = m3u8.loads(lab.read_text(playlist))
        folder = playlist.rsplit("/", 1)[0]
        for segment in parsed.segments:
            assert lab.read(f"{folder}/{segment.uri}")  # every segment is there
    jobs = list(ProcessingJob.objects.order_by("pk"))
    assert [(job.kind, job.state) for job in jobs] == [
        (JobKind.MEDIA_INFO, JobState.SUCCEEDED), (JobKind.SNAPSHOT, JobState.SUCCEEDED)]

    again = io.StringIO()
    demo.load(again)
    assert "already" in again.getvalue()
    assert ProcessingJob.objects.count() == 2

    from media import services

    joined = services.concatenate(some_service(), [demo.PLAYLIST_A, demo.PLAYLIST_B],
                                  "/media-demo/ab.m3u8")
    assert joined.state == JobState.SUCCEEDED
    meta = services.read_info(some_service(), "/media-demo/ab.m3u8")
    assert meta.answer["duration"] == pytest.approx(5.0, abs=0.2)


def test_demo_data_without_a_provider_says_so_and_does_not_stop(settings):
    settings.PROVIDER = {**settings.PROVIDER,
                         "storage": {**settings.PROVIDER["storage"], "url": ""}}
    out = io.StringIO()
    demo.load(out)
    assert "demo data not loaded" in out.getvalue()
