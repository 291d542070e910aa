"""Variables `{$varN}`: extraction, rendering, the delivered text and message previews."""

import pytest

from sms.rules import (
    MISSING_VARIABLE,
    VARIABLE_SEPARATOR,
    check_variable_values,
    delivered_text,
    extract_variables,
    preview_message,
    render_content,
    variable_count,
)


def test_it_extracts_variables_once_each_by_number():
    content = "{$var2}，您好，{$var1}于{$var2}下单"
    assert extract_variables(content) == ["var1", "var2"]


def test_it_orders_variables_by_number_not_by_ten_as_text():
    assert extract_variables("{$var10}{$var2}{$var1}") == ["var1", "var2", "var10"]


def test_it_finds_no_variables_in_plain_text():
    assert extract_variables("您的订单已发货") == []
    assert variable_count("您的订单已发货") == 0


@pytest.mark.parametrize("text", ["{$var0}", "{$var01}", "{$VAR1}", "{var1}", "{$var1", "$var1"])
def test_it_does_not_take_lookalikes_for_variables(text):
    assert extract_variables(f"您好{text}") == []


def test_it_counts_the_values_needed_up_to_the_highest_variable():
    assert variable_count("{$var1}和{$var3}") == 3


def test_it_fills_each_variable_with_the_value_of_its_number():
    rendering = render_content("{$var2}，您的验证码是{$var1}", ["123456", "张三"])
    assert rendering.text == "张三，您的验证码是123456"
    assert rendering.complete


def test_it_fills_every_occurrence_of_a_variable():
    assert render_content("{$var1}-{$var1}", ["a"]).text == "a-a"


def test_it_does_not_expand_a_value_that_looks_like_a_variable():
    assert render_content("{$var1}/{$var2}", ["{$var2}", "x"]).text == "{$var2}/x"


def test_it_keeps_links_and_symbols_of_values_verbatim():
    value = "https://example.com/a?b=1&c=【2】"
    assert render_content("详情见{$var1}", [value]).text == f"详情见{value}"


def test_it_reports_variables_without_a_value_in_number_order():
    rendering = render_content("{$var3}{$var1}{$var2}好", ["a"])
    assert rendering.missing == ("var2", "var3")
    assert not rendering.complete
    assert rendering.text == "{$var3}a{$var2}好"


@pytest.mark.parametrize("empty", [None, ""])
def test_it_reports_an_empty_value_as_missing(empty):
    assert render_content("{$var1}先生", [empty]).missing == ("var1",)


def test_it_ignores_values_the_template_does_not_use():
    rendering = render_content("{$var1}先生", ["王", "extra", "", ""])
    assert rendering.text == "王先生"
    assert rendering.complete


def test_it_refuses_a_value_holding_the_vars_separator():
    problems = check_variable_values(["ok", "a|b"])
    assert [(p.code, p.params) for p in problems] == [(VARIABLE_SEPARATOR, {"variable": "var2"})]


def test_it_accepts_values_without_the_separator():
    assert check_variable_values(["a", "", None, "中文"]) == []


def test_it_puts_the_signature_at_the_bottom_as_the_public_docs_show():
    assert delivered_text("hello，hello", "落子時", "bottom") == "hello，hello【落子時】"


def test_it_puts_the_signature_at_the_top():
    assert delivered_text("hello", "落子時", "top") == "【落子時】hello"


def test_it_refuses_an_unknown_sign_location_when_building_the_text():
    with pytest.raises(ValueError, match="sign_location"):
        delivered_text("hello", "落子時", "left")


def test_a_preview_shows_the_delivered_text_length_and_units():
    preview = preview_message("{$var1}，您好", "落子時", "top", ["张三"])
    assert preview.text == "【落子時】张三，您好"
    assert preview.billed_length == 10
    assert preview.units == 1
    assert preview.ok
    assert preview.problems == ()


def test_a_preview_names_each_missing_variable_and_builds_nothing():
    preview = preview_message("{$var1}和{$var2}", "落子時", "top", ["张三"])
    assert preview.text is None
    assert preview.units is None
    assert [(p.field, p.code) for p in preview.problems] == [("var2", MISSING_VARIABLE)]
    assert not preview.ok


def test_a_preview_refuses_a_value_holding_the_separator():
    preview = preview_message("{$var1}好", "落子時", "top", ["a|b"])
    assert [p.code for p in preview.problems] == [VARIABLE_SEPARATOR]
    assert not preview.ok
