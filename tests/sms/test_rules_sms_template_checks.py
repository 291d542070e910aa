"""Template checks: one test per rule of the spec and DECISIONS, good and bad inputs."""

from dataclasses import replace

import pytest

from sms.rules import (
    FORBIDDEN_CHARACTERS,
    ILLEGAL_CONTENT_LENGTH,
    ILLEGAL_PARAMER,
    ILLEGAL_REPORT_TYPE,
    ILLEGAL_SIGNATURE,
    ILLEGAL_TITLE,
    MISSING_PARAMETER,
    NOT_A_VARIABLE,
    ONLY_VARIABLES,
    SIGNATURE_CHARACTERS,
    TOO_MANY_VARIABLES,
    UNSUBSCRIBE_MISSING,
    Severity,
    TemplateDraft,
    check_template,
    has_errors,
)

GOOD = TemplateDraft(
    title="验证码",
    temp_sign="落子時",
    content="您的验证码是{$var1}，5分钟内有效。",
    sign_location="bottom",
    type="industry",
    report_type="vip",
)
MARKETING = replace(GOOD, type="marketing", content="周末全场八折，详询门店。退订回T")


def codes(draft: TemplateDraft) -> list[tuple[str, str]]:
    return [(problem.field, problem.code) for problem in check_template(draft)]


def test_it_accepts_a_good_industry_template():
    assert check_template(GOOD) == []


@pytest.mark.parametrize("field", ["title", "temp_sign", "content", "sign_location", "type"])
@pytest.mark.parametrize("blank", ["", "   "])
def test_it_reports_an_empty_required_field_as_missing(field, blank):
    assert codes(replace(GOOD, **{field: blank})) == [(field, MISSING_PARAMETER)]


def test_it_reports_an_empty_report_type_as_missing():
    assert codes(replace(GOOD, report_type="")) == [("report_type", MISSING_PARAMETER)]


def test_it_accepts_a_title_of_11_characters():
    assert check_template(replace(GOOD, title="t" * 11)) == []


def test_it_refuses_a_title_of_12_characters():
    problems = check_template(replace(GOOD, title="标" * 12))
    assert [(p.field, p.code) for p in problems] == [("title", ILLEGAL_TITLE)]
    assert problems[0].params == {"limit": 12, "length": 12}
    assert "fewer than 12" in problems[0].message
    assert problems[0].severity is Severity.ERROR


@pytest.mark.parametrize("sign", ["abc", "落子時", "Shop2024", "店铺A1"])
def test_it_accepts_a_signature_of_3_to_8_letters_and_digits(sign):
    assert check_template(replace(GOOD, temp_sign=sign)) == []


@pytest.mark.parametrize("sign", ["ab", "落子", "abcdefghi", "一二三四五六七八九"])
def test_it_refuses_a_signature_outside_3_to_8_characters(sign):
    problems = check_template(replace(GOOD, temp_sign=sign))
    assert [(p.field, p.code) for p in problems] == [("temp_sign", ILLEGAL_SIGNATURE)]
    assert problems[0].params["length"] == len(sign)


@pytest.mark.parametrize(
    "sign", ["【落子時】", "[shop]", "(shop)", "<shop>", "shop!", "my shop", "店-铺"]
)
def test_it_refuses_brackets_spaces_and_symbols_in_a_signature(sign):
    assert ("temp_sign", SIGNATURE_CHARACTERS) in codes(replace(GOOD, temp_sign=sign))


def test_it_names_each_offending_signature_character_once():
    (problem,) = check_template(replace(GOOD, temp_sign="【a】【b】"))
    assert problem.params == {"characters": "【】"}


def test_it_reports_both_length_and_symbols_of_a_signature():
    assert codes(replace(GOOD, temp_sign="a!")) == [
        ("temp_sign", ILLEGAL_SIGNATURE),
        ("temp_sign", SIGNATURE_CHARACTERS),
    ]


@pytest.mark.parametrize("character", ["【", "】", "<", ">"])
def test_it_refuses_each_forbidden_character_in_the_content(character):
    problems = check_template(replace(GOOD, content=f"您好{character}欢迎"))
    assert [(p.field, p.code) for p in problems] == [("content", FORBIDDEN_CHARACTERS)]
    assert problems[0].params == {"characters": character}


@pytest.mark.parametrize("content", ["{$var1}", "{$var1}{$var2}", " {$var1} {$var2} "])
def test_it_refuses_content_made_only_of_variables(content):
    assert codes(replace(GOOD, content=content)) == [("content", ONLY_VARIABLES)]


