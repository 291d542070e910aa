"""The file browser's root crumb names the bucket, pages go back as well as forward (the
cursor trail travels in the address), and a folder is searched by name prefix: read live from
the sandbox."""

from __future__ import annotations

import io
import re
from html import unescape

import pytest
from django.urls import reverse

from console.services import default_service
from storage.services import browsing, search_page

pytestmark = pytest.mark.django_db

INDEX = reverse("storage:index")


def names_in(html: str) -> list[str]:
    return [unescape(name) for name in re.findall(r'<tr data-name="([^"]*)"', html)]


def link(html: str, rel: str) -> str | None:
    match = re.search(rf'<a href="([^"]+)" rel="{rel}"', html)
    return unescape(match.group(1)) if match else None


@pytest.fixture
def letters(provider, sandbox_storage):
    """/letters with 120 files: a-000 ... a-039, b-000 ... b-039, c-000 ... c-039."""
    for letter in "abc":
        for number in range(40):
            sandbox_storage.upload(f"/letters/{letter}-{number:03d}.txt", io.BytesIO(b"x"))
    return sandbox_storage


def test_the_root_crumb_shows_the_bucket_name(manager_client, letters, sandbox):
    bucket = sandbox.info["storage"]["bucket"]
    html = manager_client.get(INDEX, {"path": "/letters"}).content.decode()
    root = re.search(r'<a href="[^"]*" data-crumb="/">([^<]*)</a>', html)
    assert root and root.group(1) == bucket
    at_root = manager_client.get(INDEX).content.decode()
    assert re.search(rf'<span aria-current="page" data-crumb="/">{bucket}</span>', at_root)


def test_the_file_page_crumbs_start_at_the_bucket_name(manager_client, letters, sandbox):
    html = manager_client.get(reverse("storage:file"), {"path": "/letters/a-000.txt"}
                              ).content.decode()
    assert f'data-crumb="/">{sandbox.info["storage"]["bucket"]}</a>' in html


def test_previous_page_goes_back_page_by_page_to_the_first(manager_client, letters):
    url = f"{INDEX}?path=/letters&limit=50"
    forward: list[list[str]] = []
    html = ""
    for _page in range(3):
        html = manager_client.get(url).content.decode()
        forward.append(names_in(html))
        url = link(html, "next") or ""
    assert [len(names) for names in forward] == [50, 50, 20]
    assert "Page 3" in html
    backward: list[list[str]] = [names_in(html)]
    while previous := link(html, "prev"):
        html = manager_client.get(previous).content.decode()
        backward.append(names_in(html))
    assert backward[::-1] == forward
    assert "Page 1" in html and 'id="previous-page"' not in html


def test_a_tampered_trail_still_lists_the_page_asked(manager_client, letters):
    first = manager_client.get(INDEX, {"path": "/letters", "limit": "50"}).content.decode()
    second_url = link(first, "next")
    assert second_url
    html = manager_client.get(second_url + "&trail=,,,").content.decode()
    assert names_in(html)[0] == "b-010.txt" and "Page 2" in html
    assert link(html, "prev") == f"{INDEX}?service=demo-bucket&path=%2Fletters&limit=50"


def test_a_prefix_search_lists_only_matching_names(manager_client, letters):
    html = manager_client.get(INDEX, {"path": "/letters", "q": "b-01"}).content.decode()
    assert names_in(html) == [f"b-{n:03d}.txt" for n in range(10, 20)]
    assert "10 names starting with “b-01” on this page" in html
    assert 'id="clear-search"' in html and 'id="sort-toggle"' not in html


def test_a_prefix_search_pages_through_many_matches(manager_client, letters):
    url: str | None = f"{INDEX}?path=/letters&q=c-&limit=50"
    seen: list[str] = []
    while url:
        html = manager_client.get(url).content.decode()
        seen += names_in(html)
        url = link(html, "next")
    assert seen == [f"c-{n:03d}.txt" for n in range(40)]


def test_a_prefix_that_matches_nothing_says_so(manager_client, letters):
    html = manager_client.get(INDEX, {"path": "/letters", "q": "zz"}).content.decode()
    assert names_in(html) == []
    assert "No name starting with “zz” here." in html


def test_a_prefix_with_a_slash_is_refused_with_the_reason(manager_client, letters):
    html = manager_client.get(INDEX, {"path": "/letters", "q": "a/b"}).content.decode()
    assert "Search: “a/b” holds a “/”" in html and names_in(html) == []


def test_a_search_stops_reading_once_names_sort_past_the_prefix(provider, letters):
    # Names in code point order: after "a-" names come "b-..." and nothing later can match.
    page = search_page(default_service(), "/letters", "a-0", limit=50)
    assert [entry.name for entry in page.entries] == [f"a-{n:03d}.txt" for n in range(40)]
    assert page.scanned == 50 and page.next_cursor is None


def test_a_search_reads_at_most_its_budget_of_requests_per_page(provider, letters,
                                                                  monkeypatch):
    monkeypatch.setattr(browsing, "SEARCH_REQUESTS_PER_PAGE", 2)
    first = search_page(default_service(), "/letters", "zz", limit=50)
    assert first.entries == [] and first.scanned == 100 and first.next_cursor
    rest = search_page(default_service(), "/letters", "zz", cursor=first.next_cursor, limit=50)
    assert rest.scanned == 20 and rest.next_cursor is None


def test_a_search_that_ran_out_of_budget_offers_to_search_on(manager_client, letters,
                                                              monkeypatch):
    monkeypatch.setattr(browsing, "SEARCH_REQUESTS_PER_PAGE", 1)
    html = manager_client.get(INDEX, {"path": "/letters", "q": "c-03", "limit": "50"}
                              ).content.decode()
    assert names_in(html) == [] and "(50 names read)" in html
    found: list[str] = []
    while url := link(html, "next"):
        html = manager_client.get(url).content.decode()
        found += names_in(html)
    assert found == [f"c-{n:03d}.txt" for n in range(30, 40)]
