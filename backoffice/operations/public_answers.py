"""The mark of a view whose answer is the same for everyone (the probes `/health`, `/ready`,
`/metrics`), read by `backoffice.security.sessions.PrivateAnswersMiddleware`. It lives with
the probes, below security, so that they need nothing of the security package."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

MARK = "same_for_everyone"
_View = TypeVar("_View", bound=Callable[..., object])


def same_for_everyone(view: _View) -> _View:
    """Marks a view whose answer holds nothing of the person asking: the middleware that makes
    signed-in answers private leaves its caching alone."""
    setattr(view, MARK, True)
    return view


def is_same_for_everyone(view: Callable[..., object]) -> bool:
    return bool(getattr(view, MARK, False))
