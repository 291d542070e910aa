"""The suppression list pages: add one number (bad input named), search by prefix and reason,
export with the formula guard, remove with an audit record, and the template marking."""

from __future__ import annotations

import pytest
from django.urls import reverse

from backoffice.models import AuditEntry
from sms.models import SuppressedNumber
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db


def add(client, mobile: str, reason: str = "unsubscribed", note: str = ""):
    return client.post(
        reverse("sms:suppression_add"), {"mobile": mobile, "reason": reason, "note": note}
    )


def test_staff_add_a_number_in_any_accepted_form_and_it_is_listed_with_who_and_why(
    operator_client, operator
):
    response = add(operator_client, "+86 138 0013 8000", "complaint", "投诉")

    assert response.status_code == 302
    entry = SuppressedNumber.objects.get()
    assert (entry.mobile, entry.reason, entry.note, entry.created_by) == (
        "13800138000", "complaint", "投诉", operator
    )
    page = operator_client.get(reverse("sms:suppression")).content.decode()
    assert 'data-mobile="13800138000"' in page and "Complaint" in page and "operator" in page
    assert AuditEntry.objects.filter(app="sms", action="suppression.add").count() == 1


@pytest.mark.parametrize(
    ("mobile", "reason", "field", "words"),
    [
        ("12345", "manual", "mobile", "does not have 11 digits"),
        ("1380013800a", "manual", "mobile", "only the digits 0-9"),
        ("13800138000", "whatever", "reason", "Select a valid choice"),
    ],
)
def test_a_bad_number_or_reason_is_refused_naming_the_field(
    operator_client, mobile, reason, field, words
):
    response = add(operator_client, mobile, reason)

    assert response.status_code == 200
    assert words in " ".join(response.context["form"].errors[field])
    assert not SuppressedNumber.objects.exists()


def test_a_number_already_on_the_list_is_refused_saying_since_when(operator_client):
    add(operator_client, "13800138000", "complaint")

    response = add(operator_client, "13800138000", "manual")

    assert "already on the suppression list (Complaint" in response.context["form"].errors[
        "mobile"
    ][0]
    assert SuppressedNumber.objects.get().reason == "complaint"


def test_search_finds_numbers_by_their_first_digits_and_reason(operator_client):
    for mobile, reason in [("13800138000", "complaint"), ("13800139999", "manual"),
                           ("15900000000", "complaint")]:
        SuppressedNumber.objects.create(mobile=mobile, reason=reason)

    def found(query: str) -> set[str]:
        response = operator_client.get(reverse("sms:suppression") + query)
        return {entry.mobile for entry in response.context["page"].object_list}

    assert found("?number=138") == {"13800138000", "13800139999"}
    assert found("?number=%2B86138&reason=complaint") == {"13800138000"}
    assert found("?reason=complaint") == {"13800138000", "15900000000"}


def test_a_search_with_letters_is_refused_and_shows_the_whole_list(operator_client):
    SuppressedNumber.objects.create(mobile="13800138000", reason="manual")

    response = operator_client.get(reverse("sms:suppression") + "?number=abc")

    assert "digits only" in response.context["form"].errors["number"][0]
    assert 'id="filter-errors"' in response.content.decode()
    assert len(response.context["page"].object_list) == 1


def test_an_export_with_a_bad_search_answers_the_list_with_the_error_not_the_whole_list(
    operator_client,
):
    SuppressedNumber.objects.create(mobile="13800138000", reason="manual")

    response = operator_client.get(reverse("sms:suppression_csv") + "?number=abc")

    assert response["Content-Type"].startswith("text/html")
    assert "digits only" in response.context["form"].errors["number"][0]


def test_the_export_holds_the_search_and_guards_formulas(operator_client):
    SuppressedNumber.objects.create(mobile="13800138000", reason="complaint", note="=HYPERLINK(1)")
    SuppressedNumber.objects.create(mobile="15900000000", reason="manual")

    response = operator_client.get(reverse("sms:suppression_csv") + "?number=138")
    body = b"".join(response.streaming_content).decode()

    lines = body.lstrip("\ufeff").splitlines()
    assert lines[0] == "Mobile,Reason,Note,Added at,Added by"
    assert len(lines) == 2 and lines[1].startswith("13800138000,Complaint,'=HYPERLINK(1),")


def test_removing_a_number_asks_first_then_is_recorded_with_what_the_entry_said(
    operator_client, operator
):
    entry = SuppressedNumber.objects.create(
        mobile="13800138000", reason="complaint", note="回复TD", created_by=operator
    )
    url = reverse("sms:suppression_remove", args=[entry.pk])

    question = operator_client.get(url).content.decode()
    assert "Remove 13800138000 from the suppression list?" in question
    assert "On the list since" in question and "回复TD" in question
    operator_client.post(url)  # a plain post (an old form, a replay) only asks again
    assert SuppressedNumber.objects.exists()

    operator_client.post(url, {"confirmed": "1"})

    assert not SuppressedNumber.objects.exists()
    record = AuditEntry.objects.get(app="sms", action="suppression.remove")
    assert record.actor == operator and record.object_id == "13800138000"
    assert "complaint" in record.summary and "回复TD" in record.summary


def test_removing_a_number_twice_says_it_is_gone(operator_client):
    entry = SuppressedNumber.objects.create(mobile="13800138000", reason="manual")
    url = reverse("sms:suppression_remove", args=[entry.pk])
    operator_client.post(url, {"confirmed": "1"})

    assert operator_client.post(url, {"confirmed": "1"}).status_code == 404


def test_only_an_industry_template_can_be_marked_to_respect_the_list(operator_client):
    industry = local_template(1, type="industry")
    marketing = local_template(2, type="marketing", content="周末8折。退订回T")
    assert marketing.respects_suppression and not industry.respects_suppression

    operator_client.post(
        reverse("sms:template_respect_suppression", args=[industry.pk]),
        {"respect_suppression": "on"},
    )
    refused = operator_client.post(
        reverse("sms:template_respect_suppression", args=[marketing.pk]), follow=True
    )

    industry.refresh_from_db()
    assert industry.respects_suppression
    assert "Only an industry template" in refused.content.decode()
    operator_client.post(reverse("sms:template_respect_suppression", args=[industry.pk]))
    industry.refresh_from_db()
    assert not industry.respects_suppression


def test_the_list_and_a_suppressed_line_read_in_chinese(operator_client):
    SuppressedNumber.objects.create(mobile="13800138000", reason="complaint")

    page = operator_client.get(
        reverse("sms:suppression"), HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    refused = operator_client.post(
        reverse("sms:suppression_add"),
        {"mobile": "13800138000", "reason": "manual"},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    ).content.decode()

    assert "屏蔽名单" in page and "投诉" in page and "添加号码" in page
    assert "13800138000 已在屏蔽名单中（投诉" in refused


def test_the_sms_home_counts_the_list(operator_client):
    SuppressedNumber.objects.create(mobile="13800138000", reason="manual")
    SuppressedNumber.objects.create(mobile="13900139000", reason="complaint")

    home = operator_client.get(reverse("sms:index")).content.decode()

    assert "2 numbers that receive no marketing message" in home
