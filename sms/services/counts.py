"""Counts for the metrics endpoint: campaign messages by status."""

from __future__ import annotations

from django.db.models import Count

from sms.models import Message


def messages_by_status() -> dict[str, int]:
    return dict(Message.objects.values_list("status").annotate(n=Count("pk")).order_by())
