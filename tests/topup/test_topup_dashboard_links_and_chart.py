"""The top-up tile's figures link to the order list filtered as they count, and its chart
shows the available balance at the end of each of the last 14 days."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from backoffice.ui.tiles import chart_days
from tests.topup.conftest import CMCC_NUMBER
from topup import dashboard, services
from topup.models import BalanceSnapshot, Order, OrderSource, OrderState

pytestmark = pytest.mark.django_db


def order_in(state: str, days_ago: int = 0) -> Order:
    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=None, source=OrderSource.SINGLE)
    Order.objects.filter(pk=order.pk).update(
        state=state, created_at=timezone.now() - timedelta(days=days_ago))
    return order


def test_todays_outcomes_link_to_the_order_list_of_today_in_that_state(products, operator):
    succeeded = order_in(OrderState.SUCCESS)
    failed = order_in(OrderState.FAILED)
    succeeded_before = order_in(OrderState.SUCCESS, days_ago=2)
    figures = {figure.label: figure for figure in dashboard.figures(operator)}
    client = Client()
    client.force_login(operator)

    listed = client.get(figures["Today: succeeded"].url)
    assert listed.status_code == 200
    page = listed.content.decode()
    assert succeeded.custno in page
    assert failed.custno not in page and succeeded_before.custno not in page

    page = client.get(figures["Today: failed"].url).content.decode()
    assert failed.custno in page and succeeded.custno not in page


def test_every_figure_of_the_tile_links_to_a_page_that_opens(products, operator):
    client = Client()
    client.force_login(operator)
    for figure in dashboard.figures(operator):
        assert figure.url, figure.label
        assert client.get(figure.url).status_code == 200, figure.label
    tile = client.get("/").content.decode()
    assert 'href="/topup/manual/"' in tile


def snapshot(available: str, days_ago: int, hour: int) -> None:
    taken = timezone.localtime().replace(hour=hour, minute=0) - timedelta(days=days_ago)
    made = BalanceSnapshot.objects.create(balance=Decimal(available), freeze=Decimal("0"),
                                          avail_balance=Decimal(available), source="schedule")
    BalanceSnapshot.objects.filter(pk=made.pk).update(taken_at=taken)


def test_the_chart_shows_the_balance_at_the_end_of_each_day_and_gaps_for_days_without(
    operator,
):
    snapshot("100.00", days_ago=3, hour=9)
    snapshot("90.50", days_ago=3, hour=18)
    snapshot("80.00", days_ago=0, hour=0)
    snapshot("500.00", days_ago=20, hour=12)  # before the chart's 14 days

    chart = dashboard.chart(operator)

    assert chart is not None and chart.kind == "line"
    assert list(chart.days) == chart_days()
    expected: list[float | None] = [None] * 14
    expected[-4], expected[-1] = 90.5, 80.0
    assert list(chart.values) == expected
    assert chart.url == "/topup/balance/"


def test_the_chart_is_not_built_for_staff_without_the_role(django_user_model):
    assert dashboard.chart(django_user_model.objects.create_user("x")) is None
