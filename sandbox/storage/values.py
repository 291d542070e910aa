"""Header value checks shared by the storage modules."""

from __future__ import annotations

import re

_WHOLE = re.compile(r"[0-9]+")


def is_whole(text: str) -> bool:
    """ASCII digits only: str.isdigit() also accepts characters such as '²' that int() refuses."""
    return _WHOLE.fullmatch(text) is not None
