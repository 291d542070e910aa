"""The request size limit of own-origin domains (DECISIONS.md: "HTTP request size limit:
default 512 MB, larger bodies refused"): 413 with BODY_TOO_LARGE.

What "before the body is read" means here. waitress reads a request's whole body into its
own buffer (memory, or a temporary file past `inbuf_overflow`) before it calls the
application at all, so a check in the view alone would answer only after the client has
uploaded everything (with waitress's own limit, `max_request_body_size`, the only earlier
refusal, and that one is global, not per domain). So the delivery port gets its own request
parser (`EdgeRequestParser`, installed by `install` when runsandbox
builds its server): as soon as a request's
headers have arrived it asks `limit_for(Host)`, and when
- `Content-Length` is larger than the domain's limit, the request is handed to the
  application at once with no body (nothing of the body is kept), marked refused;
- the body is chunked (no `Content-Length`), the chunks are counted as they arrive and the
  request is handed over, marked, the moment the count passes the limit.
The application answers the 413 in the edge's shape (`check`, the first step of the edge's
pipeline, before anything reads `request.body`), and the connection is closed after it, so
the bytes the client still sends are never read as a request. `check` also refuses, from
`CONTENT_LENGTH`, a request that reached the view whole (a parser that could not look the
domain up lets it through; the view decides again).

The lookup happens on waitress's main thread (one indexed read of the domain's settings, only
for requests with a body on the delivery port); a failure there lets the request through to
the view's own check.
"""

from __future__ import annotations

import logging
from typing import Any, cast

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser

from sandbox.core import ports
from sandbox.delivery.errors import BODY_TOO_LARGE, EdgeError

DEFAULT_MB = 512
MIN_MB = 1
MAX_MB = 10240
MB = 1024 * 1024
REFUSED_HEADER = "X_SANDBOX_BODY_REFUSED"  # environ HTTP_X_SANDBOX_BODY_REFUSED
REFUSED_META = f"HTTP_{REFUSED_HEADER}"

logger = logging.getLogger("sandbox")


def limit_of(data: dict[str, Any]) -> int:
    """The limit in bytes from a domain's settings."""
    return int(data.get("max_body_mb") or DEFAULT_MB) * MB


def limit_for(host: str) -> int | None:
    """The body limit in bytes of the domain `Host` names; None when it is no own-origin
    domain (storage domains serve no bodies: the edge answers their POST with 405)."""
    from sandbox.delivery import config, sites

    default = sites.default_site()
    aliases = config.published(default.domain).data["domains"] if default is not None else []
    site = sites.site_for_host(host, aliases)  # as the edge's view finds it
    if site is None or site.bucket is not None:
        return None
    return limit_of(config.published(site.domain).data)


def check(meta: dict[str, Any], limit: int) -> None:
    """The pipeline's first step on an own-origin domain: 413 when the parser cut the body,
    or when `Content-Length` says it is larger than `limit`."""
    refused = meta.get(REFUSED_META)
    try:
        length = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if refused or length > limit:
        said = f"{length} bytes" if length else "a chunked body"
        raise EdgeError(413, BODY_TOO_LARGE,
                        f"request body too large: {said} over the domain's limit of "
                        f"{limit // MB} MB")


class EdgeRequestParser(HTTPRequestParser):
    """waitress's parser, cutting a request whose body passes its domain's limit."""

    limit: int | None = None

    def received(self, data: bytes) -> int:
        if self.completed:
            return 0
        in_header = self.body_rcv is None and not self.headers_finished
        consumed: int = super().received(data)
        if in_header and self.headers_finished:
            cast(dict[str, str], self.headers).pop(REFUSED_HEADER, None)  # only we say it
            if not self.completed and self.error is None:
                self.limit = self._limit()
                if self.limit is not None and self.content_length > self.limit:
                    self._refuse()
                    return len(data)  # the part of the body in this read is dropped
        elif self.limit is not None and not self.completed \
                and self.body_bytes_received > self.limit:
            self._refuse()
            return len(data)
        return consumed

    def _limit(self) -> int | None:
        try:
            return limit_for(self.headers.get("HOST", ""))
        except Exception:  # the view decides again; the server's loop must go on
            logger.exception("body limit lookup failed")
            return None

    def _refuse(self) -> None:
        self.body_rcv = None  # nothing received is kept; the application reads no body
        headers = cast(dict[str, str], self.headers)
        headers[REFUSED_HEADER] = "1"
        headers["CONNECTION"] = "close"  # the rest of the body is never read
        self.expect_continue = False
        self.completed = True


def install(server: object) -> None:
    """Give the listener of the delivery port the edge's parser (on top of whatever channel
    it has, e.g. the provider's header case)."""
    port = ports.port_of("delivery")
    for dispatcher in list(getattr(server, "map", {}).values()):
        if str(getattr(dispatcher, "effective_port", "")) == str(port) \
                and hasattr(dispatcher, "channel_class"):
            base: type[HTTPChannel] = dispatcher.channel_class
            dispatcher.channel_class = type("EdgeChannel", (base,),
                                            {"parser_class": EdgeRequestParser})
