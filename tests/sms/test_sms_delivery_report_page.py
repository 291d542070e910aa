"""The delivery report page: search by mobile, status and dates, keyset pages with no count
of the table, and a streamed CSV export."""

from __future__ import annotations

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from sms.models import Message

pytestmark = pytest.mark.django_db


def get(client, **params):
    return client.get(reverse("sms:report"), params)


def mobiles(response) -> list[str]:
    import re

    return re.findall(r'<tr data-mobile="(\d+)"', response.content.decode())


def counts(queries) -> list[str]:
    # Counts of the messages only: the embedded database cache counts its own table on a set.
    return [q["sql"] for q in queries.captured_queries
            if "COUNT(" in q["sql"].upper() and '"sms_message"' in q["sql"]]


def test_it_pages_newest_first_by_keyset_without_counting(auditor_client, messages_table):
    with CaptureQueriesContext(connection) as queries:
        first = get(auditor_client)
    # The one count is the status totals' grouped count, never one per page.
    assert len(counts(queries)) == 1 and "GROUP BY" in counts(queries)[0].upper()
    assert len(queries.captured_queries) <= 20
    assert mobiles(first)[:2] == ["13800000129", "13800000128"]
    assert len(mobiles(first)) == 50

    seen = mobiles(first)
    page = first
    while 'id="older"' in page.content.decode():
        cursor = page.context["page"].older_cursor
        with CaptureQueriesContext(connection) as queries:
            page = get(auditor_client, before=cursor)
        assert counts(queries) == []  # the totals of this search are still in the cache
        assert len(queries.captured_queries) <= 20
        seen += mobiles(page)
    assert len(seen) == 130 and len(set(seen)) == 130

    newer = get(auditor_client, after=page.context["page"].rows[0].id)
    assert mobiles(newer)[-1] == str(int(mobiles(page)[0]) + 1)


def test_it_filters_by_mobile_status_dates_and_campaign(auditor_client, messages_table):
    assert mobiles(get(auditor_client, mobile="+86 138 0000 0007")) == ["13800000007"]
    failed = mobiles(get(auditor_client, status="failed"))
    assert len(failed) == 26 and all(int(m) % 5 == 0 for m in failed)
    second_day = mobiles(get(auditor_client, date_from="2026-11-11", date_to="2026-11-11"))
    assert sorted(second_day) == [f"138{n:08d}" for n in range(50, 100)]
    assert len(mobiles(get(auditor_client, campaign=messages_table.pk))) == 50
    assert mobiles(get(auditor_client, campaign=messages_table.pk + 1)) == []


def test_it_finds_numbers_by_their_first_digits(auditor_client, messages_table):
    assert sorted(mobiles(get(auditor_client, mobile="1380000012"))) == [
        f"1380000012{n}" for n in range(10)
    ]
    assert len(mobiles(get(auditor_client, mobile="138 0000 01"))) == 30  # 100-129
    assert mobiles(get(auditor_client, mobile="139")) == []
    assert len(mobiles(get(auditor_client, mobile="1"))) == 50  # every number: one page


def test_a_prefix_no_number_can_start_with_is_refused_with_the_field_named(
    auditor_client, messages_table
):
    for bad in ("12", "2", "138x", "13800000000000"):
        response = get(auditor_client, mobile=bad)
        form = response.context["form"]
        assert "mobile" in form.errors, bad
        assert response.context["page"] is None


def test_the_page_totals_each_status_under_the_current_filter(auditor_client, messages_table):
    Message.objects.filter(mobile="13800000001").update(status="carrier_queued")

    everything = get(auditor_client).context["totals"]
    first_day = get(auditor_client, date_from="2026-11-10", date_to="2026-11-10")
    prefix = get(auditor_client, mobile="1380000012").context["totals"]

    assert {(t.status, t.count) for t in everything} == {
        ("success", 103), ("failed", 26), ("unknown", 1)
    }
    assert {(t.status, t.count) for t in first_day.context["totals"]} == {
        ("success", 39), ("failed", 10), ("unknown", 1)
    }
    assert {(t.status, t.count) for t in prefix} == {("success", 8), ("failed", 2)}
    page = first_day.content.decode()
    assert "Delivered: 39" in page and "Failed: 10" in page and "Unknown status: 1" in page
    # Each total narrows the same search to its status.
    assert "date_from=2026-11-10&amp;date_to=2026-11-10&amp;status=failed" in page


