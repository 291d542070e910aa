"""The access lists of a domain's hotlink protection, as the back-office reads and checks them.
Pure: no Django (the settings form words the problems; the refusal tester uses the matchers).

The rules are cdn/advanced.md's, quoted in DECISIONS.md "Documented console behaviour":
- IP ban: an address, a CIDR network, or an IPv4 address whose trailing octets are `*`
  (`10.11.12.*` is 10.11.12.0-255); at most 100 entries.
- Referer: host patterns, case-insensitive, `*` standing for any run of characters
  (`*upyun.com` lets in `www.upyun.com` and `abcupyun.com`).
- User-Agent whitelist: at most 50 entries, case-insensitive; an entry with `*` matches the
  whole User-Agent (`*` any run), a plain entry any User-Agent containing it (published as
  `*entry*`). It is checked before the Referer.

The sandbox's edge has its own implementation of the same rules; tests compare the two.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar
from urllib.parse import urlsplit

MAX_IP_BAN = 100
MAX_USER_AGENTS = 50
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
_HOST_PATTERN = re.compile(r"(?=.*[A-Za-z0-9])[A-Za-z0-9.*-]{1,253}")
_PRINTABLE = re.compile(r"[\x20-\x7e]+")
T = TypeVar("T")


@dataclass(frozen=True)
class LineProblem:
    """`code`: "not_ip" (neither address, network nor wildcard), "bad_wildcard" (a `*` that
    is not a whole trailing octet), "not_host_pattern", "not_printable", "too_many"."""

    line: int
    value: str
    code: str


@dataclass(frozen=True)
class ReadList(Generic[T]):
    entries: list[T]
    problems: list[LineProblem]


class _Refused(ValueError):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _read(text: str, parse: Callable[[str], T], limit: int | None) -> ReadList[T]:
    """Each non-empty line parsed (`parse` raises _Refused with the problem's code). Lines
    past `limit` entries are each a "too_many" problem, so the first one over is named."""
    entries: list[T] = []
    problems: list[LineProblem] = []
    counted = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        counted += 1
        if limit is not None and counted > limit:
            problems.append(LineProblem(number, line, "too_many"))
            continue
        try:
            entries.append(parse(line))
        except _Refused as refused:
            problems.append(LineProblem(number, line, refused.code))
    return ReadList(entries, problems)


def _ban_entry(entry: str) -> Network:
    if "*" in entry:
        octets = entry.split(".")
        fixed = [octet for octet in octets if octet != "*"]
        stars = len(octets) - len(fixed)
        if (len(octets) != 4 or stars == 4 or octets[len(fixed):] != ["*"] * stars
                or not all(octet.isdigit() and int(octet) <= 255 for octet in fixed)):
            raise _Refused("bad_wildcard")
        entry = ".".join(fixed + ["0"] * stars) + f"/{32 - 8 * stars}"
    try:
        return ipaddress.ip_network(entry, strict=False)
    except ValueError:
        raise _Refused("not_ip") from None


def _host_pattern(entry: str) -> str:
    pattern = entry.lower().rstrip(".")
    if not _HOST_PATTERN.fullmatch(pattern) or "**" in pattern:
        raise _Refused("not_host_pattern")
    return pattern


def _user_agent(entry: str) -> str:
    if not _PRINTABLE.fullmatch(entry):
        raise _Refused("not_printable")
    return entry


def read_ip_ban(text: str) -> ReadList[Network]:
    return _read(text, _ban_entry, MAX_IP_BAN)


def read_host_patterns(text: str) -> ReadList[str]:
    return _read(text, _host_pattern, None)


def read_user_agents(text: str) -> ReadList[str]:
    return _read(text, _user_agent, MAX_USER_AGENTS)


def wildcard_matches(pattern: str, text: str) -> bool:
    """Case-insensitive; `*` is any run of characters, everything else itself."""
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, text, re.IGNORECASE | re.DOTALL) is not None


def agent_pattern(entry: str) -> str:
    """The published pattern: a plain entry means "contains", so it is wrapped in `*`."""
    return entry if "*" in entry else f"*{entry}*"


def ip_banned(ip: str, networks: Sequence[Network]) -> Network | None:
    """The first banned network holding `ip`; None when `ip` is not banned (or no address)."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return None
    return next((network for network in networks if address in network), None)


def agent_allowed(user_agent: str, entries: Sequence[str]) -> bool:
    """An empty whitelist lets every client in."""
    return not entries or any(wildcard_matches(agent_pattern(entry), user_agent)
                              for entry in entries)


def referer_host(referer: str) -> str | None:
    try:
        return urlsplit(referer).hostname
    except ValueError:
        return None


def referer_listed(referer: str, patterns: Sequence[str]) -> bool:
    host = referer_host(referer)
    return host is not None and any(wildcard_matches(pattern, host.rstrip("."))
                                    for pattern in patterns)
