"""Turns every DRF `authtoken` key into a merchant API token with the same secret, then drops
DRF's table (one API credential; docs/access.md, "Merchant API tokens").

A merchant token is stored as the SHA-256 of the key its client presents, whatever the key's
form, so an old 40-character key hashes like a new `mt_` one: the converted token keeps the old
key as its secret, and a client only changes `Authorization: Token <key>` to
`Authorization: Bearer <key>`. The token acts for the same person with both scopes (an old key
could do whatever its person could), expires after API_TOKEN_DAYS like a new one, and each
conversion is audited (`api_token.convert`), chained to the audit log's hash chain as every
entry is (it runs after the chain and its triggers exist, with the chain's own hash function,
as the migration that chained the earlier entries does).

The `authtoken` app is no longer installed, so its table is read with raw SQL, only if it
exists (a database that never had it has nothing to convert). Once converted, the table (the
keys in clear) is dropped and the app's rows in django_migrations removed, so that the
database holds no clear key and re-installing the app would start clean. Reversing keeps the
converted tokens (the clear keys cannot be restored from their hashes).
"""

import hashlib
import sys
from datetime import datetime, timedelta

from django.conf import settings
from django.db import migrations
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from backoffice.security.audit_chain import entry_hash

TABLE = "authtoken_token"
SCOPES = ["orders:read", "orders:write"]
SHOWN_PREFIX_LENGTH = 7  # of 40 hexadecimal characters: 132 bits stay unknown


def convert_keys(apps, schema_editor):  # type: ignore[no-untyped-def]
    connection = schema_editor.connection
    if TABLE not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("topup", "ApiToken")
    AuditEntry = apps.get_model("backoffice", "AuditEntry")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {schema_editor.quote_name('key')}, user_id, created "
                       f"FROM {schema_editor.quote_name(TABLE)} ORDER BY created")
        rows = cursor.fetchall()
    expires_at = timezone.now() + timedelta(days=settings.API_TOKEN_DAYS)
    last = AuditEntry.objects.order_by("-pk").values_list("hash", flat=True).first()
    previous_hash = last or ""
    for key, user_id, created in rows:
        made = created if isinstance(created, datetime) else parse_datetime(str(created))
        day = f"{made:%Y-%m-%d}" if made else "?"
        key_hash = hashlib.sha256(key.encode()).hexdigest()
        if ApiToken.objects.filter(key_hash=key_hash).exists():
            continue  # converted by an earlier, interrupted run
        user = User.objects.get(pk=user_id)
        token = ApiToken.objects.create(
            name=f"DRF key of {day}"[:100], prefix=key[:SHOWN_PREFIX_LENGTH],
            key_hash=key_hash, scopes=SCOPES, user=user, expires_at=expires_at)
        entry = AuditEntry(
            at=timezone.now(), actor=None, actor_name="", address=None, app="topup",
            action="api_token.convert", object_type="apitoken", object_id=str(token.pk),
            outcome="ok", prev_hash=previous_hash,
            summary=(f"DRF key of {getattr(user, 'username', user_id)} (created {day}) became API token "
                     f"{token.prefix}… ({', '.join(SCOPES)}), expiring "
                     f"{expires_at:%Y-%m-%d}; send it as Authorization: Bearer")[:500])
        entry.hash = entry_hash(entry)
        entry.save()
        previous_hash = entry.hash
    schema_editor.execute(f"DROP TABLE {schema_editor.quote_name(TABLE)}")
    MigrationRecorder(connection).migration_qs.filter(app="authtoken").delete()
    if rows:
        sys.stdout.write(
            f"\n  {len(rows)} DRF key(s) became merchant API tokens with the same secret: "
            "their clients must now send Authorization: Bearer <key>; they expire on "
            f"{expires_at:%Y-%m-%d}.\n")


class Migration(migrations.Migration):

    dependencies = [
        ("topup", "0007_callback_body_size"),
        # Its audit entries join the hash chain, so the chain (and its triggers) come first.
        ("backoffice", "0009_audit_append_only_triggers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(convert_keys, migrations.RunPython.noop)]
