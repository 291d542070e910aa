"""Signature schemes against values computed independently with md5sum / openssl.

Every expected value below was produced in a shell, never by the code under test, e.g.
    printf '%s' "GET&/demo/photos/cat.jpg&$D" | openssl dgst -sha1 -hmac "$PW" -binary | base64
with D='Wed, 29 Oct 2014 02:26:58 GMT' and PW=$(printf '%s' password | md5sum).
"""

from typing import Any

import pytest

from storage.signing import (
    authorization,
    current_signature,
    encode_uri,
    http_date,
    legacy_signature,
    md5_hex,
    purge_authorization,
    sign_request,
)

DATE = "Wed, 29 Oct 2014 02:26:58 GMT"
TIMESTAMP = 1414549618  # date -u -d @1414549618 -R -> Wed, 29 Oct 2014 02:26:58 +0000
PASSWORD_MD5 = "5f4dcc3b5aa765d61d8327deb882cf99"  # printf '%s' password | md5sum


def test_md5_hex_of_password_is_the_known_digest():
    assert md5_hex("password") == PASSWORD_MD5
    assert md5_hex(b"password") == PASSWORD_MD5


def test_http_date_is_rfc_1123_gmt():
    assert http_date(TIMESTAMP) == DATE


def test_legacy_signature_matches_the_published_example():
    # md5("GET&/bucket/sub&Wed, 29 Oct 2014 02:26:58 GMT&0&5f4dcc3b5aa765d61d8327deb882cf99")
    assert legacy_signature("GET", "/bucket/sub", DATE, 0, "password") == (
        "03db45e2904663c5c9305a9c6ed62af3"
    )


def test_legacy_signature_includes_content_length_and_encoded_path():
    # md5("PUT&/demo/a%20b/%E4%BD%A0.txt&Wed, 29 Oct 2014 02:26:58 GMT&11&"
    #     "02545912e058ef6ebb90624ad332e274")   (md5 of 's3cr3t-Pa55')
    uri = encode_uri("/demo/a b/你.txt")
    assert uri == "/demo/a%20b/%E4%BD%A0.txt"
    assert legacy_signature("PUT", uri, DATE, 11, "s3cr3t-Pa55") == (
        "0125f0322fecf03e5bc2b9bde7bdaf05"
    )


def test_legacy_signature_refuses_a_negative_length():
    with pytest.raises(ValueError, match="negative"):
        legacy_signature("PUT", "/demo/a", DATE, -1, "password")


def test_current_signature_without_content_md5():
    # base64(hmac-sha1(PASSWORD_MD5, "GET&/demo/photos/cat.jpg&Wed, 29 Oct 2014 02:26:58 GMT"))
    assert current_signature("GET", "/demo/photos/cat.jpg", DATE, "password") == (
        "47aIR4xkTwhHRK9VsBRJq0dPD3g="
    )


def test_current_signature_appends_content_md5_when_sent():
    # base64(hmac-sha1(PASSWORD_MD5,
    #   "PUT&/demo/photos/cat.jpg&Wed, 29 Oct 2014 02:26:58 GMT&5eb63bbbe01eeed093cb22bb8f5acdc3"))
    # where 5eb63bbb... is md5("hello world")
    signature = current_signature(
        "PUT", "/demo/photos/cat.jpg", DATE, "password", "5eb63bbbe01eeed093cb22bb8f5acdc3"
    )
    assert signature == "IhpSi6rO7fJ89ftG2HSoON2RD1g="


def test_current_signature_appends_an_empty_content_md5_that_is_sent():
    # The header may be sent empty for large files; it is then still part of the string:
    # base64(hmac-sha1(PASSWORD_MD5, "PUT&/demo/big.bin&Wed, 29 Oct 2014 02:26:58 GMT&"))
    assert current_signature("PUT", "/demo/big.bin", DATE, "password", "") == (
        "7VKkS6f83AY6jpayjJT/sW8hk8g="
    )


def test_current_signature_covers_the_query():
    # base64(hmac-sha1(PASSWORD_MD5,
    #   "PATCH&/demo/a.txt?metadata=merge&update_last_modified=true&Wed, 29 Oct 2014 02:26:58 GMT"))
    uri = encode_uri("/demo/a.txt", [("metadata", "merge"), ("update_last_modified", "true")])
    assert uri == "/demo/a.txt?metadata=merge&update_last_modified=true"
    assert current_signature("PATCH", uri, DATE, "password") == "SMKr2S9hLXhAe8r16RSFuwYcIiE="


def test_current_signature_lowercase_method_is_signed_upper_case():
    assert current_signature("get", "/demo/photos/cat.jpg", DATE, "password") == (
        "47aIR4xkTwhHRK9VsBRJq0dPD3g="
    )


def test_sign_request_picks_the_scheme():
    common: dict[str, Any] = {
        "operator": "ops",
        "password": "password",
        "method": "GET",
        "uri": "/bucket/sub",
        "date": DATE,
        "content_length": 0,
        "content_md5": None,
    }
    assert sign_request(scheme="legacy", **common) == "SVC ops:03db45e2904663c5c9305a9c6ed62af3"
    common["uri"] = "/demo/photos/cat.jpg"
    assert sign_request(scheme="current", **common) == "SVC ops:47aIR4xkTwhHRK9VsBRJq0dPD3g="


def test_sign_request_refuses_an_unknown_scheme():
    with pytest.raises(ValueError, match="unknown signature scheme"):
        sign_request(
            scheme="basic",  # type: ignore[arg-type]
            operator="ops",
            password="password",
            method="GET",
            uri="/b",
            date=DATE,
            content_length=0,
            content_md5=None,
        )


def test_authorization_header_shape():
    assert authorization("ops", "abc=") == "SVC ops:abc="


def test_encode_uri_keeps_slash_and_unreserved_and_encodes_the_rest():
    assert encode_uri("/b/A-z_0.9~x") == "/b/A-z_0.9~x"
    assert encode_uri("/b/100%+a&b=c?d#e") == "/b/100%25%2Ba%26b%3Dc%3Fd%23e"


def test_encode_uri_writes_a_bare_query_key():
    assert encode_uri("/demo/", [("usage", None)]) == "/demo/?usage"


def test_encode_uri_encodes_query_separators_inside_values():
    assert encode_uri("/d/f", [("k", "a&b=c")]) == "/d/f?k=a%26b%3Dc"


def test_purge_authorization_matches_independent_digest():
    # md5("https://cdn.example.com/a.jpg\nhttps://cdn.example.com/b.jpg&demo&"
    #     "Wed, 29 Oct 2014 02:26:58 GMT&5f4dcc3b5aa765d61d8327deb882cf99")
    urls = ["https://cdn.example.com/a.jpg", "https://cdn.example.com/b.jpg"]
    assert purge_authorization(urls, "demo", "ops", "password", DATE) == (
        "SVC demo:ops:b47a76a84fef0043f576e48d3856b74c"
    )


def test_purge_authorization_needs_a_url():
    with pytest.raises(ValueError, match="at least one URL"):
        purge_authorization([], "demo", "ops", "password", DATE)
