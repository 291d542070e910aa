""""Why was I refused?": a request described by staff, run through a domain's published console
sections in the edge's order, and the verdict of each check. Pure: no Django.

The back-office decides this with its own code (the sandbox's edge is the other side and is
never imported); tests compare the verdicts with the sandbox edge's real answers. The order
and the refusal codes are the edge's as README.md's table and docs/decisions.md give them:

1. HTTPS access: an https:// URL of a domain whose HTTPS access is off gets no TLS at all;
2. the external-links switch: off answers 405 (40500020);
3. forced HTTPS: a plain-HTTP request is answered 301 (not a refusal, but nothing else runs);
4. the rewrite rules: `$EXIT` answers with its status, `$REDIRECT` redirects;
5. IP ban (403, 40310010), then the User-Agent whitelist (40310012), then the Referer
   (40310011), then region restriction (40310020);
6. the token (`_upt` in the URL's query; 40310013);
7. own-origin domains: the IP access limit rules (they act only past a count of requests, so
   the verdict is "depends"), then the WAF (40310030);
8. origin authentication: the merchant's URL decides ("depends"; the Access page's "Try it"
   asks it).

What the tester cannot know is said so: the rules' request-header changes are not applied to
the Referer and User-Agent it checks, a `_upt` cookie is not considered, the request is a GET
without a body (the size limit never applies), and whether the file exists is the edge's to
say. A check whose section is off is "off", and the checks after a refusal are "not reached".
"""

from __future__ import annotations

import ipaddress
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from delivery import refusals
from delivery.access_rules import region_refuses
from delivery.client import upt_token
from delivery.waf import waf_verdict
from edgerules import RequestContext, RuleSpec, RuleSyntaxError, compile_rule_set

# The checks in the edge's order; their names are the page's keys for wording them.
HTTPS_ACCESS = "https_access"
EXTERNAL_LINKS = "external_links"
FORCED_HTTPS = "forced_https"
REWRITE = "rewrite"
IP_BAN = "ip_ban"
USER_AGENT = "user_agent"
REFERER = "referer"
REGION = "region"
TOKEN = "token"
IP_LIMITS = "ip_limits"
WAF = "waf"
ORIGIN_AUTH = "origin_auth"
CHECKS = (HTTPS_ACCESS, EXTERNAL_LINKS, FORCED_HTTPS, REWRITE, IP_BAN, USER_AGENT, REFERER,
          REGION, TOKEN, IP_LIMITS, WAF, ORIGIN_AUTH)

# The edge's refusal codes (README.md, "The edge's refusals").
CODES = {EXTERNAL_LINKS: "40500020", IP_BAN: "40310010", REFERER: "40310011",
         USER_AGENT: "40310012", TOKEN: "40310013", REGION: "40310020", WAF: "40310030"}

PASSED = "passed"
REFUSED = "refused"
ANSWERED = "answered"  # the check answers the request itself (a redirect)
OFF = "off"
NOT_REACHED = "not_reached"
DEPENDS = "depends"  # decided by what the tester cannot see (a request count, the merchant)


@dataclass(frozen=True)
class Probe:
    """The request: `url` is `http(s)://host/path?query` (or `/path?query` on the domain);
    `country` "" is looked up from `client_ip`."""

    url: str
    client_ip: str = ""
    referer: str = ""
    user_agent: str = ""
    country: str = ""


@dataclass(frozen=True)
class Verdict:
    """`detail` holds what the page words: the matched entry, the status of a rule's exit, the
    redirect's location, why a token is wrong."""

    check: str
    outcome: str
    status: int | None = None
    code: str = ""
    detail: Mapping[str, str] = field(default_factory=dict)


