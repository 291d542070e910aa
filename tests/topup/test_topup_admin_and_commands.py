"""Replay from the admin and the scripting entry points (management commands)."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import (
    BalanceSnapshot,
    CallbackReceipt,
    Order,
    OrderSource,
    OrderState,
    ReceiptOutcome,
    ReconciliationReport,
    TokenState,
)

pytestmark = pytest.mark.django_db

TOKEN = "AdminToken000001"


@pytest.fixture
def stored_callback(products) -> tuple[Order, CallbackReceipt]:
    now = timezone.now()
    TokenState.objects.create(pk=1, token=TOKEN, obtained_at=now,
                              expires_at=now + timedelta(hours=24))
    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=None, source=OrderSource.SINGLE)
    Order.objects.filter(pk=order.pk).update(state=OrderState.PENDING)
    text = f"code200custno{order.custno}infookordernoP1token{TOKEN}"
    body = {"code": "200", "custno": order.custno, "info": "ok", "orderno": "P1",
            "sign": hashlib.sha1(text.encode()).hexdigest()}
    Client().post("/api/topup/callback/", json.dumps(body), content_type="application/json")
    return order, CallbackReceipt.objects.get()


def admin_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def replay_in_admin(client: Client, receipt: CallbackReceipt):
    return client.post("/admin/topup/callbackreceipt/", {
        "action": "replay_selected", "_selected_action": [receipt.pk]}, follow=True)


def test_an_operator_replays_a_stored_callback_from_the_admin(stored_callback, operator):
    order, receipt = stored_callback
    assert receipt.outcome == ReceiptOutcome.RECEIVED  # stored, not applied yet
    page = replay_in_admin(admin_client(operator), receipt)
    assert "1 callback replayed." in page.content.decode()
    order.refresh_from_db()
    receipt.refresh_from_db()
    assert order.state == OrderState.SUCCESS and receipt.replays == 1


def test_an_auditor_reads_callbacks_in_the_admin_but_cannot_replay(stored_callback, auditor):
    order, receipt = stored_callback
    client = admin_client(auditor)
    page = client.get(f"/admin/topup/callbackreceipt/{receipt.pk}/change/")
    assert page.status_code == 200 and order.custno in page.content.decode()
    replay_in_admin(client, receipt)
    receipt.refresh_from_db()
    assert receipt.replays == 0 and receipt.outcome == ReceiptOutcome.RECEIVED
    assert client.get("/admin/topup/order/add/").status_code == 403


def test_the_replay_command_applies_waiting_callbacks(stored_callback):
    order, _receipt = stored_callback
    out = StringIO()
    call_command("topup_replay_callbacks", "--unprocessed", stdout=out)
    assert "replayed 1" in out.getvalue()
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS
    with pytest.raises(CommandError):
        call_command("topup_replay_callbacks")


def test_the_reconcile_command_sends_and_settles_open_orders(topup_sandbox, products):
    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=None, source=OrderSource.SINGLE)
    out = StringIO()
    call_command("topup_reconcile", "--all", stdout=out)
    assert "submitted 1" in out.getvalue()
    topup_sandbox.advance(10)
    call_command("topup_reconcile", "--all", stdout=out)
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS


def test_the_balance_and_report_commands(topup_sandbox, products):
    out = StringIO()
    call_command("topup_balance", stdout=out)
    assert "available 1000.00" in out.getvalue()
    assert BalanceSnapshot.objects.count() == 1
    call_command("topup_report", "--day", timezone.localdate().isoformat(), stdout=out)
    assert ReconciliationReport.objects.filter(day=timezone.localdate()).exists()
    for bad in ("2026-02-30", "tomorrow", (timezone.localdate() + timedelta(days=1)).isoformat()):
        with pytest.raises(CommandError):
            call_command("topup_report", "--day", bad)


def test_the_balance_command_says_what_is_missing(settings, db):
    settings.PROVIDER = {**settings.PROVIDER, "topup": {"traffic_url": None, "appkey": None,
                                                        "appsecret": None}}
    with pytest.raises(CommandError, match="traffic_url, appkey, appsecret"):
        call_command("topup_balance")
