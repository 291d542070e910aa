"""The back-office's own reading of the edge's WAF signatures (README, "WAF of own-origin
domains"), for the "why was I refused" tester: `waf_verdict` says which kind of attack the
edge would see in a request, without asking the edge. Pure: no Django (the sandbox's edge is
the other side and is never imported; a test compares the two on a table of cases).

Looked at, in this order: the User-Agent (scanners, site copiers), the `Origin` of a
state-changing request (csrf), then the path, the query and a form body, each as sent, URL-
decoded once and URL-decoded twice, without regard to case: sqli, xss, rfi, traversal.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, unquote_plus, urlsplit

KINDS = ("scanner", "csrf", "sqli", "xss", "rfi", "traversal")
FORM_LIMIT = 64 * 1024  # the part of a form body the edge looks at
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

_SCANNER_WORDS = (
    "sqlmap", "nikto", "nmap", "masscan", "acunetix", "wpscan", "netsparker", "w3af",
    "dirbuster", "gobuster", "nessus", "openvas", "zgrab", "nuclei", "havij", "zmeu", "jorgee",
    "morfeus", "wfuzz", "arachni", "skipfish", "whatweb", "commix", "xsstrike",
    "fuzz faster u fool",
    # crawlers that copy whole sites or harvest addresses
    "httrack", "webcopier", "webzip", "sitesnagger", "emailcollector", "emailsiphon",
    "webstripper", "blackwidow",
)
_SCANNER = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in _SCANNER_WORDS) + r")\b",
                      re.IGNORECASE)

_QUOTE = r"['\"`]"
_RULES: dict[str, list[str]] = {
    "sqli": [
        # UNION [ALL|DISTINCT] SELECT, spaces possibly written as comments or brackets
        r"\bunion\b[\s/*+(]+(?:(?:all|distinct)[\s/*+(]+)?select\b",
        # a quote closing a string, then a boolean test: ' or '1'='1, " and x like y
        _QUOTE + r"\s*\)?\s*\b(?:or|and|xor)\b\s*\(?\s*" + _QUOTE + r"?\w+" + _QUOTE
        + r"?\s*(?:=|<|>|like\b)",
        r"\b(?:or|and)\s+(\d+)\s*=\s*\1\b",  # or 1=1 (the same number both sides)
        _QUOTE + r"\s*\)?\s*(?:--|/\*|#(?:\s|&|$))",  # a quote, then a comment: admin'--
        r";\s*(?:drop|truncate|alter|create)\s+(?:table|database)\b",
        r";\s*(?:delete\s+from|insert\s+into|update\s+\w+\s+set|exec\b|shutdown\b)",
        r"\b(?:sleep|benchmark|pg_sleep)\s*\(\s*\d",  # time-based probes
        r"\bwaitfor\s+delay\s+['\"]",
        r"\b(?:information_schema|pg_catalog|sysobjects|xp_cmdshell|load_file\s*\()",
        r"\binto\s+(?:out|dump)file\b",
        r"\bselect\b.{1,100}\bfrom\s+(?:mysql\.user|dual)\b",
    ],
    "xss": [
        r"<\s*/?\s*(?:script|iframe|object|embed|applet|base|meta|svg|math)\b",
        r"<[^>]*\bon[a-z]{3,}\s*=",  # a tag with an event handler
        r"['\"]\s*\bon(?:error|load|mouse\w+|focus|blur|click|key\w+|submit|change|input)\s*=",
        r"\b(?:java|vb)script\s*:\s*[\w.$]+\s*\(",  # javascript:alert(
        r"\bdocument\s*\.\s*(?:cookie|domain|write\s*\()",
        r"\bexpression\s*\(",
    ],
    "rfi": [
        r"\b(?:php|expect|phar|zip|glob|data|file|zlib|compress\.\w+)://",  # stream wrappers
        r"\b(?:https?|ftp)://[^\s&]*(?:\?(?:&|$)|\x00)",  # a remote URL cut with ? or NUL
    ],
    "traversal": [
        r"(?:^|[/\\=])\.\.(?:[/\\]|$)",
        r"\b(?:etc/(?:passwd|shadow|hosts)|win\.ini|boot\.ini|proc/self/environ)\b",
    ],
}
_COMPILED = [(kind, [re.compile(rule, re.IGNORECASE) for rule in rules])
             for kind, rules in _RULES.items()]


def decoded_forms(text: str, *, form: bool) -> set[str]:
    """`text`, decoded once and decoded twice (`+` is a space in a query or form)."""
    decode = unquote_plus if form else unquote
    first = decode(text)
    return {text, first, decode(first)}


def _cross_site(origin: str, host: str) -> bool:
    origin = origin.strip()
    if origin.lower() == "null":
        return True
    name = (urlsplit(origin).hostname or "").lower()
    bare = host.strip().lower()
    if bare.count(":") == 1:
        bare = bare.split(":")[0]
    return name != bare.strip("[]").rstrip(".")


def waf_verdict(path: str, query: str, body: str, user_agent: str, *, method: str = "GET",
                origin: str = "", host: str = "") -> str | None:
    """The kind the edge's WAF would refuse the request as (one of KINDS), or None.

    `path` and `query` as on the request line (URL-encoded), `body` a form body's text ("" when
    the request has none, or its type is not a form)."""
    if user_agent and _SCANNER.search(user_agent):
        return "scanner"
    if origin and method.upper() in UNSAFE_METHODS and _cross_site(origin, host):
        return "csrf"
    seen = decoded_forms(path, form=False) | decoded_forms(query, form=True)
    if body:
        seen |= decoded_forms(body[:FORM_LIMIT], form=True)
    for kind, patterns in _COMPILED:
        for pattern in patterns:
            if any(pattern.search(text) for text in seen):
                return kind
    return None
