"""The SMS tile's figures link to the delivery report filtered as they count, and its chart
shows the messages sent on each of the last 14 days: one grouped query over a range of the
submitted_at index, the past days counted once and kept in the database (DailySends), today's
figure the tile's own."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from backoffice.ui.tiles import chart_days
from sms import dashboard
from sms.models import Campaign, Chunk, DailySends, Message
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent_over_days(fresh_figures):
    """Today 3 messages (one failed, one refused by the provider), 2 days ago 2, 20 days ago 5
    (before the chart)."""
    campaign = Campaign.objects.create(template=local_template(), source="form", state="done")
    chunk = Chunk.objects.create(campaign=campaign, number=1, size=11, state="sent")
    now = timezone.now()
    rows = [(0, "success", 1), (0, "failed", 2), (0, "failed", None), (2, "success", 3),
            (2, "success", 4)] + [(20, "success", 10 + n) for n in range(5)]
    Message.objects.bulk_create([
        Message(campaign=campaign, chunk=chunk, mobile=f"1380000{n:04d}", text="【示例商城】1",
                units=1, status=status, provider_message_id=provider_id,
                submitted_at=now - timedelta(days=days_ago))
        for n, (days_ago, status, provider_id) in enumerate(rows)
    ])
    return campaign


def sql_on_messages(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries.captured_queries if '"sms_message"' in query["sql"]]


def test_the_chart_counts_messages_sent_per_day_with_today_as_the_tile(
    operator, sent_over_days
):
    with CaptureQueriesContext(connection) as queries:
        chart = dashboard.chart(operator)
    assert chart is not None and chart.kind == "bars"
    assert list(chart.days) == chart_days()
    expected = [0] * 14
    expected[-3], expected[-1] = 2, 2  # a number the provider refused was not sent
    assert list(chart.values) == expected
    assert {f.label: f.value for f in dashboard.figures(operator)}["Sent today"] == "2"

    counted = [sql for sql in sql_on_messages(queries) if "GROUP BY" in sql]
    assert len(counted) == 1
    # A range of the index on submitted_at, closed at both ends: never the table whole.
    assert '"sms_message"."submitted_at" >=' in counted[0]
    assert '"sms_message"."submitted_at" <' in counted[0]


def test_the_past_days_are_counted_once_for_many_page_loads(operator, sent_over_days):
    dashboard.chart(operator)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            chart = dashboard.chart(operator)
    assert sql_on_messages(queries) == []
    assert chart is not None and chart.values[-3] == 2


def test_todays_figures_link_to_the_report_of_today_filtered_by_status(
    operator, operator_client, sent_over_days
):
    today = timezone.localdate().isoformat()
    figures = {figure.label: figure for figure in dashboard.figures(operator)}
    assert figures["Failed today"].url == (
        f"/sms/report/?date_from={today}&date_to={today}&status=failed")
    report = operator_client.get(figures["Failed today"].url).content.decode()
    assert report.count('<tr data-mobile="') == 2  # both of today's failed, nothing else
    report = operator_client.get(figures["Sent today"].url).content.decode()
    assert report.count('<tr data-mobile="') == 3
    assert figures["Quota"].url == "/sms/"


def test_a_new_day_counts_only_the_days_not_kept_yet(operator, sent_over_days):
    dashboard.chart(operator)
    two_days_ago = timezone.localdate() - timedelta(days=2)
    DailySends.objects.filter(day=two_days_ago).delete()  # as if that day had just ended
    with CaptureQueriesContext(connection) as queries:
        chart = dashboard.chart(operator)
    counted = [sql for sql in sql_on_messages(queries) if "GROUP BY" in sql]
    assert len(counted) == 1
    # the range is that one day only
    start = timezone.make_aware(datetime.combine(two_days_ago, time.min))
    assert start.isoformat(sep=" ") in counted[0]
    assert chart is not None and chart.values[-3] == 2


def test_the_past_days_are_kept_when_the_cache_is_emptied(operator, sent_over_days):
    """After a deployment or a Redis restart nothing of the fortnight is counted again."""
    from django.core.cache import cache

    dashboard.chart(operator)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        chart = dashboard.chart(operator)
    assert [sql for sql in sql_on_messages(queries) if "GROUP BY" in sql] == []
    assert chart is not None and chart.values[-3] == 2


def test_a_day_not_settled_is_counted_again_after_an_hour_and_a_settled_one_never(
        operator, sent_over_days):
    dashboard.chart(operator)
    today = timezone.localdate()
    yesterday, two_days_ago = today - timedelta(days=1), today - timedelta(days=2)
    an_hour_and_more = timezone.now() - timedelta(hours=1, minutes=1)
    # Counted while it was yesterday: not settled, so counted again.
    DailySends.objects.filter(day=yesterday).update(counted_at=an_hour_and_more)
    # Counted at the first moment a whole day had passed since it ended: settled for good,
    # even with a figure that is wrong now (nothing counts it again).
    settled_at = timezone.make_aware(datetime.combine(today, time.min))
    DailySends.objects.filter(day=two_days_ago).update(counted_at=settled_at, sent=7)
    with CaptureQueriesContext(connection) as queries:
        chart = dashboard.chart(operator)
    counted = [sql for sql in sql_on_messages(queries) if "GROUP BY" in sql]
    assert len(counted) == 1
    start = timezone.make_aware(datetime.combine(yesterday, time.min))
    assert start.isoformat(sep=" ") in counted[0]
    assert chart is not None and chart.values[-3] == 7 and chart.values[-2] == 0
    assert DailySends.objects.get(day=yesterday).counted_at > an_hour_and_more
