"""Template pages: create and edit with the rules checked, delete, sync, filters, live check."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sms.models import Template
from tests.sms.conftest import DRAFTS

pytestmark = pytest.mark.django_db


def form_data(**changes: str) -> dict[str, str]:
    return {**DRAFTS["code"], **changes}


def test_it_creates_a_template_at_the_provider_under_review(operator_client, provider):
    response = operator_client.post(reverse("sms:template_create"), form_data(), follow=True)

    template = Template.objects.get()
    assert template.status == "review"
    assert template.content == DRAFTS["code"]["content"]
    assert "under review" in response.content.decode()


def test_it_refuses_a_bad_template_naming_each_field_and_calls_nobody(operator_client, provider):
    response = operator_client.post(
        reverse("sms:template_create"),
        form_data(
            title="这个标题实在是太长了超过十二", temp_sign="【签名】", content="<b>{$var1}</b>"
        ),
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert "The title must be fewer than 12 characters" in page
    assert "without brackets" in page
    assert "must not use the characters" in page
    assert not Template.objects.exists()
    from sms.services import sms_client

    assert sms_client().list_templates() == []


def test_a_missing_field_is_listed_together_with_the_other_fields_problems(
    operator_client, provider
):
    response = operator_client.post(
        reverse("sms:template_create"),
        form_data(title="", temp_sign="【签名】", content="<b>{$var1}</b>"),
    )

    errors = response.context["form"].errors
    assert errors["title"] == ["This field is required."]  # once, not again by the rules
    assert "without brackets" in " ".join(errors["temp_sign"])
    assert "must not use the characters" in " ".join(errors["content"])
    assert not Template.objects.exists()


def test_it_warns_about_a_marketing_template_without_unsubscribe_wording(operator_client, provider):
    response = operator_client.post(
        reverse("sms:template_check"),
        form_data(type="marketing", content="周末全场8折，欢迎光临。"),
    )

    problems = response.json()["problems"]
    assert [p["severity"] for p in problems] == ["warning"]
    assert "退订回T" in problems[0]["text"]


def test_a_marketing_template_without_unsubscribe_wording_is_refused_unless_accepted(
    operator_client, provider
):
    data = form_data(type="marketing", content="周末全场8折，欢迎光临。")
    refused = operator_client.post(reverse("sms:template_create"), data)

    assert refused.status_code == 200 and not Template.objects.exists()
    assert "退订回T" in refused.context["form"].errors["accept_failing"][0]

    operator_client.post(reverse("sms:template_create"), {**data, "accept_failing": "on"})
    assert Template.objects.get().type == "marketing"


def test_a_placeholder_that_is_not_a_variable_gets_the_contents_own_error_in_chinese(
    operator_client, provider
):
    response = operator_client.post(
        reverse("sms:template_create"),
        form_data(content="{$name}您好，订单{$var5}已发货。"),
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )

    errors = response.context["form"].errors["content"]
    assert len(errors) == 2
    assert "{$name}" in errors[0] and "{$var1}" in errors[0] and "variable" not in errors[0]
    assert "{$var5}" in errors[1]
    assert not Template.objects.exists()


def test_the_title_and_signature_inputs_stop_at_the_specs_limits(operator_client):
    page = operator_client.get(reverse("sms:template_create")).content.decode()

    assert 'name="title" maxlength="11"' in page
    assert 'name="temp_sign" maxlength="8"' in page


def test_the_live_check_previews_the_final_text_with_signature_and_units(operator_client):
    response = operator_client.post(
        reverse("sms:template_check"), {**form_data(), "sample1": "123456"}
    )

    preview = response.json()["preview"]
    assert preview["text"] == "【示例商城】您的验证码是123456，5分钟内有效。"
    assert preview["units"] == 1
    assert preview["length"] == len(preview["text"])


def test_editing_resubmits_the_template_for_review(operator_client, sms_template, provider):
    template = sms_template()
    assert template.status == "success"

    operator_client.post(
        reverse("sms:template_edit", args=[template.pk]),
        form_data(content="您的验证码是{$var1}，10分钟内有效。"),
    )

    template.refresh_from_db()
    assert template.status == "review"
    assert template.content == "您的验证码是{$var1}，10分钟内有效。"


def test_deleting_removes_it_at_the_provider_and_keeps_the_row(operator_client, sms_template):
    template = sms_template()

    operator_client.post(reverse("sms:template_delete", args=[template.pk]), {"confirmed": "1"})

    template.refresh_from_db()
    assert template.removed_at is not None
    from sms.services import sms_client

    assert template.provider_id not in [t.id for t in sms_client().list_templates()]


def test_sync_brings_the_review_outcome_and_marks_vanished_templates(
    operator_client, sms_template, provider
):
    approved = sms_template()
    rejected = sms_template("order", status=None)
    provider.control("POST", f"/sms/templates/{rejected.provider_id}/review", {"status": "defeat"})
    Template.objects.filter(pk=approved.pk).update(status="review")
    ghost = Template.objects.create(
        provider_id=999_999,
        title="gone",
        temp_sign="示例商城",
        content="x",
        sign_location="top",
        type="industry",
        report_type="general",
        status="success",
        provider_updated_at=approved.provider_updated_at,
    )

    operator_client.post(reverse("sms:template_sync"))

    approved.refresh_from_db()
    rejected.refresh_from_db()
    ghost.refresh_from_db()
    assert approved.status == "success"
    assert rejected.status == "defeat"
    assert ghost.removed_at is not None


def test_the_list_filters_and_shows_why_a_send_would_be_refused(operator_client, sms_template):
    sms_template()
    under_review = sms_template("order", status=None)

    page = operator_client.get(reverse("sms:templates")).content.decode()
    assert "TEMPLATE_AUDITING" in page
    assert under_review.title in page

    filtered = operator_client.get(reverse("sms:templates"), {"status": "success"})
    assert under_review.title not in filtered.content.decode()
    assert "验证码" in filtered.content.decode()


def test_the_live_check_says_unit_or_units_by_the_count(operator_client):
    one = operator_client.post(reverse("sms:template_check"), form_data()).json()
    long_content = "您的验证码是{$var1}，" + "请勿泄露" * 20
    two = operator_client.post(
        reverse("sms:template_check"), {**form_data(content=long_content), "sample1": "1234"}
    ).json()

    assert one["preview"]["summary"].endswith(": 1 unit per message.")
    assert two["preview"]["summary"].endswith(": 2 units per message.")
