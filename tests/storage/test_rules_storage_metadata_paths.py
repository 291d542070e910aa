"""Rules for metadata names and values, ttl, secret, Content-MD5, paths and listing options."""

import pytest

from storage import rules
from storage.rules import (
    Problem,
    RuleViolation,
    check_content_md5,
    check_list_options,
    check_meta_name,
    check_metadata,
    check_path,
    check_secret,
    check_ttl,
    meta_header,
    metadata_headers,
    normalise_path,
    require,
)


def codes(problems: list[Problem]) -> list[tuple[str, str]]:
    return [(problem.field, problem.code) for problem in problems]


# --- metadata names and values ---


@pytest.mark.parametrize("name", ["a", "foo", "Foo-Bar", "x-svc-meta-colour", "v2"])
def test_it_accepts_metadata_names_of_letters_digits_and_inner_hyphens(name):
    assert check_meta_name(name) == []


@pytest.mark.parametrize("name", ["foo_bar", "-foo", "foo-", "fo o", "é", "a.b", "x-svc-meta-"])
def test_it_rejects_bad_metadata_names(name):
    problems = check_meta_name(name)
    assert len(problems) == 1
    assert problems[0].code in ("invalid_name", "required")


def test_it_rejects_a_metadata_name_that_is_not_text():
    assert codes(check_meta_name(7)) == [("metadata", "type")]


def test_meta_header_lowercases_and_adds_the_prefix_once():
    assert meta_header("Foo") == "x-svc-meta-foo"
    assert meta_header("X-SVC-META-Foo") == "x-svc-meta-foo"


def test_metadata_headers_builds_the_headers():
    headers = metadata_headers({"Author": "Ann", "ttl": 7, "secret": "abc123"})
    assert headers == {
        "x-svc-meta-author": "Ann",
        "x-svc-meta-ttl": "7",
        "x-svc-meta-secret": "abc123",
    }


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("", "required"),
        ("caf\u00e9", "invalid_value"),
        ("a\r\nb", "invalid_value"),
        (" padded", "invalid_value"),
        (3, "type"),
    ],
)
def test_it_rejects_metadata_values_that_would_not_survive_transit(value, code):
    assert codes(check_metadata({"note": value})) == [("x-svc-meta-note", code)]


def test_it_reports_a_name_given_twice_in_different_case():
    assert codes(check_metadata({"Foo": "1", "foo": "2"})) == [("x-svc-meta-foo", "duplicate")]


def test_metadata_headers_raises_with_every_problem():
    with pytest.raises(RuleViolation) as caught:
        metadata_headers({"bad_name": "x", "ttl": 0})
    assert codes(list(caught.value.problems)) == [
        ("x-svc-meta-bad_name", "invalid_name"),
        ("x-svc-meta-ttl", "out_of_range"),
    ]
    assert "x-svc-meta-ttl must be from 1 to 180 days" in str(caught.value)


# --- ttl ---


@pytest.mark.parametrize("value", [1, 180, "30"])
def test_it_accepts_a_ttl_from_1_to_180_days(value):
    assert check_ttl(value) == []


@pytest.mark.parametrize("value", [0, 181, "0", "999"])
def test_it_rejects_a_ttl_out_of_range(value):
    assert codes(check_ttl(value)) == [("x-svc-meta-ttl", "out_of_range")]


@pytest.mark.parametrize("value", [-1, "1.5", "ten", "", True, None, 2.0])
def test_it_rejects_a_ttl_that_is_not_whole_days(value):
    assert codes(check_ttl(value)) == [("x-svc-meta-ttl", "invalid")]


# --- secret and md5 ---


def test_it_accepts_a_secret_of_letters_and_digits():
    assert check_secret("abcXYZ019") == []


@pytest.mark.parametrize("value", ["", "ab-c", "ab c", "pässword", "a_b", None])
def test_it_rejects_a_secret_with_other_characters(value):
    problems = check_secret(value)
    assert codes(problems) == [("Content-Secret", "invalid")]
    assert "letters and digits" in problems[0].message


def test_it_names_the_metadata_header_when_the_secret_comes_as_metadata():
    assert codes(check_metadata({"secret": "no!"})) == [("x-svc-meta-secret", "invalid")]


def test_it_checks_content_md5_is_32_hex_digits():
    assert check_content_md5("5eb63bbbe01eeed093cb22bb8f5acdc3") == []
    assert codes(check_content_md5("XrY7u+Ae7tCTyyK7j1rNww==")) == [("Content-MD5", "invalid")]


