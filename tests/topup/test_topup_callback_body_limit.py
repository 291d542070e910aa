"""A callback body over 16 KB is refused with 413 before it is read: whatever its
Content-Length announces, at most 16 KB are read, kept as a receipt with the size; a chunked
body is read up to the limit, and one within it is handled like any other."""

from __future__ import annotations

import io

import pytest

from tests.topup.test_topup_callback_endpoint import (  # noqa: F401
    URL,
    body,
    client,
    order,
    post,
    send,
    tokens,
)
from topup.models import CallbackReceipt, OrderState, ReceiptOutcome

pytestmark = pytest.mark.django_db

LIMIT = 16 * 1024


def test_a_body_declared_over_16_kb_is_refused_after_reading_only_its_first_16_kb(
    client,  # noqa: F811
):
    sent = b'{"code": "' + b"x" * 40_000 + b'"}'
    # Ten megabytes announced, 40 KB sent: reading past the first 16 KB would fail the test
    # client's payload, which refuses reads beyond what it holds.
    response = send(client, sent, CONTENT_LENGTH=str(10_000_000))
    assert response.status_code == 413
    assert response.json() == {"info": "0", "error": "too_large"}
    receipt = CallbackReceipt.objects.get()
    assert receipt.outcome == ReceiptOutcome.TOO_LARGE and receipt.processed
    assert bytes(receipt.body) == sent[:LIMIT]
    assert receipt.body_size == 10_000_000
    assert "10000000 bytes (Content-Length)" in receipt.error


def test_a_chunked_body_over_the_limit_is_refused_with_its_first_bytes_kept(
    client,  # noqa: F811
):
    sent = b"[" + b"1," * 50_000 + b"1]"
    response = client.generic("POST", URL, b"", content_type="application/json",
                              CONTENT_LENGTH="", **{"wsgi.input": io.BytesIO(sent),
                                                    "wsgi.input_terminated": True})
    assert response.status_code == 413
    receipt = CallbackReceipt.objects.get()
    assert bytes(receipt.body) == sent[:LIMIT] and receipt.body_size == LIMIT + 1
    assert "more than 16384 bytes (chunked)" in receipt.error


def test_a_chunked_body_within_the_limit_is_applied(
    client, post, tokens, order,  # noqa: F811
):
    import json

    sent = json.dumps(body("200", order.custno)).encode()
    response = client.generic("POST", URL, b"", content_type="application/json",
                              CONTENT_LENGTH="", **{"wsgi.input": io.BytesIO(sent),
                                                    "wsgi.input_terminated": True})
    assert response.status_code == 200
    receipt = CallbackReceipt.objects.get()
    assert receipt.sign_valid and receipt.body_size == len(sent)
    assert order.__class__.objects.get(pk=order.pk).state in (OrderState.PENDING,
                                                              OrderState.SUCCESS)


def test_a_body_of_exactly_16_kb_is_read_and_judged(client):  # noqa: F811
    sent = b'{"info": "' + b"y" * (LIMIT - 12) + b'"}'
    assert len(sent) == LIMIT
    response = send(client, sent)
    assert response.status_code == 403  # read whole, judged: no sign
    receipt = CallbackReceipt.objects.get()
    assert receipt.outcome == ReceiptOutcome.INVALID_SIGN and bytes(receipt.body) == sent
    assert receipt.body_size == LIMIT
