"""Fetching what the edge serves, for the back-office's own previews (the image URL builder).

The back-office fetches instead of the browser: the browser may not reach the edge, and token
protection or a Referer rule would refuse a plain <img>.
"""

from __future__ import annotations

from delivery.client import EdgeAnswer
from delivery.services.connection import edge_fetcher

MAX_PREVIEW_BYTES = 20 * 1024 * 1024


def fetch_from_edge(url: str, *, force_https: bool) -> EdgeAnswer:
    """GET `url` from the edge as a visitor would, reading at most MAX_PREVIEW_BYTES (the
    answer says `too_large` beyond that).

    `force_https`: the edge answers plain HTTP with a 301 when HTTPS is forced; behind the TLS
    front of a real edge, `X-Forwarded-Proto: https` is what says the request came over HTTPS,
    so it is sent. Raises DeliveryConnectionError when the edge does not answer, and
    ProviderNotConfigured without settings.
    """
    headers = {"X-Forwarded-Proto": "https"} if force_https else {}
    return edge_fetcher().get(url, max_bytes=MAX_PREVIEW_BYTES, headers=headers)
