"""The order page names the provider's calls in words (issue 29, walk-through): the count of
top-up requests and the timeline's call entries, not the API's method names (chargeOrder,
seekOrder), in English and in Chinese."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import OrderSource

pytestmark = pytest.mark.django_db

WORDS = {
    "en": ("Top-up requests sent", "Top-up request"),
    "zh-hans": ("已发送充值请求次数", "充值请求"),
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_order_page_says_the_providers_calls_in_words(topup_sandbox, products, operator,
                                                          language):
    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=operator, source=OrderSource.SINGLE)
    services.submit_order(order.pk)
    client = Client()
    client.force_login(operator)
    client.cookies["django_language"] = language
    page = client.get(reverse("topup:order_detail", args=[order.custno])).content.decode()
    count_label, call = WORDS[language]
    assert f"<th>{count_label}</th>" in page
    assert re.search(rf'data-kind="charge">\s*<time[^>]*>[^<]*</time>\s*<strong>{call}</strong>',
                     page)
    labels = re.findall(r"<th>([^<]*)</th>|<strong>([^<]*)</strong>", page)
    assert not [label for label in labels if "Order" in "".join(label)]


BATCH = {"en": "Checked, waiting for confirmation", "zh-hans": "已校验，等待确认"}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_batch_status_reads_as_a_label_on_its_pages(products, operator, language):
    from topup.models import BulkBatch

    batch = BulkBatch.objects.create(file_name="a.csv", uploaded_by=operator)
    client = Client()
    client.force_login(operator)
    client.cookies["django_language"] = language
    detail = client.get(reverse("topup:bulk_detail", args=[batch.pk])).content.decode()
    listing = client.get(reverse("topup:bulk_index")).content.decode()
    assert f'data-status="validated">{BATCH[language]}</dd>' in detail
    assert f"<td>{BATCH[language]}</td>" in listing
