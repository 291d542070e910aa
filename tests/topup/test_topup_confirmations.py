"""Charging a bulk batch, discarding it and revoking an API token are asked on the
confirmation page first, with what will happen and how many top-ups it touches; the old
buttons' plain POST only asks."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from backoffice.models import AuditEntry
from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER
from topup import services
from topup.models import ApiToken, BatchStatus, BulkBatch, Order

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(operator) -> Client:
    client = Client()
    client.force_login(operator)
    return client


@pytest.fixture
def batch(client, products) -> BulkBatch:
    content = f"{CMCC_NUMBER},CMCC_10\nbad,CMCC_10\n{CTCC_NUMBER},CTCC_30\n".encode()
    client.post(reverse("topup:bulk_index"),
                {"file": SimpleUploadedFile("run.csv", content, content_type="text/csv")})
    return BulkBatch.objects.get()


def question(html: str) -> str:
    match = re.search(r'<h1 id="confirm-question">([^<]*)</h1>', html)
    assert match, "no confirmation page"
    return unescape(match.group(1))


def test_the_charge_button_only_asks_with_the_count_and_the_total(client, batch):
    response = client.post(reverse("topup:bulk_confirm", args=[batch.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert question(html) == f"Charge 2 top-ups of batch #{batch.pk}, 7.60 yuan in all?"
    assert "a top-up sent to the provider is charged" in html
    assert ">Charge 2 top-ups</button>" in html
    assert not Order.objects.exists()
    assert BulkBatch.objects.get().status == BatchStatus.VALIDATED


def test_the_confirmation_charges_the_batch_once_and_is_audited(client, batch):
    response = client.post(reverse("topup:bulk_confirm", args=[batch.pk]), {"confirmed": "1"})
    assert response.status_code == 302
    assert Order.objects.count() == 2
    assert AuditEntry.objects.filter(action="bulk.confirm").count() == 1


def test_a_batch_no_longer_waiting_is_not_asked_again(client, batch):
    client.post(reverse("topup:bulk_discard", args=[batch.pk]), {"confirmed": "1"})
    response = client.get(reverse("topup:bulk_confirm", args=[batch.pk]))
    assert response.status_code == 302
    assert ("This batch was already confirmed or discarded."
            in [str(m) for m in response.wsgi_request._messages])


def test_discarding_a_batch_asks_first_with_its_valid_rows(client, batch):
    html = client.post(reverse("topup:bulk_discard", args=[batch.pk])).content.decode()
    assert question(html) == f"Discard batch #{batch.pk} and its 2 valid rows?"
    assert BulkBatch.objects.get().status == BatchStatus.VALIDATED
    client.post(reverse("topup:bulk_discard", args=[batch.pk]), {"confirmed": "1"})
    assert BulkBatch.objects.get().status == BatchStatus.DISCARDED


def test_revoking_a_token_asks_first(client, operator):
    token, _key = services.create_token(user=operator, name="ERP", scopes=["orders:read"])
    html = client.post(reverse("topup:api_token_revoke", args=[token.pk])).content.decode()
    assert question(html) == f"Revoke the API token ERP ({token.prefix}…)?"
    assert ApiToken.objects.get().revoked_at is None
    client.post(reverse("topup:api_token_revoke", args=[token.pk]), {"confirmed": "1"})
    assert ApiToken.objects.get().revoked_at is not None
    again = client.get(reverse("topup:api_token_revoke", args=[token.pk]))
    assert again.status_code == 302
    assert "Token ERP was already revoked." in [str(m) for m in again.wsgi_request._messages]