def add_message_like(campaign) -> Message:
    message = Message.objects.filter(campaign=campaign).first()
    assert message is not None
    message.pk = None
    message.mobile = "13900000000"
    message.provider_message_id = None
    message.save()
    return message


def test_the_totals_follow_new_messages_recounting_at_most_every_ten_seconds(
    auditor_client, messages_table
):
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        before = {t.status: t.count for t in get(auditor_client).context["totals"]}
        message = add_message_like(messages_table)

        # During an import every view would count again: within ten seconds of the last
        # count the totals are those of that count.
        traveller.shift(5)
        soon = {t.status: t.count for t in get(auditor_client).context["totals"]}
        traveller.shift(6)
        later = {t.status: t.count for t in get(auditor_client).context["totals"]}

    assert soon == before
    assert later[message.status] == before[message.status] + 1


def test_bad_filters_are_named_and_do_not_crash(auditor_client, messages_table):
    response = get(auditor_client, mobile="12345", date_from="2026-11-12", date_to="2026-11-10")

    page = response.content.decode()
    assert response.status_code == 200
    assert "is not a mainland China mobile number" in page
    assert "The end date is before the start date." in page


def test_the_csv_export_streams_every_matching_row(auditor_client, messages_table):
    response = auditor_client.get(reverse("sms:report_csv"), {"status": "failed"})

    assert response.streaming
    assert response["Content-Type"].startswith("text/csv")
    lines = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Message,Created at,Mobile,Carrier,Status,Provider status,")
    assert len(lines) == 1 + 26
    assert all(",Failed,failed," in line for line in lines[1:])


def test_the_csv_has_the_translated_label_and_the_raw_provider_status(
    auditor_client, messages_table
):
    Message.objects.filter(mobile="13800000001").update(status="carrier_queued")

    response = auditor_client.get(
        reverse("sms:report_csv"), {"mobile": "1380000000"}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    )

    lines = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert ",状态," in lines[0] and ",服务商状态," in lines[0]
    by_mobile = {line.split(",")[2]: line.split(",") for line in lines[1:]}
    assert by_mobile["13800000000"][4:6] == ["发送失败", "failed"]
    assert by_mobile["13800000002"][4:6] == ["发送成功", "success"]
    assert by_mobile["13800000001"][4:6] == ["未知状态（carrier_queued）", "carrier_queued"]


def test_an_unknown_status_is_shown_as_unknown(auditor_client, messages_table):
    Message.objects.filter(mobile="13800000001").update(status="carrier_queued")

    response = get(auditor_client, status="unknown")

    assert mobiles(response) == ["13800000001"]
    assert "Unknown status (carrier_queued)" in response.content.decode()


def test_dates_are_those_of_the_send_not_of_the_import(auditor_client, messages_table):
    """A campaign imported one day and sent the next is found under the day it was sent."""
    imported_day = mobiles(get(auditor_client, date_from="2026-11-09", date_to="2026-11-09"))
    first_send_day = mobiles(get(auditor_client, date_from="2026-11-10", date_to="2026-11-10"))

    assert imported_day == []
    assert sorted(first_send_day) == [f"138{n:08d}" for n in range(50)]
    page = get(auditor_client, mobile="13800000007").content.decode()
    assert "2026-11-10 12:00:00" in page  # the time shown is the send's


def test_a_cursor_that_is_not_an_ascii_number_is_ignored(auditor_client, messages_table):
    for cursor in ("\u00b2", "\u0663", "12a", "-5", ""):
        for name in ("before", "after"):
            response = get(auditor_client, **{name: cursor})
            assert response.status_code == 200, (name, cursor)
            assert len(mobiles(response)) == 50

