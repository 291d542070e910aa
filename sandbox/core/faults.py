"""Fault injection: which faults exist, how they are validated and which request they hit."""

from __future__ import annotations

import random
import re
import threading
from typing import Any

from django.db import transaction
from django.db.models import F

from sandbox.core.json_types import JSONObject
from sandbox.core.jsonapi import FieldError, choice, number, text
from sandbox.core.models import Fault
from sandbox.core.ports import FAULT_SERVICES

# A timeout answers after the client has given up; clients here wait at most ~30 s.
DEFAULT_TIMEOUT_MS = 35_000
HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def fault_from_request(body: JSONObject) -> Fault:
    service = choice(body, "service", FAULT_SERVICES, required=True)
    path = text(body, "path", required=True)
    assert path is not None
    try:
        re.compile(path)
    except re.error as error:
        raise FieldError("path", f"not a valid regular expression ({error})") from None
    method = text(body, "method", default="") or ""
    if method and method.upper() not in HTTP_METHODS:
        raise FieldError("method", f"must be one of {', '.join(HTTP_METHODS)}")
    action = choice(body, "action", tuple(Fault.Action.values), required=True)
    status = number(body, "status", required=action == Fault.Action.STATUS, integer=True,
                    minimum=100, maximum=599)
    delay_ms = number(body, "delay_ms", required=action == Fault.Action.DELAY, integer=True,
                      minimum=0, maximum=600_000)
    if action == Fault.Action.TIMEOUT and delay_ms is None:
        delay_ms = DEFAULT_TIMEOUT_MS
    times = number(body, "times", integer=True, minimum=1)
    probability = number(body, "probability", minimum=0, maximum=1, default=1.0)
    when = choice(body, "when", tuple(Fault.When.values), default=Fault.When.BEFORE)
    unknown = set(body) - {"service", "path", "method", "action", "status", "body", "delay_ms",
                           "times", "probability", "when"}
    if unknown:
        raise FieldError(sorted(unknown)[0], "is not a fault field")
    return Fault(service=service, path=path, method=method.upper(), action=action, status=status,
                 body=body.get("body"), delay_ms=delay_ms or 0, times=times, remaining=times,
                 probability=probability, when=when)


class _FaultFreeServices:
    """Services known to have no fault left to fire, so that a request (nearly always without
    faults) costs no query.

    This stays true until a fault is added, since a used-up fault never fires again; faults
    are added only in this process, and `forget` runs once the new row is committed. A lookup
    that overlapped an addition keeps its answer to itself: the generation moved on.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._services: set[str] = set()
        self._generation = 0

    def __contains__(self, service: str) -> bool:
        return service in self._services

    @property
    def generation(self) -> int:
        return self._generation

    def record(self, service: str, generation: int) -> None:
        with self._lock:
            if generation == self._generation:
                self._services.add(service)

    def forget(self) -> None:
        with self._lock:
            self._generation += 1
            self._services.clear()


_fault_free = _FaultFreeServices()


def fault_saved(created: bool = False, **kwargs: Any) -> None:
    """post_save of Fault: a new fault may apply to any service."""
    if created:
        transaction.on_commit(_fault_free.forget)


def take_matching_fault(service: str, method: str, full_path: str) -> Fault | None:
    """Return the first fault that applies to this request and count it as used.

    The use is claimed with a conditional UPDATE, so that a fault limited to N times fires N
    times even when requests arrive in parallel.
    """
    if service in _fault_free:
        return None
    generation = _fault_free.generation
    candidates = list(Fault.objects.filter(service=service))
    for fault in candidates:
        if fault.method and fault.method != method.upper():
            continue
        if fault.remaining == 0 or not re.search(fault.path, full_path):
            continue
        if fault.probability < 1.0 and random.random() >= fault.probability:
            continue
        claimed = Fault.objects.filter(pk=fault.pk)
        if fault.remaining is not None:
            claimed = claimed.filter(remaining__gt=0)
            updated = claimed.update(remaining=F("remaining") - 1, hits=F("hits") + 1)
        else:
            updated = claimed.update(hits=F("hits") + 1)
        if updated:
            return fault
    if all(fault.remaining == 0 for fault in candidates):
        _fault_free.record(service, generation)
    return None
