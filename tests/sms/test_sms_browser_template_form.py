"""In a real browser: the template form's live check speaks only about what the person has
touched, never about the read-only fields of an edit, and never repeats the server's errors."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def live_problem_texts(page) -> list[str]:
    return [text for text in page.locator(".live-problems p").all_inner_texts() if text]


def wait_for_check(page) -> None:
    # The check runs 250 ms after the last keystroke; its answer fills the preview.
    page.wait_for_timeout(600)
    page.wait_for_load_state("networkidle")


def test_an_empty_new_form_shows_no_error_until_a_field_is_touched(
        page, live_server, staff_login):
    staff_login("templates", groups=("SMS operators",))
    page.goto(f"{live_server.url}/sms/templates/new/")
    wait_for_check(page)
    assert live_problem_texts(page) == []

    page.fill("#id_title", "x")
    page.fill("#id_title", "")
    wait_for_check(page)
    assert live_problem_texts(page) == ["The title is required."]


def test_the_edit_page_does_not_call_its_read_only_fields_missing(
        page, live_server, staff_login, sms_template):
    template = sms_template()
    staff_login("templates", groups=("SMS operators",))
    page.goto(f"{live_server.url}/sms/templates/{template.pk}/edit/")
    page.fill("#id_content", "您的验证码是{$var1}，10分钟内有效。")
    wait_for_check(page)
    assert live_problem_texts(page) == []
    assert page.locator("#preview-problems p").all_inner_texts() == []


def test_after_a_refused_submit_each_error_is_shown_once(page, live_server, staff_login):
    staff_login("templates", groups=("SMS operators",))
    page.goto(f"{live_server.url}/sms/templates/new/")
    page.fill("#id_title", "验证码")
    page.fill("#id_temp_sign", "示例商城")
    page.fill("#id_content", "{$name}您好")
    page.click("#save-template")
    page.wait_for_load_state("networkidle")
    wait_for_check(page)

    shown = page.locator('.field[data-field="content"]').inner_text()
    assert shown.count("{$name} is not a variable") == 1


def test_a_new_marketing_template_says_it_always_skips_the_suppression_list(
        page, live_server, staff_login):
    staff_login("templates", groups=("SMS operators",))
    page.goto(f"{live_server.url}/sms/templates/new/")
    page.select_option("#id_type", "industry")
    assert page.is_visible("#id_respect_suppression")
    assert not page.is_visible("#suppression-always")

    page.select_option("#id_type", "marketing")
    assert not page.is_visible("#id_respect_suppression")
    assert page.inner_text("#suppression-always") == (
        "A marketing template always skips numbers on the suppression list.")
