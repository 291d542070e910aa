"""Login throttling: 5 failures for one user name from one address, or 20 from one address, in
15 minutes lock that pair or address out, with a message saying when to retry (and in which
time zone); the right password is refused meanwhile from there, never from elsewhere; 50
failures an hour for one name, from any addresses, hold the name; wrong old passwords on the
password-change page count; the admin unlocks; the staff, admin and API session logins share
the rules."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog
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
def test_five_failures_lock_the_name_from_that_address_and_the_right_password_is_refused(
        url, ann):
    client = Client()
    for _ in range(4):
        assert attempt(client, url, "ann", "wrong").status_code == 200
    locked = attempt(client, url, "ann", "wrong")
    assert locked.status_code == 429

    refused = attempt(client, url, "ann", PASSWORD)
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session
    assert "Try again after" in refused.content.decode()
    assert 14 * 60 <= int(refused["Retry-After"]) <= 15 * 60


@pytest.mark.parametrize("url", LOGINS)
def test_an_attacker_address_locks_itself_not_the_user_signing_in_from_elsewhere(url, ann):
    attacker = Client()
    for _ in range(12):
        attempt(attacker, url, "ann", "wrong", address="203.0.113.7")
    assert attempt(attacker, url, "ann", PASSWORD, address="203.0.113.7").status_code == 429

    owner = Client()
    signed_in = attempt(owner, url, "ann", PASSWORD, address="10.0.0.2")
    assert signed_in.status_code == 302
    assert "_auth_user_id" in owner.session
    # The owner's sign-in does not lift the attacker's lock either.
    assert attempt(attacker, url, "ann", PASSWORD, address="203.0.113.7").status_code == 429


def test_the_lockout_page_names_the_time_with_its_time_zone(ann, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    client = Client()
    for _ in range(5):
        attempt(client, "/accounts/login/", "ann", "wrong")
    page = attempt(client, "/accounts/login/", "ann", PASSWORD).content.decode()
    assert "Asia/Shanghai (UTC+08:00)" in page


def test_fifty_failures_an_hour_for_one_name_hold_it_from_every_address(ann):
    client = Client()
    for number in range(10):  # ten addresses, five each: each pair locks itself
        for _ in range(5):
            attempt(client, "/accounts/login/", "ann", "wrong", address=f"198.51.100.{number}")
    held = attempt(client, "/accounts/login/", "ann", PASSWORD, address="10.0.0.2")
    assert held.status_code == 429
    assert "in the last hour" in held.content.decode()
    assert 59 * 60 <= int(held["Retry-After"]) <= 60 * 60
    # Other names are not held.
    assert attempt(client, "/accounts/login/", "bob", "x", address="10.0.0.2").status_code == 200


def test_forty_nine_failures_an_hour_do_not_hold_the_name(ann):
    client = Client()
    for number in range(10):
        for _ in range(5 if number < 9 else 4):
            attempt(client, "/accounts/login/", "ann", "wrong", address=f"198.51.100.{number}")
    assert attempt(client, "/accounts/login/", "ann", PASSWORD,
                   address="10.0.0.2").status_code == 302


def test_the_hourly_name_limit_ends_an_hour_after_the_failures(ann):
    client = Client()
    for number in range(10):
        for _ in range(5):
            attempt(client, "/accounts/login/", "ann", "wrong", address=f"198.51.100.{number}")
    AccessFailureLog.objects.update(attempt_time=timezone.now() - timedelta(minutes=61))
    AccessAttempt.objects.all().delete()
    assert attempt(client, "/accounts/login/", "ann", PASSWORD,
                   address="10.0.0.2").status_code == 302


def change_password(client: Client, old: str, address: str = "10.0.0.1"):
    return client.post("/accounts/password/", {
        "old_password": old, "new_password1": "Another-pass-1357!",
        "new_password2": "Another-pass-1357!"}, REMOTE_ADDR=address)


def test_wrong_old_passwords_on_the_password_change_page_count_toward_the_lockout(ann):
    client = Client()
    client.force_login(ann)
    answers = [change_password(client, "wrong").status_code for _ in range(5)]
    assert answers == [200, 200, 200, 200, 429]
    assert "_auth_user_id" not in client.session  # whoever held the session was guessing
    assert attempt(Client(), "/accounts/login/", "ann", PASSWORD).status_code == 429
    assert attempt(Client(), "/accounts/login/", "ann", PASSWORD,
                   address="10.0.0.2").status_code == 302


def test_a_locked_pair_cannot_change_the_password_even_with_the_right_old_one(ann):
    for _ in range(5):
        attempt(Client(), "/accounts/login/", "ann", "wrong")
    client = Client()
    client.force_login(ann)
    assert change_password(client, PASSWORD).status_code == 429
    ann.refresh_from_db()
    assert ann.check_password(PASSWORD)


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
