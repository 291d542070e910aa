"""Cache refresh: a manual purge invalidates the edge's copy (X-Cache HIT then MISS), invalid
domains are reported, and the 600-URLs-a-minute limit is kept locally before sending."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from delivery import services
from delivery.client import purge_auth_reason, purge_authorization
from delivery.models import PurgeErrorKind, PurgeRequest, PurgeSource, PurgeStatus
from delivery.services.connection import purge_client
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db


def test_the_purge_signature_matches_a_hand_computed_digest() -> None:
    # printf '%s' 'secret' | md5sum -> 5ebe2294ecd0e0f08eab7690d2a6ee69
    # printf '%s' '<a>\n<b>&demo-bucket&<date>&5ebe2294ecd0e0f08eab7690d2a6ee69' | md5sum
    urls = "http://cdn.example.com/a.jpg\nhttp://cdn.example.com/b.jpg"
    header = purge_authorization(urls, "demo-bucket", "op", "secret",
                                 "Wed, 29 Oct 2014 02:26:58 GMT")
    assert header == "SVC demo-bucket:op:a5d606282fbce9632351c3c4d5a18270"


def test_a_purge_makes_the_next_request_a_miss(edge: Edge, publish: Any, manager: Any) -> None:
    edge.upload("/p.txt", b"p")
    publish()
    assert edge.get("/p.txt").headers["X-Cache"] == "MISS"
    assert edge.get("/p.txt").headers["X-Cache"] == "HIT"
    purge = services.request_manual_purge([f"{edge.base_url}/p.txt"], manager)
    assert purge.status == PurgeStatus.SENT
    assert purge.invalid_domains == []
    assert purge.requested_by == manager
    assert edge.get("/p.txt").headers["X-Cache"] == "MISS"


def test_urls_of_other_domains_are_reported(edge: Edge, manager: Any) -> None:
    purge = services.request_manual_purge(
        [f"{edge.base_url}/a.txt", "http://not-ours.example.org/a.txt"], manager)
    assert purge.status == PurgeStatus.SENT
    assert purge.invalid_domains == ["http://not-ours.example.org/a.txt"]


def test_more_than_600_urls_in_a_minute_are_refused_before_sending(
        edge: Edge, manager: Any) -> None:
    first = [f"{edge.base_url}/f{n}.txt" for n in range(590)]
    assert services.request_manual_purge(first, manager).status == PurgeStatus.SENT
    with pytest.raises(services.PurgeWindowFull) as caught:
        services.request_manual_purge([f"{edge.base_url}/g{n}.txt" for n in range(11)], manager)
    assert (caught.value.used, caught.value.asked) == (590, 11)
    assert 1 <= caught.value.retry_in <= 60
    assert PurgeRequest.objects.count() == 1  # nothing stored for the refused request
    assert services.request_manual_purge([f"{edge.base_url}/h.txt"] * 1, manager).status == \
        PurgeStatus.SENT


def test_the_window_frees_up_after_a_minute(edge: Edge, manager: Any) -> None:
    services.request_manual_purge([f"{edge.base_url}/f{n}.txt" for n in range(600)], manager)
    PurgeRequest.objects.update(attempted_at=timezone.now() - timedelta(seconds=61))
    edge.sandbox.advance(61)  # the provider counts its minute on its own clock
    assert services.request_manual_purge([f"{edge.base_url}/x.txt"], manager).status == \
        PurgeStatus.SENT


def test_a_proxys_429_is_taken_as_the_minute_limit_too(
        edge: Edge, manager: Any) -> None:
    edge.sandbox.add_fault(service="purge", path="/purge/", action="status", status=429,
                           body={"msg": "too many requests"}, times=1)
    purge = services.request_manual_purge([f"{edge.base_url}/a.txt"], manager)
    assert (purge.status, purge.error_kind) == (PurgeStatus.FAILED, PurgeErrorKind.RATE_LIMITED)
    assert purge.attempts == 1
    assert purge.pk in services.due_purges(timezone.now() + timedelta(minutes=2))
    again = services.send_purge(purge.pk)
    assert again is not None and again.status == PurgeStatus.SENT
    assert again.attempts == 2


def test_the_providers_406_over_its_minute_leaves_the_request_failed_for_a_retry(
        edge: Edge, manager: Any) -> None:
    """api/purge.md: more than 600 URLs a minute is 406. Another client of the account filled
    the provider's minute (our own window knows nothing of it): the request waits and goes."""
    purge_client(None).purge([f"{edge.base_url}/other{n}.txt" for n in range(600)])
    purge = services.request_manual_purge([f"{edge.base_url}/a.txt"], manager)
    assert (purge.status, purge.error_kind) == (PurgeStatus.FAILED, PurgeErrorKind.RATE_LIMITED)
    assert "406" in purge.error
    assert purge.pk in services.due_purges(timezone.now() + timedelta(minutes=1, seconds=1))
    edge.sandbox.advance(61)
    again = services.send_purge(purge.pk)
    assert again is not None
    assert (again.status, again.error_kind, again.attempts) == (PurgeStatus.SENT, "", 2)


