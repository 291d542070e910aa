"""The request a rule set runs against.

The edge builds one :class:`RequestContext` per request. Parsing of the query, cookies, form
body and header names is lazy and cached on the instance, because most rules never read them
and the runner is on the request path.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from time import time as _now

from edgerules.names import BODY_LIMIT
from edgerules.querystring import first_values, split_pairs

PREVIEW_HEADER = "x-svc-rewrite-preview"
WWW_FORM = "application/x-www-form-urlencoded"
# Stateless (reads the OS source), so one instance serves every request.
_SYSTEM_RANDOM = random.SystemRandom()


@dataclass(slots=True)
class RequestContext:
    """One incoming request, as the rewrite language sees it.

    - ``uri``: the path as received, without the query (what patterns are matched against).
    - ``query``: the raw query string without ``?``.
    - ``headers``: any capitalisation; ``Host`` is taken from ``host``, not from here.
    - ``cookies``: when ``None``, parsed from the ``Cookie`` header on first use.
    - ``body``: the request body, or its first 16 KB (``$_BODY``, the page's limit; the caller
      may pass more, it is cut here); its fields are ``$_POST_name`` only when the
      ``Content-Type`` is ``application/x-www-form-urlencoded`` (the spec's "www-form only").
    - ``has_body``: the request carries a body (``$SET_METHOD`` may then only choose PUT or
      POST); ``None`` means "when ``body`` is not empty".
    - ``ip``: the client's address (``$_IP``), as the edge determined it.
    - ``country_of``: a country lookup (address -> ISO 3166 alpha-2 code, ``None`` when
      unknown) for ``$_GEOIP_COUNTRY_CODE``; without one the country is absent. Called at most
      once per request, and only by a rule that reads the variable.
    - ``time``: UNIX seconds, fixed per request so every ``$_TIME`` of a rule set agrees.
    - ``rng``: source of ``$_RANDOM``/``$RANDI``; inject a seeded ``random.Random`` in tests.
    """

    method: str = "GET"
    scheme: str = "http"
    host: str = ""
    uri: str = "/"
    query: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    cookies: Mapping[str, str] | None = None
    body: str = ""
    time: float = field(default_factory=_now)
    ip: str = ""
    has_body: bool | None = None
    country_of: Callable[[str], str | None] | None = field(default=None, repr=False)
    rng: random.Random = field(default=_SYSTEM_RANDOM, repr=False)
    _query_args: dict[str, str] | None = field(default=None, init=False, repr=False, compare=False)
    _form: dict[str, str] | None = field(default=None, init=False, repr=False, compare=False)
    _headers: dict[str, str] | None = field(default=None, init=False, repr=False, compare=False)
    _dashed: dict[str, str] | None = field(default=None, init=False, repr=False, compare=False)
    _cookies: dict[str, str] | None = field(default=None, init=False, repr=False, compare=False)
    _country: tuple[str | None] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if len(self.body) > BODY_LIMIT:
            if self.has_body is None:
                self.has_body = True
            self.body = self.body[:BODY_LIMIT]

    @property
    def carries_body(self) -> bool:
        return self.has_body if self.has_body is not None else self.body != ""

    def country(self) -> str | None:
        """``$_GEOIP_COUNTRY_CODE``: the client's country, ``None`` when it is unknown."""
        if self._country is None:
            found = self.country_of(self.ip) if self.country_of is not None and self.ip else None
            self._country = (found.upper() if found else None,)
        return self._country[0]

    def header(self, name: str) -> str | None:
        """Header value by case-insensitive name, or ``None``.

        An underscore also matches a hyphen: ``$_HEADER_user_agent`` must reach ``User-Agent``
        and variable names cannot contain ``-`` (nginx's ``$http_user_agent`` convention). A
        header spelled with ``_`` is found under either spelling.
        """
        headers = self._headers
        if headers is None:
            headers = self._headers = {k.lower(): v for k, v in self.headers.items()}
        key = name.lower()
        value = headers.get(key)
        if value is None and "_" in key:
            if self._dashed is None:
                self._dashed = {k.replace("_", "-"): v for k, v in headers.items()}
            value = self._dashed.get(key.replace("_", "-"))
        return value

    def query_arg(self, name: str) -> str | None:
        """Raw (not URL-decoded) first value of query parameter ``name``, or ``None``."""
        if self._query_args is None:
            self._query_args = first_values(split_pairs(self.query))
        return self._query_args.get(name)

    def form_field(self, name: str) -> str | None:
        """Raw first value of a www-form body field; ``None`` for other bodies."""
        if self._form is None:
            content_type = (self.header("content-type") or "").split(";", 1)[0].strip().lower()
            self._form = first_values(split_pairs(self.body)) if content_type == WWW_FORM else {}
        return self._form.get(name)

    def cookie(self, name: str) -> str | None:
        """Cookie value by exact name, or ``None``."""
        if self._cookies is None:
            if self.cookies is not None:
                self._cookies = dict(self.cookies)
            else:
                self._cookies = parse_cookie_header(self.header("cookie") or "")
        return self._cookies.get(name)

    @property
    def wants_preview(self) -> bool:
        """True when the request carries ``X-svc-Rewrite-Preview: true`` (debug rules apply)."""
        value = self.header(PREVIEW_HEADER)
        return value is not None and value.strip().lower() == "true"


def parse_cookie_header(header: str) -> dict[str, str]:
    """``a=1; b=2`` -> ``{"a": "1", "b": "2"}``; the first of duplicate names wins."""
    cookies: dict[str, str] = {}
    for item in header.split(";"):
        name, sep, value = item.strip().partition("=")
        if sep and name:
            cookies.setdefault(name, value)
    return cookies
