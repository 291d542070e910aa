"""Who may do what: Content managers run jobs; Auditors read every job and its image but can
run nothing (no page, no job, no call); others see nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from media.models import JobKind, JobState, ProcessingJob
from tests.media_fixtures import MediaLab
from tests.services_support import some_service

pytestmark = pytest.mark.django_db

RUN_PAGES = ("media:info", "media:snapshot", "media:clip", "media:concat")
RUN_POSTS = {
    "media:info": {"path": MediaLab.VIDEO, "read_as": "auto"},
    "media:snapshot": {"source": MediaLab.VIDEO, "point": "00:00:01",
                       "save_as": "/snaps/a.jpg"},
    "media:clip": {"m3u8": "/hls/a/index.m3u8", "mode": "keep", "unit": "seconds",
                   "start": "0", "end": "2", "save_as": "/hls/a/c.m3u8"},
    "media:concat": {"m3u8s": ["/a/index.m3u8", "/b/index.m3u8"], "save_as": "/c.m3u8",
                     "action": "run"},
}


@pytest.fixture
def snapshot_job(lab, operator_client) -> ProcessingJob:
    operator_client.post(reverse("media:snapshot"), RUN_POSTS["media:snapshot"])
    job = ProcessingJob.objects.get()
    assert job.state == JobState.SUCCEEDED
    operator_client.logout()
    return job


def test_an_auditor_reads_the_home_page_the_jobs_and_the_image(snapshot_job, auditor_client):
    home = auditor_client.get(reverse("media:index"))
    assert home.status_code == 200
    html = home.content.decode()
    assert 'id="media-start"' not in html  # no way to start a job
    assert f'data-job="{snapshot_job.pk}"' in html
    assert auditor_client.get(reverse("media:job_list")).status_code == 200
    detail = auditor_client.get(reverse("media:job_detail", args=[snapshot_job.pk]))
    assert detail.status_code == 200
    assert 'id="run-again"' not in detail.content.decode()
    image = auditor_client.get(reverse("media:job_image", args=[snapshot_job.pk]))
    assert image.status_code == 200 and image["Content-Type"] == "image/jpeg"


@pytest.mark.parametrize("name", RUN_PAGES)
def test_an_auditor_cannot_open_or_run_a_tool(auditor_client, provider, name):
    assert auditor_client.get(reverse(name), {"path": "/a/index.m3u8"}).status_code == 403
    assert auditor_client.post(reverse(name), RUN_POSTS[name]).status_code == 403
    assert not ProcessingJob.objects.exists()


def test_an_auditors_pages_link_to_no_tool(auditor_client):
    html = auditor_client.get(reverse("media:job_list")).content.decode()
    for name in RUN_PAGES:
        assert f'href="{reverse(name)}"' not in html


def test_a_content_manager_sees_the_tools(operator_client):
    html = operator_client.get(reverse("media:index")).content.decode()
    assert 'id="media-start"' in html
    for name in RUN_PAGES:
        assert reverse(name) in html


@pytest.mark.parametrize("name", ["media:index", "media:job_list", *RUN_PAGES])
def test_staff_without_the_media_role_are_refused(client, make_user, name):
    client.force_login(make_user("sms-only", "SMS operators"))
    assert client.get(reverse(name)).status_code == 403


def test_staff_without_the_media_role_cannot_see_a_job(client, make_user):
    job = ProcessingJob.objects.create(service=some_service(),
                                       kind=JobKind.MEDIA_INFO, sources=["/a.mp4"])
    client.force_login(make_user("sms-only", "SMS operators"))
    assert client.get(reverse("media:job_detail", args=[job.pk])).status_code == 403
    assert client.get(reverse("media:job_image", args=[job.pk])).status_code == 403


def test_anonymous_visitors_are_sent_to_the_login_page(client):
    response = client.get(reverse("media:job_list"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
