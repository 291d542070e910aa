"""One API credential: DRF's Token scheme and app are gone. Migration topup 0008 turns each key
of a database made before it into a merchant token with the same secret (hashed, both scopes,
expiring, audited), then drops DRF's table of clear keys; the key works as `Bearer`, never
again as `Token`."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.apps import apps as installed_apps
from django.conf import settings
from django.contrib import admin
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone
from rest_framework.test import APIClient

from backoffice.models import AuditEntry
from topup.models import ApiToken

BEFORE = [("topup", "0007_callback_body_size")]
AFTER = [("topup", "0008_convert_drf_keys")]
OLD_KEY = "0123456789abcdef0123456789abcdef01234567"


def test_the_drf_token_app_auth_class_and_admin_are_gone():
    assert not installed_apps.is_installed("rest_framework.authtoken")
    assert "rest_framework.authentication.TokenAuthentication" not in (
        settings.REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"])
    assert not any(model._meta.app_label == "authtoken" for model in admin.site._registry)


def migrate(targets: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def make_drf_table_with_a_key(user_id: int) -> None:
    """DRF authtoken's table as its migrations made it, holding one key in clear."""
    with connection.schema_editor() as editor:
        editor.execute("CREATE TABLE authtoken_token (key varchar(40) NOT NULL PRIMARY KEY, "
                       "created timestamp with time zone NOT NULL, user_id integer NOT NULL "
                       "UNIQUE)" if connection.vendor == "postgresql" else
                       "CREATE TABLE authtoken_token (key varchar(40) NOT NULL PRIMARY KEY, "
                       "created datetime NOT NULL, user_id integer NOT NULL UNIQUE)")
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
                       [OLD_KEY, timezone.now() - timedelta(days=400), user_id])
    MigrationRecorder(connection).record_applied("authtoken", "0004_alter_tokenproxy_options")


@pytest.mark.django_db(transaction=True)
def test_a_database_made_before_the_migration_gets_each_key_converted(
    make_user, products, django_capture_on_commit_callbacks
):
    operator = make_user("operator", "Top-up operators")
    migrate(BEFORE)
    try:
        make_drf_table_with_a_key(operator.pk)
    finally:
        migrate(AFTER)
        if "authtoken_token" in connection.introspection.table_names():  # a failed run
            with connection.schema_editor() as editor:
                editor.execute("DROP TABLE authtoken_token")
    token = ApiToken.objects.get()
    assert (token.user_id, token.prefix, token.revoked_at) == (operator.pk, OLD_KEY[:7], None)
    assert sorted(token.scopes) == ["orders:read", "orders:write"]
    assert timedelta(days=89) < token.expires_at - timezone.now() <= timedelta(days=90)
    assert OLD_KEY not in str(ApiToken.objects.values().get())
    entry = AuditEntry.objects.get(action="api_token.convert")
    assert entry.object_id == str(token.pk) and "operator" in entry.summary
    call_command("verify_audit_chain", stdout=io.StringIO())  # the entry joined the chain
    assert "authtoken_token" not in connection.introspection.table_names()
    assert not MigrationRecorder(connection).migration_qs.filter(app="authtoken").exists()

    bearer = APIClient()
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {OLD_KEY}")
    with django_capture_on_commit_callbacks():
        placed = bearer.post("/api/topup/orders/", {"mobile": "13800138000",
                                                     "product": "CMCC_10"},
                             format="json", HTTP_IDEMPOTENCY_KEY="converted-1")
    assert placed.status_code == 201
    old_scheme = APIClient()
    old_scheme.credentials(HTTP_AUTHORIZATION=f"Token {OLD_KEY}")
    refused = old_scheme.get(f"/api/topup/orders/{placed.json()['custno']}/")
    assert (refused.status_code, refused.json()["reason"]) == (401, "retired_scheme")


@pytest.mark.django_db(transaction=True)
def test_a_database_without_drf_keys_migrates_back_and_forth_untouched():
    migrate(BEFORE)
    migrate(AFTER)
    assert not ApiToken.objects.exists()
    assert not AuditEntry.objects.filter(action="api_token.convert").exists()
