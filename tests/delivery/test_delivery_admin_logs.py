"""The admin's purge and publish logs: readable, never editable, and a failed purge can be
sent again from there."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from delivery.models import PublishedConfig, PurgeRequest, PurgeSource, PurgeStatus
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Any, django_user_model: Any) -> Any:
    user = django_user_model.objects.create_superuser("root", "root@example.com", "S3cret-pass!")
    client.force_login(user)
    return client


def test_the_logs_are_listed_and_read_only(admin_client: Any, domain: Any) -> None:
    purge = PurgeRequest.objects.create(source=PurgeSource.MANUAL, urls="http://a.example/x",
                                        url_count=1)
    record = PublishedConfig.objects.create(domain=domain, target="provider console",
                                            config={"a": 1})
    for name in ("purgerequest", "publishedconfig", "ruleset"):
        assert admin_client.get(reverse(f"admin:delivery_{name}_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:delivery_purgerequest_add")).status_code == 403
    page = admin_client.get(reverse("admin:delivery_purgerequest_change", args=[purge.pk]))
    assert page.status_code == 200
    assert 'name="urls"' not in page.content.decode()
    assert admin_client.get(reverse("admin:delivery_publishedconfig_change",
                                    args=[record.pk])).status_code == 200


def test_a_refused_purge_can_be_sent_again(edge: Edge, admin_client: Any,
                                           django_capture_on_commit_callbacks: Any,
                                           eager_tasks: None) -> None:
    purge = PurgeRequest.objects.create(
        source=PurgeSource.MANUAL, urls=f"{edge.base_url}/a.txt", url_count=1,
        status=PurgeStatus.REFUSED, attempts=5, error="401")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:delivery_purgerequest_changelist"), {
            "action": "send_again", "_selected_action": [purge.pk]}, follow=True)
    assert "1 purge queued." in response.content.decode()
    purge.refresh_from_db()
    assert purge.status == PurgeStatus.SENT
