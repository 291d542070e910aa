"""One list of refresh operations: ours (kept as long as we like) with the provider's progress
(`GET /buckets/purge/records`, kept 3 days there).

Ours are the domain's `RefreshOperation`s and the manual purges (URL refresh) that touched it.
Each item is paired with a provider record of the same type and URL: ours newest first, each
taking the newest record not yet taken. Pairing by order rather than by time keeps it right
whatever the two clocks say (the sandbox's may be moved). An item without a record is either
refused (no record was made), older than the provider keeps, or not listed yet.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Q
from django.utils.translation import gettext as _

from console.client import RefreshRecord
from console.models import Domain
from console.services import console_client
from delivery.models import (
    PurgeRequest,
    PurgeSource,
    PurgeStatus,
    RefreshOperation,
    RefreshState,
)
from delivery.services.refreshing import FAILURES

URL = "url"
# How many of the provider's records are read (newest first) to pair with ours: 3 days of a
# busy account may hold more, and older ones then show without progress.
RECORD_PAGES = 5
RECORD_PAGE_SIZE = 100


@dataclass
class ItemView:
    url: str
    accepted: bool
    answer: str  # the console's status for the item ("accepted", "invalid domain: ...")
    progress: int | None = None
    provider_status: str = ""  # waiting, running, done; "" when no record was paired


@dataclass
class OperationView:
    kind: str  # url, rule, preheat, site
    kind_label: str
    created_at: datetime
    who: str
    status: str  # our state's value
    status_label: str
    error: str
    items: list[ItemView] = field(default_factory=list)

    @property
    def progress(self) -> int | None:
        """The slowest accepted item's progress; None while none is known."""
        known = [item.progress for item in self.items if item.accepted
                 and item.progress is not None]
        return min(known) if known else None

    @property
    def done(self) -> bool:
        accepted = [item for item in self.items if item.accepted]
        return bool(accepted) and all(item.progress == 100 for item in accepted)


@dataclass
class OperationList:
    operations: list[OperationView]
    provider_error: str  # why the provider's progress is missing ("" when it was read)


def _who(user: object) -> str:
    return str(user.get_username()) if user is not None and hasattr(user, "get_username") \
        else ""


def _ours(operation: RefreshOperation) -> OperationView:
    answers = {str(a.get("url")): a for a in operation.answers if isinstance(a, dict)}
    view = OperationView(operation.kind, str(operation.get_kind_display()), operation.created_at,
                         _who(operation.requested_by), operation.status,
                         str(operation.get_status_display()), operation.error)
    for url in operation.items:
        answer = answers.get(url, {})
        view.items.append(ItemView(url, answer.get("code") == 1, str(answer.get("status", ""))))
    return view


def _purge(purge: PurgeRequest) -> OperationView:
    """A manual purge as an operation: the purge API answers no status per URL, only the URLs
    of domains it does not serve."""
    sent = purge.status == PurgeStatus.SENT
    if sent:
        status = RefreshState.PARTLY if purge.invalid_domains else RefreshState.ACCEPTED
    elif purge.status == PurgeStatus.REFUSED:
        status = RefreshState.REFUSED
    elif purge.status == PurgeStatus.FAILED:
        status = RefreshState.FAILED
    else:
        status = RefreshState.SENDING
    view = OperationView(URL, _("URL refresh"), purge.created_at, _who(purge.requested_by),
                         status, str(status.label), purge.error)
    invalid = set(purge.invalid_domains or [])
    for url in purge.url_list():
        ok = sent and url not in invalid
        view.items.append(ItemView(url, ok, "accepted" if ok else
                                   "invalid domain" if url in invalid else ""))
    return view


def _provider_records() -> tuple[dict[tuple[str, str], list[RefreshRecord]], str]:
    """The provider's records by (type, url), newest first; and the error, if any."""
    found: dict[tuple[str, str], list[RefreshRecord]] = defaultdict(list)
    cursor: int | None = None
    try:
        client = console_client()
        for _page in range(RECORD_PAGES):
            page = client.records(limit=RECORD_PAGE_SIZE, max=cursor)
            for record in page.records:
                found[(record.type, record.url)].append(record)
            if page.next_max is None or not page.records:
                break
            cursor = page.next_max
    except FAILURES as error:
        return found, str(error)
    return found, ""


def operation_records(domain: Domain, limit: int = 30) -> OperationList:
    """The domain's latest operations, newest first, with the provider's progress."""
    ours = [_ours(op) for op in RefreshOperation.objects.filter(domain=domain)
            .select_related("requested_by")[:limit]]
    purges = (PurgeRequest.objects.filter(source=PurgeSource.MANUAL)
              .filter(Q(domains=domain) | Q(domain=domain)).distinct()
              .select_related("requested_by")[:limit])
    ours.extend(_purge(purge) for purge in purges)
    ours.sort(key=lambda view: view.created_at, reverse=True)
    ours = ours[:limit]
    records, error = _provider_records()
    for view in ours:  # newest first, each taking the newest record left
        for item in view.items:
            if not item.accepted:
                continue
            waiting = records.get((view.kind, item.url))
            if waiting:
                record = waiting.pop(0)
                item.progress, item.provider_status = record.progress, record.status
    return OperationList(ours, error)

