"""The back-office's reading of the hotlink lists (delivery.refusals), on the fixed examples of
cdn/advanced.md as DECISIONS.md quotes them: `10.11.12.*`, `*upyun.com`, the 100 and 50 caps,
User-Agents case-insensitive with `*`."""

from __future__ import annotations

import ipaddress

import pytest

from delivery import refusals


def test_a_trailing_star_octet_bans_the_whole_range_as_the_docs_say() -> None:
    found = refusals.read_ip_ban("10.11.12.*\n10.*.*.*\n192.0.2.7\n2001:db8::/32")
    assert found.problems == []
    assert found.entries == [ipaddress.ip_network(text) for text in (
        "10.11.12.0/24", "10.0.0.0/8", "192.0.2.7/32", "2001:db8::/32")]
    assert refusals.ip_banned("10.11.12.0", found.entries) is not None
    assert refusals.ip_banned("10.11.12.255", found.entries) is not None
    assert refusals.ip_banned("192.0.2.8", found.entries) is None
    assert refusals.ip_banned("not an address", found.entries) is None


@pytest.mark.parametrize(("entry", "code"), [
    ("10.*.12.1", "bad_wildcard"), ("*.*.*.*", "bad_wildcard"), ("10.11.12*", "bad_wildcard"),
    ("300.1.1.*", "bad_wildcard"), ("10.0.0.300", "not_ip"), ("example.com", "not_ip"),
])
def test_a_bad_ban_entry_is_named_by_its_line(entry: str, code: str) -> None:
    found = refusals.read_ip_ban(f"10.0.0.1\n\n{entry}")
    assert found.problems == [refusals.LineProblem(3, entry, code)]


def test_the_101st_ban_and_the_51st_user_agent_are_refused() -> None:
    bans = refusals.read_ip_ban("\n".join(f"10.0.{n // 256}.{n % 256}" for n in range(102)))
    assert len(bans.entries) == 100
    assert [(p.line, p.code) for p in bans.problems] == [(101, "too_many"), (102, "too_many")]
    agents = refusals.read_user_agents("\n".join(f"App{n}" for n in range(51)))
    assert [(p.line, p.value, p.code) for p in agents.problems] == [(51, "App50", "too_many")]


@pytest.mark.parametrize(("pattern", "host", "listed"), [
    ("*upyun.com", "www.upyun.com", True),
    ("*upyun.com", "abcupyun.com", True),
    ("*upyun.com", "upyun.com.evil.org", False),
    ("*.example.com", "a.b.example.com", True),
    ("*.example.com", "example.com", False),
    ("shop.example.com", "SHOP.example.com", True),
])
def test_referer_patterns_match_the_host_with_star_as_any_run(pattern: str, host: str,
                                                               listed: bool) -> None:
    found = refusals.read_host_patterns(pattern)
    assert found.problems == []
    assert refusals.referer_listed(f"https://{host}/page", found.entries) is listed


def test_a_referer_that_is_no_url_matches_no_pattern() -> None:
    assert not refusals.referer_listed("not a url", ["*"])


@pytest.mark.parametrize("entry", ["not a host", "**.a.com", "*", "a_b.com"])
def test_a_bad_host_pattern_is_refused(entry: str) -> None:
    assert refusals.read_host_patterns(entry).problems[0].code == "not_host_pattern"


@pytest.mark.parametrize(("entries", "agent", "allowed"), [
    ([], "anything", True),
    (["MyApp/"], "myapp/2.1 (Android)", True),
    (["MyApp/"], "OtherApp/1", False),
    (["Mozilla/5.0 (iPhone*"], "mozilla/5.0 (iphone; CPU iPhone OS 17)", True),
    (["Mozilla/5.0 (iPhone*"], "x Mozilla/5.0 (iPhone", False),
])
def test_user_agents_are_case_insensitive_with_star_wildcards(entries: list[str], agent: str,
                                                               allowed: bool) -> None:
    assert refusals.agent_allowed(agent, entries) is allowed
