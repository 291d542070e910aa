"""The second factor's secrets at rest: TOTP seeds sealed with AES-256-GCM, recovery codes kept
as HMAC-SHA256 digests, both under keys derived (HKDF-SHA256) from OTP_ENCRYPTION_KEY, or from
SECRET_KEY when that is unset. A copy of the database alone then reveals neither.

A sealed seed is `s1:` and the URL-safe base64 of nonce, ciphertext and tag (67 characters, in
django-otp's 80-character key column); the version prefix leaves room for a new scheme.
pycryptodome is the project's cipher library already (the provider clients sign with it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from Crypto.Cipher import AES
from Crypto.Hash import SHA256
from Crypto.Protocol.KDF import HKDF
from django.conf import settings

SEALED_PREFIX = "s1:"
NONCE_BYTES = 12
SEED_PURPOSE = b"backoffice totp seed v1"
CODE_PURPOSE = b"backoffice recovery code v1"


class UnreadableSeed(ValueError):
    """A stored seed that is not sealed, or was sealed under another key."""


def _key(purpose: bytes) -> bytes:
    master = str(settings.OTP_ENCRYPTION_KEY or settings.SECRET_KEY).encode()
    key = HKDF(master, 32, b"backoffice-otp", SHA256, context=purpose)
    assert isinstance(key, bytes)  # one key asked for, not a tuple
    return key


def is_sealed(stored: str) -> bool:
    return stored.startswith(SEALED_PREFIX)


def seal_seed(seed: bytes) -> str:
    nonce = secrets.token_bytes(NONCE_BYTES)
    cipher = AES.new(_key(SEED_PURPOSE), AES.MODE_GCM, nonce=nonce)
    sealed, tag = cipher.encrypt_and_digest(seed)
    return SEALED_PREFIX + base64.urlsafe_b64encode(nonce + sealed + tag).decode()


def open_seed(stored: str) -> bytes:
    if not is_sealed(stored):
        raise UnreadableSeed("the seed is not sealed")
    raw = base64.urlsafe_b64decode(stored[len(SEALED_PREFIX):])
    nonce, sealed, tag = raw[:NONCE_BYTES], raw[NONCE_BYTES:-16], raw[-16:]
    cipher = AES.new(_key(SEED_PURPOSE), AES.MODE_GCM, nonce=nonce)
    try:
        return bytes(cipher.decrypt_and_verify(sealed, tag))
    except ValueError as error:  # the tag does not match: another key, or altered
        raise UnreadableSeed("the seed was sealed under another key") from error


def normal_code(code: str) -> str:
    """A recovery code as typed: case, spaces and hyphens do not matter."""
    return "".join(code.split()).replace("-", "").lower()


def code_digest(code: str) -> str:
    return hmac.new(_key(CODE_PURPOSE), normal_code(code).encode(), hashlib.sha256).hexdigest()


def new_recovery_code() -> str:
    """80 random bits, as four groups of four base32 letters and digits: 'k3mf-…'."""
    text = base64.b32encode(secrets.token_bytes(10)).decode().lower()
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))
