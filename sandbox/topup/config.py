"""The one-row records (settings, wallet), created with their defaults on first use, so that a
reset, which deletes every row, brings back a fresh account."""

from __future__ import annotations

from django.db import transaction

from sandbox.topup.models import TopupSettings, Wallet


def settings() -> TopupSettings:
    found = TopupSettings.objects.filter(pk=1).first()
    if found is not None:
        return found
    with transaction.atomic():  # IMMEDIATE: two first uses cannot both insert
        return TopupSettings.objects.get_or_create(pk=1)[0]


def wallet() -> Wallet:
    found = Wallet.objects.filter(pk=1).first()
    if found is not None:
        return found
    with transaction.atomic():
        return Wallet.objects.get_or_create(pk=1)[0]
