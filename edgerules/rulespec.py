"""One rule as configured in the console or the provider's JSON list."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """One rule as configured: the console record / JSON list item of the spec.

    ``debug`` defaults to true because the spec turns debug mode on for every new rule.
    """

    rule: str
    pattern: str = ""
    break_: bool = False
    debug: bool = True

    @classmethod
    def from_mapping(cls, item: Mapping[str, object]) -> RuleSpec:
        """Build from ``{"rule", "pattern", "break", "debug"}`` (missing keys take defaults)."""
        return cls(
            rule=str(item.get("rule", "")),
            pattern=str(item.get("pattern") or ""),
            break_=_flag(item.get("break"), default=False),
            debug=_flag(item.get("debug"), default=True),
        )


def _flag(value: object, *, default: bool) -> bool:
    """JSON booleans, or the strings a form or CSV would send ("true", "0", "on"...)."""
    if value is None:
        return default
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)
