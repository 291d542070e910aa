"""URL-parameter image processing: every key of the spec's table with its value checks."""

from __future__ import annotations

import pytest

from delivery import rules
from delivery.rules import LinkError


def problems(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(p.field, p.code) for p in rules.check_image_params(pairs)]


VALID = [
    ("sq", "200"), ("fw", "1"), ("fh", "10000"), ("fwfh", "300x200"), ("both", "1x1"),
    ("max", "640"), ("min", "320"), ("scale", "1"), ("scale", "99"), ("scale", "1000"),
    ("gifto", "true"), ("gifto", "false"), ("crop", "0x10a0a0"), ("rotate", "45"),
    ("rotate", "auto"), ("rotate", "90"), ("rotate", "180"), ("rotate", "270"),
    ("crop", "200x100a0a0"), ("crop", "10x10a5a7"), ("unsharp", "true"), ("compress", "true"),
    ("quality", "1"), ("quality", "99"), ("format", "jpg"), ("format", "png"),
    ("format", "webp"), ("gaussblur", "0x1"), ("gaussblur", "50x50"), ("progressive", "true"),
    ("canvas", "500x400a0a10"), ("border", "0x5"), ("border", "10x10"),
]
INVALID = [
    ("sq", "0", "image_number"), ("fw", "10001", "image_number"), ("fh", "abc", "image_number"),
    ("max", "-1", "image_number"), ("min", "1.5", "image_number"),
    ("scale", "0", "image_number"), ("scale", "1001", "image_number"),
    ("quality", "0", "image_number"), ("quality", "100", "image_number"),
    ("fwfh", "300", "image_size"), ("fwfh", "0x10", "image_size"), ("both", "3x", "image_size"),
    ("border", "0x0", "image_size"), ("border", "axb", "image_size"),
    ("crop", "100x100", "image_area"), ("crop", "10x10b0a0", "image_area"),
    ("crop", "10x10a-1a0", "image_area"), ("canvas", "10x10a1", "image_canvas"),
    ("gifto", "yes", "image_bool"), ("unsharp", "yes", "image_bool"),
    ("compress", "1", "image_bool"), ("progressive", "TRUE", "image_bool"),
    ("rotate", "0", "image_angle"), ("format", "gif", "image_choice"),
    ("gaussblur", "51x1", "image_blur"), ("gaussblur", "5x0", "image_blur"),
    ("gaussblur", "5", "image_blur"),
]


@pytest.mark.parametrize(("key", "value"), VALID)
def test_each_key_accepts_its_values(key: str, value: str) -> None:
    assert problems([(key, value)]) == []


@pytest.mark.parametrize(("key", "value", "code"), INVALID)
def test_each_key_refuses_bad_values_naming_the_key(key: str, value: str, code: str) -> None:
    assert problems([(key, value)]) == [(key, code)]


@pytest.mark.parametrize("colour", ["FFFFFF00", "000000ff", "12ab34CD"])
def test_colours_are_rrggbbaa_with_their_owner(colour: str) -> None:
    assert problems([("canvas", "10x10a0a0"), ("cvscolor", colour)]) == []
    assert problems([("border", "2x2"), ("brdcolor", colour)]) == []


@pytest.mark.parametrize("colour", ["FFFFFF", "#FFFFFF00", "GGGGGGGG", "FFFFFF0000"])
def test_bad_colours_are_refused(colour: str) -> None:
    assert problems([("border", "2x2"), ("brdcolor", colour)]) == [("brdcolor", "image_colour")]


def test_a_colour_needs_its_canvas_or_border() -> None:
    assert problems([("cvscolor", "FFFFFFFF")]) == [("cvscolor", "image_needs")]


def test_one_size_operation_at_most_and_no_key_twice() -> None:
    assert problems([("fw", "100"), ("fh", "100")]) == [("fh", "image_resizes")]
    assert problems([("format", "png"), ("format", "jpg")]) == [("format", "image_twice")]
    assert problems([("zoom", "2")]) == [("zoom", "image_key")]
    assert problems([]) == [("params", "image_empty")]


def test_parse_and_write_round_trip() -> None:
    pairs = rules.parse_image_params("/fw/300/format/webp/")
    assert pairs == [("fw", "300"), ("format", "webp")]
    assert rules.image_params_text(pairs) == "/fw/300/format/webp"
    assert rules.image_params_text([("border", "2x2"), ("brdcolor", "ff0000ff")]) == \
        "/border/2x2/brdcolor/FF0000FF"


def test_parse_refuses_a_key_without_value() -> None:
    with pytest.raises(LinkError) as caught:
        rules.parse_image_params("/fw/300/format")
    assert caught.value.problems[0].code == "image_odd"


def test_processed_image_url_uses_the_separator() -> None:
    url = rules.processed_image_url("http://cdn.example.com/a.jpg", "_", [("sq", "100")])
    assert url == "http://cdn.example.com/a.jpg_/sq/100"
