"""The audit service: one append-only record per sensitive action, written by the use cases.

Services call `record(...)` or decorate a use case with `@audited(...)`; neither needs the
request. Who and from where come from the request being served (`AuditContextMiddleware`
puts them in a context variable) unless given; in a worker or a command there is no request,
and the entry names no person.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.db import models, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from backoffice.annotations import RequestUser, StaffUser
from backoffice.models import AuditEntry, AuditOutcome
from backoffice.security.audit_chain import entry_hash, lock_chain

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Who:
    user: RequestUser | None
    address: str | None


_current: ContextVar[Who | None] = ContextVar("audit_who", default=None)


def client_address(request: HttpRequest) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


@contextmanager
def acting(user: RequestUser | None, address: str | None) -> Iterator[None]:
    """Sets who acts (and from where) for the records written inside the block."""
    token = _current.set(Who(user, address))
    try:
        yield
    finally:
        _current.reset(token)


class AuditContextMiddleware:
    """Makes the signed-in person and the client's address known to `record` for the length
    of the request (after AuthenticationMiddleware)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with acting(getattr(request, "user", None), client_address(request)):
            return self.get_response(request)


def _person(user: RequestUser | None) -> tuple[StaffUser | None, str]:
    if user is None or not getattr(user, "is_authenticated", False):
        return None, ""
    return cast("StaffUser", user), user.get_username()  # authenticated: not anonymous


def record(app: str, action: str, *, target: object = None, summary: str = "",
           outcome: str = AuditOutcome.OK, user: StaffUser | None = None,
           username: str | None = None,
           address: str | None = None) -> AuditEntry:
    """Appends one entry. `target` is a model instance or a plain identifier."""
    who = _current.get()
    actor, name = _person(user if user is not None else (who.user if who else None))
    if isinstance(target, models.Model):
        object_type, object_id = target._meta.model_name or "", str(target.pk)
    else:
        object_type, object_id = "", "" if target is None else str(target)
    entry = AuditEntry(
        actor=actor, actor_name=(username if username is not None else name)[:150],
        address=address or (who.address if who else None), app=app, action=action,
        object_type=object_type[:60], object_id=object_id[:200], summary=summary[:500],
        outcome=outcome)
    return _append(entry)


def _append(entry: AuditEntry) -> AuditEntry:
    """Chains the entry to the last one and inserts it, under the chain's lock (held until the
    surrounding transaction commits, so the next append reads this entry's hash)."""
    with transaction.atomic():
        lock_chain()
        entry.prev_hash = (AuditEntry.objects.order_by("-pk")
                           .values_list("hash", flat=True).first()) or ""
        entry.at = timezone.now()
        entry.hash = entry_hash(entry)
        entry.save(force_insert=True)
    return entry


# (target, summary) or (target, summary, user) when the person acting is an argument rather
# than the request's user (an API client authenticated by its token inside the view).
Describe = Callable[..., tuple[Any, ...] | None]


def audited(app: str, action: str, describe: Describe,
            result_target: Callable[[Any], Any] | None = None) -> Callable[[F], F]:
    """Records the use case's outcome: `describe(*args, **kwargs)` gives (target, summary),
    or None for calls that are not worth a record (e.g. one row of an audited bulk run);
    `result_target(result)` names the target when it exists only afterwards (a creation).

    A use case that raises is recorded as failed (after the exception left its own
    transaction, so the entry survives the rollback) and the exception goes on.
    """

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            described = describe(*args, **kwargs)
            if described is None:
                return function(*args, **kwargs)
            target, summary, *acting_user = described
            user = acting_user[0] if acting_user else None
            try:
                result = function(*args, **kwargs)
            except Exception as error:
                record(app, action, target=target, outcome=AuditOutcome.FAILED, user=user,
                       summary=f"{summary} ({type(error).__name__}: {error})")
                raise
            if result_target is not None:
                target = result_target(result)
            record(app, action, target=target, summary=summary, user=user)
            return result

        return wrapper  # type: ignore[return-value]

    return decorate