class ProbeError(ValueError):
    """`field` is url, client_ip or country."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name


@dataclass(frozen=True)
class _Request:
    scheme: str
    host: str
    path: str
    query: str


def parse_url(url: str, host: str) -> _Request:
    url = url.strip()
    if url.startswith(("http://", "https://")):
        parts = urlsplit(url)
        if not parts.hostname:
            raise ProbeError("url", "has no host")
        return _Request(parts.scheme, parts.netloc, parts.path or "/", parts.query)
    if url.startswith("/"):
        path, _sep, query = url.split("#", 1)[0].partition("?")
        return _Request("http", host, path, query)
    raise ProbeError("url", "must be http(s)://host/path or start with /")


def check_probe(probe: Probe) -> None:
    """Raise ProbeError for the first bad field."""
    if any(ch.isspace() for ch in probe.url.strip()):
        raise ProbeError("url", "must not contain spaces")
    if probe.client_ip:
        try:
            ipaddress.ip_address(probe.client_ip)
        except ValueError:
            raise ProbeError("client_ip", "is not an IPv4 or IPv6 address") from None
    if probe.country and not (len(probe.country) == 2 and probe.country.isalpha()):
        raise ProbeError("country", "is a two-letter code (ISO 3166), e.g. CN")


def run_checks(sections: Mapping[str, Any], probe: Probe, *, host: str, secret: str = "",
               now: float | None = None,
               country_of: Callable[[str], str | None] | None = None) -> list[Verdict]:
    """Every check's verdict, in the edge's order. `sections` are the published console
    sections (a missing one is the edge's default); `host` is the domain the URL is on when it
    gives none; `secret` the domain's token secret (needed only with the token on)."""
    check_probe(probe)
    request = parse_url(probe.url, host)
    when = time.time() if now is None else now
    country = probe.country.upper() or (
        (country_of(probe.client_ip) or "") if country_of and probe.client_ip else "")
    steps: list[Callable[[], Verdict]] = [
        lambda: _https_access(sections, request),
        lambda: _external_links(sections),
        lambda: _forced_https(sections, request),
        lambda: _rewrite(sections, request, probe, when, country),
        lambda: _ip_ban(sections, probe),
        lambda: _user_agent(sections, probe),
        lambda: _referer(sections, probe),
        lambda: _region(sections, country),
        lambda: _token(sections, request, secret, when),
        lambda: _ip_limits(sections, request),
        lambda: _waf(sections, request, probe),
        lambda: _origin_auth(sections),
    ]
    verdicts: list[Verdict] = []
    for check, step in zip(CHECKS, steps, strict=True):
        stopped = first_stop(verdicts) is not None
        verdicts.append(Verdict(check, NOT_REACHED) if stopped else step())
    return verdicts


def first_stop(verdicts: Sequence[Verdict]) -> Verdict | None:
    """The check that refuses or answers the request; None when the edge would serve it."""
    return next((v for v in verdicts if v.outcome in (REFUSED, ANSWERED)), None)


def _https_access(sections: Mapping[str, Any], request: _Request) -> Verdict:
    if request.scheme != "https":
        return Verdict(HTTPS_ACCESS, OFF)
    if (sections.get("https") or {}).get("access"):
        return Verdict(HTTPS_ACCESS, PASSED)
    return Verdict(HTTPS_ACCESS, REFUSED)  # no HTTP answer: the TLS handshake fails


def _external_links(sections: Mapping[str, Any]) -> Verdict:
    if (sections.get("external_links") or {"enabled": True}).get("enabled", True):
        return Verdict(EXTERNAL_LINKS, PASSED)
    return Verdict(EXTERNAL_LINKS, REFUSED, 405, CODES[EXTERNAL_LINKS])


def _forced_https(sections: Mapping[str, Any], request: _Request) -> Verdict:
    if not (sections.get("https") or {}).get("force"):
        return Verdict(FORCED_HTTPS, OFF)
    if request.scheme == "https":
        return Verdict(FORCED_HTTPS, PASSED)
    location = f"https://{request.host}{request.path}" + (
        f"?{request.query}" if request.query else "")
    return Verdict(FORCED_HTTPS, ANSWERED, 301, detail={"location": location})


def _rewrite(sections: Mapping[str, Any], request: _Request, probe: Probe, now: float,
             country: str) -> Verdict:
    specs: list[RuleSpec | Mapping[str, object]] = list(sections.get("rewrite") or [])
    if not specs:
        return Verdict(REWRITE, OFF)
    headers = {name: value for name, value in (("Referer", probe.referer),
                                                ("User-Agent", probe.user_agent)) if value}
    context = RequestContext(method="GET", scheme=request.scheme, host=request.host,
                             uri=request.path, query=request.query, headers=headers,
                             cookies=None, body="", time=now, ip=probe.client_ip,
                             country_of=lambda _ip: country or None)
    try:
        outcome = compile_rule_set(specs).run(context)
    except RuleSyntaxError as error:  # a published set is lint-clean; say so if not
        return Verdict(REWRITE, PASSED, detail={"error": str(error)})
    if outcome.exit is not None:
        return Verdict(REWRITE, REFUSED, outcome.exit.status, detail={"body": outcome.exit.body})
    if outcome.redirect is not None:
        return Verdict(REWRITE, ANSWERED, outcome.redirect.status,
                       detail={"location": outcome.redirect.location})
    return Verdict(REWRITE, PASSED)


def _ip_ban(sections: Mapping[str, Any], probe: Probe) -> Verdict:
    entries = sections.get("ip_ban") or []
    if not entries:
        return Verdict(IP_BAN, OFF)
    networks = refusals.read_ip_ban("\n".join(entries)).entries
    banned = refusals.ip_banned(probe.client_ip, networks)
    if banned is None:
        return Verdict(IP_BAN, PASSED)
    return Verdict(IP_BAN, REFUSED, 403, CODES[IP_BAN], {"entry": str(banned)})


def _user_agent(sections: Mapping[str, Any], probe: Probe) -> Verdict:
    # Published patterns already carry their `*` (a plain entry went out as `*entry*`).
    patterns: list[str] = list(sections.get("ua") or [])
    if not patterns:
        return Verdict(USER_AGENT, OFF)
    if refusals.agent_allowed(probe.user_agent, patterns):
        return Verdict(USER_AGENT, PASSED)
    return Verdict(USER_AGENT, REFUSED, 403, CODES[USER_AGENT])


def _referer(sections: Mapping[str, Any], probe: Probe) -> Verdict:
    rule = sections.get("referer") or {}
    mode = rule.get("mode", "off")
    if mode == "off":
        return Verdict(REFERER, OFF)
    referer = probe.referer.strip()
    if not referer:
        if rule.get("deny_empty"):
            return Verdict(REFERER, REFUSED, 403, CODES[REFERER], {"reason": "empty"})
        return Verdict(REFERER, PASSED, detail={"reason": "empty"})
    listed = refusals.referer_listed(referer, rule.get("domains") or [])
    host = refusals.referer_host(referer) or referer
    if mode == "allow" and not listed:
        return Verdict(REFERER, REFUSED, 403, CODES[REFERER],
                       {"reason": "not_allowed", "host": host})
    if mode == "deny" and listed:
        return Verdict(REFERER, REFUSED, 403, CODES[REFERER], {"reason": "denied", "host": host})
    return Verdict(REFERER, PASSED)


def _region(sections: Mapping[str, Any], country: str) -> Verdict:
    rule = sections.get("region") or {}
    mode = rule.get("mode", "off")
    if mode == "off":
        return Verdict(REGION, OFF)
    shown = country or "?"
    if region_refuses(mode, rule.get("regions") or [], country or None):
        return Verdict(REGION, REFUSED, 403, CODES[REGION],
                       {"reason": mode if country else "unknown", "country": shown})
    return Verdict(REGION, PASSED, detail={"country": shown})


def _ip_limits(sections: Mapping[str, Any], request: _Request) -> Verdict:
    if not sections.get("ip_limits"):
        return Verdict(IP_LIMITS, OFF)
    rules = [rule for rule in sections["ip_limits"]
             if _path_matches(str(rule.get("pattern", "")), request.path)]
    if not rules:
        return Verdict(IP_LIMITS, PASSED)
    rule = rules[0]
    return Verdict(IP_LIMITS, DEPENDS, detail={
        "pattern": str(rule["pattern"]), "count": str(rule["count"]),
        "action": str(rule["action"]), "seconds": str(rule["seconds"])})


def _path_matches(pattern: str, path: str) -> bool:
    """`*` any run of characters; the whole path, case as written (no query)."""
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, path, re.DOTALL) is not None


