"""A small MaxMind-format Country database for the back-office's tests, written with
mmdb-writer (nothing is downloaded): loopback test networks split among a few countries, the
same as the sandbox's own (127.0.0.2 CN, 127.0.0.3 US, 127.0.0.4 JP...)."""

from __future__ import annotations

from pathlib import Path

from mmdb_writer import MMDBWriter
from netaddr import IPSet  # type: ignore[import-untyped]  # netaddr ships no types

TEST_NETWORKS: dict[str, str] = {
    "127.0.0.2/32": "CN",
    "127.0.0.3/32": "US",
    "127.0.0.4/32": "JP",
    "127.0.0.5/32": "DE",
    "127.0.1.0/24": "CN",
    "127.0.2.0/24": "US",
    "127.0.3.0/24": "GB",
    "127.0.4.0/24": "HK",
    "2001:db8::/32": "FR",
}


def write_country_database(path: Path, networks: dict[str, str] = TEST_NETWORKS) -> Path:
    writer = MMDBWriter(ip_version=6, ipv4_compatible=True, database_type="GeoLite2-Country",
                        languages=["en"], description="back-office test networks")
    for network, code in networks.items():
        writer.insert_network(IPSet([network]), {"country": {"iso_code": code}})
    writer.to_db_file(str(path))
    return path
