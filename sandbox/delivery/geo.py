"""Where a client address is: its country, from a MaxMind-format database (`maxminddb`).

One small API, for every edge feature that needs a country (`$_GEOIP_COUNTRY_CODE` of the
rules, region restriction):

    geo.country("127.0.0.2")  # "CN"; None when the address is unknown or not an address

The database is `SANDBOX_GEOIP_DATABASE` (a path to a GeoLite2/GeoIP2-Country style `.mmdb`:
`country.iso_code` of each network). Left unset, the sandbox writes its own small database
into the data directory at first use (nothing is downloaded): the test networks of
`TEST_NETWORKS`, so that tests and demos can choose a country by choosing their loopback
address. The reader is opened once per process, and a lookup costs a few microseconds.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
from pathlib import Path
from typing import Any

import maxminddb
from django.conf import settings

# The sandbox's own database: loopback addresses (every one of 127.0.0.0/8 reaches the
# sandbox) split among a few countries. 127.0.0.1 stays unknown: the plain local client has
# no country, as a private address has none at the provider.
TEST_NETWORKS: dict[str, str] = {
    "127.0.0.2/32": "CN",
    "127.0.0.3/32": "US",
    "127.0.0.4/32": "JP",
    "127.0.0.5/32": "DE",
    "127.0.1.0/24": "CN",
    "127.0.2.0/24": "US",
    "127.0.3.0/24": "GB",
    "127.0.4.0/24": "HK",
}
BUILT_NAME = "geoip-test-networks.mmdb"

logger = logging.getLogger(__name__)
_lock = threading.Lock()
_reader: Any = None  # maxminddb.Reader, opened on first use; False: the database is unreadable


def database_path() -> Path:
    configured = getattr(settings, "SANDBOX_GEOIP_DATABASE", "")
    if configured:
        return Path(configured)
    path = Path(settings.DATA_DIR) / BUILT_NAME
    if not path.exists():
        write_database(path, TEST_NETWORKS)
    return path


def write_database(path: Path, networks: dict[str, str]) -> None:
    """Write a Country database mapping each network to its ISO 3166 alpha-2 code."""
    from mmdb_writer import MMDBWriter
    from netaddr import IPSet  # type: ignore[import-untyped]  # netaddr ships no types

    writer = MMDBWriter(ip_version=6, ipv4_compatible=True, database_type="GeoLite2-Country",
                        languages=["en"], description="sandbox test networks")
    for network, code in networks.items():
        writer.insert_network(IPSet([network]), {"country": {"iso_code": code}})
    partial = path.with_suffix(".partial")
    writer.to_db_file(str(partial))
    partial.replace(path)  # another process never reads a half-written file


def _open() -> Any:
    """The reader, or None when the database cannot be read (logged once: every country is
    then unknown rather than every request failing)."""
    global _reader
    with _lock:
        if _reader is None:
            try:
                _reader = maxminddb.open_database(str(database_path()))
            except (OSError, ValueError, maxminddb.InvalidDatabaseError) as error:
                logger.error("SANDBOX_GEOIP_DATABASE: %s; every country is unknown", error)
                _reader = False
        return _reader or None


def country(address: str) -> str | None:
    """The ISO 3166 alpha-2 code of `address`'s country, or None."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return None
    reader = _open()
    record = reader.get(ip) if reader is not None else None
    if not isinstance(record, dict):
        return None
    found = record.get("country")
    code = found.get("iso_code") if isinstance(found, dict) else None
    return code.upper() if isinstance(code, str) and len(code) == 2 else None


def forget() -> None:
    """Close the reader (the next lookup opens the database afresh)."""
    global _reader
    with _lock:
        if _reader:
            _reader.close()
        _reader = None
