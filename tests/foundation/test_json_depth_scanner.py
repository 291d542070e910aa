"""The JSON depth check measures nesting without recursion: brackets inside strings are text,
a body at the limit passes, and one a level deeper is refused with a message naming the limit."""

from __future__ import annotations

import json
import time

import pytest

from backoffice.security.bounded_input import (
    MAX_JSON_DEPTH,
    JsonTooDeep,
    check_json_depth,
    json_depth,
    loads,
)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_depth_counts_arrays_and_objects_outside_strings() -> None:
    assert json_depth(b'{"a": [1, {"b": "[[[{{{"}]}') == 3
    assert json_depth('"[[[\\"[[["') == 0
    assert json_depth(b"17") == 0


def test_a_body_at_the_limit_parses_and_one_level_deeper_is_refused() -> None:
    assert loads(nested(MAX_JSON_DEPTH)) == json.loads(nested(MAX_JSON_DEPTH))
    with pytest.raises(JsonTooDeep, match=f"deeper than {MAX_JSON_DEPTH} levels"):
        loads(nested(MAX_JSON_DEPTH + 1))


def test_a_hundred_thousand_levels_are_refused_without_recursion() -> None:
    with pytest.raises(JsonTooDeep):
        check_json_depth(nested(100_000).encode())
    with pytest.raises(JsonTooDeep):
        check_json_depth('{"a":' * 100_000 + "1" + "}" * 100_000)


def test_many_brackets_in_strings_or_side_by_side_are_not_depth() -> None:
    wide = json.dumps([[i] for i in range(10_000)] + ["[" * 10_000])
    check_json_depth(wide)
    assert loads(wide) == json.loads(wide)


def test_the_check_stays_fast_on_a_large_flat_body() -> None:
    body = json.dumps([{"mobile": "13800138000", "n": i} for i in range(50_000)]).encode()
    started = time.perf_counter()
    check_json_depth(body)
    assert time.perf_counter() - started < 0.5
