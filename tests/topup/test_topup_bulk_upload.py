"""Bulk top-up from a CSV: every line checked and reported (line number and field) before
anything is charged; confirmation places the orders once."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER, CUCC_NUMBER
from topup import services
from topup.models import BalanceSnapshot, BatchStatus, BulkBatch, Order, OrderSource

pytestmark = pytest.mark.django_db

# What the confirmation page posts back.
CONFIRMED = {"confirmed": "1"}


def upload(client: Client, content: bytes, name: str = "topups.csv"):
    return client.post(reverse("topup:bulk_index"),
                       {"file": SimpleUploadedFile(name, content, content_type="text/csv")})


@pytest.fixture
def client(operator) -> Client:
    client = Client()
    client.force_login(operator)
    return client


def test_a_clean_file_is_checked_and_nothing_is_charged(client, products):
    content = (f"mobile,product\n{CMCC_NUMBER},CMCC_10\n+86 130-1234-5678,CUCC_50\n"
               f"{CTCC_NUMBER},CTCC_30\n").encode()
    response = upload(client, content)
    batch = BulkBatch.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/bulk/{batch.pk}/")
    assert batch.status == BatchStatus.VALIDATED and batch.problems == []
    assert [(r["line"], r["mobile"], r["product"]) for r in batch.rows] == [
        (2, CMCC_NUMBER, "CMCC_10"), (3, CUCC_NUMBER, "CUCC_50"), (4, CTCC_NUMBER, "CTCC_30")]
    assert batch.total_price == Decimal("2.85") + Decimal("5.70") + Decimal("4.75")
    assert not Order.objects.exists()
    page = client.get(response["Location"]).content.decode()
    assert 'id="confirm-batch"' in page and "13.30" in page


def test_every_bad_line_is_reported_with_its_number_and_field(client, products):
    products["CMCC_30"].active = False
    products["CMCC_30"].save()
    content = "\n".join([
        f"{CMCC_NUMBER},CMCC_10",       # 1 fine
        "12345,CMCC_10",                 # 2 not a mobile number
        f"{CMCC_NUMBER},CMCC_999",       # 3 unknown product
        f"{CMCC_NUMBER},CMCC_30",        # 4 not on sale
        f"{CMCC_NUMBER},CUCC_20",        # 5 another carrier's product
        f"{CMCC_NUMBER}",                # 6 one column
        f"{CMCC_NUMBER},CMCC_10,extra",  # 7 three columns
        "",                              # 8 blank: skipped
        f"{CMCC_NUMBER},CMCC_10,,",      # 9 empty trailing columns are fine (a duplicate)
    ]).encode()
    upload(client, content)
    batch = BulkBatch.objects.get()
    problems = {(p["line"], p["field"]) for p in batch.problems}
    assert problems == {(2, "mobile"), (3, "product"), (4, "product"), (5, "product"),
                        (6, "product"), (7, "columns")}
    messages = {p["line"]: p["message"] for p in batch.problems}
    assert "12345" in messages[2] and "CMCC_999" in messages[3]
    assert "not on sale" in messages[4] and "CUCC" in messages[5]
    assert [r["line"] for r in batch.rows] == [1, 9]
    assert [(w["line"], w["field"]) for w in batch.warnings] == [(9, "mobile")]
    page = client.get(reverse("topup:bulk_detail", args=[batch.pk])).content.decode()
    assert "CMCC_999" in page and "Line 9" in page


@pytest.mark.parametrize("encoding,header", [
    ("gb18030", "手机号,产品"), ("utf-8-sig", "mobile,product")])
def test_spreadsheet_encodings_and_headers_are_read(client, products, encoding, header):
    upload(client, f"{header}\r\n{CMCC_NUMBER},CMCC_10\r\n".encode(encoding))
    batch = BulkBatch.objects.get()
    assert batch.problems == [] and len(batch.rows) == 1


@pytest.mark.parametrize("content,message", [
    (b"", "The submitted file is empty."),
    (b"\n\n", "The file has no rows."),
    (b"\x80\x80\x80,\x81", "neither UTF-8 nor GB18030"),
    (b"13800138000,CMCC_10\n" * 4, "more than 3 rows"),
    (b"x" * 3000, "larger than 2048 bytes"),
])
def test_an_unusable_file_is_refused_as_a_whole(client, products, settings, content, message):
    settings.TOPUP_BULK_MAX_ROWS = 3
    settings.TOPUP_BULK_MAX_BYTES = 2048
    response = upload(client, content)
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors["file"])
    assert not BulkBatch.objects.exists()


def test_a_batch_costing_more_than_the_balance_warns(client, products):
    BalanceSnapshot.objects.create(balance=Decimal("5"), freeze=Decimal("0"),
                                   avail_balance=Decimal("5"), source="staff")
    upload(client, f"{CMCC_NUMBER},CMCC_100\n".encode())
    warning = BulkBatch.objects.get().warnings[0]
    assert warning["field"] == "balance" and "9.50" in warning["message"]


def test_confirming_places_one_order_per_valid_row_once(client, products, operator,
                                                        django_capture_on_commit_callbacks):
    upload(client, f"{CMCC_NUMBER},CMCC_10\nbad,CMCC_10\n{CTCC_NUMBER},CTCC_10\n".encode())
    batch = BulkBatch.objects.get()
    confirm = reverse("topup:bulk_confirm", args=[batch.pk])
    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert client.post(confirm, CONFIRMED).status_code == 302
    assert len(queued) == 2
    orders = Order.objects.order_by("batch_line")
    assert [(o.batch_line, o.source, o.requested_by) for o in orders] == [
        (1, OrderSource.BULK, operator), (3, OrderSource.BULK, operator)]
    batch.refresh_from_db()
    assert batch.status == BatchStatus.CONFIRMED and batch.confirmed_by == operator
    # A second click (or a second tab) places nothing more.
    response = client.post(confirm, CONFIRMED, follow=True)
    assert "already confirmed" in response.content.decode()
    assert Order.objects.count() == 2
    assert client.post(reverse("topup:bulk_discard", args=[batch.pk]),
                       CONFIRMED).status_code == 302
    assert BulkBatch.objects.get().status == BatchStatus.CONFIRMED


def test_a_row_that_no_longer_passes_at_confirmation_is_skipped(client, products, operator):
    upload(client, f"{CMCC_NUMBER},CMCC_10\n{CTCC_NUMBER},CTCC_10\n".encode())
    batch = BulkBatch.objects.get()
    products["CTCC_10"].active = False
    products["CTCC_10"].save()
    assert services.confirm_batch(batch.pk, operator) == 1
    batch.refresh_from_db()
    assert batch.problems[-1]["line"] == 2
    assert "At confirmation" in batch.problems[-1]["message"]


def test_a_discarded_batch_cannot_be_confirmed(client, products):
    upload(client, f"{CMCC_NUMBER},CMCC_10\n".encode())
    batch = BulkBatch.objects.get()
    client.post(reverse("topup:bulk_discard", args=[batch.pk]), CONFIRMED)
    client.post(reverse("topup:bulk_confirm", args=[batch.pk]), CONFIRMED)
    assert BulkBatch.objects.get().status == BatchStatus.DISCARDED
    assert not Order.objects.exists()


def test_an_auditor_reads_batches_but_cannot_upload_or_confirm(client, products, auditor):
    upload(client, f"{CMCC_NUMBER},CMCC_10\n".encode())
    batch = BulkBatch.objects.get()
    reader = Client()
    reader.force_login(auditor)
    assert reader.get(reverse("topup:bulk_detail", args=[batch.pk])).status_code == 200
    assert 'id="bulk-upload"' not in reader.get(reverse("topup:bulk_index")).content.decode()
    assert upload(reader, f"{CMCC_NUMBER},CMCC_10\n".encode()).status_code == 403
    assert reader.post(reverse("topup:bulk_confirm", args=[batch.pk]),
                       CONFIRMED).status_code == 403
    assert reader.post(reverse("topup:bulk_discard", args=[batch.pk]),
                       CONFIRMED).status_code == 403
    assert BulkBatch.objects.count() == 1 and not Order.objects.exists()
