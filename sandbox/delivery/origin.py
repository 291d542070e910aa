"""Choosing which origin address of an own-origin (cdn) service answers a miss.

The provider's rule (cdn/basic.md, "线路配置"): the primary addresses share the requests by
weighted round robin (an address gets weight / sum of weights of them); the backup addresses
are used only when every primary failed, and share among themselves the same way.

Round robin here is nginx's smooth weighted round robin: deterministic, so a test can count
(weights 1 and 2 give exactly one and two of every three requests) and it interleaves the
addresses instead of sending runs to the heavier one. Its state is per service, in this
process's memory, and starts afresh when the service's list of origins changes or on reset.

The provider's "max fails" and "fail timeout" (an address marked down for a while) are not
part of our console API (docs/decisions.md): every request tries the addresses again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Origin:
    """One entry of a service's origins: `address` is `http(s)://host[:port]`, no path."""

    address: str
    weight: int = 1
    backup: bool = False

    @classmethod
    def from_json(cls, item: dict[str, Any]) -> Origin:
        """An entry as the console stores it (`{"address", "weight", "backup"}`)."""
        return cls(address=str(item["address"]), weight=int(item.get("weight", 1)),
                   backup=bool(item.get("backup", False)))


class SmoothRoundRobin:
    """Smooth weighted round robin over one group of addresses (not thread-safe on its own)."""

    def __init__(self, origins: Sequence[Origin]) -> None:
        self.origins = tuple(origins)
        self._current = [0] * len(self.origins)
        self._total = sum(max(origin.weight, 1) for origin in self.origins)

    def next(self) -> int:
        """The index of the next address: every current weight grows by its weight, the
        largest is chosen (the first on a tie) and loses the total."""
        best = 0
        for index, origin in enumerate(self.origins):
            self._current[index] += max(origin.weight, 1)
            if self._current[index] > self._current[best]:
                best = index
        self._current[best] -= self._total
        return best


class Balancer:
    """The round-robin state of every service, keyed by service name. Thread-safe."""

    def __init__(self) -> None:
        self._groups: dict[tuple[str, bool], SmoothRoundRobin] = {}
        self._lock = threading.Lock()

    def attempt_order(self, service: str, origins: Iterable[Origin]) -> list[Origin]:
        """The addresses to try for one request, in order: the primary round robin picks,
        then the other primaries (in their listed order), then the backups likewise."""
        listed = tuple(origins)
        order: list[Origin] = []
        for backup in (False, True):
            group = tuple(origin for origin in listed if origin.backup is backup)
            if group:
                order.extend(self._rotated(service, backup, group))
        return order

    def forget(self) -> None:
        with self._lock:
            self._groups.clear()

    def _rotated(self, service: str, backup: bool, group: tuple[Origin, ...]) -> list[Origin]:
        key = (service, backup)
        with self._lock:
            state = self._groups.get(key)
            if state is None or state.origins != group:  # a changed list starts afresh
                state = self._groups[key] = SmoothRoundRobin(group)
            first = state.next()
        return [group[first], *group[:first], *group[first + 1:]]


BALANCER = Balancer()
