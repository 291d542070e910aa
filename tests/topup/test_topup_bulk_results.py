"""A bulk batch's page lists every line: problem lines with what was read, and once confirmed
every valid line with its order's link and state; problems read in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER
from topup import services
from topup.models import BulkBatch, Order, OrderState

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(operator) -> Client:
    client = Client()
    client.force_login(operator)
    return client


def upload(client: Client, content: str, language: str = "en") -> BulkBatch:
    client.post(reverse("topup:bulk_index"),
                {"file": SimpleUploadedFile("t.csv", content.encode(), content_type="text/csv")},
                HTTP_ACCEPT_LANGUAGE=language)
    return BulkBatch.objects.get()


def page(client: Client, batch: BulkBatch, language: str = "en") -> str:
    return client.get(reverse("topup:bulk_detail", args=[batch.pk]),
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_every_confirmed_row_links_its_order_and_shows_its_state(client, products, operator):
    batch = upload(client, f"{CMCC_NUMBER},CMCC_10\nbad,CMCC_10\n{CTCC_NUMBER},CTCC_10\n")
    services.confirm_batch(batch.pk, operator)
    first, third = Order.objects.order_by("batch_line")
    Order.objects.filter(pk=third.pk).update(state=OrderState.FAILED)

    html = page(client, batch)

    rows = re.findall(r'<tr data-line="(\d+)"(?: data-state="(\w+)")?>(.*?)</tr>', html, re.S)
    by_line = {int(line): (state, cells) for line, state, cells in rows}
    assert by_line[1][0] == "created" and by_line[3][0] == "failed"
    assert reverse("topup:order_detail", args=[first.custno]) in by_line[1][1]
    assert reverse("topup:order_detail", args=[third.custno]) in by_line[3][1]
    assert "bad,CMCC_10" in by_line[2][1]  # the problem line, as read
    assert 'data-state="created" data-count="1"' in html
    assert 'data-state="failed" data-count="1"' in html


def test_a_row_skipped_at_confirmation_says_why_in_its_place(client, products, operator):
    batch = upload(client, f"{CMCC_NUMBER},CMCC_10\n{CTCC_NUMBER},CTCC_10\n")
    products["CTCC_10"].active = False
    products["CTCC_10"].save()
    services.confirm_batch(batch.pk, operator)

    html = page(client, batch)

    row = re.search(r'<tr data-line="2">(.*?)</tr>', html, re.S)
    assert row is not None
    assert "Not placed: Product CTCC_10 is not on sale." in row.group(1)


def test_problems_read_in_the_reader_language_not_the_uploader(client, products):
    batch = upload(client, f"12345,CMCC_10\n{CMCC_NUMBER},CMCC_999\n{CMCC_NUMBER}\n"
                           f"{CMCC_NUMBER},CMCC_10\n{CMCC_NUMBER},CMCC_10\n")

    chinese = page(client, batch, "zh-hans")
    english = page(client, batch, "en")

    assert "不是" in chinese and "CMCC_999" in chinese  # translated, values filled in
    assert "is not a mainland China mobile number" not in chinese
    assert "Unknown product code CMCC_999." in english
    assert "与第 4 行" in chinese  # the duplicate warning, with its line
    assert "手机号码" in chinese  # the field's label, not its code


def test_a_batch_stored_before_templates_shows_its_stored_text(client, products):
    batch = upload(client, "12345,CMCC_10\n" f"{CMCC_NUMBER},CMCC_10\n")
    BulkBatch.objects.filter(pk=batch.pk).update(
        problems=[{"line": 1, "field": "mobile", "message": "old words"}])

    assert "old words" in page(client, batch, "zh-hans")