def test_a_refused_signature_is_final_and_told_as_a_sign_error(
        edge: Edge, manager: Any, settings: Any) -> None:
    settings.PROVIDER["storage"]["password"] = "wrong-password"
    purge = services.request_manual_purge([f"{edge.base_url}/a.txt"], manager)
    assert purge.status == PurgeStatus.REFUSED
    assert purge.error_kind == PurgeErrorKind.SIGN_ERROR
    assert "401" in purge.error
    assert purge.pk not in services.due_purges(timezone.now() + timedelta(hours=1))


def test_an_unknown_operator_is_told_apart(edge: Edge, manager: Any, settings: Any) -> None:
    settings.PROVIDER["storage"]["operator"] = "nobody"
    purge = services.request_manual_purge([f"{edge.base_url}/a.txt"], manager)
    assert (purge.status, purge.error_kind) == (PurgeStatus.REFUSED,
                                                PurgeErrorKind.USER_NOT_EXISTS)


def test_a_clock_30_minutes_off_the_providers_is_a_date_offset_error(
        edge: Edge, manager: Any) -> None:
    edge.sandbox.advance(31 * 60)
    purge = services.request_manual_purge([f"{edge.base_url}/a.txt"], manager)
    assert (purge.status, purge.error_kind) == (PurgeStatus.REFUSED, PurgeErrorKind.DATE_OFFSET)


@pytest.mark.parametrize(("body", "reason"), [
    ('{"msg": "Need Date Header", "code": 40100001}', "need_date"),
    ('{"message": "Bucket is not exists"}', "bucket_not_exists"),
    ("Need Authorization Header", "need_authorization"),
    ("  sign error\n", "sign_error"),
    ("User is not exists", "user_not_exists"),
    ('{"msg": "Date offset error"}', "date_offset"),
    ('{"msg": "signature error"}', None),
    ("<html>401</html>", None),
    ('{"msg": 401}', None),
])
def test_the_pages_401_texts_are_read_from_json_or_plain_answers(
        body: str, reason: str | None) -> None:
    assert purge_auth_reason(body) == reason


def test_a_lost_connection_is_retried_with_backoff(edge: Edge, manager: Any) -> None:
    edge.sandbox.add_fault(service="purge", path="/purge/", action="drop", times=1)
    purge = services.request_manual_purge([f"{edge.base_url}/a.txt"], manager)
    assert purge.status == PurgeStatus.FAILED
    assert purge.pk not in services.due_purges(timezone.now())
    assert purge.pk in services.due_purges(timezone.now() + timedelta(minutes=1, seconds=1))


def test_an_interrupted_send_is_picked_up_again(db: Any) -> None:
    stuck = PurgeRequest.objects.create(
        source=PurgeSource.MANUAL, urls="http://cdn.example.com/a", url_count=1,
        status=PurgeStatus.SENDING, attempts=1,
        attempted_at=timezone.now() - timedelta(minutes=11))
    assert stuck.pk in services.due_purges()
    stuck.refresh_from_db()
    assert stuck.status == PurgeStatus.FAILED


@pytest.mark.parametrize(("text", "code"), [
    ("", "no_urls"),
    ("cdn.example.com/a.jpg", "url_shape"),
    ("http://cdn.example.com/a.jpg\nftp://x/y", "url_shape"),
    ("\n".join(f"http://cdn.example.com/{n}" for n in range(601)), "too_many"),
])
def test_bad_url_lists_are_refused_with_the_line(text: str, code: str) -> None:
    with pytest.raises(services.PurgeInputError) as caught:
        services.parse_urls(text)
    assert caught.value.problems[0].code == code


def test_parse_urls_drops_blank_lines_and_repeats() -> None:
    text = "http://a.example/x\n\n  http://a.example/x  \nhttps://a.example/y?z=1"
    assert services.parse_urls(text) == ["http://a.example/x", "https://a.example/y?z=1"]


def test_the_beat_job_sends_a_purge_whose_task_was_lost(edge: Edge, eager_tasks: None) -> None:
    from delivery.tasks import send_due_purges_task

    lost = PurgeRequest.objects.create(source=PurgeSource.FILE_DELETED, path="/a.txt",
                                       urls=f"{edge.base_url}/a.txt", url_count=1)
    PurgeRequest.objects.filter(pk=lost.pk).update(
        created_at=timezone.now() - timedelta(minutes=3))
    assert send_due_purges_task() == 1
    lost.refresh_from_db()
    assert lost.status == PurgeStatus.SENT


def test_the_task_waits_for_room_in_the_minute(edge: Edge, manager: Any,
                                               eager_tasks: None) -> None:
    from celery.exceptions import Retry

    from delivery.tasks import send_purge_task

    services.request_manual_purge([f"{edge.base_url}/f{n}.txt" for n in range(600)], manager)
    waiting = PurgeRequest.objects.create(source=PurgeSource.FILE_DELETED, path="/b.txt",
                                          urls=f"{edge.base_url}/b.txt", url_count=1)
    with pytest.raises(Retry):
        send_purge_task.apply(args=(waiting.pk,), throw=True)
    waiting.refresh_from_db()
    assert (waiting.status, waiting.attempts) == (PurgeStatus.PENDING, 0)
