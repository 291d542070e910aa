"""Session and header hygiene: idle expiry, other sessions ended by a password change, and the
security headers (CSP without inline scripts, nosniff, referrer policy, frame denial)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_every_page_sends_a_csp_without_inline_scripts_and_the_other_headers(client, make_user):
    client.force_login(make_user("ann", "SMS operators"))
    for url in ("/", "/sms/", "/accounts/password/", "/admin/login/"):
        response = client.get(url, follow=True)
        policy = response["Content-Security-Policy"]
        script_src = re.findall(r"script-src ([^;]*)", policy)[0]
        assert script_src == "'self'", url
        assert "frame-ancestors 'none'" in policy
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Frame-Options"] == "DENY"


def test_the_login_page_sends_the_csp_too(client):
    response = client.get("/accounts/login/")
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_no_template_holds_an_inline_script_or_event_handler():
    offenders = []
    for template in ROOT.glob("**/templates/**/*.html"):
        if ".venv" in template.parts or "sandbox" in template.parts:
            continue
        text = template.read_text()
        inline_scripts = [tag for tag in re.findall(r"<script\b[^>]*>", text)
                          if "src=" not in tag and "application/json" not in tag]
        handlers = re.findall(r"\son[a-z]+\s*=", text)
        if inline_scripts or handlers:
            offenders.append(str(template.relative_to(ROOT)))
    assert offenders == []


def test_a_session_idle_longer_than_the_limit_is_signed_out(client, make_user):
    client.force_login(make_user("ann", "SMS operators"))
    assert client.get("/").status_code == 200
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))

    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_each_request_pushes_the_idle_expiry_on(client, make_user):
    client.force_login(make_user("ann", "SMS operators"))
    Session.objects.update(expire_date=timezone.now() + timedelta(seconds=30))

    client.get("/")
    expiry = Session.objects.get().expire_date
    assert expiry > timezone.now() + timedelta(seconds=settings.SESSION_IDLE_S - 60)


def test_the_idle_limit_defaults_to_eight_hours():
    assert settings.SESSION_IDLE_S == 8 * 3600
    assert settings.SESSION_COOKIE_AGE == settings.SESSION_IDLE_S


def test_changing_the_password_ends_the_other_sessions_and_keeps_this_one(django_user_model):
    user = django_user_model.objects.create_user("ann", password="Old-pass-4321!")
    here, elsewhere = Client(), Client()
    here.force_login(user)
    elsewhere.force_login(user)

    response = here.post("/accounts/password/", {
        "old_password": "Old-pass-4321!", "new_password1": "New-pass-8765!",
        "new_password2": "New-pass-8765!"})
    assert response.status_code == 302

    assert here.get("/").status_code == 200
    assert elsewhere.get("/").status_code == 302


def test_a_wrong_old_password_changes_nothing_and_names_the_field(django_user_model):
    user = django_user_model.objects.create_user("ann", password="Old-pass-4321!")
    here = Client()
    here.force_login(user)

    response = here.post("/accounts/password/", {
        "old_password": "nope", "new_password1": "New-pass-8765!",
        "new_password2": "New-pass-8765!"})
    assert response.status_code == 200
    assert "old_password" in response.context["form"].errors
    user.refresh_from_db()
    assert user.check_password("Old-pass-4321!")
