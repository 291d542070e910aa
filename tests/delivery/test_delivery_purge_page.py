"""The purge page against the real sandbox: sent, invalid domains shown, bad lines and the
600-a-minute limit refused on the field with nothing sent."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from delivery.models import PurgeRequest, PurgeStatus
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db

# What the confirmation page posts back.
CONFIRMED = {"confirmed": "1"}


def test_a_purge_from_the_page(edge: Edge, manager_client: Any) -> None:
    urls = f"{edge.base_url}/a.jpg\nhttp://elsewhere.example.org/b.jpg"
    response = manager_client.post(reverse("delivery:purge"), {"urls": urls, **CONFIRMED},
                                   follow=True)
    purge = PurgeRequest.objects.get()
    assert purge.status == PurgeStatus.SENT
    assert purge.url_count == 2
    html = response.content.decode()
    assert "2 URLs sent for refresh." in html
    assert "http://elsewhere.example.org/b.jpg" in html


def test_bad_lines_are_refused_with_their_number(edge: Edge, manager_client: Any) -> None:
    response = manager_client.post(reverse("delivery:purge"),
                                   {"urls": f"{edge.base_url}/a.jpg\nnot a url"})
    assert response.status_code == 200
    assert response.context["form"].errors["urls"] == [
        "Line 2: “not a url” is not an http:// or https:// URL with a host."]
    assert not PurgeRequest.objects.exists()


def test_the_minute_limit_is_explained(edge: Edge, manager_client: Any) -> None:
    first = "\n".join(f"{edge.base_url}/{n}.jpg" for n in range(600))
    manager_client.post(reverse("delivery:purge"), {"urls": first, **CONFIRMED})
    response = manager_client.post(reverse("delivery:purge"), {"urls": f"{edge.base_url}/x",
                                                               **CONFIRMED})
    message = response.context["form"].errors["urls"][0]
    assert "At most 600 URLs may be purged a minute: 600 were sent" in message
    assert PurgeRequest.objects.count() == 1


def test_a_refused_signature_is_worded_from_the_pages_sign_error(
        edge: Edge, manager_client: Any, settings: Any) -> None:
    settings.PROVIDER["storage"]["password"] = "wrong-password"
    response = manager_client.post(reverse("delivery:purge"),
                                   {"urls": f"{edge.base_url}/a.jpg", **CONFIRMED}, follow=True)
    html = response.content.decode()
    assert ("The provider refused the purge: The provider found the signature wrong (401): "
            "check the operator&#x27;s password.") in html
    assert PurgeRequest.objects.get().status == PurgeStatus.REFUSED


def test_the_history_words_a_406_in_chinese(edge: Edge, manager_client: Any) -> None:
    PurgeRequest.objects.create(
        source="manual", urls=f"{edge.base_url}/a.jpg", url_count=1, status=PurgeStatus.FAILED,
        error="purge: more than 600 URLs a minute (406)", error_kind="rate_limited")
    manager_client.cookies["django_language"] = "zh-hans"
    response = manager_client.get(reverse("delivery:purge"))
    html = response.content.decode()
    assert "每分钟超过 600 个 URL" in html
