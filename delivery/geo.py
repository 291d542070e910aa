"""Where a client address is: its country, from a MaxMind-format database (`maxminddb`).

The back-office's own lookup (the sandbox has its own: the two sides are written apart), for
the rule tester's `$_GEOIP_COUNTRY_CODE` and any page that needs a country (region
restriction). Pure: no Django; `delivery.services` opens the database named by the
`GEOIP_DATABASE` setting.

    lookup = CountryLookup.open("/var/lib/geoip/GeoLite2-Country.mmdb")
    lookup.country("1.2.3.4")  # "CN", or None when the address is unknown

A GeoLite2/GeoIP2 Country or City database works: the code is the record's
`country.iso_code` (ISO 3166 alpha-2), else `registered_country.iso_code`.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any

import maxminddb


class GeoDatabaseError(ValueError):
    """The database cannot be read (missing file, not a MaxMind database)."""


class CountryLookup:
    """An open database; thread-safe, a lookup costs microseconds."""

    def __init__(self, reader: Any, path: str) -> None:
        self._reader = reader
        self.path = path

    @classmethod
    def open(cls, path: str | Path) -> CountryLookup:
        try:
            reader = maxminddb.open_database(str(path))
        except (OSError, ValueError, maxminddb.InvalidDatabaseError) as error:
            raise GeoDatabaseError(f"{path}: not a readable MaxMind database ({error})") from None
        return cls(reader, str(path))

    def country(self, address: str) -> str | None:
        """The ISO 3166 alpha-2 code of `address`'s country; None when the database does not
        know it or `address` is not an IP address."""
        try:
            ip = ipaddress.ip_address(address.strip().strip("[]"))
        except ValueError:
            return None
        record = self._reader.get(ip)
        if not isinstance(record, dict):
            return None
        for key in ("country", "registered_country"):
            found = record.get(key)
            code = found.get("iso_code") if isinstance(found, dict) else None
            if isinstance(code, str) and len(code) == 2:
                return code.upper()
        return None

    def close(self) -> None:
        self._reader.close()
