"""What a rule does besides producing a URL: header changes, responses, limits.

While a rule runs, its effects go to a per-rule list as ``(kind, payload)`` tuples; the runner
keeps them only if the rule completes, so a rule stopped by ``$WHEN`` or by a failure leaves no
trace on the request (a rule applies entirely or not at all). ``$REDIRECT``/``$EXIT`` keep the
effects made before them, since those end the rule set on the spot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

HeaderAction = Literal["add", "set", "delete"]

# Effect kinds (first item of an effect tuple).
REQUEST_HEADER = "request_header"
RESPONSE_HEADER = "response_header"
DELETE_ARG = "delete_arg"
REDIRECT_404 = "redirect_404"
LIMIT_RATE_AFTER = "limit_rate_after"
LIMIT_RATE = "limit_rate"
SET_METHOD = "set_method"
SET_BODY = "set_body"

Effect = tuple[str, object]


@dataclass(frozen=True, slots=True)
class HeaderChange:
    """One header operation, applied in order by the edge.

    ``add`` appends a value (an existing header of that name stays), ``set`` replaces every
    existing value (``$ADD_RSP_HEADER`` with a non-empty third argument), ``delete`` removes
    the header (``value`` is then ``None``).
    """

    action: HeaderAction
    name: str
    value: str | None = None


@dataclass(frozen=True, slots=True)
class Redirect:
    """``$REDIRECT(location, status)``: answer with ``status`` (301 or 302) and ``Location``."""

    location: str
    status: int


@dataclass(frozen=True, slots=True)
class Exit:
    """``$EXIT(status, body)``: answer at once with ``status`` and ``body``."""

    status: int
    body: str


Response = Redirect | Exit


class RuleStopped(Exception):  # noqa: N818 - control flow, not an error
    """``$WHEN`` found a false condition: the rule stops without effect."""

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column
        super().__init__(f"$WHEN condition false at {line}:{column}")


class EndRuleSet(Exception):  # noqa: N818 - control flow, not an error
    """``$REDIRECT`` or ``$EXIT`` ran: the whole rule set ends with this response."""

    def __init__(self, response: Response) -> None:
        self.response = response
        super().__init__(repr(response))