# --- paths ---


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("a/b.txt", "/a/b.txt"),
        ("/a/b.txt", "/a/b.txt"),
        ("/a/b/", "/a/b"),
        ("x", "/x"),
        ("/dir with space/你.txt", "/dir with space/你.txt"),
    ],
)
def test_it_normalises_paths_to_one_leading_slash(raw, normal):
    assert normalise_path(raw) == normal


def test_it_accepts_the_root_only_where_allowed():
    assert normalise_path("/", allow_root=True) == "/"
    assert normalise_path("", allow_root=True) == "/"
    with pytest.raises(RuleViolation, match="path is empty"):
        normalise_path("/")


@pytest.mark.parametrize("raw", ["a//b", "//a", "/a/b//", "a///"])
def test_it_rejects_empty_segments(raw):
    problems = check_path(raw)
    assert codes(problems) == [("path", "empty_segment")]
    assert "empty segment" in problems[0].message


@pytest.mark.parametrize("raw", ["a/../b", "..", "/a/./b", "a/.."])
def test_it_rejects_dot_segments(raw):
    assert codes(check_path(raw)) == [("path", "dot_segment")]


def test_it_rejects_control_characters_and_non_text_paths():
    assert codes(check_path("a\nb")) == [("path", "invalid_char")]
    assert codes(check_path(None)) == [("path", "type")]


def test_it_keeps_dots_inside_names():
    assert normalise_path("a/..b/c.", allow_root=False) == "/a/..b/c."


def test_require_is_silent_without_problems_and_raises_with_them():
    require([])
    with pytest.raises(RuleViolation) as caught:
        require([Problem("f", "c", "first"), Problem("g", "d", "second")])
    assert str(caught.value) == "first; second"


# --- listing options ---


def test_it_accepts_list_limits_up_to_10000_and_both_orders():
    assert check_list_options(1, "asc") == []
    assert check_list_options(10_000, "desc") == []


@pytest.mark.parametrize("limit", [0, 10_001, "100", True])
def test_it_rejects_list_limits_out_of_range(limit):
    assert codes(check_list_options(limit, "asc")) == [("x-list-limit", "out_of_range")]


def test_it_rejects_an_unknown_list_order():
    assert codes(check_list_options(100, "ASC")) == [("x-list-order", "invalid")]


@pytest.mark.parametrize("text", ["张三", "50% done", "a b", "%41", "tab\there", "emoji 🙂"])
def test_encoded_metadata_values_are_printable_ascii_and_decode_to_what_was_typed(text):
    encoded = rules.encode_meta_value(text)
    assert rules.check_meta_value("x-svc-meta-a", encoded) == []
    assert rules.decode_meta_value(encoded) == text


def test_printable_ascii_values_are_sent_unchanged_except_the_percent_sign():
    assert rules.encode_meta_value("project x-1 (v2)") == "project x-1 (v2)"
    assert rules.encode_meta_value("100%") == "100%25"


@pytest.mark.parametrize("stored", ["100%", "%FF%FE", "%E5%BC"])
def test_a_stored_value_that_does_not_decode_is_shown_as_stored(stored):
    assert rules.decode_meta_value(stored) == stored


# A new name that shows differently from what it is: `名前\u202egnp.exe` shows as `名前exe.png`.
@pytest.mark.parametrize("char", [
    "\u202e", "\u202a", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u200b",
    "\ufeff", "\x07", "\x1b", "\x85", "\u2028",
])
def test_a_new_name_with_a_control_or_text_direction_character_is_refused(char):
    from storage import paths

    with pytest.raises(rules.RuleViolation) as refused:
        paths.join("/photos", f"名前{char}gnp.exe", field="folder_name")
    [problem] = refused.value.problems
    assert (problem.field, problem.code) == ("folder_name", "invisible_char")
    assert f"U+{ord(char):04X}" in problem.message


@pytest.mark.parametrize("name", ["名前.png", "Ünïcode name (1).txt", "עברית.txt", "a b-c_d"])
def test_a_new_name_of_ordinary_letters_in_any_script_is_accepted(name):
    from storage import paths

    assert paths.join("/photos", name) == f"/photos/{name}"


def test_a_stored_path_with_such_a_character_can_still_be_named():
    """Objects made before the rule (or by another client) stay reachable, to be renamed
    or deleted: the rule is on new names, not on paths."""
    assert rules.check_path("/名前\u202egnp.exe") == []
