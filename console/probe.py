"""One signed storage request that tells whether an operator's password is right.

The services page checks an operator before it stores one (a wrong password gives the field's
error and stores nothing). The console app cannot import the storage app (storage builds on
console), so this is the smallest storage call of its own: `GET /<bucket>/?usage`, signed with
the current scheme of DECISIONS "Storage and media processing" (the few lines of it duplicated
from storage.signing, on purpose). No Django: the services layer turns the verdict into words.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import time
from collections.abc import Sequence
from email.utils import formatdate
from urllib.parse import quote

import requests

from providerkit.failures import NoAnswer
from providerkit.observing import CallObserver
from providerkit.timeouts import DEFAULT_TIMEOUT, Timeout
from providerkit.transport import Transport


class Verdict(enum.Enum):
    ACCEPTED = "accepted"  # the operator may read the bucket
    REFUSED = "refused"  # 401/403: wrong operator or password, or no right on this bucket
    UNKNOWN_BUCKET = "unknown_bucket"  # 404: no such bucket
    UNANSWERED = "unanswered"  # no answer, or one that says nothing about the credentials


def signature(method: str, uri: str, date: str, password: str) -> str:
    key = hashlib.md5(password.encode("utf-8")).hexdigest().encode("ascii")
    digest = hmac.new(key, f"{method}&{uri}&{date}".encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode("ascii")


def check_operator(base_url: str, bucket: str, operator: str, password: str, *,
                   timeout: Timeout = DEFAULT_TIMEOUT, observers: Sequence[CallObserver] = (),
                   session: requests.Session | None = None) -> tuple[Verdict, str]:
    """The verdict and, when it is not ACCEPTED, what the storage service said."""
    uri = quote(f"/{bucket}/", safe="/") + "?usage"
    date = formatdate(time.time(), usegmt=True)
    headers = {"Date": date,
               "Authorization": f"SVC {operator}:{signature('GET', uri, date, password)}"}
    transport = Transport("storage", base_url, session=session, timeout=timeout,
                          observers=observers)
    try:
        response = transport.request("GET", uri, headers=headers)
    except NoAnswer as failure:
        return Verdict.UNANSWERED, failure.detail
    said = f"HTTP {response.status_code}: {response.text[:200]}"
    if response.status_code == 200:
        return Verdict.ACCEPTED, ""
    if response.status_code in (401, 403):
        return Verdict.REFUSED, said
    if response.status_code == 404:
        return Verdict.UNKNOWN_BUCKET, said
    return Verdict.UNANSWERED, said
