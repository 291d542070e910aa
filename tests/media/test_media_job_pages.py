"""The job list (filters by kind, state and path; pages of 50) and the job page of each kind,
from stored jobs."""

from __future__ import annotations

import pytest
from django.urls import reverse

from media.models import ErrorKind, JobKind, JobState, ProcessingJob
from tests.services_support import some_service

pytestmark = pytest.mark.django_db


def job(kind: str, state: str, source: str = "/a.m3u8", save_as: str = "", **fields):
    return ProcessingJob.objects.create(service=some_service(),
                                        kind=kind, state=state, sources=[source],
                                        save_as=save_as, **fields)


def listed_pks(response) -> list[int]:
    return [item.pk for item in response.context["page"].object_list]


@pytest.fixture
def jobs() -> dict[str, ProcessingJob]:
    return {
        "clip_ok": job(JobKind.CLIP, JobState.SUCCEEDED, "/hls/a/index.m3u8", "/out/c.m3u8",
                       parameters={"include": [0, 2], "index": False}),
        "snap_failed": job(JobKind.SNAPSHOT, JobState.FAILED, "/v/视频.mp4", "/s/a.jpg",
                           error_kind=ErrorKind.NOT_FOUND, error="source: missing",
                           http_status=404),
        "info_ok": job(JobKind.MEDIA_INFO, JobState.SUCCEEDED, "/v/b.mp4"),
        "concat_lost": ProcessingJob.objects.create(
            service=some_service(), kind=JobKind.CONCAT, state=JobState.NO_ANSWER,
            error_kind=ErrorKind.NO_ANSWER,
            sources=["/x/1.m3u8", "/y/2.m3u8", "/z/3.m3u8"], save_as="/out/j.m3u8"),
    }


def test_the_list_shows_every_job_newest_first(operator_client, jobs):
    response = operator_client.get(reverse("media:job_list"))
    assert response.status_code == 200
    assert listed_pks(response) == [jobs[name].pk for name in
                                    ("concat_lost", "info_ok", "snap_failed", "clip_ok")]
    html = response.content.decode()
    assert "and 2 more" in html  # concat's other sources
    assert "4 jobs" in html


@pytest.mark.parametrize(("query", "expected"), [
    ({"kind": "clip"}, ["clip_ok"]),
    ({"state": "succeeded"}, ["info_ok", "clip_ok"]),
    ({"state": "no_answer"}, ["concat_lost"]),
    ({"kind": "snapshot", "state": "failed"}, ["snap_failed"]),
    ({"kind": "snapshot", "state": "succeeded"}, []),
    ({"q": "/out/"}, ["concat_lost", "clip_ok"]),
    ({"q": "y/2.m3u8"}, ["concat_lost"]),
    ({"q": "视频"}, ["snap_failed"]),
])
def test_the_list_filters_by_kind_state_and_path(operator_client, jobs, query, expected):
    response = operator_client.get(reverse("media:job_list"), query)
    assert listed_pks(response) == [jobs[name].pk for name in expected]


def test_an_unknown_filter_value_is_named_and_the_list_stays_whole(operator_client, jobs):
    response = operator_client.get(reverse("media:job_list"), {"kind": "transcode"})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert len(listed_pks(response)) == 4


def test_the_list_is_paged_by_50(operator_client):
    ProcessingJob.objects.bulk_create(
        ProcessingJob(service=some_service(),
                      kind=JobKind.MEDIA_INFO, state=JobState.SUCCEEDED, sources=[f"/{n}.mp4"])
        for n in range(60))
    first = operator_client.get(reverse("media:job_list"), {"state": "succeeded"})
    second = operator_client.get(reverse("media:job_list"), {"state": "succeeded", "page": 2})
    assert len(listed_pks(first)) == 50 and len(listed_pks(second)) == 10
    assert "state=succeeded&amp;page=2" in first.content.decode()


def test_a_clip_jobs_page_shows_request_and_output(operator_client, jobs):
    page = operator_client.get(
        reverse("media:job_detail", args=[jobs["clip_ok"].pk])).content.decode()
    assert 'data-parameter="include">0 – 2<' in page
    assert 'data-parameter="index">no<' in page
    assert 'id="job-save-as"' in page and "/out/c.m3u8" in page
    assert f'{reverse("storage:file")}?service=demo-bucket&amp;path=%2Fout%2Fc.m3u8' in page
    assert f'{reverse("media:clip")}?service=demo-bucket&amp;job={jobs["clip_ok"].pk}' in page


