"""The media home page: the provider connection (which needs the storage credentials too),
jobs by state today and in all, and the latest jobs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from media.models import JobKind, JobState, ProcessingJob
from media.services.counts import start_of_today
from tests.services_support import some_service

pytestmark = pytest.mark.django_db
NOT_CONFIGURED = "not configured"


def test_it_counts_jobs_by_state_today_and_in_all(operator_client):
    for state in (JobState.SUCCEEDED, JobState.SUCCEEDED, JobState.FAILED):
        ProcessingJob.objects.create(service=some_service(),
                                     kind=JobKind.MEDIA_INFO, state=state, sources=["/a.mp4"])
    old = ProcessingJob.objects.create(service=some_service(),
                                       kind=JobKind.CLIP, state=JobState.SUCCEEDED,
                                       sources=["/a.m3u8"])
    ProcessingJob.objects.filter(pk=old.pk).update(created_at=start_of_today() - timedelta(1))
    html = operator_client.get(reverse("media:index")).content.decode()
    assert 'data-today="succeeded">2<' in html and 'data-count="succeeded">3<' in html
    assert 'data-today="failed">1<' in html and 'data-count="no_answer">0<' in html
    assert html.count("data-job=") == 4


def test_it_says_when_the_storage_credentials_are_missing(operator_client, provider, settings):
    assert NOT_CONFIGURED not in operator_client.get(reverse("media:index")).content.decode()
    settings.PROVIDER = {**settings.PROVIDER,
                         "storage": {**settings.PROVIDER["storage"], "password": ""}}
    assert NOT_CONFIGURED in operator_client.get(reverse("media:index")).content.decode()
