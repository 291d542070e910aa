"""Whether an operator's name and password open a bucket, checked before they are stored.

`CredentialCheck` is the seam: the console app cannot import storage (storage builds on it), so
the storage app registers its client-based check at start (`register_credential_check`, from
`StorageConfig.ready`). A check answers a `Verdict` and what the storage service said; this
module turns that into the sentence for the right form field.
"""

from __future__ import annotations

import enum
from typing import Protocol

from django.utils.translation import gettext

from backoffice.operations.provider import ProviderNotConfigured
from console.models import Service


class Verdict(enum.Enum):
    ACCEPTED = "accepted"  # the operator may read the bucket
    REFUSED = "refused"  # wrong operator or password, or no right on this bucket
    UNKNOWN_BUCKET = "unknown_bucket"  # no such bucket
    UNANSWERED = "unanswered"  # no answer, or one that says nothing about the credentials


class CredentialCheck(Protocol):
    def __call__(self, service: Service, operator: str, password: str) -> tuple[Verdict, str]:
        """Whether `operator`/`password` open `service`'s bucket on its entry line, and (when
        not) what the storage service said."""
        ...


class OperatorRefused(ValueError):
    """The operator check failed; `field` is the form field the sentence belongs to
    ("operator_password", "name" for an unknown bucket, None when nothing answered)."""

    def __init__(self, message: str, field: str | None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


_checks: list[CredentialCheck] = []


def register_credential_check(check: CredentialCheck) -> None:
    """Set the check (the storage app at start; tests)."""
    _checks[:] = [check]


def check_operator(service: Service, operator: str, password: str) -> None:
    """OperatorRefused when the operator does not open the bucket."""
    if not _checks:
        raise ProviderNotConfigured("storage: no operator check is registered (storage app)")
    verdict, said = _checks[0](service, operator, password)
    if verdict is Verdict.ACCEPTED:
        return
    if verdict is Verdict.REFUSED:
        raise OperatorRefused(gettext(
            "The storage service refused this operator and password for this bucket."),
            "operator_password")
    if verdict is Verdict.UNKNOWN_BUCKET:
        raise OperatorRefused(gettext("The storage service has no bucket of this name."), "name")
    raise OperatorRefused(gettext(
        "The storage service could not be asked to check the operator (%(said)s); nothing was "
        "saved. Try again later.") % {"said": said}, None)