def test_a_concat_jobs_page_lists_its_sources_in_order(operator_client, jobs):
    page = operator_client.get(
        reverse("media:job_detail", args=[jobs["concat_lost"].pk])).content.decode()
    sources = page[page.index('id="job-sources"'):]
    assert sources.index("/x/1.m3u8") < sources.index("/y/2.m3u8") < sources.index("/z/3.m3u8")
    assert 'data-error-kind="no_answer"' in page


def test_an_info_job_from_the_provider_answer_renders_its_tables(operator_client):
    answer = {"format": {"format": "mpegts", "fullname": "MPEG-TS", "duration": 2.5,
                         "bitrate": 250000, "filesize": 78125.0},
              "streams": [{"index": 0, "type": "video", "codec": "h264", "video_width": 64,
                           "video_height": 48, "video_fps": 12.5, "metadata": {}},
                          {"index": 1, "type": "audio", "codec": "mp3", "audio_channels": 1,
                           "audio_samplerate": 8000,
                           "metadata": {"language": "chi"}}]}
    done = ProcessingJob.objects.create(service=some_service(),
                                        kind=JobKind.MEDIA_INFO, state=JobState.SUCCEEDED,
                                        sources=["/a.ts"], answer=answer)
    page = operator_client.get(reverse("media:job_detail", args=[done.pk])).content.decode()
    assert "00:00:02.500" in page and "250.0 kb/s" in page and "76.3" in page
    assert "64 × 48 pixels" in page and "12.500 frames/s" in page
    assert "8,000 Hz" in page and "chi" in page


def test_job_parameters_have_readable_labels_with_the_api_word_beside(operator_client, jobs):
    page = operator_client.get(
        reverse("media:job_detail", args=[jobs["clip_ok"].pk])).content.decode()
    assert 'Keep span <small class="api-word"><code>include</code></small>' in page
    assert 'Segment numbers (from 0) <small class="api-word"><code>index</code></small>' in page


def test_a_failed_job_names_its_output_without_a_dead_link(operator_client, jobs):
    failed = jobs["snap_failed"]
    page = operator_client.get(reverse("media:job_detail", args=[failed.pk])).content.decode()
    save_as = page[page.index('id="job-save-as"'):]
    save_as = save_as[:save_as.index("</dd>")]
    assert "/s/a.jpg" in save_as
    assert "<a " not in save_as


def test_a_job_without_answer_links_the_output_folder_where_the_file_may_be(operator_client,
                                                                            jobs):
    lost = jobs["concat_lost"]
    page = operator_client.get(reverse("media:job_detail", args=[lost.pk])).content.decode()
    save_as = page[page.index('id="job-save-as"'):]
    save_as = save_as[:save_as.index("</dd>")]
    assert 'data-link="folder"' in save_as and 'data-link="file"' not in save_as


def test_job_pages_read_in_chinese(operator_client, jobs):
    operator_client.cookies["django_language"] = "zh-hans"
    page = operator_client.get(
        reverse("media:job_detail", args=[jobs["clip_ok"].pk])).content.decode()
    assert "保留区间" in page and 'data-parameter="index">否<' in page


def test_an_unknown_job_is_404(operator_client):
    assert operator_client.get(reverse("media:job_detail", args=[999])).status_code == 404


def test_the_admin_lists_jobs_read_only(client, django_user_model, jobs):
    admin = django_user_model.objects.create_superuser("root", password=None)
    client.force_login(admin)
    listing = client.get(reverse("admin:media_processingjob_changelist"))
    assert listing.status_code == 200
    assert "/out/c.m3u8" in listing.content.decode()
    change = client.get(reverse("admin:media_processingjob_change", args=[jobs["clip_ok"].pk]))
    assert change.status_code == 200
    assert 'name="_save"' not in change.content.decode()
    assert client.get(reverse("admin:media_processingjob_add")).status_code == 403
