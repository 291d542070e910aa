"""Hotlink protection besides the token: IP blacklist, Referer domains, User-Agent whitelist.

- Client IP: REMOTE_ADDR; when the direct peer is loopback (a local proxy, or a test standing
  in for one) the first address of `X-Forwarded-For` is the client, as a CDN behind its own
  load balancer trusts its balancer. From anywhere else `X-Forwarded-For` is ignored.
- Referer: mode `off` checks nothing; `allow` serves only Referers whose host is listed,
  `deny` refuses those whose host is listed. An entry is a host pattern, case-insensitive, in
  which `*` stands for any run of characters (cdn/advanced.md: `*upyun.com` lets in
  `www.upyun.com` and `abcupyun.com`): `example.com` is that host exactly, `*.example.com` any
  host below it. An empty or missing Referer bypasses the check unless `deny_empty` is set
  (the spec's default); a Referer that is not a URL with a host counts as a host that matches
  no entry.
- User-Agent, checked before the Referer (cdn/advanced.md ranks them so): an empty whitelist
  lets everyone in; otherwise the User-Agent must contain one entry (case-insensitive), or
  match it when the entry is a regular expression written between slashes (`/^curl\\//`,
  searched, case-insensitive).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from sandbox.delivery.errors import IP_DENIED, REFERER_DENIED, USER_AGENT_DENIED, EdgeError

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class RefererRule:
    mode: str  # off | allow | deny
    domains: tuple[str, ...]
    deny_empty: bool


@dataclass(frozen=True)
class AgentPattern:
    """One whitelist entry: a substring, or a compiled regular expression."""

    text: str
    pattern: re.Pattern[str] | None

    def matches(self, agent: str) -> bool:
        if self.pattern is not None:
            return self.pattern.search(agent) is not None
        return self.text.lower() in agent.lower()


def agent_pattern(entry: str) -> AgentPattern:
    """Raises re.error for a bad regular expression."""
    if len(entry) >= 2 and entry.startswith("/") and entry.endswith("/"):
        return AgentPattern(entry, re.compile(entry[1:-1], re.IGNORECASE))
    return AgentPattern(entry, None)


def client_ip(remote_addr: str, headers: Mapping[str, str]) -> str:
    peer = _address(remote_addr)
    forwarded = headers.get("x-forwarded-for", "")
    if peer is not None and peer.is_loopback and forwarded:
        first = _address(forwarded.split(",")[0].strip())
        if first is not None:
            return str(first)
    return str(peer) if peer is not None else remote_addr


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def check(ip: str, headers: Mapping[str, str], blacklist: Sequence[Network],
          referer: RefererRule, agents: Sequence[AgentPattern]) -> None:
    """Raise EdgeError (403) when the request may not be served."""
    address = _address(ip)
    if address is not None and any(address in network for network in blacklist):
        raise EdgeError(403, IP_DENIED, f"access denied: the IP address {ip} is blocked")
    if agents:
        agent = headers.get("user-agent", "")
        if not any(pattern.matches(agent) for pattern in agents):
            raise EdgeError(403, USER_AGENT_DENIED,
                            "access denied: the User-Agent is not in the whitelist")
    check_referer(headers.get("referer", "").strip(), referer)


def check_referer(referer: str, rule: RefererRule) -> None:
    if rule.mode == "off":
        return
    if not referer:
        if rule.deny_empty:
            raise EdgeError(403, REFERER_DENIED, "access denied: an empty Referer is refused")
        return
    host = _referer_host(referer)
    listed = host is not None and any(domain_matches(host, domain) for domain in rule.domains)
    if rule.mode == "allow" and not listed:
        raise EdgeError(403, REFERER_DENIED,
                        f"access denied: the Referer host {host or referer!r} is not allowed")
    if rule.mode == "deny" and listed:
        raise EdgeError(403, REFERER_DENIED, f"access denied: the Referer host {host!r} is denied")


def _referer_host(referer: str) -> str | None:
    try:
        return urlsplit(referer).hostname
    except ValueError:
        return None


def domain_matches(host: str, domain: str) -> bool:
    """`domain` is a stored entry (lowercase); `*` matches any run, dots included."""
    host = host.lower().rstrip(".")
    if "*" not in domain:
        return host == domain
    pattern = ".*".join(re.escape(part) for part in domain.split("*"))
    return re.fullmatch(pattern, host) is not None
