"""On PostgreSQL the database keeps each campaign's messages by status as they change: the
import, the sender, the report sync, a cancel and a delete are all counted, a rolled-back
change is not, moving rows between partitions changes nothing, a dropped month is taken off,
the fold keeps every sum, and the campaign page and the metrics sum a few rows instead of
reading messages."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from sms import services
from sms.models import (
    Campaign,
    CampaignState,
    CampaignStatusCount,
    Message,
    MessageStatus,
    Template,
)
from sms.services import partitions, status_counts
from sms.services.campaigns import cancel_queued
from sms.services.partitions import Month
from tests.sms.conftest import local_template, sandbox_settings

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif("connection.vendor != 'postgresql'",
                       reason="the counts are kept by PostgreSQL's triggers"),
]

S = MessageStatus


def stored(count: int) -> Campaign:
    template = Template.objects.first() or local_template()
    good = services.preview_recipients(
        template, "\n".join(f"1380{n:07d}" for n in range(count)), ["1"]).good
    return services.store_recipients(template, good)


def counted(campaign_id: int) -> dict[str, int]:
    """What the messages say, counted the slow way."""
    return dict(Counter(Message.objects.filter(campaign_id=campaign_id)
                        .values_list("status", flat=True)))


def test_an_import_is_counted_in_the_statement_that_stores_it():
    campaign = stored(1500)

    assert status_counts.of_campaign(campaign.pk) == {S.QUEUED: 1500}


def test_status_changes_are_counted_up_and_down():
    campaign = stored(10)
    ids = list(campaign.messages.order_by("id").values_list("id", flat=True))
    Message.objects.filter(id__in=ids[:6]).update(status=S.PROCESSING)
    Message.objects.filter(id__in=ids[:2]).update(status=S.SUCCESS)
    Message.objects.filter(id=ids[2]).update(status="expired")  # a status we do not know
    Message.objects.filter(id__in=ids[6:]).update(status=S.CANCELLED)

    assert status_counts.of_campaign(campaign.pk) == {
        S.SUCCESS: 2, "expired": 1, S.PROCESSING: 3, S.CANCELLED: 4}
    assert status_counts.of_campaign(campaign.pk) == counted(campaign.pk)


def test_an_update_that_changes_no_status_adds_no_row():
    campaign = stored(5)
    rows = CampaignStatusCount.objects.count()

    Message.objects.filter(campaign=campaign).update(submitted_at=timezone.now())

    assert CampaignStatusCount.objects.count() == rows


def test_a_rolled_back_change_is_not_counted():
    campaign = stored(4)
    with pytest.raises(RuntimeError), transaction.atomic():
        Message.objects.filter(campaign=campaign).update(status=S.SUCCESS)
        raise RuntimeError("the sender's transaction fails")

    assert status_counts.of_campaign(campaign.pk) == {S.QUEUED: 4}


def test_a_deleted_campaigns_counts_sum_to_nothing_and_fold_away():
    campaign, other = stored(3), stored(2)
    campaign.delete()

    assert status_counts.of_campaign(campaign.pk) == {}
    status_counts.fold()
    assert not CampaignStatusCount.objects.filter(campaign_id=campaign.pk).exists()
    assert status_counts.of_campaign(other.pk) == {S.QUEUED: 2}


def test_the_fold_keeps_every_sum_and_leaves_one_row_per_status():
    campaign = stored(50)
    rng = random.Random(7)
    ids = list(campaign.messages.values_list("id", flat=True))
    for _ in range(40):
        chosen = rng.sample(ids, rng.randint(1, 10))
        Message.objects.filter(id__in=chosen).update(
            status=rng.choice([S.SUBMITTING, S.PROCESSING, S.SUCCESS, S.FAILED, "expired"]))
    before = status_counts.of_campaign(campaign.pk)
    assert before == counted(campaign.pk)

    removed = status_counts.fold()

    assert removed > 0
    rows = CampaignStatusCount.objects.filter(campaign_id=campaign.pk)
    assert sorted(rows.values_list("status", flat=True)) == sorted(before)
    assert status_counts.of_campaign(campaign.pk) == before
    assert status_counts.fold() == 0  # nothing left to fold


def test_moving_stray_rows_into_a_new_month_counts_nothing_twice():
    far = Month.current().plus(30)
    campaign = stored(3)
    Message.objects.filter(campaign=campaign).update(created_at=far.start + timedelta(days=1))

    partitions.ensure_months(until=far, since=far)

    assert status_counts.of_campaign(campaign.pk) == {S.QUEUED: 3}
    assert Message.objects.filter(campaign=campaign).count() == 3


def test_a_dropped_month_is_taken_off_its_campaigns_counts():
    far = Month.current().plus(30)
    partitions.ensure_months(until=far, since=far)
    campaign = stored(5)
    ids = list(campaign.messages.order_by("id").values_list("id", flat=True))
    Message.objects.filter(id__in=ids[:3]).update(created_at=far.start + timedelta(days=1),
                                                  status=S.SUCCESS)

    partitions.drop(far)

    assert Message.objects.filter(campaign=campaign).count() == 2
    assert status_counts.of_campaign(campaign.pk) == {S.QUEUED: 2} == counted(campaign.pk)


def test_the_metrics_gauge_sums_the_kept_counts_without_reading_messages():
    first, second = stored(4), stored(3)
    Message.objects.filter(campaign=first).update(status=S.PROCESSING)
    Message.objects.filter(campaign=second, id=second.messages.earliest("id").pk).update(
        status="expired")

    with CaptureQueriesContext(connection) as captured:
        gauge = services.messages_by_status()

    assert gauge == {S.PROCESSING: 4, S.QUEUED: 2, "expired": 1}
    assert not [query for query in captured.captured_queries if "sms_message" in query["sql"]]


def test_a_truncated_message_table_keeps_no_counts():
    stored(3)
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE sms_message")

    assert not CampaignStatusCount.objects.exists()


def test_a_campaigns_page_counts_read_no_message():
    campaign = stored(20)
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.SENDING)
    Message.objects.filter(campaign=campaign).update(status=S.PROCESSING)

    with CaptureQueriesContext(connection) as captured:
        counts = services.campaign_counts(campaign)

    assert counts.sent == 20 and not counts.settled
    assert not [query for query in captured.captured_queries if "sms_message" in query["sql"]]


def test_a_campaign_sent_cancelled_and_reported_through_the_sandbox_is_counted_right(
        provider, sms_template):
    # Quota for the first chunk of 1000 only: the second halts the campaign, whose numbers
    # left are then cancelled.
    sandbox_settings(provider, general=1500, delivery_delay_s=5, failure_rate=0.3)
    template = sms_template("plain")
    good = services.preview_recipients(
        template, "\n".join(f"1390{n:07d}" for n in range(2500)), []).good
    campaign = services.store_recipients(template, good)
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.QUEUED)
    services.run_campaign(campaign.pk)
    cancel_queued(campaign.pk)
    provider.advance(6)
    services.sync_reports()
    status_counts.fold()

    kept = status_counts.of_campaign(campaign.pk)

    assert kept == counted(campaign.pk)
    assert sum(kept.values()) == 2500
    assert kept[S.SUCCESS] + kept[S.FAILED] == 1000 and kept[S.CANCELLED] == 1500


BEFORE = ("sms", "0014_campaign_settled_counts")
KEPT = ("sms", "0015_campaign_status_counts")


def test_the_migration_counts_the_messages_already_stored():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps.get_model("sms", "Message")
    for n, status in enumerate([S.SUCCESS, S.SUCCESS, S.FAILED, "expired"]):
        old.objects.create(campaign_id=9, chunk_id=90, mobile=f"1370000{n:04d}", text="t",
                           units=1, status=status)
    old.objects.create(campaign_id=10, chunk_id=100, mobile="13700009999", text="t", units=1)

    MigrationExecutor(connection).migrate([KEPT])

    assert status_counts.of_campaign(9) == {S.SUCCESS: 2, S.FAILED: 1, "expired": 1}
    assert status_counts.of_campaign(10) == {S.QUEUED: 1}
    Message.objects.filter(campaign_id=10).update(status=S.PROCESSING)  # the triggers run
    assert status_counts.of_campaign(10) == {S.PROCESSING: 1}
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
