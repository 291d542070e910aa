"""providerkit's JSON readers: a field of the promised type, or a ShapeError naming the field
and where it was read."""

from datetime import UTC, datetime

import pytest

from providerkit import json_readers as read
from providerkit.failures import ShapeError, UnusableAnswer
from providerkit.json_types import JSONObject


def test_it_reads_fields_of_the_promised_type():
    data: JSONObject = {
        "id": 7, "name": "a", "ok": True, "ratio": 2, "tags": ["x"], "owner": {"id": 1}}
    assert read.read_int(data, "id", "template") == 7
    assert read.read_str(data, "name", "template") == "a"
    assert read.read_bool(data, "ok", "template") is True
    assert read.read_float(data, "ratio", "template") == 2.0
    assert read.read_list(data, "tags", "template") == ["x"]
    assert read.read_object(data, "owner", "template") == {"id": 1}


@pytest.mark.parametrize(
    ("reader", "value"),
    [
        (read.read_int, "7"), (read.read_int, 7.5), (read.read_str, 7), (read.read_bool, 1),
        (read.read_float, "1.5"), (read.read_list, {}), (read.read_object, []),
    ],
)
def test_it_refuses_a_wrong_type_naming_the_field_and_where(reader, value):
    with pytest.raises(ShapeError, match=r"^template: field 'id' is \w+, not "):
        reader({"id": value}, "id", "template")


@pytest.mark.parametrize("reader", [read.read_int, read.read_float])
def test_a_bool_is_not_a_number(reader):
    with pytest.raises(ShapeError, match="'quantity' is bool"):
        reader({"quantity": True}, "quantity", "message")


def test_a_missing_and_a_null_field_are_told_apart():
    with pytest.raises(ShapeError, match="report: field 'total' is missing"):
        read.read_int({}, "total", "report")
    with pytest.raises(ShapeError, match="report: field 'total' is null"):
        read.read_int({"total": None}, "total", "report")


def test_optional_readers_read_missing_and_null_as_none_but_refuse_a_wrong_type():
    assert read.optional_str({}, "info", "answer") is None
    assert read.optional_int({"n": None}, "n", "answer") is None
    assert read.optional_object({"o": {}}, "o", "answer") == {}
    with pytest.raises(ShapeError, match="'info' is int, not str"):
        read.optional_str({"info": 5}, "info", "answer")


def test_timestamps_are_utc_and_one_without_offset_is_read_as_utc():
    data: JSONObject = {"at": "2024-05-01T10:00:00+08:00", "naive": "2024-05-01T10:00:00"}
    assert read.read_timestamp(data, "at", "m") == datetime(2024, 5, 1, 2, tzinfo=UTC)
    assert read.read_timestamp(data, "naive", "m") == datetime(2024, 5, 1, 10, tzinfo=UTC)
    assert read.optional_timestamp({}, "at", "m") is None
    with pytest.raises(ShapeError, match="'at' is not a timestamp"):
        read.read_timestamp({"at": "yesterday"}, "at", "m")


def test_a_whole_answer_of_the_wrong_kind_is_named():
    with pytest.raises(ShapeError, match="/seekOrder: is JSON list, not object"):
        read.as_object(["200"], "/seekOrder")
    with pytest.raises(ShapeError, match="is JSON object, not list"):
        read.as_list({}, "streams")


def test_a_shape_error_is_an_unusable_answer_and_keeps_its_detail():
    error = ShapeError("x: field 'y' is missing")
    assert isinstance(error, UnusableAnswer)
    assert error.detail == "x: field 'y' is missing" and error.status is None


def test_quoted_numbers_are_read_as_numbers_and_whole_ones_as_ints():
    data: JSONObject = {"width": "640.0", "fps": "29.97", "size": 12, "big": 2**70}
    assert read.read_whole_number(data, "width", "stream") == 640
    assert read.read_real_number(data, "fps", "stream") == 29.97
    assert read.read_whole_number(data, "size", "stream") == 12
    assert read.read_whole_number(data, "big", "stream") == 2**70  # exact, not via a float
    assert read.optional_whole_number({}, "width", "stream") is None
    assert read.as_real_number("1.5", "meta.points") == 1.5


@pytest.mark.parametrize(
    ("value", "problem"),
    [("fast", "is not a number"), (True, "is not a number"), ("inf", "is not a finite number"),
     (640.5, "is not a whole number"), ([1], "is not a number")],
)
def test_a_quoted_number_that_is_none_names_the_field(value, problem):
    with pytest.raises(ShapeError, match=f"stream: field 'width' {problem}"):
        read.read_whole_number({"width": value}, "width", "stream")