def test_it_accepts_variables_with_fixed_text():
    assert check_template(replace(GOOD, content="{$var1}先生，您好")) == []


def test_it_accepts_the_four_variables_an_import_can_fill():
    content = "{$var1}{$var2}{$var3}{$var4}先生，您好"
    assert check_template(replace(GOOD, content=content)) == []


@pytest.mark.parametrize("placeholder", ["{$name}", "{$var}", "{$var0}", "{$ var1}", "{$VAR1}"])
def test_it_refuses_a_placeholder_that_is_not_a_variable(placeholder):
    problems = check_template(replace(GOOD, content=f"您好{placeholder}，欢迎光临"))
    assert [(p.field, p.code) for p in problems] == [("content", NOT_A_VARIABLE)]
    assert problems[0].params == {"placeholder": placeholder, "limit": 4}


def test_it_refuses_a_fifth_variable_that_no_import_column_can_fill():
    problems = check_template(replace(GOOD, content="{$var1}您好，订单{$var5}已发货"))
    assert [(p.field, p.code) for p in problems] == [("content", TOO_MANY_VARIABLES)]
    assert "{$var5}" in problems[0].message


@pytest.mark.parametrize("suffix", ["退订回T", "退订回TD", "退订回N"])
def test_it_accepts_a_marketing_template_ending_with_an_unsubscribe_wording(suffix):
    assert check_template(replace(MARKETING, content=f"周末全场八折。{suffix}")) == []


@pytest.mark.parametrize(
    "content",
    ["周末全场八折。", "退订回T 周末全场八折。", "周末全场八折。退订回T ", "周末全场八折。退订回t"],
)
def test_it_warns_when_a_marketing_template_lacks_the_unsubscribe_ending(content):
    problems = check_template(replace(MARKETING, content=content))
    assert [(p.field, p.code) for p in problems] == [("content", UNSUBSCRIBE_MISSING)]
    assert problems[0].severity is Severity.WARNING
    # A warning: the template can still be created.
    assert not has_errors(problems)


def test_it_does_not_ask_an_industry_template_for_an_unsubscribe_ending():
    assert check_template(replace(GOOD, content="您的订单已发货。")) == []


def test_it_accepts_signature_and_content_of_347_characters():
    draft = replace(GOOD, temp_sign="abc", content="好" * 344)
    assert check_template(draft) == []


def test_it_refuses_signature_and_content_of_348_characters():
    problems = check_template(replace(GOOD, temp_sign="abc", content="好" * 345))
    assert [(p.field, p.code) for p in problems] == [("content", ILLEGAL_CONTENT_LENGTH)]
    # Counted with the signature's brackets, as the live preview counts: 350 of at most 349.
    assert problems[0].params == {"limit": 349, "length": 350}
    assert has_errors(problems)


def test_it_refuses_an_unknown_sign_location():
    problems = check_template(replace(GOOD, sign_location="middle"))
    assert [(p.field, p.code) for p in problems] == [("sign_location", ILLEGAL_PARAMER)]
    assert problems[0].params["value"] == "middle"


def test_it_refuses_an_unknown_message_type():
    assert codes(replace(GOOD, type="notice")) == [("type", ILLEGAL_PARAMER)]


def test_it_refuses_an_unknown_report_type_with_the_provider_code():
    assert codes(replace(GOOD, report_type="VIP")) == [("report_type", ILLEGAL_REPORT_TYPE)]


def test_it_reports_every_problem_in_field_order():
    draft = TemplateDraft(
        title="标" * 20,
        temp_sign="x",
        content="{$var1}",
        sign_location="left",
        type="other",
        report_type="other",
    )
    assert [p.field for p in check_template(draft)] == [
        "title",
        "temp_sign",
        "content",
        "sign_location",
        "type",
        "report_type",
    ]


def test_every_problem_carries_its_own_english_message():
    draft = replace(MARKETING, title="标" * 20, temp_sign="【x】", content="<b>{$var1}")
    problems = check_template(draft)
    assert [p.code for p in problems] == [
        ILLEGAL_TITLE,
        SIGNATURE_CHARACTERS,
        FORBIDDEN_CHARACTERS,
        UNSUBSCRIBE_MISSING,
    ]
    messages = [problem.message for problem in problems]
    assert all(messages)
    assert len(set(messages)) == len(messages)
