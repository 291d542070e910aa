"""Publishing a domain's settings, versions and a rule set to the edge, section by section.

The target is a small class so that it can be swapped: `ConsoleTarget`
(`delivery.services.console_target`) writes each section with the console API's
`PUT /buckets/domains/config`, at the provider as at the sandbox. `publish()` takes any object
with `name` and `put_section()`.

Every section is sent on every publish (the edge then holds exactly what the page showed); the
record names the sections that changed since the domain's last successful publication and
keeps the provider's answer to each. When a section fails the rest are still sent (they are
independent panels), the record stays failed, and `retry()` sends the failed ones again.
"""

from __future__ import annotations

from typing import Protocol

from django.db import transaction
from django.utils import timezone

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.audit import audited
from console.models import Domain
from delivery.client import DeliveryConnectionError, DeliveryError
from delivery.models import (
    DeliverySettings,
    ImageVersion,
    PublishedConfig,
    PublishStatus,
    RuleSet,
)
from delivery.services import edgeconfig
from delivery.services.connection import current_secret_fingerprint, delivery_base_url, token_secret
from delivery.services.security import security_for
from edgerules import Diagnostic, has_errors, lint_rule_set
from providerkit.json_types import JSONObject, JSONValue

NOT_SENT = "not sent: the console stopped answering before this section"


class ConfigTarget(Protocol):
    """Where a configuration goes. `put_section` returns the provider's answer (JSON) and
    raises DeliveryError (status and body set when there was an answer) when it fails."""

    name: str

    def put_section(self, domain: Domain, section: str, value: JSONValue) -> JSONObject: ...


class PublishFailed(DeliveryError):
    """Some sections were not accepted; `record` holds every answer."""

    def __init__(self, record: PublishedConfig, failed: list[str]) -> None:
        super().__init__(f"sections not published: {', '.join(failed)}")
        self.record = record
        self.failed = failed


class RetryObsolete(Exception):
    """A later publication of the domain exists: retrying this one would undo it."""


def edge_address(domain: Domain) -> str | None:
    """The domain's link address, or None when it is not configured."""
    try:
        return delivery_base_url(domain)
    except ProviderNotConfigured:
        return None


def default_target() -> ConfigTarget:
    """The console API (ProviderNotConfigured without its address and login)."""
    from delivery.services.console_target import ConsoleTarget

    return ConsoleTarget()


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


def _sections(domain: Domain, rule_set: RuleSet | None, secret: str) -> JSONObject:
    return edgeconfig.build_sections(DeliverySettings.for_domain(domain),
                                     ImageVersion.objects.filter(domain=domain), rule_set, secret,
                                     security_for(domain))


def preview(domain: Domain, rule_set: RuleSet | None) -> JSONObject:
    """What a publish would send, with the secret masked (for the publish page)."""
    return edgeconfig.masked(_sections(domain, rule_set, edgeconfig.SECRET_MASK))


def _secret(domain: Domain) -> str:
    """The domain's secret; "" when it has none and token protection is off (the console then
    keeps the secret it holds). ProviderNotConfigured when protection needs one."""
    try:
        return token_secret(domain)
    except ProviderNotConfigured:
        if DeliverySettings.for_domain(domain).token_protection:
            raise
        return ""


def _send(target: ConfigTarget, domain: Domain, sections: JSONObject,
          names: list[str]) -> dict[str, JSONObject]:
    """Each named section in turn; the answer of each, masked. After a lost connection the
    rest are not tried (the console is not answering), only marked."""
    answers: dict[str, JSONObject] = {}
    unreachable = False
    for name in names:
        if unreachable:
            answers[name] = {"ok": False, "answer": NOT_SENT}
            continue
        try:
            answer = target.put_section(domain, name, sections[name])
        except DeliveryError as error:
            unreachable = isinstance(error, DeliveryConnectionError)
            answers[name] = {"ok": False, "status": error.status,
                             "answer": (error.body or str(error))[:2000]}
        else:
            answers[name] = {"ok": True, "answer": edgeconfig.masked(answer)}
    return answers


def _failed(answers: dict[str, JSONValue]) -> list[str]:
    return [name for name, answer in answers.items()
            if not (isinstance(answer, dict) and answer.get("ok"))]