def _waf(sections: Mapping[str, Any], request: _Request, probe: Probe) -> Verdict:
    if not (sections.get("waf") or {}).get("enabled"):
        return Verdict(WAF, OFF)
    kind = waf_verdict(request.path, request.query, "", probe.user_agent, method="GET",
                       host=request.host)
    if kind is None:
        return Verdict(WAF, PASSED)
    return Verdict(WAF, REFUSED, 403, CODES[WAF], {"kind": kind})


def _origin_auth(sections: Mapping[str, Any]) -> Verdict:
    url = str((sections.get("origin_auth") or {}).get("url") or "")
    if not url:
        return Verdict(ORIGIN_AUTH, OFF)
    return Verdict(ORIGIN_AUTH, DEPENDS, detail={"url": url})


def _token(sections: Mapping[str, Any], request: _Request, secret: str, now: float) -> Verdict:
    if not (sections.get("token") or {}).get("enabled"):
        return Verdict(TOKEN, OFF)
    query = parse_qs(request.query, keep_blank_values=True)
    upt = (query.get("_upt") or [""])[0]
    upp_text = (query.get("_upp") or [""])[0]
    refused = Verdict(TOKEN, REFUSED, 403, CODES[TOKEN], {"reason": "missing"})
    if not upt:
        return refused
    etime_text = upt[8:]
    if not etime_text.isdigit():
        return Verdict(TOKEN, REFUSED, 403, CODES[TOKEN], {"reason": "malformed"})
    if int(etime_text) < now:
        return Verdict(TOKEN, REFUSED, 403, CODES[TOKEN],
                       {"reason": "expired", "etime": etime_text})
    upp = int(upp_text) if upp_text.isdigit() else None
    try:
        expected = upt_token(secret, request.path, int(etime_text), upp)
    except ValueError:  # no secret known here: the signature cannot be checked
        return Verdict(TOKEN, PASSED, detail={"reason": "unchecked"})
    if expected != upt:
        return Verdict(TOKEN, REFUSED, 403, CODES[TOKEN], {"reason": "signature"})
    return Verdict(TOKEN, PASSED)
