"""Region restriction: allow only, or block, a list of countries/regions by the client's
address (DECISIONS.md, "Documented console behaviour").

The edge's setting `region` is `{"mode": "off" | "allow" | "block", "regions": [code, ...]}`,
codes being ISO 3166 alpha-2 (`CN`, `US`...). The client's country comes from `geo.country`
(the same lookup as `$_GEOIP_COUNTRY_CODE`). An address of no known country counts as "not in
the list": allow-only refuses it, block serves it. A refusal is 403 `REGION_DENIED`.

The sandbox checks the shape of a code only (two letters A-Z); which codes exist is the
console's business (the back-office checks them against ISO 3166 on its side).
"""

from __future__ import annotations

import re
from typing import Any

from sandbox.core.jsonapi import FieldError
from sandbox.delivery import geo
from sandbox.delivery.errors import REGION_DENIED, EdgeError

MODES = ("off", "allow", "block")
MAX_REGIONS = 300
_CODE = re.compile(r"[A-Z]{2}")


def setting(value: Any, field: str = "region") -> dict[str, Any]:
    """The validated setting (codes upper-cased, repeats dropped); FieldError naming the part
    that is wrong."""
    if not isinstance(value, dict):
        raise FieldError(field, "must be a JSON object")
    unknown = sorted(set(value) - {"mode", "regions"})
    if unknown:
        raise FieldError(f"{field}.{unknown[0]}", "is not a region field; known: mode, regions")
    mode = value.get("mode")
    if mode not in MODES:
        raise FieldError(f"{field}.mode", f"must be one of {', '.join(MODES)}")
    regions = value.get("regions", [])
    if not isinstance(regions, list):
        raise FieldError(f"{field}.regions", "must be a list")
    if len(regions) > MAX_REGIONS:
        raise FieldError(f"{field}.regions", f"at most {MAX_REGIONS} codes")
    codes: list[str] = []
    for index, code in enumerate(regions):
        if not isinstance(code, str) or not _CODE.fullmatch(code.strip().upper()):
            raise FieldError(f"{field}.regions[{index}]",
                             f"{code!r} is not an ISO 3166 alpha-2 code such as CN or US")
        if code.strip().upper() not in codes:
            codes.append(code.strip().upper())
    return {"mode": mode, "regions": codes}


def refuses(mode: str, regions: tuple[str, ...] | list[str], country: str | None) -> bool:
    """Whether a client of `country` (None: unknown) is refused."""
    if mode == "allow":
        return country not in regions
    if mode == "block":
        return country is not None and country in regions
    return False


def check(client_ip: str, region: dict[str, Any]) -> None:
    """Raises the 403 when the region setting refuses `client_ip`."""
    mode = region["mode"]
    if mode == "off":
        return
    country = geo.country(client_ip)
    if refuses(mode, region["regions"], country):
        where = country or "unknown"
        raise EdgeError(403, REGION_DENIED,
                        f"access from your region ({where}) is not allowed for this domain")
