"""Every call is recorded: the job is committed (`running`) before the provider is called,
completed once by a conditional update, and never left running by a crash."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from backoffice.models import ProviderContact
from media import services
from media.models import ErrorKind, JobKind, JobState, ProcessingJob
from media.services import jobs
from media.tasks import mark_interrupted_jobs
from tests.media_fixtures import MediaLab
from tests.services_support import some_service


@pytest.mark.django_db(transaction=True)
def test_the_job_is_committed_before_the_provider_answers(lab):
    lab.sandbox.add_fault(service="media", path="/snapshot$", action="delay", delay_ms=1500,
                          times=1)
    outcome: list[ProcessingJob] = []

    def run() -> None:
        try:
            outcome.append(services.take_snapshot(some_service(), MediaLab.VIDEO,
                                                  "/snaps/a.jpg", "00:00:01"))
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    seen_running = None
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and seen_running is None:
        seen_running = ProcessingJob.objects.filter(state=JobState.RUNNING).first()
        time.sleep(0.05)
    worker.join(30)
    assert seen_running is not None, "the job was not visible while the call was in flight"
    assert seen_running.sources == [MediaLab.VIDEO] and seen_running.save_as == "/snaps/a.jpg"
    assert outcome[0].pk == seen_running.pk and outcome[0].state == JobState.SUCCEEDED
    assert outcome[0].duration_ms is not None and outcome[0].duration_ms >= 1400


@pytest.mark.django_db(transaction=True)
def test_a_use_case_refuses_to_run_inside_a_callers_transaction(lab):
    with pytest.raises(RuntimeError), transaction.atomic():
        services.read_info(some_service(), MediaLab.VIDEO)
    assert not ProcessingJob.objects.exists()


@pytest.mark.django_db
def test_a_final_job_is_never_changed_again(lab):
    job = services.read_info(some_service(), MediaLab.VIDEO)
    assert job.state == JobState.SUCCEEDED
    assert jobs._finish(job, JobState.FAILED, error="late") is False
    job.refresh_from_db()
    assert (job.state, job.error) == (JobState.SUCCEEDED, "")


@pytest.mark.django_db
def test_an_answer_without_the_documented_fields_is_stored_as_unexpected(lab):
    lab.sandbox.add_fault(service="media", path="/snapshot$", action="status", status=200,
                          body={"status_code": 200, "message": "ok"}, times=1)
    job = services.take_snapshot(some_service(), MediaLab.VIDEO, "/snaps/a.jpg", "00:00:01")
    assert (job.state, job.error_kind) == (JobState.FAILED, ErrorKind.UNEXPECTED)
    assert "content_type" in job.error


@pytest.mark.django_db
def test_input_the_client_refuses_is_recorded_as_not_sent(provider):
    """Callers other than the forms (a shell, a script) get the client's checks too."""
    job = services.take_snapshot(some_service(), "/v.mp4", "/a.gif", "1:2:3")
    assert (job.state, job.error_kind) == (JobState.FAILED, ErrorKind.REFUSED_LOCALLY)
    assert {problem["field"] for problem in job.answer["problems"]} == {"point", "format"}
    assert job.duration_ms is None
    assert not ProviderContact.objects.filter(service="media").exists()


@pytest.mark.django_db
def test_the_call_is_recorded_for_the_dashboards_provider_status(lab):
    services.read_info(some_service(), MediaLab.VIDEO)
    contact = ProviderContact.objects.get(service="media")
    assert contact.ok and contact.last_ok_at is not None


@pytest.mark.django_db
def test_jobs_a_dead_process_left_running_become_no_answer(operator_client):
    stale = ProcessingJob.objects.create(service=some_service(),
                                         kind=JobKind.CLIP, sources=["/a.m3u8"],
                                         save_as="/b.m3u8")
    ProcessingJob.objects.filter(pk=stale.pk).update(
        created_at=timezone.now() - timedelta(minutes=16))
    fresh = ProcessingJob.objects.create(service=some_service(),
                                         kind=JobKind.CLIP, sources=["/a.m3u8"],
                                         save_as="/c.m3u8")
    page = operator_client.get(reverse("media:job_detail", args=[fresh.pk])).content.decode()
    assert 'id="job-running"' in page

    assert mark_interrupted_jobs.apply().get() == 1
    stale.refresh_from_db()
    fresh.refresh_from_db()
    assert (stale.state, stale.error_kind) == (JobState.NO_ANSWER, ErrorKind.INTERRUPTED)
    assert stale.finished_at is not None
    assert fresh.state == JobState.RUNNING
    page = operator_client.get(reverse("media:job_detail", args=[stale.pk])).content.decode()
    assert "may or may not have been written" in page


def test_the_sweep_is_a_registered_task_on_the_beat_schedule():
    from backoffice.celery import app
    from media.schedule import BEAT_SCHEDULE

    app.loader.import_default_modules()
    entry: Any
    for entry in BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks
        assert entry["options"]["expires"] < entry["schedule"]
