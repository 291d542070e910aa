"""The provider's own headers go out in lowercase (`x-svc-list-iter`), as the public docs show
them (DECISIONS.md): an official SDK looks `x-upyun-list-iter` up in a plain dictionary, so a
title-cased name is a missing one.

waitress capitalises every response header name (`X-Svc-List-Iter`); the task below writes the
names of the provider's headers back in lowercase once waitress has built the header block.
Other names keep waitress's spelling.
"""

from __future__ import annotations

import re

from waitress.channel import HTTPChannel
from waitress.task import WSGITask

# A header line of the provider's: `\r\nX-Svc-Next-Part-Id:` (never the status line).
_PROVIDER_LINE = re.compile(rb"\r\nx-svc-[A-Za-z0-9-]*:", re.IGNORECASE)


def lowercase_provider_names(block: bytes) -> bytes:
    return _PROVIDER_LINE.sub(lambda match: match.group(0).lower(), block)


class ProviderCaseTask(WSGITask):
    def build_response_header(self) -> bytes:
        return lowercase_provider_names(super().build_response_header())


class ProviderCaseChannel(HTTPChannel):
    task_class = ProviderCaseTask


def keep_provider_header_case(server: object) -> None:
    """Make every listener of a waitress server (one per address) answer with the task above."""
    for dispatcher in list(getattr(server, "map", {}).values()):
        if hasattr(dispatcher, "channel_class"):
            dispatcher.channel_class = ProviderCaseChannel
