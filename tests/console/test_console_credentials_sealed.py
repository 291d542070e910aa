"""Operator passwords and token secrets are sealed at rest under CREDENTIALS_KEYS (Fernet), read
back in clear by the models only, and survive a key rotation done as docs/deployment.md says."""

from __future__ import annotations

import io

import pytest
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.db import connection

from backoffice.env import StrictEnv
from console.models import ConsoleBearer, Domain, Service
from console.sealed import UnreadableCredential

pytestmark = pytest.mark.django_db

KEY_OLD = Fernet.generate_key().decode()
KEY_NEW = Fernet.generate_key().decode()


def stored_password(service: Service) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT operator_password FROM console_service WHERE id = %s",
                       [service.pk])
        return str(cursor.fetchone()[0])


def test_a_password_is_never_stored_in_clear_and_reads_back(settings):
    settings.CREDENTIALS_KEYS = [KEY_OLD]
    service = Service.objects.create(name="videos-bucket", operator="op",
                                     operator_password="s3cret-password")
    assert "s3cret-password" not in stored_password(service)
    assert stored_password(service).startswith("f1:")
    assert Service.objects.get(pk=service.pk).operator_password == "s3cret-password"


def test_an_empty_credential_stays_empty_without_any_key():
    service = Service.objects.create(name="videos-bucket")
    assert stored_password(service) == ""
    assert Service.objects.get(pk=service.pk).operator_password == ""


def test_a_rotation_reseals_under_the_new_key_and_the_old_key_can_then_go(settings):
    settings.CREDENTIALS_KEYS = [KEY_OLD]
    service = Service.objects.create(name="videos-bucket", operator="op",
                                     operator_password="s3cret-password")
    domain = Domain.objects.create(service=service, name="img.example.com",
                                   token_secret="token-secret")
    bearer = ConsoleBearer.objects.create(pk=1, token="console-bearer-token")
    settings.CREDENTIALS_KEYS = [KEY_NEW, KEY_OLD]
    out = io.StringIO()
    call_command("rotate_credentials", stdout=out)
    assert out.getvalue().strip().endswith(": 3")
    settings.CREDENTIALS_KEYS = [KEY_NEW]
    assert Service.objects.get(pk=service.pk).operator_password == "s3cret-password"
    assert Domain.objects.get(pk=domain.pk).token_secret == "token-secret"
    assert ConsoleBearer.objects.get(pk=bearer.pk).token == "console-bearer-token"


def test_a_value_no_key_opens_is_an_error_and_rotation_leaves_it_untouched(settings):
    settings.CREDENTIALS_KEYS = [KEY_OLD]
    service = Service.objects.create(name="videos-bucket", operator="op",
                                     operator_password="s3cret-password")
    before = stored_password(service)
    settings.CREDENTIALS_KEYS = [KEY_NEW]
    with pytest.raises(UnreadableCredential):
        Service.objects.get(pk=service.pk)
    with pytest.raises(CommandError, match="service"):
        call_command("rotate_credentials", stdout=io.StringIO())
    assert stored_password(service) == before


def test_a_malformed_key_stops_start_up_naming_the_variable(monkeypatch):
    monkeypatch.setenv("CREDENTIALS_KEYS", f"{KEY_NEW},not-a-key")
    with pytest.raises(ImproperlyConfigured, match="CREDENTIALS_KEYS: key 2"):
        StrictEnv().fernet_keys("CREDENTIALS_KEYS")
