"""JSON as Python holds it once parsed: the sandbox's own alias for request and answer bodies.

The back-office has the same alias in `providerkit.json_types`; the sandbox imports nothing of
the back-office (an import-linter contract), so it keeps its own copy.
"""

from typing import TypeAlias

JSONValue: TypeAlias = "None | bool | int | float | str | list[JSONValue] | dict[str, JSONValue]"
JSONObject: TypeAlias = dict[str, JSONValue]
