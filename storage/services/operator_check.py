"""The services page's operator check, made with the storage client itself.

The console app asks before it stores an operator (`console.services.check_operator`) but
cannot import storage; `StorageConfig.ready` registers this check with it. One usage request,
not repeated, on the service's entry line with the typed operator and password.
"""

from __future__ import annotations

from typing import cast

from django.conf import settings

from backoffice.operations.provider import provider_observers
from console.models import Service
from console.services import Verdict, line_url
from storage.client import (
    AuthenticationError,
    BucketNotFound,
    RetryPolicy,
    Scheme,
    StorageClient,
    StorageError,
)


def operator_verdict(service: Service, operator: str, password: str) -> tuple[Verdict, str]:
    client = StorageClient(
        line_url(service.line), service.name, operator, password,
        scheme=cast(Scheme, settings.PROVIDER["storage"].get("signature") or "current"),
        timeout=float(settings.PROVIDER_TIMEOUT_S), observers=provider_observers("storage"),
        retry=RetryPolicy(attempts=1))
    try:
        client.usage()
    except BucketNotFound as refusal:  # an AuthenticationError too: asked first
        return Verdict.UNKNOWN_BUCKET, str(refusal)
    except AuthenticationError as refusal:
        return Verdict.REFUSED, str(refusal)
    except StorageError as failure:
        return Verdict.UNANSWERED, str(failure)
    return Verdict.ACCEPTED, ""
