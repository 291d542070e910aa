"""Seals every TOTP seed still kept in hex and moves every recovery code django-otp kept in
clear (StaticToken) to its digest (RecoveryCode), deleting the clear one. Nobody re-enrols:
the same phones and the same unused codes keep working.

Backwards, the seeds are opened again (hex); the codes cannot be: their digests are left,
and the people concerned make a new set from their account page.
"""

from __future__ import annotations

from binascii import hexlify, unhexlify
from typing import Any

from django.db import migrations

from backoffice.otp_keys import code_digest, is_sealed, open_seed, seal_seed


def seal_and_hash(apps: Any, schema_editor: Any) -> None:
    totp_device = apps.get_model("otp_totp", "TOTPDevice")
    for device in totp_device.objects.all():
        if not is_sealed(device.key):
            device.key = seal_seed(unhexlify(device.key.encode()))
            device.save(update_fields=["key"])
    static_token = apps.get_model("otp_static", "StaticToken")
    recovery_code = apps.get_model("backoffice", "RecoveryCode")
    for token in static_token.objects.all():
        recovery_code.objects.get_or_create(device_id=token.device_id,
                                            digest=code_digest(token.token))
        token.delete()


def open_seeds(apps: Any, schema_editor: Any) -> None:
    totp_device = apps.get_model("otp_totp", "TOTPDevice")
    for device in totp_device.objects.all():
        if is_sealed(device.key):
            device.key = hexlify(open_seed(device.key)).decode()
            device.save(update_fields=["key"])


class Migration(migrations.Migration):
    dependencies = [
        ("backoffice", "0004_sealed_totp_seeds_and_hashed_recovery_codes"),
    ]

    operations = [migrations.RunPython(seal_and_hash, open_seeds)]
