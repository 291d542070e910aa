"""The delivery report export written by PostgreSQL's COPY is the very CSV that Python's csv
writer makes of the same rows: same quoting, formula guard, empty cells, time zone and line
ends, and it still streams every matching row."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.urls import reverse

from sms.models import Campaign, Chunk, Message
from sms.services import search
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db

AWKWARD_TEXTS = (
    "plain",
    'a "quoted", comma',
    "two\nlines",
    "carriage\rreturn",
    "=1+1",
    "+86 start",
    "-minus",
    "@at",
    "\ttab first",
    "\rcr first",
    "\\.",
    "back\\slash",
    "【示例商城】验证码 123456",
    " leading space",
    "'already quoted",
)


@pytest.fixture
def awkward_messages(db) -> Campaign:
    campaign = Campaign.objects.create(
        template=local_template(), source="form", state="done"
    )
    chunk = Chunk.objects.create(campaign=campaign, number=1, size=1, state="sent")
    sent = datetime(2026, 11, 10, 23, 30, 15, 987654, tzinfo=UTC)
    for index, text in enumerate(AWKWARD_TEXTS):
        sent_now = index % 3 != 0
        Message.objects.create(
            campaign=campaign,
            chunk=chunk,
            mobile=f"138{index:08d}" if index % 4 else "=1380013800",
            text=text,
            units=1 + index % 2,
            carrier="" if index % 5 == 0 else "CMCC",
            status=("success", "failed", "-x", "queued")[index % 4],
            error_code="" if index % 2 else text[:40],
            provider_message_id=0 if index == 1 else (None, 1000 + index)[index % 2],
            units_billed=None if index % 2 else 1,
            submitted_at=sent if sent_now else None,
            sent_at=sent if sent_now else None,
        )
    return campaign


def python_csv(filters: search.Filters) -> bytes:
    return "".join(search.csv_lines(filters)).encode()


def test_the_copy_export_is_byte_for_byte_the_python_csv(awkward_messages):
    assert connection.vendor == "postgresql"
    for filters in (search.Filters(), search.Filters(status="failed")):
        copied = b"".join(search.csv_bytes(filters))

        assert copied == python_csv(filters)


def test_the_copy_export_writes_times_in_the_local_time_zone(awkward_messages):
    copied = b"".join(search.csv_bytes(search.Filters(status="success"))).decode("utf-8-sig")

    # 23:30:15 UTC is 07:30:15 the next day in Asia/Shanghai; microseconds are cut.
    assert "2026-11-11 07:30:15" in copied


def test_the_report_view_streams_every_row_through_copy(auditor_client, awkward_messages):
    response = auditor_client.get(reverse("sms:report_csv"))

    assert response.streaming
    body = b"".join(response.streaming_content)
    assert body == python_csv(search.Filters())
    assert body.count(b"\r\n") >= 1 + len(AWKWARD_TEXTS)


def test_both_exports_write_the_status_label_in_the_reader_language_and_the_raw_status(
    awkward_messages,
):
    from django.utils import translation

    with translation.override("zh-hans"):
        copied = b"".join(search.csv_bytes(search.Filters()))
        assert copied == python_csv(search.Filters())
    text = copied.decode("utf-8-sig")
    assert "发送成功,success," in text
    assert "未知状态（-x）,'-x," in text  # the raw status keeps the formula guard
