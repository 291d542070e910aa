"""The order list counts matching orders only up to a cap, so its cost does not grow with the
table: below the cap it says how many there are, above it "more than" and pages on."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER
from topup import services
from topup.models import OrderSource
from topup.views.paging import CappedPaginator

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_orders(operator, products):
    for mobile, code in ((CMCC_NUMBER, "CMCC_10"), (CTCC_NUMBER, "CTCC_10"),
                         (CMCC_NUMBER, "CMCC_30")):
        services.place_order(services.OrderRequest(mobile=mobile, product_code=code),
                             requested_by=operator, source=OrderSource.SINGLE)


def listed(operator, **params: str | int):
    client = Client()
    client.force_login(operator)
    return client.get(reverse("topup:order_list"), params)


def test_below_the_cap_the_list_says_how_many_orders_match(operator, three_orders):
    response = listed(operator)

    assert response.context["page"].paginator.count == 3
    assert "3 orders" in response.content.decode()


def test_above_the_cap_the_list_says_more_than_and_still_pages(
    operator, three_orders, monkeypatch
):
    monkeypatch.setattr(CappedPaginator, "cap", 1)
    monkeypatch.setattr("topup.views.orders.PAGE_SIZE", 1)

    first = listed(operator)
    second = listed(operator, page=2)

    page = first.context["page"]
    assert page.paginator.capped
    assert "More than 1 orders" in first.content.decode()
    assert "Page 1</span>" in first.content.decode()
    assert len(page.object_list) == 1 and page.has_next()
    assert second.context["page"].object_list[0] != page.object_list[0]
