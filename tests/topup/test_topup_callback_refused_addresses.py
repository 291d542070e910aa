"""Callbacks from addresses outside TOPUP_CALLBACK_ALLOWED_IPS are counted per address and
minute (an IPv6 address by its /64), with the first of each minute kept as a receipt and the
rest not stored; the refusals are counted in the metrics too."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from backoffice.models import AddressTally
from tests.topup.test_topup_callback_endpoint import body, client, order, send, tokens  # noqa: F401
from topup.models import CallbackReceipt, ReceiptOutcome

pytestmark = pytest.mark.django_db

KIND = "topup_callback_address"


def refused_metric() -> float:
    return REGISTRY.get_sample_value("backoffice_refused_requests_total", {"kind": KIND}) or 0.0


def test_a_flood_from_a_refused_address_keeps_one_receipt_and_a_count(
    client, tokens, order, settings  # noqa: F811
):
    settings.TOPUP_CALLBACK_ALLOWED_IPS = ["10.1.0.0/16"]
    before = refused_metric()
    big = b'{"info": "' + b"z" * 15_000 + b'"}'
    answers = {send(client, big, REMOTE_ADDR="198.51.100.7").status_code for _ in range(20)}
    assert answers == {403}
    receipt = CallbackReceipt.objects.get()
    assert receipt.outcome == ReceiptOutcome.REFUSED_ADDRESS and receipt.body_size == len(big)
    tally = AddressTally.objects.get(kind=KIND)
    assert (tally.address, tally.count, tally.sample_id) == ("198.51.100.7", 20, receipt.pk)
    assert refused_metric() - before == 20


def test_each_refused_address_keeps_its_own_sample_and_ipv6_counts_by_network(
    client, tokens, order, settings  # noqa: F811
):
    settings.TOPUP_CALLBACK_ALLOWED_IPS = ["10.1.0.0/16"]
    for address in ("198.51.100.7", "198.51.100.8", "2001:db8:1:2::5", "2001:db8:1:2::6"):
        send(client, body("200", order.custno), REMOTE_ADDR=address)
    assert CallbackReceipt.objects.count() == 3
    counts = dict(AddressTally.objects.values_list("address", "count"))
    assert counts == {"198.51.100.7": 1, "198.51.100.8": 1, "2001:db8:1:2::/64": 2}


def test_an_allowed_address_is_not_counted(client, tokens, order, settings):  # noqa: F811
    settings.TOPUP_CALLBACK_ALLOWED_IPS = ["127.0.0.1"]
    send(client, body("200", order.custno))
    assert not AddressTally.objects.exists()
