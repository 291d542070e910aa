"""The pure link builders of `delivery.rules` on fixed examples, and their refusals."""

from __future__ import annotations

import pytest

from delivery import rules
from delivery.rules import LinkError

BASE = "http://cdn.example.com"


def codes(error: LinkError) -> list[tuple[str, str]]:
    return [(problem.field, problem.code) for problem in error.problems]


def test_edge_url_percent_encodes_the_path_once() -> None:
    assert rules.edge_url(BASE + "/", "/photos/a b!%.jpg") == BASE + "/photos/a%20b%21%25.jpg"
    assert rules.edge_url(BASE, "/图片/海.jpg") == BASE + "/%E5%9B%BE%E7%89%87/%E6%B5%B7.jpg"


@pytest.mark.parametrize(("path", "code"), [
    ("", "required"), ("photos/a.jpg", "path_start"), ("/photos/", "path_is_folder"),
    ("/a.jpg?x=1", "path_query"), ("/a/../b.jpg", "path_dots"), ("/a\nb.jpg", "path_control"),
])
def test_bad_paths_are_refused_naming_the_field(path: str, code: str) -> None:
    with pytest.raises(LinkError) as caught:
        rules.edge_url(BASE, path)
    assert ("path", code) in codes(caught.value)


@pytest.mark.parametrize("separator", ["!", "-", "_"])
def test_secret_url_appends_separator_and_secret(separator: str) -> None:
    assert rules.secret_url(BASE + "/a.jpg", separator, "Abc123") == \
        f"{BASE}/a.jpg{separator}Abc123"


def test_secret_url_refuses_a_bad_separator_or_secret() -> None:
    with pytest.raises(LinkError) as caught:
        rules.secret_url(BASE + "/a.jpg", "#", "a-b")
    assert codes(caught.value) == [("separator", "separator"), ("secret", "secret_chars")]


def test_download_url_true_or_a_name_encoded_from_utf8() -> None:
    assert rules.download_url(BASE + "/a.pdf") == BASE + "/a.pdf?_upd=true"
    assert rules.download_url(BASE + "/a.pdf", "年度报告 2024.pdf") == (
        BASE + "/a.pdf?_upd=%E5%B9%B4%E5%BA%A6%E6%8A%A5%E5%91%8A%202024.pdf")
    assert rules.download_url(BASE + "/a.pdf?x=1", "b&c.pdf") == BASE + "/a.pdf?x=1&_upd=b%26c.pdf"


@pytest.mark.parametrize(("name", "code"), [
    ("a/b.pdf", "download_name"), ('a"b.pdf', "download_name"), (" a.pdf", "download_name_blank"),
    ("x" * 201, "download_name_long"),
])
def test_download_url_refuses_bad_names(name: str, code: str) -> None:
    with pytest.raises(LinkError) as caught:
        rules.download_url(BASE + "/a.pdf", name)
    assert codes(caught.value) == [("_upd", code)]


@pytest.mark.parametrize("value", ["00", "07", "99"])
def test_cache_bypass_takes_two_digits(value: str) -> None:
    assert rules.cache_bypass_url(BASE + "/a.js", value) == f"{BASE}/a.js?_upv={value}"


@pytest.mark.parametrize("value", ["7", "100", "ab", "-1", " 01"])
def test_cache_bypass_refuses_anything_else(value: str) -> None:
    with pytest.raises(LinkError) as caught:
        rules.cache_bypass_url(BASE + "/a.js", value)
    assert codes(caught.value) == [("_upv", "upv")]


def test_combine_url_joins_files_of_one_folder() -> None:
    assert rules.combine_url(BASE, "/static/js/", ["a.js", " b.js "]) == \
        BASE + "/static/js/!!a.js,b.js"
    assert rules.combine_url(BASE, "/", ["a.css", "b.css"]) == BASE + "/!!a.css,b.css"


@pytest.mark.parametrize(("files", "code"), [
    (["a.js"], "combine_count"),
    (["a.js", "b.css"], "combine_mixed"),
    (["a.js", "sub/b.js"], "combine_name"),
    (["a.js", "b,c.js"], "combine_name"),
    (["a.js", "b.txt"], "combine_kind"),
])
def test_combine_url_refuses_bad_lists(files: list[str], code: str) -> None:
    with pytest.raises(LinkError) as caught:
        rules.combine_url(BASE, "/js", files)
    assert ("files", code) in codes(caught.value)


def test_combine_url_names_the_line_of_a_bad_file() -> None:
    with pytest.raises(LinkError) as caught:
        rules.combine_url(BASE, "/js", ["a.js", "b.txt"])
    assert caught.value.problems[0].params["line"] == 2


def test_version_url_and_its_name_check() -> None:
    assert rules.version_url(BASE + "/a.jpg", "!", "thumb") == BASE + "/a.jpg!thumb"
    with pytest.raises(LinkError) as caught:
        rules.version_url(BASE + "/a.jpg", "!", "my-thumb")
    assert codes(caught.value) == [("name", "version_name")]
