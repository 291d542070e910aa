"""`_upt` tokens and `_upp` directory levels (content-delivery.md "Token protection",
DECISIONS "Content delivery"), checked against digests computed by hand with md5sum."""

from __future__ import annotations

import pytest

from delivery.client import directory_count, signature_uri, upt_token
from delivery.rules import LinkError, signed_url

# printf '%s' 'abc123&1700000000&/photos/sea.jpg' | md5sum
#   -> 2c398fafb0f3ba8c3af51b1106372ed5, characters 12..19: ba8c3af5
FULL_DIGEST_SLICE = "ba8c3af5"
# printf '%s' 'abc123&1700000000&/photos/2024/' | md5sum
#   -> 528b1e3500ce06f632279ae213640588, characters 12..19: 06f63227
LEVEL_DIGEST_SLICE = "06f63227"


def test_it_signs_the_full_uri_with_the_middle_eight_characters_and_etime() -> None:
    assert upt_token("abc123", "/photos/sea.jpg", 1700000000) == FULL_DIGEST_SLICE + "1700000000"


def test_it_signs_the_directory_level_given_by_upp() -> None:
    token = upt_token("abc123", "/photos/2024/sea.jpg", 1700000000, upp=2)
    assert token == LEVEL_DIGEST_SLICE + "1700000000"


@pytest.mark.parametrize(("upp", "expected"), [
    (0, "/"), (1, "/a/"), (2, "/a/b/"), (3, "/a/b/c/"),
    (4, "/a/b/c/foo.jpg"), (21, "/a/b/c/foo.jpg"), (-1, "/a/b/c/foo.jpg"),
    (None, "/a/b/c/foo.jpg"),
])
def test_it_cuts_the_uri_to_upp_levels_or_keeps_it_whole(upp: int | None, expected: str) -> None:
    assert signature_uri("/a/b/c/foo.jpg", upp) == expected


def test_it_counts_directory_levels() -> None:
    assert directory_count("/foo.jpg") == 0
    assert directory_count("/a/b/c/foo.jpg") == 3


def test_signed_url_appends_upt_and_upp_and_ignores_the_query_when_signing() -> None:
    url = signed_url("http://cdn.example.com/photos/2024/sea.jpg?x=1", "abc123", 1700000000,
                     upp=2)
    assert url == ("http://cdn.example.com/photos/2024/sea.jpg?x=1"
                   f"&_upt={LEVEL_DIGEST_SLICE}1700000000&_upp=2")


def test_signed_url_refuses_a_level_deeper_than_the_path() -> None:
    with pytest.raises(LinkError) as caught:
        signed_url("http://cdn.example.com/photos/sea.jpg", "abc123", 1700000000, upp=2)
    assert [(p.field, p.code) for p in caught.value.problems] == [("_upp", "upp_depth")]


def test_signed_url_refuses_a_level_outside_0_to_20() -> None:
    with pytest.raises(LinkError) as caught:
        signed_url("http://cdn.example.com/a.jpg", "abc123", 1700000000, upp=21)
    assert caught.value.problems[0].code == "upp_range"


def test_it_refuses_an_empty_secret_or_a_uri_with_a_query() -> None:
    with pytest.raises(ValueError, match="secret"):
        upt_token("", "/a.jpg", 1700000000)
    with pytest.raises(ValueError, match="query"):
        upt_token("abc123", "/a.jpg?x=1", 1700000000)
