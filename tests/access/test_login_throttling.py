"""Login throttling: 5 failures per user name or 20 per address in 15 minutes lock out, with
a message saying when to retry; the right password is refused meanwhile; the admin unlocks;
the staff, admin and API session logins share the rule."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db

PASSWORD = "Right-pass-2468!"
LOGINS = ["/accounts/login/", "/admin/login/", "/api/auth/login/"]


@pytest.fixture
def ann(django_user_model):
    return django_user_model.objects.create_user("ann", password=PASSWORD, is_staff=True)


def attempt(client: Client, url: str, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(url, {"username": username, "password": password},
                       REMOTE_ADDR=address)


@pytest.mark.parametrize("url", LOGINS)
def test_five_failures_for_one_name_lock_it_and_the_right_password_is_refused(url, ann):
    client = Client()
    for _ in range(4):
        assert attempt(client, url, "ann", "wrong").status_code == 200
    locked = attempt(client, url, "ann", "wrong")
    assert locked.status_code == 429

    refused = attempt(client, url, "ann", PASSWORD, address="10.0.0.2")
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session
    assert "Try again after" in refused.content.decode()
    assert 14 * 60 <= int(refused["Retry-After"]) <= 15 * 60


def test_the_lockout_message_names_the_retry_time_in_chinese(ann):
    client = Client()
    for _ in range(5):
        attempt(client, "/accounts/login/", "ann", "wrong")
    refused = client.post("/accounts/login/", {"username": "ann", "password": PASSWORD},
                          REMOTE_ADDR="10.0.0.1", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert refused.status_code == 429
    assert "请在" in refused.content.decode()


def test_twenty_failures_from_one_address_lock_it_for_every_name(ann, django_user_model):
    django_user_model.objects.create_user("bob", password=PASSWORD)
    client = Client()
    for number in range(19):
        assert attempt(client, "/accounts/login/", f"guess{number}", "x").status_code == 200
    assert attempt(client, "/accounts/login/", "guess19", "x").status_code == 429

    assert attempt(client, "/accounts/login/", "bob", PASSWORD).status_code == 429
    other_address = attempt(client, "/accounts/login/", "bob", PASSWORD, address="10.9.9.9")
    assert other_address.status_code == 302


def test_four_failures_do_not_lock_and_a_success_clears_them(ann):
    client = Client()
    for _ in range(4):
        attempt(client, "/accounts/login/", "ann", "wrong")
    assert attempt(client, "/accounts/login/", "ann", PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="ann").exists()


def test_failures_older_than_fifteen_minutes_no_longer_count(ann):
    client = Client()
    for _ in range(5):
        attempt(client, "/accounts/login/", "ann", "wrong")
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert attempt(client, "/accounts/login/", "ann", PASSWORD).status_code == 302


def test_the_api_session_login_answers_json_when_asked(ann):
    client = Client()
    for _ in range(5):
        attempt(client, "/api/auth/login/", "ann", "wrong")
    refused = client.post("/api/auth/login/", {"username": "ann", "password": PASSWORD},
                          REMOTE_ADDR="10.0.0.1", HTTP_ACCEPT="application/json")
    assert refused.status_code == 429
    assert refused.json()["retry_after"] > 0
    assert "Try again after" in refused.json()["detail"]


def test_an_administrator_unlocks_from_the_admin(ann, django_user_model):
    client = Client()
    for _ in range(5):
        attempt(client, "/accounts/login/", "ann", "wrong")
    admin = django_user_model.objects.create_superuser("root", password=None)
    admin_client = Client()
    admin_client.force_login(admin)
    attempt_ids = list(AccessAttempt.objects.values_list("pk", flat=True))
    assert admin_client.get("/admin/axes/accessattempt/").status_code == 200

    response = admin_client.post("/admin/axes/accessattempt/", {
        "action": "delete_selected", "_selected_action": attempt_ids, "post": "yes"})
    assert response.status_code == 302
    assert attempt(client, "/accounts/login/", "ann", PASSWORD).status_code == 302
