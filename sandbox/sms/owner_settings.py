"""The one-row records of the SMS service: the owner (quotas, counters) and the settings.

Readers never write: a fresh account has no rows and reads the model defaults, so the tick
thread does not take the database's write lock just to look at the settings.
"""

from __future__ import annotations

from sandbox.sms.models import OWNER_PK, SETTINGS_PK, Owner, SmsSettings


def current_settings() -> SmsSettings:
    return SmsSettings.objects.filter(pk=SETTINGS_PK).first() or SmsSettings(pk=SETTINGS_PK)


def current_owner() -> Owner:
    return Owner.objects.filter(pk=OWNER_PK).first() or Owner(pk=OWNER_PK)


def stored_owner() -> Owner:
    """The owner row, created with its default quotas if missing; call inside a transaction."""
    owner, _ = Owner.objects.get_or_create(pk=OWNER_PK)
    return owner


def stored_settings() -> SmsSettings:
    settings, _ = SmsSettings.objects.get_or_create(pk=SETTINGS_PK)
    return settings
