"""Credentials at rest: operator passwords and token secrets sealed with Fernet.

The keys come from `CREDENTIALS_KEYS` (comma-separated Fernet keys, newest first; unset: one
key derived from SECRET_KEY, so that `make run` and the tests need nothing). cryptography's
MultiFernet opens a value sealed under any listed key and seals under the first, which is what
key rotation needs: put a new key first, run `manage.py rotate_credentials`, then drop the old
key. A value that no key opens is an error, never an empty credential.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import models

SEALED_PREFIX = "f1:"


class UnreadableCredential(ValueError):
    """A stored credential that none of the configured keys opens."""


def _derived_key() -> bytes:
    digest = hashlib.sha256(b"console credentials v1\0" + str(settings.SECRET_KEY).encode())
    return base64.urlsafe_b64encode(digest.digest())


def keys() -> list[bytes]:
    configured: list[str] = list(getattr(settings, "CREDENTIALS_KEYS", []) or [])
    return [key.encode() for key in configured] or [_derived_key()]


def _fernet() -> MultiFernet:
    try:
        return MultiFernet([Fernet(key) for key in keys()])
    except ValueError as error:  # settings check the format; this guards a test's override
        raise ImproperlyConfigured(f"CREDENTIALS_KEYS: {error}") from error


def seal(plain: str) -> str:
    return SEALED_PREFIX + _fernet().encrypt(plain.encode()).decode()


def unseal(stored: str) -> str:
    if not stored.startswith(SEALED_PREFIX):
        raise UnreadableCredential("the stored credential is not sealed")
    try:
        return _fernet().decrypt(stored[len(SEALED_PREFIX):].encode()).decode()
    except InvalidToken as error:
        raise UnreadableCredential(
            "no key of CREDENTIALS_KEYS opens the stored credential") from error


def reseal(stored: str) -> str:
    """The value sealed under the first key (MultiFernet.rotate keeps its timestamp)."""
    if not stored.startswith(SEALED_PREFIX):
        raise UnreadableCredential("the stored credential is not sealed")
    try:
        token = _fernet().rotate(stored[len(SEALED_PREFIX):].encode())
    except InvalidToken as error:
        raise UnreadableCredential(
            "no key of CREDENTIALS_KEYS opens the stored credential") from error
    return SEALED_PREFIX + token.decode()


def valid_key(text: str) -> bool:
    try:
        Fernet(text.encode())
    except ValueError:
        return False
    return True


class SealedField(models.TextField[str, str]):
    """A text column whose value is sealed before it is written and opened when read.

    The empty string stays empty (no credential), so "not set" needs no key. Lookups other
    than on "" cannot work on sealed values (each seal is randomised), by design.
    """

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        if value in (None, ""):
            return value
        return seal(str(value))

    def from_db_value(self, value: str | None, expression: object, connection: object) -> str:
        if not value:
            return ""
        return unseal(value)