def _conclude(record: PublishedConfig, answers: dict[str, JSONValue]) -> PublishedConfig:
    failed = _failed(answers)
    record.answers = answers
    record.status = PublishStatus.FAILED if failed else PublishStatus.OK
    record.error = f"sections not published: {', '.join(failed)}" if failed else ""
    record.save(update_fields=["answers", "status", "error", "retried_at", "secret_fingerprint"])
    if failed:
        raise PublishFailed(record, failed)
    return record


@audited("delivery", "publish", lambda *, user, domain, rule_set, target=None: (
    rule_set or domain,
    f"publish on {domain.name} rule set {rule_set.name if rule_set else '(none)'!r}"))
def publish(*, user: StaffUser | None, domain: Domain, rule_set: RuleSet | None,
            target: ConfigTarget | None = None) -> PublishedConfig:
    """Send the domain's settings, versions and `rule_set`, section by section; the attempt
    is recorded first.

    Raises PublishBlocked (nothing recorded) when the rule set has errors, ValueError when it
    belongs to another domain, ProviderNotConfigured when the secret or the target's address
    is missing, and PublishFailed (a DeliveryError) after recording the answers when a section
    failed.
    """
    if rule_set is not None and rule_set.domain_id != domain.pk:
        raise ValueError(f"rule set {rule_set.name!r} belongs to another domain")
    errors = blocking_errors(rule_set)
    if errors:
        raise PublishBlocked(errors)
    secret = _secret(domain)
    target = target or default_target()
    sections = _sections(domain, rule_set, secret)
    stored = edgeconfig.masked(sections)
    fingerprint = current_secret_fingerprint(domain) if secret else ""
    previous = last_successful_publication(domain)
    changed = edgeconfig.changed_sections(stored, previous.config if previous else None)
    if previous is not None and secret and previous.secret_fingerprint != fingerprint \
            and edgeconfig.TOKEN not in changed:
        changed.insert(0, edgeconfig.TOKEN)
    with transaction.atomic():
        record = PublishedConfig.objects.create(
            domain=domain,
            published_by=user if getattr(user, "pk", None) else None,
            rule_set=rule_set,
            rule_set_name=rule_set.name if rule_set else "",
            target=target.name[:200],
            config=stored,
            changed=changed,
            secret_fingerprint=fingerprint or "",
        )
    answers: dict[str, JSONValue] = {**_send(target, domain, sections, list(sections))}
    return _conclude(record, answers)


@audited("delivery", "publish.retry", lambda record, *, user, target=None: (
    record.rule_set or record.domain,
    f"retry publication #{record.pk} on {record.domain.name}"))
def retry(record: PublishedConfig, *, user: StaffUser | None,
          target: ConfigTarget | None = None) -> PublishedConfig:
    """Send the sections of a failed publication that were not accepted, as recorded (the
    secret as the domain has it now). RetryObsolete when the domain was published since;
    a publication that succeeded is returned as it is."""
    if record.status == PublishStatus.OK:
        return record
    if PublishedConfig.objects.filter(domain=record.domain, pk__gt=record.pk).exists():
        raise RetryObsolete(f"publication #{record.pk} has a later one")
    previous: dict[str, JSONValue] = dict(record.answers or {})
    failed = _failed(previous) or [name for name in edgeconfig.SECTIONS
                                   if name in record.config]
    secret = _secret(record.domain) if edgeconfig.TOKEN in failed else ""
    target = target or default_target()
    sections = edgeconfig.unmasked(record.config, secret)
    if secret:
        record.secret_fingerprint = current_secret_fingerprint(record.domain) or ""
    record.retried_at = timezone.now()
    answers = {**previous, **_send(target, record.domain, sections, failed)}
    return _conclude(record, answers)


def last_publication(domain: Domain) -> PublishedConfig | None:
    return PublishedConfig.objects.filter(domain=domain).select_related("published_by").first()


def last_successful_publication(domain: Domain) -> PublishedConfig | None:
    return PublishedConfig.objects.filter(domain=domain, status=PublishStatus.OK).first()


def secret_changed_since_publish(domain: Domain, current_fingerprint: str | None) -> bool:
    """True when the domain's secret differs from the one last published: the edge then
    refuses links signed now, until the next publish (which in turn voids links signed with
    the old one)."""
    last = last_successful_publication(domain)
    if last is None or current_fingerprint is None or not last.secret_fingerprint:
        return False
    return last.secret_fingerprint != current_fingerprint
