"""The sandbox edge's country lookup (sandbox/delivery/geo.py) on a configured database, an
unreadable one, and its own database of test networks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import override_settings

from sandbox.delivery import geo
from tests.geoip import write_country_database


@pytest.fixture(autouse=True)
def fresh_reader() -> Iterator[None]:
    geo.forget()
    yield
    geo.forget()


def test_a_configured_database_gives_the_country(tmp_path: Path) -> None:
    path = write_country_database(tmp_path / "c.mmdb", {"10.0.0.0/8": "cn", "2001:db8::/32": "FR"})
    with override_settings(SANDBOX_GEOIP_DATABASE=str(path)):
        assert geo.country("10.1.2.3") == "CN"
        assert geo.country("[2001:db8::5]") == "FR"
        assert geo.country("192.168.0.1") is None
        assert geo.country("not an address") is None


def test_without_a_database_the_sandbox_writes_its_test_networks(tmp_path: Path) -> None:
    with override_settings(SANDBOX_GEOIP_DATABASE="", DATA_DIR=tmp_path):
        assert [geo.country(f"127.0.0.{n}") for n in (1, 2, 3, 4, 5)] == [
            None, "CN", "US", "JP", "DE"]
        assert geo.country("127.0.3.9") == "GB"
    assert (tmp_path / geo.BUILT_NAME).exists()


def test_an_unreadable_database_makes_every_country_unknown(tmp_path: Path,
                                                            caplog: pytest.LogCaptureFixture
                                                            ) -> None:
    broken = tmp_path / "broken.mmdb"
    broken.write_bytes(b"no")
    with override_settings(SANDBOX_GEOIP_DATABASE=str(broken)):
        assert geo.country("127.0.0.2") is None
    assert "SANDBOX_GEOIP_DATABASE" in caplog.text
