"""Typed readers of parsed JSON answers: a field of the promised type, or `ShapeError`.

Each reader takes the object, the field's name and `where` (what is being read, e.g.
"template" or "POST /api/messages") and names both in its error, so a provider that changes
its answers shows up as one clear message instead of a KeyError deep in the services layer.
Clients catch `ShapeError` at their transport step and raise their own response error.

Required readers refuse a missing field and a null; `optional_*` readers read both as None.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

from providerkit.failures import ShapeError
from providerkit.json_types import JSONObject, JSONValue

__all__ = [
    "ShapeError",
    "as_list",
    "as_object",
    "as_real_number",
    "as_whole_number",
    "json_kind",
    "optional_int",
    "optional_object",
    "optional_real_number",
    "optional_str",
    "optional_timestamp",
    "optional_whole_number",
    "read_bool",
    "read_float",
    "read_int",
    "read_list",
    "read_object",
    "read_real_number",
    "read_str",
    "read_timestamp",
    "read_whole_number",
]


def json_kind(value: object) -> str:
    """The JSON-ish name of a value's type, for messages (`bool` before `int`: True is one)."""
    if value is None:
        return "null"
    for kind in (bool, int, float, str, list):
        if isinstance(value, kind):
            return kind.__name__
    return "object" if isinstance(value, dict) else type(value).__name__


def as_object(value: JSONValue, where: str) -> JSONObject:
    """`value` when it is a JSON object."""
    if not isinstance(value, dict):
        raise ShapeError(f"{where}: is JSON {json_kind(value)}, not object")
    return value


def as_list(value: JSONValue, where: str) -> list[JSONValue]:
    """`value` when it is a JSON array."""
    if not isinstance(value, list):
        raise ShapeError(f"{where}: is JSON {json_kind(value)}, not list")
    return value


def _present(data: JSONObject, key: str, where: str) -> JSONValue:
    value = data.get(key, None)
    if value is None:
        state = "is missing" if key not in data else "is null"
        raise ShapeError(f"{where}: field {key!r} {state}")
    return value


def _wrong(key: str, value: JSONValue, expected: str, where: str) -> ShapeError:
    shown = repr(value)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    return ShapeError(f"{where}: field {key!r} is {json_kind(value)}, not {expected}: {shown}")


def read_int(data: JSONObject, key: str, where: str) -> int:
    """A whole number. A bool is refused: Python counts it as an int, no id or count is one."""
    value = _present(data, key, where)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _wrong(key, value, "int", where)
    return value


def read_float(data: JSONObject, key: str, where: str) -> float:
    """A number, whole or not (never a bool), as a float."""
    value = _present(data, key, where)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _wrong(key, value, "number", where)
    return float(value)


def read_str(data: JSONObject, key: str, where: str) -> str:
    value = _present(data, key, where)
    if not isinstance(value, str):
        raise _wrong(key, value, "str", where)
    return value


def read_bool(data: JSONObject, key: str, where: str) -> bool:
    value = _present(data, key, where)
    if not isinstance(value, bool):
        raise _wrong(key, value, "bool", where)
    return value


def read_object(data: JSONObject, key: str, where: str) -> JSONObject:
    value = _present(data, key, where)
    if not isinstance(value, dict):
        raise _wrong(key, value, "object", where)
    return value


def read_list(data: JSONObject, key: str, where: str) -> list[JSONValue]:
    value = _present(data, key, where)
    if not isinstance(value, list):
        raise _wrong(key, value, "list", where)
    return value


def optional_int(data: JSONObject, key: str, where: str) -> int | None:
    return None if data.get(key) is None else read_int(data, key, where)


def optional_str(data: JSONObject, key: str, where: str) -> str | None:
    return None if data.get(key) is None else read_str(data, key, where)


def optional_object(data: JSONObject, key: str, where: str) -> JSONObject | None:
    return None if data.get(key) is None else read_object(data, key, where)


def read_timestamp(data: JSONObject, key: str, where: str) -> datetime:
    """An ISO 8601 timestamp, in UTC; one without an offset is read as UTC (the providers'
    convention, DECISIONS)."""
    text = read_str(data, key, where)
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ShapeError(f"{where}: field {key!r} is not a timestamp: {text!r}") from None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def optional_timestamp(data: JSONObject, key: str, where: str) -> datetime | None:
    return None if data.get(key) is None else read_timestamp(data, key, where)


# Numbers that may come quoted. Some answers (media processing's metadata, taken from ffprobe)
# carry numbers either as JSON numbers or as numeric strings ("640.0"); these readers take
# both, and still refuse a bool, a value that is not finite and, for a whole number, a fraction.


def _quoted_number(value: JSONValue, label: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ShapeError(f"{label} is not a number: {value!r}")
    try:
        number = float(value)
    except ValueError:
        raise ShapeError(f"{label} is not a number: {value!r}") from None
    if not math.isfinite(number):
        raise ShapeError(f"{label} is not a finite number: {value!r}")
    return number


def as_real_number(value: JSONValue, where: str) -> float:
    """A JSON number or numeric string, as a float."""
    return _quoted_number(value, where)


def as_whole_number(value: JSONValue, where: str) -> int:
    """A JSON number or numeric string that is whole (`640.0` is 640), as an int."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value  # exact, however large
    number = _quoted_number(value, where)
    if not number.is_integer():
        raise ShapeError(f"{where} is not a whole number: {value!r}")
    return int(number)


def read_real_number(data: JSONObject, key: str, where: str) -> float:
    return as_real_number(_present(data, key, where), f"{where}: field {key!r}")


def read_whole_number(data: JSONObject, key: str, where: str) -> int:
    return as_whole_number(_present(data, key, where), f"{where}: field {key!r}")


def optional_real_number(data: JSONObject, key: str, where: str) -> float | None:
    return None if data.get(key) is None else read_real_number(data, key, where)


def optional_whole_number(data: JSONObject, key: str, where: str) -> int | None:
    return None if data.get(key) is None else read_whole_number(data, key, where)
