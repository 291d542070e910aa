"""Every provider error code reaches staff as a clear message, and loses nothing stored.

Codes the sandbox produces on its own are provoked for real (bad token, template under review
or rejected, deleted template, quota, template cap, daily limit); every code of the spec's
table is also injected with the sandbox's fault API, on a template page and on a send.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from sms import services
from sms.errors import ERRORS_BY_CODE
from sms.models import Campaign, CampaignState, Message, MessageStatus, Template
from sms.texts import PROVIDER_ERRORS, provider_error_text
from tests.sms.conftest import (
    DRAFTS,
    let_backoff_pass,
    let_grace_pass,
    provider_report,
    sandbox_settings,
    send_from_page,
)

pytestmark = pytest.mark.django_db

CODES = sorted(ERRORS_BY_CODE)


def test_every_code_of_the_spec_has_a_message():
    assert set(PROVIDER_ERRORS) == set(CODES)


def inject(sandbox, path: str, method: str, code: str) -> None:
    status = ERRORS_BY_CODE[code].http_status
    sandbox.add_fault(
        service="sms",
        path=path,
        method=method,
        action="status",
        status=status,
        body={"error_code": code, "message": f"injected {code}"},
        times=1,
    )


def page_text(response) -> str:
    return response.content.decode()


@pytest.mark.parametrize("code", CODES)
def test_a_refused_template_creation_shows_the_code_and_stores_nothing(
    operator_client, provider, code
):
    inject(provider, "^/api/templates$", "POST", code)

    response = operator_client.post(reverse("sms:template_create"), DRAFTS["code"])

    assert response.status_code == 200
    assert provider_error_text(code, f"injected {code}") in page_text(response).replace(
        "&#x27;", "'"
    )
    assert not Template.objects.exists()


@pytest.mark.parametrize("code", CODES)
def test_a_refused_send_is_reported_and_loses_no_number(
    operator_client, provider, sms_template, code
):
    template = sms_template()
    inject(provider, "^/api/messages$", "POST", code)

    response = send_from_page(
        operator_client,
        {"template": template.pk, "recipients": "13800138000\n13900139000", "var1": "123456"},
        follow=True,
    )

    campaign = Campaign.objects.get()
    statuses = set(campaign.messages.values_list("status", flat=True))
    if (ERRORS_BY_CODE[code].http_status or 0) >= 500:
        # Uncertain: the numbers wait for the next run, which first asks the report.
        assert campaign.state == CampaignState.SENDING
        assert statuses == {MessageStatus.SUBMITTING}
        assert "injected" in campaign.halt_detail
        # After its backoff, and once the provider could have finished the call.
        let_grace_pass(campaign)
        let_backoff_pass(campaign)
        services.run_campaign(campaign.pk)
        campaign.refresh_from_db()
        assert campaign.state == CampaignState.DONE
        assert sorted(r["mobile"] for r in provider_report(provider)) == [
            "13800138000",
            "13900139000",
        ]
    elif code == "TOO_MANY_REQUESTS":
        # Not taken, and certain: the same call goes again after the pause, in the same run.
        assert campaign.state == CampaignState.DONE
        assert statuses == {MessageStatus.PROCESSING}
        assert sorted(r["mobile"] for r in provider_report(provider)) == [
            "13800138000",
            "13900139000",
        ]
    else:
        assert campaign.state == CampaignState.HALTED
        assert campaign.halt_code == code
        assert statuses == {MessageStatus.QUEUED}
        assert provider_error_text(code, f"injected {code}") in page_text(response).replace(
            "&#x27;", "'"
        )


def test_a_wrong_token_is_named_on_the_page(operator_client, provider, settings):
    settings.PROVIDER = {**settings.PROVIDER, "sms": {**settings.PROVIDER["sms"], "token": "wrong"}}

    response = operator_client.post(reverse("sms:template_sync"), follow=True)

    assert "SMS_TOKEN" in page_text(response)


@pytest.mark.parametrize(
    ("review", "code"), [(None, "TEMPLATE_AUDITING"), ("defeat", "TEMPLATE_FAILED")]
)
def test_a_template_not_approved_halts_the_campaign(
    operator_client, provider, sms_template, review, code
):
    sandbox_settings(provider, auto_review=False)
    template = sms_template(status=review)
    # Staff may still try: our mirror says approved, the provider knows better.
    Template.objects.filter(pk=template.pk).update(status="success")

    send_from_page(
        operator_client, {"template": template.pk, "recipients": "13800138000", "var1": "1"}
    )

    campaign = Campaign.objects.get()
    assert (campaign.state, campaign.halt_code) == (CampaignState.HALTED, code)


def test_a_template_deleted_behind_our_back_gives_template_not_found(
    operator_client, provider, sms_template
):
    template = sms_template()
    services.sms_client().delete_template(template.provider_id)

    send_from_page(
        operator_client, {"template": template.pk, "recipients": "13800138000", "var1": "1"}
    )

    assert Campaign.objects.get().halt_code == "TEMPLATE_NOT_FOUND"


def test_an_exhausted_quota_halts_and_resumes_once_topped_up(
    operator_client, provider, sms_template
):
    template = sms_template()
    sandbox_settings(provider, general=1)
    services.refresh_quota()

    response = operator_client.post(
        reverse("sms:send"),
        {
            "template": template.pk,
            "recipients": "13800138000\n13900139000",
            "var1": "1",
            "preview": "1",
        },
    )
    assert "INSUFFICIENT_FUNDS" in page_text(response)  # warned before sending

    draft = re.findall(r'name="draft" value="(\d+)"', page_text(response))[0]
    operator_client.post(
        reverse("sms:send"),
        {
            "template": template.pk,
            "recipients": "13800138000\n13900139000",
            "var1": "1",
            "draft": draft,
            "send": "1",
        },
    )
    campaign = Campaign.objects.get()
    assert (campaign.state, campaign.halt_code) == (CampaignState.HALTED, "INSUFFICIENT_FUNDS")

    sandbox_settings(provider, general=1000)
    operator_client.post(reverse("sms:campaign_resume", args=[campaign.pk]))
    services.run_campaign(campaign.pk)
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.DONE
    assert campaign.accepted_count == 2


def test_the_template_cap_is_reported(operator_client, provider):
    client = services.sms_client()
    for number in range(40):
        client.create_template(
            title=f"t{number}",
            content=f"第{number}号通知，请查收。",
            temp_sign="示例商城",
            sign_location="top",
            type="industry",
            report_type="general",
        )

    response = operator_client.post(reverse("sms:template_create"), DRAFTS["code"])

    assert provider_error_text("TEMPLATE_LIMIT") in page_text(response)


def test_the_eleventh_industry_message_of_the_day_is_rejected_per_number(provider, sms_template):
    template = sms_template()
    client = services.sms_client()
    for _ in range(10):
        client.send(template.provider_id, ["13800138000"], ["1"])
    good = services.preview_recipients(template, "13800138000\n13900139000", ["2"]).good

    campaign = services.send_recipients(template, good)

    results = dict(campaign.messages.values_list("mobile", "error_code"))
    assert results == {"13800138000": "MOBILE_LIMIT", "13900139000": ""}
    assert campaign.rejected_count == 1
    assert Message.objects.get(mobile="13800138000").status == MessageStatus.REJECTED


def test_a_number_the_provider_refuses_is_recorded_with_its_code(provider, sms_template):
    template = sms_template()
    provider.add_fault(
        service="sms",
        path="^/api/messages$",
        method="POST",
        action="status",
        status=200,
        times=1,
        body={"message_ids": [{"error_code": "ILLEGAL_MOBILE", "mobile": "13800138000"}]},
    )
    good = services.preview_recipients(template, "13800138000", ["1"]).good

    campaign = services.send_recipients(template, good)

    message = campaign.messages.get()
    assert (message.status, message.error_code) == (MessageStatus.REJECTED, "ILLEGAL_MOBILE")
    assert campaign.state == CampaignState.DONE
