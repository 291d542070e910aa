"""One rule as configured in the console or the provider's JSON list, with its state.

A rule is enabled, off, or in test (the public page, cdn/edgerules.md "状态"; DECISIONS.md): an
enabled rule applies to every request, an off one to none, and one in test only to requests
from the addresses listed on it (``test_addresses``: addresses or networks) and to requests
carrying ``X-svc-Rewrite-Preview: true`` (content-delivery.md's debug mode). A new rule is in
test. The older ``debug`` flag of the JSON list still reads: ``true`` is "in test", ``false``
"enabled".
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

RuleState = Literal["enabled", "off", "test"]
ENABLED: Final = "enabled"
OFF: Final = "off"
TEST: Final = "test"
STATES: Final[tuple[RuleState, ...]] = ("enabled", "off", "test")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """One rule as configured: the console record / JSON list item of the spec."""

    rule: str
    pattern: str = ""
    break_: bool = False
    state: RuleState = "test"
    test_addresses: tuple[str, ...] = ()

    @property
    def debug(self) -> bool:
        """In test (content-delivery.md's "debug mode")."""
        return self.state == TEST

    @classmethod
    def from_mapping(cls, item: Mapping[str, object]) -> RuleSpec:
        """Build from ``{"rule", "pattern", "break", "state", "test_addresses"}`` (or the older
        ``"debug"`` instead of ``"state"``); missing keys take defaults. An unknown state is
        read as "test", the safe one (the sandbox and the back-office refuse it earlier)."""
        state = item.get("state")
        if state not in STATES:
            state = TEST if _flag(item.get("debug"), default=True) else ENABLED
        addresses = item.get("test_addresses") or ()
        if isinstance(addresses, str):
            addresses = addresses.split()
        return cls(
            rule=str(item.get("rule", "")),
            pattern=str(item.get("pattern") or ""),
            break_=_flag(item.get("break"), default=False),
            state=state,  # type: ignore[arg-type]  # checked against STATES above
            test_addresses=tuple(str(a) for a in addresses)
            if isinstance(addresses, Iterable)
            else (),
        )


def test_networks(addresses: Iterable[str]) -> tuple[Network, ...]:
    """The networks of a rule's test addresses; entries that are no address are skipped (the
    sandbox and the back-office refuse them before they get here)."""
    networks = []
    for entry in addresses:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            continue
    return tuple(networks)


def from_test_address(networks: tuple[Network, ...], ip: str) -> bool:
    """True when ``ip`` is inside one of ``networks``."""
    if not networks or not ip:
        return False
    try:
        address = ipaddress.ip_address(ip.strip().strip("[]"))
    except ValueError:
        return False
    return any(address in network for network in networks)


def _flag(value: object, *, default: bool) -> bool:
    """JSON booleans, or the strings a form or CSV would send ("true", "0", "on"...)."""
    if value is None:
        return default
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)
