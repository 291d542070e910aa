"""Implementations of every function of the rewrite language, by name."""

from __future__ import annotations

from edgerules.functions import actions, logic, numbers, text
from edgerules.functions.common import Builder
from edgerules.names import FUNCTIONS

BUILDERS: dict[str, Builder] = {
    **logic.BUILDERS, **text.BUILDERS, **numbers.BUILDERS, **actions.BUILDERS
}

# The vocabulary (names.py) and the implementations must describe the same language.
if BUILDERS.keys() != FUNCTIONS.keys():
    raise RuntimeError("edgerules: function table and builders disagree")

__all__ = ["BUILDERS", "Builder"]
