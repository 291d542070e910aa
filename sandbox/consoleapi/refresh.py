"""Rule refresh, preheat, whole-site refresh and the operation records (cdn/refresh.md).

Every accepted item becomes an operation; the edge drops the matching cache entries when it is
accepted, and the record then runs for 5 s of the sandbox clock (progress in proportion).
Records are kept 3 days.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, urlsplit

from django.test import RequestFactory

from sandbox.console import directory
from sandbox.console.models import Operation
from sandbox.consoleapi.errors import NOT_APPLICABLE, NOT_FOUND, TOO_MANY, ConsoleError, bad_field
from sandbox.core import clock
from sandbox.delivery.cache import EDGE_CACHE

MAX_PATTERNS = 10
MAX_URLS = 50
RUN_S = 5.0
KEPT_S = 3 * 86400
ACCEPTED = "accepted"


def lines_of(text: Any, field: str, maximum: int, what: str) -> list[str]:
    if not isinstance(text, str) or not text.strip():
        raise bad_field(field, f"is required: {what}, one a line")
    found = [line.strip() for line in text.splitlines() if line.strip()]
    if len(found) > maximum:
        raise ConsoleError(TOO_MANY, f"{len(found)} {what}; at most {maximum} a request")
    return found


def _domain_and_path(url: str) -> tuple[str, str] | str:
    """(domain, path) of a URL of the account's domains, or why it is refused."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "invalid url"
    host = (parts.hostname or "").lower().rstrip(".")
    if parts.scheme not in ("http", "https") or not host:
        return "invalid url: it must start with http:// or https://"
    if directory.bound_domain(host) is None:
        return "invalid domain: not a domain of this account"
    return host, unquote(parts.path) or "/"


def _item(url: str, status: str) -> dict[str, Any]:
    return {"code": 1 if status == ACCEPTED else 0, "status": status, "url": url}


def pattern_matcher(path_pattern: str) -> re.Pattern[str]:
    """A refresh pattern's path, `*` any run of characters, matched against the whole path."""
    return re.compile(".*".join(re.escape(part) for part in path_pattern.split("*")) + r"\Z",
                      re.DOTALL)


def rule_refresh(source: Any) -> list[dict[str, Any]]:
    answers = []
    for url in lines_of(source, "source_url", MAX_PATTERNS, "patterns"):
        target = _domain_and_path(url)
        if isinstance(target, str):
            answers.append(_item(url, target))
            continue
        domain, path = target
        EDGE_CACHE.purge_matching(domain, pattern_matcher(path).match)
        Operation.objects.create(type=Operation.Type.RULE, url=url, created_at=clock.now())
        answers.append(_item(url, ACCEPTED))
    return answers


def preheat(text: Any) -> list[dict[str, Any]]:
    """Each URL is requested from the edge in this process, as a client would, so its answer
    lands in the edge cache (under the domain's own settings)."""
    from sandbox.delivery.views import edge  # the edge's own handling, rules and all

    answers = []
    for url in lines_of(text, "url", MAX_URLS, "URLs"):
        target = _domain_and_path(url)
        if isinstance(target, str):
            answers.append(_item(url, target))
            continue
        parts = urlsplit(url)
        request = RequestFactory().get(parts.path or "/", QUERY_STRING=parts.query,
                                       HTTP_HOST=target[0],
                                       HTTP_X_FORWARDED_PROTO=parts.scheme)
        edge(request).close()
        Operation.objects.create(type=Operation.Type.PREHEAT, url=url, created_at=clock.now())
        answers.append(_item(url, ACCEPTED))
    return answers


def site_refresh(domain: str) -> dict[str, Any]:
    bound = directory.bound_domain(domain)
    if bound is None:
        raise ConsoleError(NOT_FOUND, f"{domain} is not a domain of this account")
    if bound.is_file:
        raise ConsoleError(NOT_APPLICABLE, f"{domain} belongs to a storage service: whole-site "
                                           "refresh is for own-origin domains only")
    EDGE_CACHE.clear_domain(bound.name)
    url = f"http://{bound.name}/*"
    Operation.objects.create(type=Operation.Type.SITE, url=url, created_at=clock.now())
    return _item(url, ACCEPTED)


def record_json(operation: Operation, now: float) -> dict[str, Any]:
    progress = max(0, min(100, int((now - operation.created_at) * 100 / RUN_S)))
    status = "done" if progress >= 100 else "running" if progress > 0 else "waiting"
    return {"id": operation.pk, "type": operation.type, "url": operation.url, "status": status,
            "progress": progress, "created_at": int(operation.created_at)}


def records(kind: str | None, limit: int, before: int | None) -> dict[str, Any]:
    now = clock.now()
    rows = Operation.objects.filter(created_at__gte=now - KEPT_S)
    if kind:
        rows = rows.filter(type=kind)
    if before is not None:
        rows = rows.filter(pk__lt=before)
    page = list(rows.order_by("-pk")[:limit + 1])
    more = len(page) > limit
    page = page[:limit]
    return {"records": [record_json(row, now) for row in page],
            "pager": {"max": page[-1].pk if more and page else None}}
