"""The delivery report's totals of the whole table once counting them is slow: read from the
figures kept in ReportTotals, counted again by a beat job that spends at most a twentieth of
its time counting, and counted by the page itself when the beat stopped."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from backoffice.celery import collect_beat_schedule
from sms.models import Message, ReportTotals
from sms.services import report_totals

pytestmark = pytest.mark.django_db

COUNTED = {"success": 900_000, "failed": 99_000, "carrier_queued": 1_000}


def kept(took_s: float, age: timedelta, counts: dict[str, int] | None = None) -> None:
    ReportTotals.objects.update_or_create(pk=report_totals.WHOLE_TABLE, defaults={
        "counts": counts if counts is not None else COUNTED,
        "counted_at": timezone.now() - age, "took_s": took_s})


def get(client, **params):
    return client.get(reverse("sms:report"), params)


def totals(response) -> dict[str, int]:
    return {total.status: total.count for total in response.context["totals"]}


def grouped_counts(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries.captured_queries
            if '"sms_message"' in query["sql"] and "GROUP BY" in query["sql"]]


def test_a_slow_count_is_read_from_the_kept_figures_without_counting(
        auditor_client, messages_table):
    kept(took_s=1.6, age=timedelta(seconds=30))
    with CaptureQueriesContext(connection) as queries:
        response = get(auditor_client)
    assert grouped_counts(queries) == []
    assert totals(response) == {"success": 900_000, "failed": 99_000, "unknown": 1_000}


def test_a_status_alone_narrows_the_kept_figures(auditor_client, messages_table):
    kept(took_s=1.6, age=timedelta(seconds=30))
    assert totals(get(auditor_client, status="failed")) == {"failed": 99_000}
    assert totals(get(auditor_client, status="unknown")) == {"unknown": 1_000}
    # Any other filter counts what its index selects, as before.
    assert totals(get(auditor_client, date_from="2026-11-10", date_to="2026-11-10")) == {
        "success": 40, "failed": 10}


def test_figures_kept_too_long_are_counted_by_the_page(
        auditor_client, messages_table):
    kept(took_s=1.6, age=report_totals.KEPT_TOO_LONG + timedelta(seconds=1))
    assert totals(get(auditor_client)) == {"success": 104, "failed": 26}
    row = ReportTotals.objects.get()
    assert row.counts == {"success": 104, "failed": 26} and row.took_s < 1.6


def test_the_job_counts_again_once_due_and_at_most_a_twentieth_of_the_time(
        messages_table):
    # A count that took 4 s is made again after 80 s (5 % of the time), not after 60.
    kept(took_s=4.0, age=timedelta(seconds=61))
    assert report_totals.recount_if_due() is False
    kept(took_s=4.0, age=timedelta(seconds=81))
    assert report_totals.recount_if_due() is True
    assert ReportTotals.objects.get().counts == {"success": 104, "failed": 26}


def test_a_small_table_is_counted_by_the_page_and_the_job_leaves_it(
        auditor_client, messages_table):
    assert totals(get(auditor_client)) == {"success": 104, "failed": 26}
    row = ReportTotals.objects.get()
    assert row.took_s < report_totals.BIG_COUNT_S
    ReportTotals.objects.update(counted_at=timezone.now() - timedelta(hours=1))
    assert report_totals.recount_if_due() is False
    assert Message.objects.count() == 130


def test_the_job_is_in_the_beat_schedule():
    entry = collect_beat_schedule()["sms-count-report-totals"]
    assert entry["task"] == "sms.tasks.count_report_totals"
