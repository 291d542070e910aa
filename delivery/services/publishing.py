"""Publishing the settings and a rule set to the edge.

The target is a small class so that it can be swapped: in this project it is the sandbox
edge's `POST {control_url}/delivery/config`; against the real provider, whose edge is
configured in its console, a target that drives the console's API (or prints the JSON for a
person to apply) takes its place. `publish()` takes any object with `name` and `publish()`.
"""

from __future__ import annotations

from typing import Protocol

from django.db import transaction

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.audit import audited
from delivery.client import DeliveryError, EdgeConfigClient
from delivery.models import (
    DeliverySettings,
    ImageVersion,
    PublishedConfig,
    PublishStatus,
    RuleSet,
)
from delivery.services import edgeconfig
from delivery.services.connection import (
    delivery_base_url,
    edge_config_client,
    secret_fingerprint,
    token_secret,
)
from edgerules import Diagnostic, has_errors, lint_rule_set
from providerkit.json_types import JSONObject


class ConfigTarget(Protocol):
    """Where a configuration goes. `publish` returns what the target now holds (or {})."""

    name: str

    def publish(self, config: JSONObject) -> JSONObject: ...


class SandboxEdgeTarget:
    """The sandbox edge: its control API takes the JSON as it is."""

    def __init__(self, client: EdgeConfigClient | None = None) -> None:
        self.client = client or edge_config_client()
        # Named by the address the configuration takes effect at (the edge people fetch
        # from), not the control port it travels through, which nobody would recognise.
        self.name = f"sandbox edge ({edge_address() or self.client.control_url})"

    def publish(self, config: JSONObject) -> JSONObject:
        return self.client.publish(config)


def edge_address() -> str | None:
    """The edge's address (`DELIVERY_URL`), or None when it is not configured."""
    try:
        return delivery_base_url()
    except ProviderNotConfigured:
        return None


def default_target() -> ConfigTarget:
    """The target used by the pages and the demo; replace this to publish elsewhere."""
    return SandboxEdgeTarget()


class PublishBlocked(Exception):
    """The rule set has errors: `errors` maps 1-based rule numbers to their diagnostics."""

    def __init__(self, errors: dict[int, list[Diagnostic]]) -> None:
        self.errors = errors
        numbers = ", ".join(str(number) for number in errors)
        super().__init__(f"rules with errors: {numbers}")


def blocking_errors(rule_set: RuleSet | None) -> dict[int, list[Diagnostic]]:
    """Errors (not warnings) per 1-based rule number; a broken rule is never published, even
    though the edge would skip it, because it would silently do nothing."""
    if rule_set is None:
        return {}
    report = lint_rule_set(rule_set.specs())
    return {index + 1: [d for d in found if d.severity == "error"]
            for index, found in report.items() if has_errors(found)}


def preview(rule_set: RuleSet | None) -> JSONObject:
    """What a publish would send, with the secret masked (for the publish page)."""
    row = DeliverySettings.current()
    config = edgeconfig.build_config(row, ImageVersion.objects.all(), rule_set, "")
    config[edgeconfig.SECRET_KEY] = edgeconfig.SECRET_MASK
    return config


@audited("delivery", "publish", lambda *, user, rule_set, target=None: (
    rule_set, f"publish rule set {rule_set.name if rule_set else '(none)'!r}"))
def publish(*, user: StaffUser | None, rule_set: RuleSet | None,
            target: ConfigTarget | None = None) -> PublishedConfig:
    """Send the settings, versions and `rule_set` to the edge; the attempt is recorded first.

    Raises PublishBlocked (nothing recorded) when the rule set has errors,
    ProviderNotConfigured when the secret or the target's address is missing, and
    DeliveryError after recording the failure when the target refused or did not answer.
    """
    errors = blocking_errors(rule_set)
    if errors:
        raise PublishBlocked(errors)
    secret = token_secret()
    target = target or default_target()
    config = edgeconfig.build_config(
        DeliverySettings.current(), ImageVersion.objects.all(), rule_set, secret)
    with transaction.atomic():
        record = PublishedConfig.objects.create(
            published_by=user if getattr(user, "pk", None) else None,
            rule_set=rule_set,
            rule_set_name=rule_set.name if rule_set else "",
            target=target.name[:200],
            config=edgeconfig.masked(config),
            secret_fingerprint=secret_fingerprint(secret),
        )
    try:
        answer = target.publish(config)
    except DeliveryError as error:
        PublishedConfig.objects.filter(pk=record.pk).update(
            status=PublishStatus.FAILED, error=str(error)[:2000])
        raise
    PublishedConfig.objects.filter(pk=record.pk).update(
        status=PublishStatus.OK, answer=edgeconfig.masked(answer))
    record.refresh_from_db()
    return record


def last_publication() -> PublishedConfig | None:
    return PublishedConfig.objects.select_related("published_by").first()


def last_successful_publication() -> PublishedConfig | None:
    return PublishedConfig.objects.filter(status=PublishStatus.OK).first()


def secret_changed_since_publish(current_fingerprint: str | None) -> bool:
    """True when the environment's secret differs from the one last published: the edge then
    refuses links signed now, until the next publish (which in turn voids links signed with
    the old secret)."""
    last = last_successful_publication()
    if last is None or current_fingerprint is None:
        return False
    return last.secret_fingerprint != current_fingerprint
