"""Callbacks sent by the real sandbox to a live back-office: normal, duplicate, late, missing,
signed with the previous token while in flight across a refresh, and forged."""

from __future__ import annotations

import json

import pytest
import requests

from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import CallbackReceipt, Order, OrderSource, OrderState, ReceiptOutcome
from topup.services.shared_token import read_snapshot

# Eager tasks: each order is sent by its task right after commit, in this thread.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


def placed_and_sent() -> Order:
    order = services.place_order(
        services.OrderRequest(mobile=CMCC_NUMBER, product_code="CMCC_10"),
        requested_by=None, source=OrderSource.SINGLE)
    order.refresh_from_db()
    assert order.state == OrderState.PENDING
    return order


def test_the_sandbox_callback_settles_the_order_and_is_acknowledged(
        topup_sandbox, callbacks_here, products):
    order = placed_and_sent()
    topup_sandbox.advance(10)
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS
    receipt = CallbackReceipt.objects.get()
    assert receipt.outcome == ReceiptOutcome.APPLIED and receipt.signed_with == "current"
    sent = topup_sandbox.callbacks()
    assert [c["acknowledged"] for c in sent] == [True]
    assert sent[0]["response"].replace(" ", "") == '{"info":"1"}'


def test_a_duplicate_callback_changes_nothing(topup_sandbox, callbacks_here, products):
    topup_sandbox.rule(CMCC_NUMBER, outcome="success", callback="duplicate")
    order = placed_and_sent()
    topup_sandbox.advance(10)
    outcomes = list(CallbackReceipt.objects.order_by("id").values_list("outcome", flat=True))
    assert outcomes == [ReceiptOutcome.APPLIED, ReceiptOutcome.DUPLICATE]
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS
    assert order.events.filter(to_state=OrderState.SUCCESS).count() == 1
    assert all(c["acknowledged"] for c in topup_sandbox.callbacks())


def test_a_late_callback_after_a_query_settled_the_order_is_a_duplicate(
        topup_sandbox, callbacks_here, products):
    topup_sandbox.rule(CMCC_NUMBER, outcome="fail", callback="late", callback_delay_s=600)
    order = placed_and_sent()
    topup_sandbox.advance(10)
    assert CallbackReceipt.objects.count() == 0
    assert services.check_order(order.pk) == OrderState.FAILED
    topup_sandbox.advance(700)
    receipt = CallbackReceipt.objects.get()
    assert receipt.outcome == ReceiptOutcome.DUPLICATE
    order.refresh_from_db()
    assert order.state == OrderState.FAILED


def test_without_a_callback_the_queries_settle_the_order(topup_sandbox, callbacks_here, products):
    topup_sandbox.rule(CMCC_NUMBER, outcome="success", callback="none")
    order = placed_and_sent()
    topup_sandbox.advance(10)
    assert CallbackReceipt.objects.count() == 0
    assert services.check_order(order.pk) == OrderState.SUCCESS


def test_a_refused_callback_is_sent_again_by_the_provider(topup_sandbox, callbacks_here, products,
                                                          settings):
    order = placed_and_sent()
    # Our side loses its token store (e.g. restored from an old backup): nothing verifies.
    from django.core.cache import cache

    from topup.models import TokenState

    saved = TokenState.objects.get()
    TokenState.objects.all().delete()
    cache.clear()
    topup_sandbox.advance(10)
    assert CallbackReceipt.objects.get().outcome == ReceiptOutcome.INVALID_SIGN
    order.refresh_from_db()
    assert order.state == OrderState.PENDING
    saved.save()
    topup_sandbox.advance(61)  # the provider's second call, a minute later
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS
    calls = topup_sandbox.callbacks()
    assert [c["acknowledged"] for c in calls] == [False, True]


def _captured_callback(topup_sandbox, live_server) -> dict:
    """A callback the sandbox signed and sent to an address that did not answer."""
    topup_sandbox.settings(callback_url=f"{live_server.url}/nowhere/")
    order = placed_and_sent()
    topup_sandbox.advance(10)
    sent = [c for c in topup_sandbox.callbacks() if c["custno"] == order.custno]
    assert sent and not sent[0]["acknowledged"]
    return sent[0]["body"]


def test_a_callback_signed_before_a_refresh_is_accepted_during_the_grace(
        topup_sandbox, live_server, products):
    body = _captured_callback(topup_sandbox, live_server)
    snapshot = read_snapshot()
    assert snapshot is not None
    before = snapshot.token
    services.build_client()._tokens.refresh(before)  # the token changes while it is in flight
    response = requests.post(f"{live_server.url}/api/topup/callback/", data=json.dumps(body),
                             headers={"Content-Type": "application/json"}, timeout=10)
    assert response.status_code == 200 and response.json() == {"info": "1"}
    receipt = CallbackReceipt.objects.get()
    assert receipt.signed_with == "previous" and receipt.outcome == ReceiptOutcome.APPLIED


def test_a_callback_signed_before_a_refresh_is_refused_after_the_grace(
        topup_sandbox, live_server, products, settings):
    settings.TOPUP_CALLBACK_GRACE_S = 0
    body = _captured_callback(topup_sandbox, live_server)
    snapshot = read_snapshot()
    assert snapshot is not None
    services.build_client()._tokens.refresh(snapshot.token)
    response = requests.post(f"{live_server.url}/api/topup/callback/", data=json.dumps(body),
                             headers={"Content-Type": "application/json"}, timeout=10)
    assert response.status_code == 403


def test_a_sandbox_callback_with_a_changed_code_is_refused(topup_sandbox, live_server, products):
    body = _captured_callback(topup_sandbox, live_server)
    body["code"] = "430" if body["code"] == "200" else "200"
    response = requests.post(f"{live_server.url}/api/topup/callback/", data=json.dumps(body),
                             headers={"Content-Type": "application/json"}, timeout=10)
    assert response.status_code == 403
    assert Order.objects.get().state == OrderState.PENDING
