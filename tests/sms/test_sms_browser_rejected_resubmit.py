"""In a real browser: a rejected template saved again without a change really goes back to
review at the provider (an empty PATCH), and the page says it was resubmitted unchanged; an
approved template saved without a change is left alone, and the page says so."""

from __future__ import annotations

import pytest

from sms.models import Template

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RESUBMITTED = {
    "en": "resubmitted for review unchanged",
    "zh-hans": "已原样重新提交审核",
}
UNCHANGED = {
    "en": "Nothing was changed",
    "zh-hans": "没有任何更改",
}


def provider_status(template: Template) -> str:
    from sms.services import sms_client

    return next(t.status for t in sms_client().list_templates() if t.id == template.provider_id)


def signed_in_in(page, staff_login, language: str) -> None:
    staff_login("templates", groups=("SMS operators",))
    if language != "en":
        with page.expect_navigation():
            page.select_option("#language-select", language)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_rejected_template_saved_unchanged_leaves_defeat_for_review(
        page, live_server, staff_login, sms_template, language):
    rejected = sms_template(status="defeat")
    assert provider_status(rejected) == "defeat"
    signed_in_in(page, staff_login, language)
    page.goto(f"{live_server.url}/sms/templates/{rejected.pk}/edit/")
    with page.expect_navigation():
        page.click("#save-template")

    assert RESUBMITTED[language] in page.locator(".messages").inner_text()
    assert provider_status(rejected) == "review"  # the provider took it back to review
    rejected.refresh_from_db()
    assert rejected.status == "review"


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_an_approved_template_saved_unchanged_is_not_sent_for_review(
        page, live_server, staff_login, sms_template, language):
    approved = sms_template()
    signed_in_in(page, staff_login, language)
    page.goto(f"{live_server.url}/sms/templates/{approved.pk}/edit/")
    with page.expect_navigation():
        page.click("#save-template")

    assert UNCHANGED[language] in page.locator(".messages").inner_text()
    assert provider_status(approved) == "success"
    approved.refresh_from_db()
    assert approved.status == "success"
