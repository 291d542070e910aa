"""Raw query-string handling: the spec reads query variables "not URL-decoded".

Parameters are kept as the exact ``name=value`` text of the request, so rebuilding a query after
``$DEL_ARG`` changes nothing but the removed items. A parameter without ``=`` has an empty value;
when a name repeats, lookups return its first value.
"""

from __future__ import annotations


def split_pairs(query: str) -> list[tuple[str, str, str]]:
    """``(name, value, raw item)`` for every non-empty ``&``-separated item, in order."""
    pairs: list[tuple[str, str, str]] = []
    for item in query.split("&"):
        if not item:
            continue
        name, _, value = item.partition("=")
        pairs.append((name, value, item))
    return pairs


def first_values(pairs: list[tuple[str, str, str]]) -> dict[str, str]:
    """Name -> first value; later duplicates are ignored."""
    values: dict[str, str] = {}
    for name, value, _ in pairs:
        values.setdefault(name, value)
    return values


def without(query: str, names: set[str]) -> str:
    """``query`` minus every item whose raw name is in ``names`` (all occurrences)."""
    if not names or not query:
        return query
    return "&".join(raw for name, _, raw in split_pairs(query) if name not in names)


def join(first: str, second: str) -> str:
    """Two query strings as one; either may be empty."""
    if first and second:
        return f"{first}&{second}"
    return first or second
