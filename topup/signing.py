"""Signs and verifies top-up requests and encrypts the mobile number, as DECISIONS "Top-up" rules.

The provider signs by concatenating name+value pairs (no separators) in a fixed order and taking
the lowercase SHA-1 hex digest. The names are case-sensitive in the string: chargeOrder and the
callback use `token`, seekOrder and getMyBalance use `TOKEN`. `prodtime` and `prodstandard` are
never signed. The mobile number travels AES-128-CBC encrypted with key = token, IV = appkey.

Pure functions only: no network, no Django, no global state.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence

from Crypto.Cipher import AES
from Crypto.Util.Padding import pad, unpad

# The fields of a callback that enter its sign, in signing order (the token is appended last).
CALLBACK_SIGNED_FIELDS: tuple[str, ...] = ("code", "custno", "info", "orderno")

_AES_BLOCK = 16


class MobileCipherError(ValueError):
    """The mobile number cannot be encrypted or decrypted (bad key material or ciphertext)."""


def signing_string(pairs: Sequence[tuple[str, str]]) -> str:
    """Concatenate each name directly followed by its value, in the order given.

    The order is checked rather than imposed: every interface has one fixed order (ascending,
    ignoring case), and a caller that lists names out of order has misread the rules, which we
    would rather learn here than from a `502 sign wrong` in production.
    """
    previous = ""
    parts: list[str] = []
    for name, value in pairs:
        if not name:
            raise ValueError("a signed parameter needs a name")
        if not isinstance(value, str):
            # str(None) or str(7) would silently sign "None"/"7"; the provider signs strings.
            raise TypeError(f"value of signed parameter {name!r} must be a str, got {type(value)}")
        if previous and name.casefold() <= previous.casefold():
            raise ValueError(f"signed parameter {name!r} is not after {previous!r} (ignoring case)")
        previous = name
        parts.append(name)
        parts.append(value)
    return "".join(parts)


def sha1_hex(text: str) -> str:
    """Lowercase hex SHA-1 of the UTF-8 bytes (UTF-8 matters once `info` carries Chinese text)."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def sign(pairs: Sequence[tuple[str, str]]) -> str:
    """The sign of an ordered list of (name, value) pairs."""
    return sha1_hex(signing_string(pairs))


def charge_order_sign(*, appkey: str, custno: str, mobile: str, prodcode: str, token: str) -> str:
    """Sign of POST /chargeOrder; `mobile` is the encrypted, base64 value that is sent."""
    return sign(
        [
            ("appkey", appkey),
            ("custno", custno),
            ("mobile", mobile),
            ("prodcode", prodcode),
            ("token", token),
        ]
    )


def seek_order_sign(*, appkey: str, custno: str, token: str, requesttime: str | None = None) -> str:
    """Sign of POST /seekOrder; `requesttime` is signed only when it is sent."""
    pairs = [("appkey", appkey), ("custno", custno)]
    if requesttime is not None:
        pairs.append(("requesttime", requesttime))
    pairs.append(("TOKEN", token))
    return sign(pairs)


def balance_sign(*, appkey: str, token: str) -> str:
    """Sign of POST /getMyBalance."""
    return sign([("appkey", appkey), ("TOKEN", token)])


def callback_sign(*, code: str, custno: str, info: str, orderno: str, token: str) -> str:
    """Sign the provider puts on the callback it sends us."""
    return sign(
        [("code", code), ("custno", custno), ("info", info), ("orderno", orderno), ("token", token)]
    )


def verify_callback_sign(payload: Mapping[str, object], tokens: Iterable[str | None]) -> bool:
    """True when the callback's `sign` matches the sign made with any of `tokens`.

    `tokens` is the current token, then the previous one: the provider signs with the token
    current when it sends, so a callback in flight across a refresh carries the old one. Missing
    tokens (None or "") are skipped, so a caller can pass `(current, previous)` as stored.

    A payload whose signed fields are missing or not strings does not verify: the spec makes them
    all required strings, and anything else must not be processed. Every candidate is compared
    with `hmac.compare_digest` and all candidates are compared, so timing tells nothing about
    which token (if any) came close.
    """
    received = payload.get("sign")
    if not isinstance(received, str):
        return False
    values: dict[str, str] = {}
    for name in CALLBACK_SIGNED_FIELDS:
        value = payload.get(name)
        if not isinstance(value, str):
            return False
        values[name] = value
    received_bytes = received.encode("utf-8")
    matched = False
    for token in tokens:
        if not token:
            continue
        expected = callback_sign(token=token, **values).encode("ascii")
        # Bytes, not str: compare_digest refuses non-ASCII str, and a forged sign may be one.
        matched |= hmac.compare_digest(expected, received_bytes)
    return matched


def _key_material(value: str, what: str) -> bytes:
    """The 16 UTF-8 bytes of a token (AES key) or appkey (IV); never echo the value itself."""
    if not isinstance(value, str):
        raise MobileCipherError(f"{what} must be a str, got {type(value).__name__}")
    encoded = value.encode("utf-8")
    if len(encoded) != _AES_BLOCK:
        raise MobileCipherError(
            f"{what} must be exactly {_AES_BLOCK} bytes in UTF-8 for AES-128-CBC, "
            f"got {len(encoded)}"
        )
    return encoded


def encrypt_mobile(mobile: str, *, token: str, appkey: str) -> str:
    """AES-128-CBC (key = token, IV = appkey), PKCS#7 padding, standard base64 with padding.

    The key is the token, so the value must be re-encrypted whenever the token changes.
    """
    key = _key_material(token, "token")
    iv = _key_material(appkey, "appkey")
    if not isinstance(mobile, str):
        raise MobileCipherError(f"mobile must be a str, got {type(mobile).__name__}")
    cipher = AES.new(key, AES.MODE_CBC, iv)
    encrypted = cipher.encrypt(pad(mobile.encode("utf-8"), _AES_BLOCK, style="pkcs7"))
    return base64.b64encode(encrypted).decode("ascii")


def decrypt_mobile(encrypted: str, *, token: str, appkey: str) -> str:
    """Reverse of `encrypt_mobile`; raises MobileCipherError naming what is wrong."""
    key = _key_material(token, "token")
    iv = _key_material(appkey, "appkey")
    if not isinstance(encrypted, str):
        raise MobileCipherError(f"encrypted mobile must be a str, got {type(encrypted).__name__}")
    try:
        # validate=True: reject URL-safe or stray characters instead of silently dropping them.
        raw = base64.b64decode(encrypted, validate=True)
    except (binascii.Error, ValueError) as error:
        raise MobileCipherError(f"encrypted mobile is not standard base64: {error}") from None
    if not raw or len(raw) % _AES_BLOCK:
        raise MobileCipherError(
            f"encrypted mobile is {len(raw)} bytes; AES-CBC needs a non-zero multiple of 16"
        )
    decrypted = AES.new(key, AES.MODE_CBC, iv).decrypt(raw)
    try:
        plain = unpad(decrypted, _AES_BLOCK, style="pkcs7")
    except ValueError:
        raise MobileCipherError(
            "encrypted mobile has bad PKCS#7 padding (wrong token or appkey, or damaged value)"
        ) from None
    try:
        return plain.decode("utf-8")
    except UnicodeDecodeError:
        raise MobileCipherError("decrypted mobile is not UTF-8 text") from None
