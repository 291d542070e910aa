"""TOPUP_CALLBACK_ALLOWED_IPS: a callback from an address outside the list is stored as a
receipt like any other and answered 403, and the order does not move; unset lets any address
in. Behind nginx the address is the client's (X-Real-IP from a trusted proxy)."""

from __future__ import annotations

import pytest

from tests.topup.test_topup_callback_endpoint import body, client, order, post, tokens  # noqa: F401
from topup.models import CallbackReceipt, OrderState, ReceiptOutcome

pytestmark = pytest.mark.django_db


def test_a_callback_from_an_address_outside_the_list_is_kept_and_refused(
    client, post, tokens, order, settings  # noqa: F811
):
    settings.TOPUP_CALLBACK_ALLOWED_IPS = ["10.1.0.0/16", "192.0.2.7"]
    response = post(client, body("200", order.custno))  # from 127.0.0.1
    assert response.status_code == 403
    assert response.json() == {"info": "0", "error": "address"}
    receipt = CallbackReceipt.objects.get()
    assert receipt.outcome == ReceiptOutcome.REFUSED_ADDRESS and receipt.processed
    assert receipt.custno == order.custno and receipt.remote_addr == "127.0.0.1"
    assert "TOPUP_CALLBACK_ALLOWED_IPS" in receipt.error
    order.refresh_from_db()
    assert order.state == OrderState.PENDING


@pytest.mark.parametrize("allowed", [["127.0.0.0/8"], ["127.0.0.1"], []])
def test_a_callback_from_an_allowed_address_or_with_no_list_is_applied(
    client, post, tokens, order, settings, allowed  # noqa: F811
):
    settings.TOPUP_CALLBACK_ALLOWED_IPS = allowed
    assert post(client, body("200", order.custno)).status_code == 200
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS


def test_behind_a_trusted_proxy_the_clients_address_is_judged(
    client, post, tokens, order, settings  # noqa: F811
):
    settings.TOPUP_CALLBACK_ALLOWED_IPS = ["10.1.0.0/16"]
    settings.TRUSTED_PROXY_IPS = ["127.0.0.1"]
    assert post(client, body("200", order.custno), HTTP_X_REAL_IP="10.1.2.3").status_code == 200
    assert CallbackReceipt.objects.get().remote_addr == "10.1.2.3"


def test_x_real_ip_from_an_untrusted_peer_is_ignored(
    client, post, tokens, order, settings  # noqa: F811
):
    settings.TOPUP_CALLBACK_ALLOWED_IPS = ["10.1.0.0/16"]
    settings.TRUSTED_PROXY_IPS = []
    assert post(client, body("200", order.custno), HTTP_X_REAL_IP="10.1.2.3").status_code == 403
