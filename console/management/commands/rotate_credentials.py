"""Seal every stored credential again under the first key of CREDENTIALS_KEYS.

Key rotation: put the new key first in CREDENTIALS_KEYS (keeping the old one after it), restart,
run this command, then remove the old key. Values that no key opens are named and left as they
are, so that a wrong key list never destroys a credential.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, models, transaction

from console.sealed import SealedField, UnreadableCredential, reseal


def sealed_columns() -> list[tuple[type[models.Model], str]]:
    """Every sealed column of every installed app (the console's shared Bearer token too, or a
    process would find it unreadable once the old key is dropped; delivery's certificate
    keys too), found by field type so an app adding one needs nothing here."""
    return [(model, field.name) for model in apps.get_models()
            for field in model._meta.concrete_fields if isinstance(field, SealedField)]


class Command(BaseCommand):
    help = "Seal the stored credentials again under the first key of CREDENTIALS_KEYS."

    def handle(self, *args: Any, **options: Any) -> None:
        resealed = 0
        unreadable: list[str] = []
        with transaction.atomic(), connection.cursor() as cursor:
            for model, field in sealed_columns():
                # The raw column, past the field's opening: the clear text is never held here.
                table = connection.ops.quote_name(model._meta.db_table)
                sealed_field = model._meta.get_field(field)
                assert isinstance(sealed_field, models.Field)
                column = connection.ops.quote_name(str(sealed_field.column))
                cursor.execute(f"SELECT id, {column} FROM {table} WHERE {column} <> ''")
                for pk, stored in cursor.fetchall():
                    try:
                        fresh = reseal(stored)
                    except UnreadableCredential:
                        unreadable.append(f"{model._meta.model_name} {pk} {field}")
                        continue
                    cursor.execute(f"UPDATE {table} SET {column} = %s WHERE id = %s", [fresh, pk])
                    resealed += 1
        self.stdout.write(f"sealed under the first key: {resealed}")
        if unreadable:
            raise CommandError("no key of CREDENTIALS_KEYS opens: " + ", ".join(unreadable))
