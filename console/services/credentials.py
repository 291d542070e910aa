"""Whether an operator's name and password open a bucket, checked before they are stored.

`CredentialCheck` is the seam: the default is `console.probe` (one signed usage request of the
console app's own, since console cannot import storage); the storage app may register its
client-based check at start (`register_credential_check`) so that both speak with one voice.
A check answers None when the operator is accepted or a sentence for the password field, and
raises OperatorRefused to put its sentence on another field (or on none).
"""

from __future__ import annotations

from typing import Protocol

from django.conf import settings
from django.utils.translation import gettext

from backoffice.operations.provider import provider_observers
from console import probe
from console.models import Service
from console.services.access import line_url
from providerkit.timeouts import with_read


class CredentialCheck(Protocol):
    def __call__(self, service: Service, operator: str, password: str) -> str | None:
        """None when `operator`/`password` open `service`'s bucket on its entry line, else
        what is wrong, in the staff member's language."""
        ...


class OperatorRefused(ValueError):
    """The operator check failed; `field` is the form field the sentence belongs to
    ("operator_password", "name" for an unknown bucket, None when nothing answered)."""

    def __init__(self, message: str, field: str | None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def probe_check(service: Service, operator: str, password: str) -> str | None:
    verdict, said = probe.check_operator(
        line_url(service.line), service.name, operator, password,
        timeout=with_read(float(settings.PROVIDER_TIMEOUT_S)),
        observers=provider_observers("storage"))
    if verdict is probe.Verdict.ACCEPTED:
        return None
    if verdict is probe.Verdict.REFUSED:
        raise OperatorRefused(gettext(
            "The storage service refused this operator and password for this bucket."),
            "operator_password")
    if verdict is probe.Verdict.UNKNOWN_BUCKET:
        raise OperatorRefused(gettext("The storage service has no bucket of this name."), "name")
    raise OperatorRefused(gettext(
        "The storage service could not be asked to check the operator (%(said)s); nothing was "
        "saved. Try again later.") % {"said": said}, None)


_checks: list[CredentialCheck] = [probe_check]


def register_credential_check(check: CredentialCheck) -> None:
    """Replace the check (the storage app at start; tests)."""
    _checks[:] = [check]


def check_operator(service: Service, operator: str, password: str) -> None:
    """OperatorRefused when the operator does not open the bucket."""
    problem = _checks[0](service, operator, password)
    if problem is not None:
        raise OperatorRefused(problem, "operator_password")
