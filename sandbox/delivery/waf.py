"""The edge's WAF for own-origin domains (DECISIONS.md: "WAF (own origin): blocks SQL
injection, XSS, CSRF, malicious crawlers, scanners and remote file inclusion; on or off").

A compact signature table, written here by hand (no maintained signature library is
installable from PyPI for Python; docs/decisions.md). What is looked at:
- the User-Agent, against known scanners and site-copying crawlers (`scanner`);
- for POST, PUT, PATCH and DELETE, an `Origin` header naming another host than the request's
  `Host` (`csrf`: a browser sends `Origin` on a cross-site form or fetch);
- the path, the query string and, for an `application/x-www-form-urlencoded` body of at most
  1 MB, its first 64 KB, each URL-decoded once and then once more (so `%2527` is seen as `'`); every
  spelling is checked, case-insensitive, for `sqli`, `xss`, `rfi` and `traversal`.

The signatures want the shape of an attack, not a word: `?q=select a colour`,
`?name=O'Brien`, `?next=https://example.com/` and `?q=javascript: the good parts` pass. The
README ("WAF") lists what is caught and what is not, with examples.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, unquote_plus, urlsplit

from sandbox.delivery.errors import WAF_DENIED, EdgeError

MAX_FORM_BYTES = 64 * 1024
MAX_READ_BYTES = 1024 * 1024
STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")


def _table(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


# Known scanners and malicious crawlers, by a word of their User-Agent.
SCANNERS = _table(
    r"\b(?:sqlmap|nikto|nmap|masscan|acunetix|wpscan|netsparker|w3af|dirbuster|gobuster"
    r"|nessus|openvas|zgrab|nuclei|havij|zmeu|jorgee|morfeus|wfuzz|arachni|skipfish"
    r"|whatweb|commix|xsstrike|fuzz faster u fool)\b",
    r"\b(?:httrack|webcopier|webzip|sitesnagger|emailcollector|emailsiphon|webstripper"
    r"|blackwidow)\b",
)

SIGNATURES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("sqli", _table(
        r"\bunion\b[\s/*+(]+(?:all[\s/*+(]+|distinct[\s/*+(]+)?select\b",  # UNION SELECT
        r"['\"`]\s*\)?\s*\b(?:or|and|xor)\b\s*\(?\s*['\"`]?\w+['\"`]?\s*(?:=|<|>|like\b)",
        r"\b(?:or|and)\s+(\d+)\s*=\s*\1\b",                              # or 1=1
        r"['\"`]\s*\)?\s*(?:--|/\*|#(?:\s|&|$))",                         # admin'--
        r";\s*(?:drop|truncate|alter|create)\s+(?:table|database)\b",    # ; drop table
        r";\s*(?:delete\s+from|insert\s+into|update\s+\w+\s+set|exec\b|shutdown\b)",
        r"\b(?:sleep|benchmark|pg_sleep)\s*\(\s*\d",
        r"\bwaitfor\s+delay\s+['\"]",
        r"\b(?:information_schema|pg_catalog|sysobjects|xp_cmdshell|load_file\s*\()",
        r"\binto\s+(?:out|dump)file\b",
        r"\bselect\b.{1,100}\bfrom\s+(?:mysql\.user|dual)\b",
    )),
    ("xss", _table(
        r"<\s*/?\s*(?:script|iframe|object|embed|applet|base|meta|svg|math)\b",
        r"<[^>]*\bon[a-z]{3,}\s*=",                                      # <img onerror=
        r"['\"]\s*\bon(?:error|load|mouse\w+|focus|blur|click|key\w+|submit|change|input)"
        r"\s*=",
        r"\b(?:java|vb)script\s*:\s*[\w.$]+\s*\(",                       # javascript:alert(
        r"\bdocument\s*\.\s*(?:cookie|domain|write\s*\()",
        r"\bexpression\s*\(",
    )),
    ("rfi", _table(
        r"\b(?:php|expect|phar|zip|glob|data|file|zlib|compress\.\w+)://",
        r"\b(?:https?|ftp)://[^\s&]*(?:\?(?:&|$)|\x00)",            # http://evil/x.txt?
    )),
    ("traversal", _table(
        r"(?:^|[/\\=])\.\.(?:[/\\]|$)",                                  # ../
        r"\b(?:etc/(?:passwd|shadow|hosts)|win\.ini|boot\.ini|proc/self/environ)\b",
    )),
)


def spellings(text: str, *, plus: bool) -> list[str]:
    """The text as given, decoded once and decoded twice (no further: `%25252e` stays
    `%2e`); `plus` turns `+` into a space (query strings and form bodies)."""
    decode = unquote_plus if plus else unquote
    once = decode(text)
    twice = decode(once)
    return list(dict.fromkeys((text, once, twice)))


def verdict(path: str, query: str, body: str, user_agent: str, *, method: str = "GET",
            origin: str = "", host: str = "") -> str | None:
    """The kind of attack the request shows (`scanner`, `csrf`, `sqli`, `xss`, `rfi`,
    `traversal`), or None. `path` and `query` as they came on the request line (still
    URL-encoded), `body` the form body already cut to MAX_FORM_BYTES ("" for others)."""
    if user_agent and SCANNERS.search(user_agent):
        return "scanner"
    if method.upper() in STATE_CHANGING and origin and _other_site(origin, host):
        return "csrf"
    texts = spellings(path, plus=False) + spellings(query, plus=True) + (
        spellings(body, plus=True) if body else [])
    for kind, pattern in SIGNATURES:
        if any(pattern.search(text) for text in texts):
            return kind
    return None


def _other_site(origin: str, host: str) -> bool:
    """`Origin: null` (a sandboxed frame, a file) and an origin whose host is not the
    request's are another site; the port does not matter."""
    if origin.strip().lower() == "null":
        return True
    origin_host = (urlsplit(origin.strip()).hostname or "").lower()
    host_only = host.strip().lower().rsplit(":", 1)[0] if host.count(":") == 1 else host
    return origin_host != host_only.strip().lower().strip("[]").rstrip(".")


def is_form(content_type: str, content_length: int) -> bool:
    """Whether the body is looked at: `application/x-www-form-urlencoded` with a length of at
    most MAX_READ_BYTES (a bigger or chunked form is not read for the WAF)."""
    return ("application/x-www-form-urlencoded" in content_type.lower()
            and 0 < content_length <= MAX_READ_BYTES)


def form_text(body: bytes) -> str:
    """The part of a form body the signatures see: its first MAX_FORM_BYTES."""
    return body[:MAX_FORM_BYTES].decode("latin-1")


def check(path: str, query: str, body: str, user_agent: str, *, method: str, origin: str,
          host: str) -> None:
    """Raise the WAF's 403 when `verdict` finds an attack."""
    kind = verdict(path, query, body, user_agent, method=method, origin=origin, host=host)
    if kind is not None:
        raise EdgeError(403, WAF_DENIED, f"request refused by the WAF ({kind})")
