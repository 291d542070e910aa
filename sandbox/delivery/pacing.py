"""`$LIMIT_RATE_AFTER(E1, E2)` / `$LIMIT_RATE(E1, E2)` at the edge: the answer's body really
leaves at the rate the rules chose (cdn/edgerules.md: "发送 E1 后进行限速", "按 E1 每秒限速").

The first `after` bytes go at full speed; from then on, the body is sent in slices of a tenth
of a second's worth, each waiting until the bytes sent since the limit began are no more than
`rate` times the time elapsed. Time is the wall clock (a transfer takes real seconds whatever
the sandbox clock says). A limit without `$LIMIT_RATE` does nothing, like a speed limit with no
speed; a rate of 0 means "no limit", as nginx's `limit_rate 0`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator

from django.http import HttpResponseBase, StreamingHttpResponse

SLICES_A_SECOND = 10
FAST_CHUNK = 64 * 1024


def paced(chunks: Iterable[bytes], after: int, rate: int, *,
          clock: Callable[[], float] = time.monotonic,
          sleep: Callable[[float], None] = time.sleep) -> Iterator[bytes]:
    """`chunks` re-cut and delayed so that after the first `after` bytes at most `rate`
    bytes leave per second."""
    sent = 0
    limited_since: float | None = None
    limited_bytes = 0
    step = max(rate // SLICES_A_SECOND, 1)
    for chunk in chunks:
        view = memoryview(chunk)
        while view:
            if sent < after:
                size = min(after - sent, len(view), FAST_CHUNK)
            else:
                if limited_since is None:
                    limited_since = clock()
                size = min(step, len(view))
                due = limited_since + (limited_bytes + size) / rate
                wait = due - clock()
                if wait > 0:
                    sleep(wait)
                limited_bytes += size
            piece, view = bytes(view[:size]), view[size:]
            sent += size
            yield piece


def limit(response: HttpResponseBase, after: int | None, rate: int | None) -> HttpResponseBase:
    """The response with its body paced, or as it is when there is nothing to pace (no rate,
    or an answer without a body)."""
    if not rate or rate <= 0:
        return response
    if response.streaming:
        body: Iterable[bytes] = response.streaming_content  # type: ignore[attr-defined]
    else:
        content: bytes = response.content  # type: ignore[attr-defined]
        if not content:
            return response
        body = (content,)
    streamed = StreamingHttpResponse(paced(body, after or 0, rate), status=response.status_code)
    for name, value in response.items():
        streamed[name] = value
    if not response.streaming:
        streamed["Content-Length"] = str(len(content))
    closers = getattr(response, "_resource_closers", [])
    for closer in closers:  # the file of a FileResponse is closed with the new answer
        streamed._resource_closers.append(closer)  # type: ignore[attr-defined]
    response._resource_closers = []  # type: ignore[attr-defined]
    return streamed
