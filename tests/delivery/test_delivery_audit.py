"""Delivery use cases write the audit log: rule-set saves, publishing and purges; a purge
that cannot be sent (no purge address configured) is recorded as failed."""

from __future__ import annotations

from typing import Any

import pytest

from backoffice.models import AuditEntry
from backoffice.security import audit
from delivery import services
from delivery.models import DeliverySettings, RuleSet

pytestmark = pytest.mark.django_db


def test_a_rule_set_save_is_recorded_with_the_person(manager: Any, domain: Any) -> None:
    rule_set = RuleSet(domain=domain, name="site")
    with audit.acting(manager, "192.0.2.9"):
        services.save_rule_set(rule_set, [], [], manager)
    saved = AuditEntry.objects.get(app="delivery")
    assert (saved.action, saved.actor, saved.address, saved.object_id, saved.outcome) == (
        "ruleset.save", manager, "192.0.2.9", str(rule_set.pk), "ok")
    assert "'site'" in saved.summary


def test_a_purge_that_cannot_be_sent_is_recorded_as_failed(manager: Any, settings: Any,
                                                           domain: Any) -> None:
    settings.PROVIDER = {**settings.PROVIDER, "delivery": {
        "delivery_url": None, "purge_url": None, "token_secret": None}}
    with audit.acting(manager, "192.0.2.9"), pytest.raises(services.ProviderNotConfigured):
        services.request_manual_purge(["http://cdn.example.com/a.jpg"], manager)
    saved = AuditEntry.objects.get(app="delivery")
    assert (saved.action, saved.outcome) == ("purge", "failed")


def test_a_publish_refused_for_a_missing_secret_is_recorded_as_failed(
        manager: Any, settings: Any, domain: Any) -> None:
    settings.PROVIDER = {**settings.PROVIDER, "delivery": {
        "delivery_url": None, "purge_url": None, "token_secret": None}}
    DeliverySettings.objects.create(domain=domain, token_protection=True)
    with audit.acting(manager, None), pytest.raises(services.ProviderNotConfigured):
        services.publish(domain=domain, user=manager, rule_set=None)
    assert AuditEntry.objects.get(app="delivery").action == "publish"
