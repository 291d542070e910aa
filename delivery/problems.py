"""The problems of the delivery app's pure rules: each names its field, a stable `code` and the
`params` its translated sentence needs (`delivery.texts`); `LinkError` carries them all."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One broken rule: `field` names the input, `code` the rule, `params` fill the message."""

    field: str
    code: str
    message: str
    # `dataclasses.` because the `field` attribute above shadows the function in this body.
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)


class LinkError(ValueError):
    """Raised when a link cannot be built; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in self.problems))


def require(problems: Sequence[Problem]) -> None:
    if problems:
        raise LinkError(problems)


def problem(field_name: str, code: str, message: str, **params: object) -> Problem:
    """A Problem whose English `message` has its `{name}` placeholders filled from `params`."""
    values = {"field": field_name, **params}
    return Problem(field_name, code, message.format_map(values), values)

