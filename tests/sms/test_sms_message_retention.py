"""Months of messages past SMS_MESSAGE_RETENTION_MONTHS are archived as the report's CSV in the
private file storage, audited, then removed (their partition dropped on PostgreSQL); nothing
is removed that the archive does not hold, and the report page says from which month on
messages are kept, with the archives to download."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse

from backoffice.models import AuditEntry
from sms.models import Campaign, Message, MessageArchive
from sms.services import partitions, retention
from sms.services.partitions import Month
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db


@pytest.fixture
def keep_two_years(settings):
    settings.SMS_MESSAGE_RETENTION_MONTHS = 24


@pytest.fixture
def campaign():
    return Campaign.objects.create(template=local_template(), source="form", state="done")


def messages_in(campaign, month: Month, count: int, first_mobile: int = 13800000000) -> list[int]:
    return [Message.objects.create(campaign=campaign, chunk_id=1, mobile=str(first_mobile + n),
                                   text=f"正文 {n}", units=1, status="success",
                                   created_at=month.start + timedelta(days=1, minutes=n)).pk
            for n in range(count)]


def test_the_first_kept_month_is_the_retention_counted_back_from_this_one(settings):
    settings.SMS_MESSAGE_RETENTION_MONTHS = 24
    assert retention.kept_from() == Month.current().plus(-23)
    settings.SMS_MESSAGE_RETENTION_MONTHS = 1
    assert retention.kept_from() == Month.current()


def test_an_old_month_is_archived_as_the_report_csv_then_removed(keep_two_years, campaign):
    old = Month.current().plus(-30)
    partitions.ensure_months(since=old, until=old)  # as the migration makes for old data
    archived_ids = messages_in(campaign, old, 3)
    kept_ids = messages_in(campaign, retention.kept_from(), 2, first_mobile=13900000000)

    run = retention.archive_old_months()

    [archive] = run.archived
    assert archive.month == old.first_day and archive.rows == 3
    assert sorted(Message.objects.values_list("pk", flat=True)) == sorted(kept_ids)
    with archive.file.open("rb") as stored:
        content = stored.read()
    assert archive.size == len(content)
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    assert sorted(int(row[0]) for row in rows[1:]) == sorted(archived_ids)
    assert {row[2] for row in rows[1:]} == {"13800000000", "13800000001", "13800000002"}
    entry = AuditEntry.objects.get(action="messages.archive")
    assert entry.object_id == str(archive.pk) and "3 messages" in entry.summary
    assert old not in partitions.months()


def test_nothing_is_archived_twice_and_a_run_without_old_months_does_nothing(keep_two_years,
                                                                               campaign):
    messages_in(campaign, Month.current().plus(-25), 1)
    assert len(retention.archive_old_months().archived) == 1
    assert retention.archive_old_months().archived == []
    assert MessageArchive.objects.count() == 1


def test_a_month_that_changes_while_archived_stays_whole_and_leaves_no_file(
    keep_two_years, campaign, monkeypatch, settings
):
    old = Month.current().plus(-26)
    messages_in(campaign, old, 2)
    real_write = retention._write_csv

    def write_then_someone_adds_one(month, spool):
        written = real_write(month, spool)
        messages_in(campaign, old, 1, first_mobile=13700000000)
        return written

    monkeypatch.setattr(retention, "_write_csv", write_then_someone_adds_one)

    assert retention.archive_old_months().archived == []
    assert Message.objects.count() == 3
    assert MessageArchive.objects.count() == 0
    archive_folder = settings.MEDIA_ROOT / "sms" / "archive"
    assert not archive_folder.exists() or list(archive_folder.iterdir()) == []


def test_messages_whose_campaign_is_gone_keep_their_month_in_the_table(keep_two_years,
                                                                        campaign):
    old = Month.current().plus(-27)
    messages_in(campaign, old, 1)
    Message.objects.create(campaign_id=campaign.pk + 1000, chunk_id=1, mobile="13600000000",
                           text="t", units=1, created_at=old.start + timedelta(days=2))

    assert retention.archive_old_months().archived == []
    assert Message.objects.count() == 2


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="partitions are PostgreSQL's")
def test_an_empty_old_partition_is_dropped(keep_two_years):
    empty = Month.current().plus(-40)
    partitions.ensure_months(since=empty, until=empty)

    run = retention.archive_old_months()

    assert run.dropped_empty == [empty] and empty not in partitions.months()
    assert connection.vendor == "postgresql"


def test_the_report_says_from_when_messages_are_kept_and_links_the_archives(
    keep_two_years, campaign, operator_client
):
    old = Month.current().plus(-25)
    messages_in(campaign, old, 2)
    [archive] = retention.archive_old_months().archived

    page = operator_client.get(reverse("sms:report")).content.decode()
    kept = retention.kept_from().first_day
    assert f"Messages are kept from {kept:%B %Y} on" in page
    assert f'data-month="{old}"' in page

    response = operator_client.get(reverse("sms:report_archive", args=[archive.pk]))
    body = b"".join(response.streaming_content)
    assert response.status_code == 200
    assert f'filename="sms-messages-{old}.csv"' in response["Content-Disposition"]
    assert body.count(b"\r\n") == 3
    assert AuditEntry.objects.filter(action="messages.archive.download").count() == 1


def test_an_unknown_archive_is_not_found(operator_client):
    assert operator_client.get(reverse("sms:report_archive", args=[999])).status_code == 404


def test_the_report_says_it_in_chinese_too(keep_two_years, operator_client):
    page = operator_client.get(reverse("sms:report"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    kept = retention.kept_from()
    assert f"短信记录保留自 {kept.year}年{kept.month}月 起" in page.content.decode()


@pytest.mark.parametrize("value", ["0", "two years"])
def test_a_retention_that_is_not_a_whole_number_of_months_stops_start_up(value):
    from tests.foundation.test_environment_settings import start_with

    result = start_with(SMS_MESSAGE_RETENTION_MONTHS=value)
    assert result.returncode != 0
    assert "SMS_MESSAGE_RETENTION_MONTHS:" in result.stderr
