"""AES-128-CBC of the mobile number (key = token, IV = appkey, PKCS#7, standard base64).

The known answers were produced with the openssl command line, not with the code under test:
printf 13800138000 | openssl enc -aes-128-cbc -K <hex token> -iv <hex appkey> | base64
"""

import base64

import pytest
from Crypto.Cipher import AES

from topup.signing import MobileCipherError, decrypt_mobile, encrypt_mobile

APPKEY = "3P83lWwkoV15yZVT"
TOKEN = "VqHAab3JYXBDkCoO"
OTHER_TOKEN = "Zx81kQpL0mWn4RtY"


def test_it_encrypts_like_openssl() -> None:
    assert encrypt_mobile("13800138000", token=TOKEN, appkey=APPKEY) == "wwzdlJGiV/cIWGvaMFhHQg=="
    assert encrypt_mobile("13800138000", token=OTHER_TOKEN, appkey=APPKEY) == (
        "TsFLDpVBOhHNnWMxCcPQjw=="
    )


def test_it_adds_a_whole_padding_block_to_a_sixteen_byte_value() -> None:
    encrypted = encrypt_mobile("1234567890abcdef", token=TOKEN, appkey=APPKEY)
    assert encrypted == "8Qhgdhm6DlwmWj0ETz4FzXZ/PB1r1/fva6Xo/1bap+s="


def test_it_decrypts_the_openssl_value() -> None:
    assert decrypt_mobile("wwzdlJGiV/cIWGvaMFhHQg==", token=TOKEN, appkey=APPKEY) == "13800138000"


@pytest.mark.parametrize("mobile", ["13800138000", "", "1234567890abcdef", "中国移动 18912345678"])
def test_it_round_trips(mobile: str) -> None:
    encrypted = encrypt_mobile(mobile, token=TOKEN, appkey=APPKEY)
    assert decrypt_mobile(encrypted, token=TOKEN, appkey=APPKEY) == mobile


@pytest.mark.parametrize(
    ("token", "length"),
    [("VqHAab3JYXBDkCo", 15), ("VqHAab3JYXBDkCoOx", 17), ("üqHAab3JYXBDkCoO", 17), ("", 0)],
)
def test_it_refuses_a_token_that_is_not_sixteen_utf8_bytes(token: str, length: int) -> None:
    with pytest.raises(MobileCipherError, match=f"token must be exactly 16 bytes.*got {length}"):
        encrypt_mobile("13800138000", token=token, appkey=APPKEY)
    with pytest.raises(MobileCipherError, match="token must be exactly 16 bytes"):
        decrypt_mobile("wwzdlJGiV/cIWGvaMFhHQg==", token=token, appkey=APPKEY)


def test_it_never_puts_the_token_in_an_error_message() -> None:
    with pytest.raises(MobileCipherError) as caught:
        encrypt_mobile("13800138000", token="secret-token-17ch", appkey=APPKEY)
    assert "secret" not in str(caught.value)


def test_it_refuses_an_appkey_that_is_not_sixteen_bytes() -> None:
    with pytest.raises(MobileCipherError, match="appkey must be exactly 16 bytes.*got 3"):
        encrypt_mobile("13800138000", token=TOKEN, appkey="abc")


def test_it_refuses_non_string_key_material_and_values() -> None:
    with pytest.raises(MobileCipherError, match="token must be a str"):
        encrypt_mobile("13800138000", token=TOKEN.encode(), appkey=APPKEY)  # type: ignore[arg-type]
    with pytest.raises(MobileCipherError, match="mobile must be a str"):
        encrypt_mobile(13800138000, token=TOKEN, appkey=APPKEY)  # type: ignore[arg-type]
    with pytest.raises(MobileCipherError, match="encrypted mobile must be a str"):
        decrypt_mobile(b"wwzdlJGiV/cIWGvaMFhHQg==", token=TOKEN, appkey=APPKEY)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "encrypted",
    [
        "not base64!",
        "wwzdlJGiV/cIWGvaMFhHQg=",  # padding cut short
        "wwzdlJGiV_cIWGvaMFhHQg==",  # URL-safe alphabet
        "wwzdlJGiV/cIWGva MFhHQg==",  # stray space
    ],
)
def test_it_refuses_values_that_are_not_standard_base64(encrypted: str) -> None:
    with pytest.raises(MobileCipherError, match="not standard base64"):
        decrypt_mobile(encrypted, token=TOKEN, appkey=APPKEY)


@pytest.mark.parametrize("raw", [b"", b"x" * 15, b"x" * 17])
def test_it_refuses_ciphertext_that_is_not_whole_blocks(raw: bytes) -> None:
    encrypted = base64.b64encode(raw).decode()
    with pytest.raises(MobileCipherError, match=f"is {len(raw)} bytes; AES-CBC needs"):
        decrypt_mobile(encrypted, token=TOKEN, appkey=APPKEY)


def test_it_reports_bad_padding_when_decrypted_with_another_token() -> None:
    with pytest.raises(MobileCipherError, match="bad PKCS#7 padding"):
        decrypt_mobile("wwzdlJGiV/cIWGvaMFhHQg==", token=OTHER_TOKEN, appkey=APPKEY)


def test_it_reports_a_plaintext_that_is_not_utf8() -> None:
    # One block of 0xff followed by valid padding, encrypted directly with the library.
    plain = b"\xff" * 15 + b"\x01"
    cipher = AES.new(TOKEN.encode(), AES.MODE_CBC, APPKEY.encode())
    encrypted = base64.b64encode(cipher.encrypt(plain)).decode()
    with pytest.raises(MobileCipherError, match="not UTF-8"):
        decrypt_mobile(encrypted, token=TOKEN, appkey=APPKEY)
