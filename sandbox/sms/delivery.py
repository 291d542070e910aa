"""Delivery progression (a tick handler): `processing -> success | failed` once a message is
`delivery_delay_s` old on the sandbox clock, with quota deduction on success only.

The carrier's answer, in order of precedence: a marketing message without the unsubscribe
wording fails (the provider's own rule); a per-number outcome rule decides next; otherwise
the message fails with probability `failure_rate`.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest

from sandbox.sms.models import OWNER_PK, Message, MessageStatus, OutcomeRule, Owner
from sandbox.sms.owner_settings import current_settings, stored_owner
from sandbox.sms.rules import utc_datetime

BATCH_SIZE = 500  # rows per transaction: keeps the write lock short and SQL parameters few


def deliver_due(now: float) -> None:
    settings = current_settings()
    cutoff = now - settings.delivery_delay_s
    due = Message.objects.filter(status=MessageStatus.PROCESSING, created_ts__lte=cutoff)
    while due.exists():
        settle_batch(cutoff, settings.delivery_delay_s, settings.failure_rate)


def carrier_outcome(message: Message, forced: dict[str, str], failure_rate: float) -> str:
    if message.missing_unsubscribe:
        return MessageStatus.FAILED
    if message.mobile in forced:
        return forced[message.mobile]
    return MessageStatus.FAILED if random.random() < failure_rate else MessageStatus.SUCCESS


def settle_batch(cutoff: float, delay_s: float, failure_rate: float) -> None:
    """Settle up to BATCH_SIZE due messages in one transaction. The transaction holds the
    write lock from its start, so the rows read here are exactly the rows updated."""
    with transaction.atomic():
        batch = list(Message.objects.filter(status=MessageStatus.PROCESSING,
                                            created_ts__lte=cutoff).order_by("id")[:BATCH_SIZE])
        forced = dict(OutcomeRule.objects.values_list("mobile", "status"))
        groups: dict[tuple[str, float], list[int]] = defaultdict(list)
        charged: Counter[str] = Counter()
        delivered: Counter[str] = Counter()
        for message in batch:
            status = carrier_outcome(message, forced, failure_rate)
            groups[(status, message.created_ts)].append(message.pk)
            if status == MessageStatus.SUCCESS:
                charged[message.report_type] += message.quantity
                delivered[message.type] += 1
        for (status, created_ts), ids in groups.items():
            # sent_at is when the carrier answered: the due moment, not the (possibly much
            # later, after a clock jump) moment this tick happens to run.
            Message.objects.filter(pk__in=ids, status=MessageStatus.PROCESSING).update(
                status=status, sent_at=utc_datetime(created_ts + delay_s))
        if charged or delivered:
            charge(charged, delivered)


def charge(units: Counter[str], delivered: Counter[str]) -> None:
    """Deduct delivered units and count delivered messages. Never below zero: the control API
    may have lowered a quota below what messages in progress held."""
    stored_owner()
    Owner.objects.filter(pk=OWNER_PK).update(
        general=Greatest(F("general") - Value(units["general"]), Value(0)),
        vip=Greatest(F("vip") - Value(units["vip"]), Value(0)),
        industry=F("industry") + Value(delivered["industry"]),
        marketing=F("marketing") + Value(delivered["marketing"]),
    )
