"""HTTP requests sent from a chosen loopback address (every one of 127.0.0.0/8 is this
machine), so that the sandbox sees a real client address: for rules in test on listed
addresses and for the country lookup of the sandbox's test networks."""

from __future__ import annotations

from typing import Any

import requests
from requests.adapters import HTTPAdapter


class SourceAddressAdapter(HTTPAdapter):
    def __init__(self, address: str) -> None:
        self.source = (address, 0)
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = self.source
        super().init_poolmanager(*args, **kwargs)


def from_address(address: str, url: str, *, method: str = "GET",
                 **kwargs: Any) -> requests.Response:
    """`url` fetched by a client whose connection starts at `address`."""
    with requests.Session() as session:
        session.mount("http://", SourceAddressAdapter(address))
        kwargs.setdefault("timeout", 30)
        kwargs.setdefault("allow_redirects", False)
        return session.request(method, url, **kwargs)
