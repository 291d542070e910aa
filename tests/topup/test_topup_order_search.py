"""The order list's search: part of a mobile number, the provider's order number or part of it,
our order number from its start (docs/decisions.md, "Searching orders")."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER
from topup import services
from topup.models import Order, OrderSource

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_orders(operator, products) -> tuple[Order, Order]:
    placed = [
        services.place_order(services.OrderRequest(mobile=mobile, product_code=code),
                             requested_by=operator, source=OrderSource.SINGLE)
        for mobile, code in ((CMCC_NUMBER, "CMCC_10"), (CTCC_NUMBER, "CTCC_10"))
    ]
    first, second = (Order.objects.get(pk=p.pk) for p in placed)
    # Two numbers made in the same second, as under load: only the suffix tells them apart.
    Order.objects.filter(pk=first.pk).update(custno="20261104084852398000000e14eb",
                                             orderno="P7781234XYZ")
    Order.objects.filter(pk=second.pk).update(custno="20261104084852411000009a03c1")
    return Order.objects.get(pk=first.pk), Order.objects.get(pk=second.pk)


def listed(operator, term: str) -> list[str]:
    client = Client()
    client.force_login(operator)
    response = client.get(reverse("topup:order_list"), {"q": term})
    assert response.status_code == 200
    return sorted(order.custno for order in response.context["page"].object_list)


def test_a_whole_order_number_finds_that_order(operator, two_orders):
    first, _second = two_orders
    assert listed(operator, first.custno) == [first.custno]
    assert listed(operator, first.custno.upper()) == [first.custno]


def test_an_order_number_to_the_second_finds_that_seconds_orders(operator, two_orders):
    first, second = two_orders
    assert listed(operator, first.custno[:14]) == sorted([first.custno, second.custno])
    assert listed(operator, first.custno[:20]) == [first.custno]


def test_a_shorter_start_or_the_middle_of_an_order_number_finds_nothing(operator, two_orders):
    first, _second = two_orders
    assert listed(operator, first.custno[:8]) == []  # a whole day: the date filter says it
    assert listed(operator, first.custno[-6:]) == []


def test_part_of_a_mobile_or_of_the_providers_order_number_finds_the_order(operator,
                                                                          two_orders):
    first, second = two_orders
    assert listed(operator, CTCC_NUMBER[-4:]) == [second.custno]
    assert listed(operator, "781234x") == [first.custno]


def test_the_search_field_says_what_it_matches(operator, two_orders):
    client = Client()
    client.force_login(operator)
    page = client.get(reverse("topup:order_list"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "from its start (at least its first 14 characters)" in page
