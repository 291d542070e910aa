"""The dashboard tile's figures and the demo data of `make run`."""

from __future__ import annotations

import io
import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client

from tests.topup.conftest import CMCC_NUMBER
from topup import dashboard, demo, services
from topup.models import BalanceSnapshot, Order, OrderSource, OrderState, Product

pytestmark = pytest.mark.django_db


def test_the_tile_shows_balance_todays_outcomes_and_the_waiting_orders(products, operator):
    BalanceSnapshot.objects.create(balance=Decimal("120.00"), freeze=Decimal("4.75"),
                                   avail_balance=Decimal("115.25"), source="schedule")
    for state in (OrderState.SUCCESS, OrderState.SUCCESS, OrderState.FAILED,
                  OrderState.PENDING, OrderState.MANUAL):
        order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                           product_code="CMCC_10"),
                                     requested_by=None, source=OrderSource.SINGLE)
        Order.objects.filter(pk=order.pk).update(state=state)
    figures = {f.label: f.value for f in dashboard.figures(operator)}
    assert figures["Available balance"] == "115.25 yuan"
    assert re.fullmatch(r"\d\d:\d\d", figures["Balance checked"])  # today: the time only
    assert (figures["Today: succeeded"], figures["Today: failed"],
            figures["Today: in progress"], figures["Waiting for a person"]) == ("2", "1", "2", "1")
    client = Client()
    client.force_login(operator)
    tile = client.get("/").content.decode()
    assert 'id="tile-topup"' in tile and "115.25" in tile


def test_todays_outcomes_are_counted_once_a_minute_and_the_waiting_orders_every_time(
        products, operator):
    def place(state: str) -> None:
        order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                           product_code="CMCC_10"),
                                     requested_by=None, source=OrderSource.SINGLE)
        Order.objects.filter(pk=order.pk).update(state=state)

    place(OrderState.SUCCESS)
    first = {f.label: f.value for f in dashboard.figures(operator)}
    place(OrderState.SUCCESS)
    place(OrderState.MANUAL)
    again = {f.label: f.value for f in dashboard.figures(operator)}

    assert first["Today: succeeded"] == again["Today: succeeded"] == "1"  # counted a minute ago
    assert (first["Waiting for a person"], again["Waiting for a person"]) == ("0", "1")
    cache.clear()  # the minute is over
    assert {f.label: f.value for f in dashboard.figures(operator)}["Today: succeeded"] == "2"


def test_the_tile_without_a_balance_says_so(operator):
    shown = {f.label: f.value for f in dashboard.figures(operator)}
    assert shown["Available balance"] == "not checked yet"


def test_the_tile_shows_nothing_to_staff_of_other_services(make_user):
    assert dashboard.figures(make_user("sms", "SMS operators")) == []


def test_demo_data_loads_products_balance_and_the_callback_address(topup_sandbox, monkeypatch):
    monkeypatch.setenv("WEB_PORT", "8123")
    out = io.StringIO()
    demo.load(out)
    assert {p.code: p.price for p in Product.objects.all()} == demo.SANDBOX_PRODUCTS
    assert topup_sandbox.balance()["callback_url"] == "http://127.0.0.1:8123/api/topup/callback/"
    assert BalanceSnapshot.objects.get().avail_balance == Decimal("1000.00")
    assert Order.objects.count() == len(demo.DEMO_ORDERS)
    # Loading again changes nothing that staff may have edited, and places no new orders.
    Product.objects.filter(code="CMCC_10").update(price=Decimal("3.00"))
    demo.load(io.StringIO())
    assert Product.objects.get(code="CMCC_10").price == Decimal("3.00")
    assert Product.objects.count() == len(demo.SANDBOX_PRODUCTS)
    assert Order.objects.count() == len(demo.DEMO_ORDERS)


def test_the_demo_prices_are_what_the_sandbox_charges(topup_sandbox, products):
    """The reconciliation report depends on it: a wrong price is a daily balance mismatch."""
    numbers = {"CMCC": CMCC_NUMBER, "CUCC": "13012345678", "CTCC": "13312345678"}
    for code in demo.SANDBOX_PRODUCTS:
        order = services.place_order(services.OrderRequest(mobile=numbers[code[:4]],
                                                           product_code=code),
                                     requested_by=None, source=OrderSource.SINGLE)
        services.submit_order(order.pk)
    charged = {o["prodcode"]: Decimal(str(o["price"])).quantize(Decimal("0.01"))
               for o in topup_sandbox.orders()}
    assert charged == demo.SANDBOX_PRODUCTS
