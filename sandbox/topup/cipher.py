"""Decryption of the `mobile` field of chargeOrder: AES-128-CBC, PKCS#7, standard base64.

Key = the current token, IV = the appkey, both 16 characters taken as UTF-8 (DECISIONS).
"""

from __future__ import annotations

import base64
import binascii

from Crypto.Cipher import AES
from Crypto.Util.Padding import unpad


class CipherError(ValueError):
    """The value cannot be the mobile number encrypted as agreed."""


def decrypt_mobile(encoded: str, token: str, appkey: str) -> str:
    key, iv = token.encode("utf-8"), appkey.encode("utf-8")
    if len(key) != 16 or len(iv) != 16:
        raise CipherError("token and appkey must be 16 bytes each")
    try:
        ciphertext = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise CipherError("not standard base64") from None
    if not ciphertext or len(ciphertext) % AES.block_size:
        raise CipherError(f"{len(ciphertext)} bytes is not a whole number of AES blocks")
    plaintext = AES.new(key, AES.MODE_CBC, iv=iv).decrypt(ciphertext)
    try:
        return unpad(plaintext, AES.block_size, style="pkcs7").decode("utf-8")
    except ValueError:
        # Wrong key or IV: the padding (or the text) comes out as noise.
        raise CipherError("does not decrypt with the current token and the appkey") from None
