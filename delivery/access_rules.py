"""The pure rules of the Access page's three panels (region restriction, origin authentication,
the external-links switch), written for the back-office apart from the sandbox's edge: the
forms check input with them, and a "why was I refused" tester can ask them the edge's verdict.

    parse_regions("CN\\nus\\n")          # (["CN", "US"], []); unknown codes come back as
                                        # problems (line number, text) instead
    region_refuses("block", ["CN"], "CN")   # True: a client in China is refused (403)
    region_refuses("allow", ["US"], None)   # True: an unknown country is "not in the list"
    external_links_refuse(False)        # True: every request of the domain gets 405
    auth_url_problem("ftp://x/")        # "scheme": only http and https
    auth_request_headers("/a.jpg?x=1", "GET", "cdn.example.com", "1.2.3.4", {...})

Codes are ISO 3166-1 alpha-2 as `pycountry` knows them (its list follows the ISO 3166
Maintenance Agency); the edge then compares the client's country, looked up from its address,
with the list. Pure: no Django.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

import pycountry

REGION_MODES = ("off", "allow", "block")
MIN_AUTH_TIMEOUT = 1
MAX_AUTH_TIMEOUT = 10
MAX_AUTH_URL = 1024
MAX_REGIONS = 300
# The request the edge sends to the auth URL (docs/decisions.md, "Origin authentication").
HEADER_PREFIX = "X-Svc-"
NOT_FORWARDED = frozenset({"connection", "keep-alive", "proxy-authenticate",
                           "proxy-authorization", "te", "trailer", "transfer-encoding",
                           "upgrade", "host", "content-length"})


@dataclass(frozen=True)
class LineProblem:
    line: int  # 1-based
    text: str  # the line as typed, stripped


@lru_cache(maxsize=1)
def country_codes() -> frozenset[str]:
    return frozenset(country.alpha_2 for country in pycountry.countries)


def country_name(code: str, language: str = "en") -> str:
    """The country's name in `language` ("zh_CN", "en"...), from pycountry's ISO 3166
    translations; the English name when there is no translation."""
    country = pycountry.countries.get(alpha_2=code.upper())
    if country is None:
        return code
    name = str(getattr(country, "common_name", None) or country.name)
    return _translation(language).gettext(str(country.name)) if language != "en" else name


@lru_cache(maxsize=8)
def _translation(language: str) -> gettext.NullTranslations:
    return gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[language],
                               fallback=True)


def countries(language: str = "en") -> list[tuple[str, str]]:
    """(code, name) of every country/region, by code."""
    return sorted((code, country_name(code, language)) for code in country_codes())


def parse_regions(text: str) -> tuple[list[str], list[LineProblem]]:
    """The codes of a text (one a line, spaces and commas also separate; case-insensitive;
    repeats dropped), and the lines holding something that is no ISO 3166 alpha-2 code."""
    codes: list[str] = []
    problems: list[LineProblem] = []
    known = country_codes()
    for number, raw in enumerate(text.splitlines(), start=1):
        for word in raw.replace(",", " ").split():
            code = word.upper()
            if code not in known:
                problems.append(LineProblem(number, word))
            elif code not in codes:
                codes.append(code)
    return codes, problems


def region_refuses(mode: str, regions: Sequence[str], country: str | None) -> bool:
    """Whether the edge refuses (403) a client of `country` (None: the address has no known
    country, which is "not in the list": allow-only refuses it, block serves it)."""
    if mode == "allow":
        return country is None or country.upper() not in regions
    if mode == "block":
        return country is not None and country.upper() in regions
    return False


def external_links_refuse(enabled: bool) -> bool:
    """Whether the switch answers every request of the domain 405."""
    return not enabled


def auth_url_problem(url: str) -> str | None:
    """None for a usable auth URL; else what is wrong: "length", "spaces", "scheme" (only
    http and https) or "host"."""
    if len(url) > MAX_AUTH_URL:
        return "length"
    if any(ord(character) <= 0x20 or ord(character) == 0x7f for character in url):
        return "spaces"
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https"):
        return "scheme"
    if not parts.hostname:
        return "host"
    return None


def auth_timeout_ok(seconds: int) -> bool:
    return MIN_AUTH_TIMEOUT <= seconds <= MAX_AUTH_TIMEOUT


def auth_request_headers(uri: str, method: str, host: str, client_ip: str,
                         headers: Mapping[str, str]) -> dict[str, str]:
    """The headers of `GET <auth URL>` the edge sends before serving one client request:
    X-Svc-Uri, X-Svc-Method, X-Svc-Host, X-Svc-Client-Ip, then X-Svc-Header-<Name> for each
    client header (hop-by-hop ones, Host and Content-Length left out)."""
    asked = {f"{HEADER_PREFIX}Uri": uri, f"{HEADER_PREFIX}Method": method,
             f"{HEADER_PREFIX}Host": host, f"{HEADER_PREFIX}Client-Ip": client_ip}
    for name, value in headers.items():
        if name.lower() not in NOT_FORWARDED:
            asked[f"{HEADER_PREFIX}Header-{name}"] = value
    return asked
