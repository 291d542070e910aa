"""Custom certificates and each domain's HTTPS switches (the HTTPS page), and the daily expiry
warnings.

An upload is checked (certificate_checks), sent to the console (`POST /https/certificate/`),
and only then stored, with the console's id and the key sealed: a refusal, here or at the
console, stores nothing. A domain's HTTPS settings (certificate, HTTPS access, forced HTTPS)
are saved locally and reach the edge with the next publish (the `https` section). Forced HTTPS
needs HTTPS access, and HTTPS access needs a certificate covering the domain, valid now.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from prometheus_client import Counter

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.audit import audited
from console.client import ConsoleConnectionError, ConsoleError, ConsoleRefused
from console.models import Domain
from console.services import ConsoleTokenUnavailable, console_client
from delivery.models import Certificate, DeliverySettings
from delivery.services.certificate_checks import (
    CERTIFICATE_FIELD,
    KEY_FIELD,
    CertificateRefused,
    check_covers,
    check_dates,
    inspect,
)

logger = logging.getLogger(__name__)
WARNING_DAYS = (30, 7)
DAY_S = 86400
CERTIFICATE_WARNINGS = Counter(
    "backoffice_delivery_certificate_warnings_total",
    "Expiry warnings given for certificates bound to a domain, by days before expiry",
    ["days"])


def days_left(certificate: Certificate, now: datetime | None = None) -> int:
    """Whole days until expiry (0 on the last day, negative once expired)."""
    seconds = (certificate.not_after - (now or timezone.now())).total_seconds()
    return math.floor(seconds / DAY_S)


@audited("delivery", "certificate.upload",
         lambda chain, key, user: (None, "certificate upload", user),
         result_target=lambda certificate: certificate)
def upload_certificate(chain: str, key: str, user: StaffUser | None) -> Certificate:
    """Check, upload to the console, store; CertificateRefused says why nothing was stored."""
    found = inspect(chain, key)
    if Certificate.objects.filter(fingerprint=found.fingerprint).exists():
        raise CertificateRefused(CERTIFICATE_FIELD, _(
            "This certificate is already uploaded (fingerprint %(fingerprint)s).") % {
            "fingerprint": found.fingerprint})
    try:
        identifier = console_client().upload_certificate(found.chain, found.key)
    except ConsoleRefused as error:
        field = error.field if error.field in (CERTIFICATE_FIELD, KEY_FIELD) \
            else CERTIFICATE_FIELD
        raise CertificateRefused(field, _("The console refused the certificate: %(answer)s") % {
            "answer": error.message or str(error)}) from error
    except (ConsoleConnectionError, ConsoleTokenUnavailable, ConsoleError,
            ProviderNotConfigured) as error:
        raise CertificateRefused(CERTIFICATE_FIELD, _(
            "The console could not be reached; nothing was stored: %(error)s") % {
            "error": str(error)}) from error
    return Certificate.objects.create(
        certificate_id=identifier, chain=found.chain, private_key=found.key,
        subject=found.subject, issuer=found.issuer, names=list(found.names),
        fingerprint=found.fingerprint, not_before=found.not_before,
        not_after=found.not_after, uploaded_by=user if getattr(user, "pk", None) else None)


@dataclass(frozen=True)
class HttpsChoice:
    certificate: Certificate | None
    access: bool
    force: bool


def check_https(domain: Domain, choice: HttpsChoice) -> None:
    """CertificateRefused naming `certificate`, `https_access` or `force_https`."""
    if choice.force and not choice.access:
        raise CertificateRefused("force_https", _(
            "Forced HTTPS needs HTTPS access on: visitors sent to https:// would be refused."))
    if choice.access and choice.certificate is None:
        raise CertificateRefused("https_access", _(
            "HTTPS access needs a certificate: choose one for the domain."))
    if choice.certificate is not None:
        check_covers(choice.certificate.names, domain.name)
        check_dates(choice.certificate.not_before, choice.certificate.not_after,
                    timezone.now())


@audited("delivery", "certificate.bind",
         lambda domain, choice, user: (domain, f"HTTPS of {domain.name}: access "
                                               f"{choice.access}, forced {choice.force}, "
                                               f"certificate {choice.certificate}", user))
def save_https(domain: Domain, choice: HttpsChoice, user: StaffUser | None) -> DeliverySettings:
    """Checked (check_https), stored; the edge gets it on the next publish."""
    check_https(domain, choice)
    with transaction.atomic():
        row = DeliverySettings.for_domain(domain)
        row.https_certificate = choice.certificate
        row.https_access = choice.access
        row.force_https = choice.force
        row.updated_by = user if getattr(user, "pk", None) else None
        row.save()
    return row


class CertificateInUse(Exception):
    def __init__(self, domains: list[str]) -> None:
        super().__init__(", ".join(domains))
        self.domains = domains


@audited("delivery", "certificate.delete",
         lambda certificate, user: (certificate, f"delete certificate {certificate}", user))
def delete_certificate(certificate: Certificate, user: StaffUser | None) -> None:
    """Forget a certificate no domain uses (CertificateInUse names those that do). The copy
    at the console stays: the console API has no documented deletion."""
    bound = sorted(row.domain.name for row in certificate.bound_settings.select_related("domain"))
    if bound:
        raise CertificateInUse(bound)
    certificate.delete()


def warning_due(certificate: Certificate, now: datetime) -> int | None:
    """The warning (30 or 7) the certificate is due now and was not given yet."""
    left = days_left(certificate, now)
    due = min((days for days in WARNING_DAYS if left <= days), default=None)
    if due is None or (certificate.warned_days is not None and certificate.warned_days <= due):
        return None
    return due


def warn_expiring_certificates(now: datetime | None = None) -> list[Certificate]:
    """The daily job: each bound certificate gets a warning (log line, metric, the dashboard's
    notice) once 30 days before expiry and once 7 days before. A renewed certificate (more
    than 30 days left) is ready to be warned again."""
    now = now or timezone.now()
    warned = []
    for certificate in Certificate.objects.filter(bound_settings__isnull=False).distinct():
        due = warning_due(certificate, now)
        if due is None:
            if days_left(certificate, now) > max(WARNING_DAYS) and certificate.warned_days:
                certificate.warned_days = None
                certificate.save(update_fields=["warned_days"])
            continue
        domains = ", ".join(sorted(certificate.bound_settings.values_list("domain__name",
                                                                          flat=True)))
        logger.warning("certificate %s of %s expires in %s days (%s): the %s-day warning",
                       certificate.fingerprint[:11], domains, days_left(certificate, now),
                       certificate.not_after.isoformat(), due)
        CERTIFICATE_WARNINGS.labels(str(due)).inc()
        certificate.warned_days = due
        certificate.save(update_fields=["warned_days"])
        warned.append(certificate)
    return warned


def expiring_certificates() -> list[tuple[Certificate, int, list[str]]]:
    """Bound certificates already warned, with days left and their domains (the notice)."""
    found = []
    for certificate in Certificate.objects.filter(bound_settings__isnull=False,
                                                  warned_days__isnull=False).distinct():
        domains = sorted(certificate.bound_settings.values_list("domain__name", flat=True))
        found.append((certificate, days_left(certificate), domains))
    return found


def certificate_days_left() -> dict[str, int]:
    """Domain -> days its bound certificate has left (the metric, read at scrape)."""
    rows = DeliverySettings.objects.filter(https_certificate__isnull=False).select_related(
        "domain", "https_certificate")
    return {row.domain.name: days_left(row.https_certificate)
            for row in rows if row.https_certificate is not None}
