"""Every x-gmkerl-* header of the spec's table: accepted values and named refusals."""

import pytest

from storage.rules import RuleViolation, check_gmkerl, gmkerl_header, gmkerl_headers


def single_problem(options):
    problems = check_gmkerl(options)
    assert len(problems) == 1, problems
    return problems[0]


GOOD = [
    ("x-gmkerl-extract-color-count", "256"),
    ("x-gmkerl-extract-format", "hex"),
    ("x-gmkerl-thumbnail", "small_v2"),
    ("x-gmkerl-quality", "1"),
    ("x-gmkerl-quality", "100"),
    ("x-gmkerl-unsharp", "false"),
    ("x-gmkerl-rotate", "auto"),
    ("x-gmkerl-rotate", "90"),
    ("x-gmkerl-rotate", "360"),
    ("x-gmkerl-rotate", "0.5"),
    ("x-gmkerl-crop", "200x100a0a20"),
    ("x-gmkerl-exif-switch", "true"),
    ("x-gmkerl-watermark-text", "hello%20%E4%BD%A0+world"),
    ("x-gmkerl-watermark-font", "simfang"),
    ("x-gmkerl-watermark-size", "32"),
    ("x-gmkerl-watermark-align", "middle,right"),
    ("x-gmkerl-watermark-margin", "0,20"),
    ("x-gmkerl-watermark-opacity", "0"),
    ("x-gmkerl-watermark-opacity", "100"),
    ("x-gmkerl-watermark-color", "#A0b1C2"),
    ("x-gmkerl-watermark-border", "#cccccccc"),
    ("x-gmkerl-thumb", "/fw/300"),
]


@pytest.mark.parametrize(("header", "value"), GOOD)
def test_it_accepts_documented_values(header, value):
    assert check_gmkerl({header: value}) == []


BAD = [
    ("x-gmkerl-extract-color-count", "0"),
    ("x-gmkerl-extract-format", "rgb"),
    ("x-gmkerl-thumbnail", "has space"),
    ("x-gmkerl-quality", "0"),
    ("x-gmkerl-quality", "101"),
    ("x-gmkerl-quality", "9.5"),
    ("x-gmkerl-unsharp", "yes"),
    ("x-gmkerl-rotate", "0"),
    ("x-gmkerl-rotate", "361"),
    ("x-gmkerl-rotate", "-90"),
    ("x-gmkerl-rotate", "left"),
    ("x-gmkerl-crop", "200x100"),
    ("x-gmkerl-crop", "0x100a0a0"),
    ("x-gmkerl-crop", "200x100a-1a0"),
    ("x-gmkerl-exif-switch", "1"),
    ("x-gmkerl-watermark-text", "hello world"),
    ("x-gmkerl-watermark-text", "100%"),
    ("x-gmkerl-watermark-text", "你好"),
    ("x-gmkerl-watermark-font", "arial"),
    ("x-gmkerl-watermark-size", "0"),
    ("x-gmkerl-watermark-size", "-3"),
    ("x-gmkerl-watermark-align", "left,top"),
    ("x-gmkerl-watermark-align", "top"),
    ("x-gmkerl-watermark-margin", "20"),
    ("x-gmkerl-watermark-margin", "20,-1"),
    ("x-gmkerl-watermark-opacity", "101"),
    ("x-gmkerl-watermark-color", "000000"),
    ("x-gmkerl-watermark-color", "#00000"),
    ("x-gmkerl-watermark-color", "#GG0000"),
    ("x-gmkerl-watermark-border", "#cccccc"),
    ("x-gmkerl-watermark-border", "#ccccccccc"),
    ("x-gmkerl-thumb", ""),
]


@pytest.mark.parametrize(("header", "value"), BAD)
def test_it_rejects_bad_values_naming_the_header(header, value):
    problem = single_problem({header: value})
    assert (problem.field, problem.code) == (header, "invalid")
    assert problem.message.startswith(f"{header} must")
    assert repr(value) in problem.message


def test_it_explains_the_expected_format():
    problem = single_problem({"x-gmkerl-crop": "10x10"})
    assert "<w>x<h>a<x>a<y>" in problem.message
    problem = single_problem({"x-gmkerl-watermark-font": "arial"})
    assert "simsun, simhei, simkai, simli, simyou, simfang" in problem.message


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("fix_width_or_height", "480x576"),
        ("fix_both", "1x1"),
        ("fix_width", "100"),
        ("fix_height", "1"),
        ("fix_max", "2000"),
        ("fix_min", "50"),
        ("fix_scale", "1"),
        ("fix_scale", "1000"),
    ],
)
def test_it_accepts_each_type_with_its_value_shape(kind, value):
    assert check_gmkerl({"x-gmkerl-type": kind, "x-gmkerl-value": value}) == []


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("fix_both", "480"),
        ("fix_width_or_height", "0x10"),
        ("fix_width", "100x100"),
        ("fix_max", "0"),
        ("fix_scale", "0"),
        ("fix_scale", "1001"),
        ("fix_min", "abc"),
    ],
)
def test_it_rejects_a_value_of_the_wrong_shape_for_its_type(kind, value):
    problem = single_problem({"x-gmkerl-type": kind, "x-gmkerl-value": value})
    assert (problem.field, problem.code) == ("x-gmkerl-value", "invalid")
    assert kind in problem.message


def test_it_rejects_an_unknown_type_once():
    problem = single_problem({"x-gmkerl-type": "fix_all", "x-gmkerl-value": "10"})
    assert (problem.field, problem.code) == ("x-gmkerl-type", "invalid")


def test_type_and_value_need_each_other():
    assert single_problem({"x-gmkerl-type": "fix_width"}).field == "x-gmkerl-value"
    assert single_problem({"x-gmkerl-value": "100"}).field == "x-gmkerl-type"


def test_it_rejects_unknown_headers():
    problem = single_problem({"x-gmkerl-sharpen": "true"})
    assert (problem.field, problem.code) == ("x-gmkerl-sharpen", "unknown_header")


def test_it_rejects_values_that_are_not_text_or_numbers():
    problem = single_problem({"quality": 9.5})
    assert (problem.field, problem.code) == ("x-gmkerl-quality", "type")


def test_it_reports_a_header_given_twice():
    problem = single_problem({"quality": 90, "X-Gmkerl-Quality": "80"})
    assert (problem.field, problem.code) == ("x-gmkerl-quality", "duplicate")


def test_it_reports_every_problem_at_once():
    problems = check_gmkerl({"quality": "0", "rotate": "400", "watermark-font": "x"})
    assert [problem.field for problem in problems] == [
        "x-gmkerl-quality",
        "x-gmkerl-rotate",
        "x-gmkerl-watermark-font",
    ]


def test_short_names_ints_and_bools_become_headers():
    assert gmkerl_header("Quality") == "x-gmkerl-quality"
    assert gmkerl_headers({"quality": 80, "exif-switch": True, "X-Gmkerl-Rotate": "auto"}) == {
        "x-gmkerl-quality": "80",
        "x-gmkerl-exif-switch": "true",
        "x-gmkerl-rotate": "auto",
    }


def test_gmkerl_headers_raises_on_problems():
    with pytest.raises(
        RuleViolation, match="x-gmkerl-quality must be a whole number from 1 to 100"
    ):
        gmkerl_headers({"quality": 0})
