"""The SMS client as the back-office builds it, and the quota figures its answers carry."""

from __future__ import annotations

from django.utils import timezone

from backoffice.operations.provider import provider_observers, provider_settings
from providerkit.timeouts import CONNECT_TIMEOUT_S
from sms.client import Owner, SmsClient
from sms.models import Quota
from sms.services.timing import call_timeouts

__all__ = ["CONNECT_TIMEOUT_S", "latest_quota", "record_quota", "sms_client"]


def sms_client() -> SmsClient:
    """A client for the configured provider (raises ProviderNotConfigured when env is missing).

    Its observers record every call for the metrics and the dashboard's "provider answered at ...".
    """
    values = provider_settings("sms")
    return SmsClient(
        values["api_url"],
        values["token"],
        timeout=call_timeouts(),
        observers=provider_observers("sms"),
    )


def record_quota(owner: Owner | None) -> Quota | None:
    """Store the figures of an `owner` object seen in any answer (None is ignored)."""
    if owner is None:
        return None
    quota, _created = Quota.objects.update_or_create(
        owner_id=owner.id,
        defaults={
            "name": owner.name,
            "general": owner.general,
            "vip": owner.vip,
            "industry": owner.industry,
            "marketing": owner.marketing,
            "fetched_at": timezone.now(),
        },
    )
    return quota


def latest_quota() -> Quota | None:
    return Quota.objects.order_by("-fetched_at").first()
